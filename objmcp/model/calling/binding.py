"""How a call's JSON arguments become the positional and keyword arguments of a tool's callable.

A :class:`Binder` is made once per tool from its :class:`Parameter` list and input schema:
it reads arguments sent as JSON text, checks them against the schema
(:mod:`objmcp.model.values.validate`), converts each by its parameter's hint
(:mod:`objmcp.model.values.convert`), gives the parameters objmcp fills in their values
(:mod:`objmcp.model.calling.injecting`), and places each argument by position or by keyword
as the signature wants.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..._exceptions import ArgumentError
from ..describe.keywords import spread
from ..describe.paramtypes import TypeSource
from ..describe.schema import JsonSchema
from ..describe.signatures import OMITTED
from ..values.convert import from_json
from ..values.mismatch import ConversionError
from ..values.validate import Validator, check_values
from .injecting import injected_value

__all__ = ["Binder", "Parameter", "binder_of"]

_EMPTY: Any = inspect.Parameter.empty
_MISSING: Any = object()


@dataclass(frozen=True)
class Parameter:
    """One parameter of a tool's callable, as the dispatcher needs it."""

    name: str
    hint: object
    kind: inspect._ParameterKind
    default: object = _EMPTY
    type_from: TypeSource | None = None
    """What gave ``hint`` (:data:`~objmcp.model.describe.paramtypes.TypeSource`), for a parameter of
    a built schema; None when nothing did, or the schema was written by hand."""


@dataclass(frozen=True, eq=False)
class Binder:
    """How the JSON arguments of a call to the tool called ``name`` become its callable's
    arguments (made by :func:`binder_of`)."""

    name: str
    """The tool's name, said in errors."""
    parameters: tuple[Parameter, ...]
    """The callable's parameters, in order."""
    injected: Mapping[str, object]
    """The parameters objmcp fills in, and the marker each asks for."""
    validator: Validator
    """The input schema's check."""
    reserved: frozenset[str]
    """The names a ``**kwargs`` key cannot take."""
    by_keyword: tuple[tuple[str, object, type | None], ...] | None
    """Each parameter's name, hint and kept JSON type, when all go by keyword."""
    takes: frozenset[str] | None
    """The argument names a hand-written input schema may let through."""
    spread: str | None
    """The name of the ``**NAME`` whose keyword arguments may come as one object."""

    def bind(
        self,
        arguments: object,
        injected: Mapping[object, object] | None,
        max_values: int,
    ) -> tuple[list[object], dict[str, object]]:
        """Positional and keyword arguments for the callable, from a call's JSON arguments
        (as :meth:`Tool.bind <objmcp.model.calling.tool.Tool.bind>` says)."""
        if arguments is None:
            arguments = {}
        if isinstance(arguments, (str, bytes)):  # as OpenAI's APIs hand them over
            check_values(arguments, max_values, f"arguments of tool '{self.name}'")
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except ValueError as error:
                raise ArgumentError(
                    f"Arguments of tool '{self.name}' are not valid JSON: {error}"
                ) from None
        if not isinstance(arguments, dict):
            raise ArgumentError(
                f"Arguments of tool '{self.name}' must be a JSON object, "
                f"not {type(arguments).__name__}"
            )
        if self.spread is not None:  # before the check: each key by the schema of **NAME
            arguments = spread(arguments, self.spread, self.reserved, self.name)
        arguments = self.validator.check(arguments, max_values)
        if self.takes is not None:
            unknown = [key for key in arguments if key not in self.takes]
            if unknown:
                listed = ", ".join(f"'{taken}'" for taken in sorted(self.takes)) or "none"
                raise ArgumentError(
                    f"Unknown argument '{unknown[0]}' of tool '{self.name}'; the arguments "
                    f"are: {listed}"
                )
        if self.by_keyword is not None:
            given: dict[str, object] = {}
            for name, hint, kept in self.by_keyword:
                if name in arguments:
                    item = arguments[name]
                    given[name] = item if type(item) is kept else _convert(item, hint, name)
            return [], given
        positional: list[object] = []
        keywords: dict[str, object] = {}
        waiting: list[tuple[Parameter, object]] = []  # parameters that may go positionally
        known = {p.name for p in self.parameters}
        for param in self.parameters:
            if param.name in self.injected:
                marker = self.injected[param.name]
                value: object = injected_value(marker, injected, self.name)
            elif param.kind is inspect.Parameter.VAR_KEYWORD:
                for key, item in arguments.items():
                    if key in self.reserved:
                        raise ArgumentError(
                            f"Invalid argument '{key}' of tool '{self.name}': this name "
                            "cannot be given (the tool has a parameter of that name that "
                            "is not the client's to fill)"
                        )
                    if key not in known:
                        keywords[key] = _convert(item, param.hint, key)
                continue
            elif param.name in arguments:
                value = _convert(arguments[param.name], param.hint, param.name)
            else:
                value = _MISSING
            if param.kind is inspect.Parameter.VAR_POSITIONAL:
                items = list(typing.cast(list[object], value)) if value is not _MISSING else []
                self._place(waiting, positional, keywords, everything=bool(items))
                positional.extend(items)
                waiting = []
            elif param.kind is inspect.Parameter.KEYWORD_ONLY:
                if value is not _MISSING:
                    keywords[param.name] = value
            else:
                waiting.append((param, value))
        self._place(waiting, positional, keywords, everything=False)
        return positional, keywords

    def _place(
        self,
        waiting: list[tuple[Parameter, object]],
        positional: list[object],
        keywords: dict[str, object],
        everything: bool,
    ) -> None:
        """Place parameters that may go by position: all of them by position when
        ``everything`` (``*args`` follows them), else positional-only ones by position
        (defaults filling the gaps) and the rest by keyword."""
        given = [
            index
            for index, (param, value) in enumerate(waiting)
            if value is not _MISSING and param.kind is inspect.Parameter.POSITIONAL_ONLY
        ]
        last = len(waiting) - 1 if everything else (given[-1] if given else -1)
        for index, (param, value) in enumerate(waiting):
            if index > last:
                if value is not _MISSING:
                    keywords[param.name] = value
            elif value is not _MISSING:
                positional.append(value)
            elif param.default is _EMPTY or param.default is OMITTED:
                raise ArgumentError(
                    f"Argument '{param.name}' of tool '{self.name}' must be given "
                    "too, since a later positional argument is"
                )
            else:
                positional.append(param.default)


def binder_of(
    name: str,
    input_schema: JsonSchema,
    parameters: tuple[Parameter, ...],
    injected: Mapping[str, object],
    function: object,
    *,
    lenient: bool,
    schema_given: bool,
) -> Binder:
    """The :class:`Binder` of the tool called ``name`` of ``function``, its ``parameters``
    (those in ``injected`` filled in by objmcp) checked by ``input_schema`` (``lenient``:
    see :class:`~objmcp.model.values.validate.Validator`; ``schema_given``: written by
    the author)."""
    return Binder(
        name,
        parameters,
        injected,
        Validator(input_schema, lenient=lenient),
        _names_kwargs_cannot_take(parameters, injected, function),
        _keyword_plan(parameters, injected),
        _names_taken(parameters, injected, schema_given),
        _keywords_name(parameters, injected, input_schema, schema_given),
    )


def _keyword_plan(
    parameters: tuple[Parameter, ...], injected: Mapping[str, object]
) -> tuple[tuple[str, object, type | None], ...] | None:
    """For a tool whose parameters all go by keyword and none is injected, each one's
    name, hint, and the JSON type its values keep as they are (None when converted).
    :meth:`Binder.bind` then needs no placing."""
    keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    if injected or any(p.kind not in keyword for p in parameters):
        return None
    kept = (int, str, bool, float)
    return tuple((p.name, p.hint, p.hint if p.hint in kept else None) for p in parameters)


def _names_taken(
    parameters: tuple[Parameter, ...], injected: Mapping[str, object], schema_given: bool
) -> frozenset[str] | None:
    """The argument names the callable takes, for a hand-written input schema when it
    has no ``**kwargs`` (else None: the schema alone says which names may come)."""
    if not schema_given:
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return frozenset(p.name for p in parameters if p.name not in injected)


def _keywords_name(
    parameters: tuple[Parameter, ...],
    injected: Mapping[str, object],
    input_schema: JsonSchema,
    schema_given: bool,
) -> str | None:
    """The name of the callable's ``**NAME``, whose keyword arguments may come as one
    object under that name (:mod:`objmcp.model.describe.keywords`); None without one, when
    objmcp fills it, or when a hand-written schema has a property of that name."""
    for p in parameters:
        if p.kind is inspect.Parameter.VAR_KEYWORD and p.name not in injected:
            given = input_schema.get("properties", {}) if schema_given else {}
            return None if p.name in given else p.name
    return None


def _names_kwargs_cannot_take(
    parameters: tuple[Parameter, ...], injected: Mapping[str, object], function: object
) -> frozenset[str]:
    """The names a ``**kwargs`` key cannot take: parameters objmcp fills in, and a bound
    method's own ``self`` (looked up only for tools that have ``**kwargs``)."""
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return frozenset()
    reserved = set(injected)
    bound = getattr(function, "__func__", None)
    if bound is not None and getattr(function, "__self__", None) is not None:
        with contextlib.suppress(TypeError, ValueError):
            reserved.update(list(inspect.signature(bound).parameters)[:1])
    return frozenset(reserved)


def _convert(value: object, hint: object, name: str) -> object:
    try:
        return from_json(value, hint, name)
    except ConversionError as error:
        raise ArgumentError(f"Invalid argument '{error.path}': {error.message}") from None
