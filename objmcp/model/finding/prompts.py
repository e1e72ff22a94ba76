"""Methods published as MCP prompts: a :class:`Prompt` has arguments (the method's
parameters; strings on the wire, converted to the parameters' types) and renders
to messages (:func:`render_messages`).

Completion (``completion/complete``) of an argument comes from its type when it
is an ``Enum`` or a ``Literal``, or from a function the author names.
"""

from __future__ import annotations

import enum
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._exceptions import ArgumentError, TargetError
from ..calling.injecting import injected_parameters
from ..describe import hints as t
from ..describe.annotations import type_hints_of
from ..describe.docs import read_docs
from ..describe.signatures import is_async, signature_of
from ..values.content import (
    DEFAULT_LIMITS,
    ResultLimits,
    TooBig,
    block_size,
    cut_note,
    value_result,
)
from ..values.convert import from_texts
from ..values.jsonable import Budget
from ..values.media import MEDIA
from .publish import PromptOptions

__all__ = ["Prompt", "complete_values", "make_prompt", "render_messages"]

MAX_COMPLETIONS = 100
"""At most this many completion values go in one answer (the spec's limit)."""


@dataclass(eq=False)
class Prompt:
    """One published prompt, and the method that renders it."""

    name: str
    function: Callable[..., object] = field(repr=False)
    title: str | None = None
    description: str | None = None
    arguments: tuple[dict[str, Any], ...] = ()
    hints: Mapping[str, object] = field(default_factory=dict, repr=False)
    completers: Mapping[str, Callable[[str], Sequence[str]]] = field(
        default_factory=dict, repr=False
    )
    is_async: bool = False
    injected: Mapping[str, object] = field(default_factory=dict, repr=False)
    """The parameters that ask for what the call can reach (``objmcp.Elicit``...)."""
    meta: Mapping[str, Any] = field(default_factory=dict)
    """Its ``_meta`` in ``prompts/list`` (``PromptOptions.meta``)."""

    def convert(self, given: object) -> dict[str, object]:
        """The method's keyword arguments for the prompt's string arguments; raises
        :class:`ArgumentError` naming what is missing, unknown or does not convert."""
        if given is None:
            given = {}
        if not isinstance(given, dict) or not all(isinstance(v, str) for v in given.values()):
            raise ArgumentError("Prompt arguments must be an object of strings")
        known = {argument["name"] for argument in self.arguments}
        unknown = sorted(set(given) - known)
        if unknown:
            raise ArgumentError(
                f"Unknown argument '{unknown[0]}' of prompt '{self.name}'; "
                f"the arguments are: {', '.join(sorted(known)) or 'none'}"
            )
        missing = [
            a["name"] for a in self.arguments if a.get("required") and a["name"] not in given
        ]
        if missing:
            raise ArgumentError(f"Missing required argument '{missing[0]}' of prompt '{self.name}'")
        return from_texts(given, self.hints, "argument")

    def listing(self) -> dict[str, Any]:
        """The ``Prompt`` object of ``prompts/list``."""
        entry: dict[str, Any] = {"name": self.name}
        if self.title is not None:
            entry["title"] = self.title
        if self.description:
            entry["description"] = self.description
        if self.arguments:
            entry["arguments"] = [dict(argument) for argument in self.arguments]
        if self.meta:
            entry["_meta"] = dict(self.meta)
        return entry


def make_prompt(member: str, function: Callable[..., object], options: PromptOptions) -> Prompt:
    """The :class:`Prompt` of a method."""
    signature = signature_of(function)
    hints = type_hints_of(function)
    docs = read_docs(function)
    injected = injected_parameters(signature, hints)
    arguments: list[dict[str, Any]] = []
    for name, param in signature.parameters.items():
        if name in injected:
            continue
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TargetError(f"prompt {member!r}: *args and **kwargs cannot be prompt arguments")
        argument: dict[str, Any] = {"name": name}
        if name in docs.params:
            argument["description"] = docs.params[name]
        argument["required"] = param.default is param.empty
        arguments.append(argument)
    completers = dict(options.complete or {})
    unknown = sorted(set(completers) - set(signature.parameters))
    if unknown:
        raise TargetError(f"prompt {member!r}: complete= names no argument {unknown[0]!r}")
    return Prompt(
        name=options.name or member,
        function=function,
        title=options.title,
        description=options.description or docs.description or None,
        arguments=tuple(arguments),
        hints={name: hints.get(name, str) for name in signature.parameters},
        completers=completers,
        is_async=is_async(function),
        injected=injected,
        meta=options.meta or {},
    )


def render_messages(
    value: object, limits: ResultLimits = DEFAULT_LIMITS, budget: Budget | None = None
) -> list[dict[str, Any]]:
    """The ``messages`` of ``prompts/get`` for what the method returned: a string is
    one user message; a list (or an iterator) holds strings (user messages),
    ``{"role", "content"}`` dicts, and media (each a user message of its own). Raises
    TypeError otherwise. Bounded as a tool's result is (``limits``): an iterator gives at
    most ``max_items`` messages (``budget``: what is left when some were read already),
    and a cut says so in a last user message; raises :class:`TooBig` beyond
    ``max_result`` characters."""
    budget = Budget(limits.max_items) if budget is None else budget
    if isinstance(value, Iterator):
        value = budget.take(value)
    items = value if isinstance(value, (list, tuple)) else [value]
    messages: list[dict[str, Any]] = []
    for index, item in enumerate(items):
        if isinstance(item, str):
            messages.append({"role": "user", "content": {"type": "text", "text": item}})
        elif isinstance(item, MEDIA):
            messages.append({"role": "user", "content": item.block()})
        elif isinstance(item, Mapping) and item.get("role") in ("user", "assistant"):
            content = item.get("content")
            if isinstance(content, str):
                content = {"type": "text", "text": content}
            elif isinstance(content, MEDIA):
                content = content.block()
            elif not (isinstance(content, Mapping) and isinstance(content.get("type"), str)):
                raise TypeError(f"message {index} has content {content!r}, not a content block")
            messages.append({"role": item["role"], "content": dict(content)})
        else:
            raise TypeError(
                f"a prompt gives a string or a list of messages; item {index} is "
                f"{value_result(item, limits).text[:80]!r}"
            )
    if budget.cut:
        note = cut_note(budget.limit)
        messages.append({"role": "user", "content": {"type": "text", "text": note}})
    size = sum(block_size(message["content"]) for message in messages)
    if size > limits.max_result:
        raise TooBig(size, limits, "The prompt's messages")
    return messages


def complete_values(prompt_or_hint: Prompt | object, argument: str, typed: str) -> list[str]:
    """The completions of what the user ``typed`` for ``argument``: from the prompt's
    completer for it, or from the argument's ``Enum``/``Literal`` type."""
    if isinstance(prompt_or_hint, Prompt):
        completer = prompt_or_hint.completers.get(argument)
        if completer is not None:
            return [str(value) for value in completer(typed)]
        hint = prompt_or_hint.hints.get(argument, str)
    else:
        hint = prompt_or_hint
    return [value for value in choices(hint) if value.startswith(typed)]


def choices(hint: object) -> list[str]:
    """The values an ``Enum`` or ``Literal`` type (optionally ``| None``) allows, as text."""
    kind = t.strip_qualifiers(t.annotated_parts(t.strip_qualifiers(hint))[0])
    if t.is_union(kind):
        members = [m for m in typing.get_args(kind) if m is not type(None)]
        return [value for member in members for value in choices(member)]
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return [str(member.value) for member in kind]
    if t.is_literal(kind):
        return [str(value) for value in typing.get_args(kind)]
    return []
