"""The call signature of any callable, C functions without one included.

:func:`signature_of` is :func:`inspect.signature` with a fallback for C callables
that carry no ``__text_signature__``: the signature their docstring's first line
writes (``hypot(*coordinates) -> value``). :data:`OMITTED` is the default of a
parameter that may be left out but whose default nobody knows.
"""

from __future__ import annotations

import ast
import inspect
import re
import typing
from collections.abc import Callable

__all__ = ["DOC_SIGNATURE", "OMITTED", "has_text_signature", "is_async", "signature_of"]

DOC_SIGNATURE = re.compile(r"^\s*[\w.]+\((?P<params>.*)\)\s*(->.*)?$")


def signature_of(function: Callable[..., object]) -> inspect.Signature:
    """The call signature of any callable, bound ``self`` already dropped.

    C functions without ``__text_signature__`` get theirs from the first line of
    their docstring (``hypot(*coordinates) -> value``); failing that, one
    optional array parameter ``args``.
    """
    try:
        return inspect.signature(function)
    except (TypeError, ValueError):
        pass
    parsed = _signature_from_doc(inspect.getdoc(function) or "")
    if parsed is not None:
        return parsed
    return inspect.Signature([inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)])


def _signature_from_doc(doc: str) -> inspect.Signature | None:
    first = doc.split("\n", 1)[0]
    match = DOC_SIGNATURE.match(first)
    if match is None:
        return None
    params: list[inspect.Parameter] = []
    kind: inspect._ParameterKind = inspect.Parameter.POSITIONAL_ONLY
    optional = False
    for raw in _split_params(match.group("params")):
        piece = raw.strip()
        if piece.startswith("["):
            optional = True
            piece = piece.strip("[] ")
        piece = piece.rstrip("] ")
        if not piece:
            continue
        if piece == "/":
            kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
            continue
        if piece == "*":
            kind = inspect.Parameter.KEYWORD_ONLY
            continue
        if piece == "...":
            continue
        name, _, default_text = piece.partition("=")
        name = name.strip()
        try:
            if name.startswith("**"):
                params.append(inspect.Parameter(name[2:], inspect.Parameter.VAR_KEYWORD))
                continue
            if name.startswith("*"):
                params.append(inspect.Parameter(name[1:], inspect.Parameter.VAR_POSITIONAL))
                kind = inspect.Parameter.KEYWORD_ONLY
                continue
            default: object = inspect.Parameter.empty
            if default_text:
                default = _literal(default_text.strip())
            elif optional:
                default = OMITTED
            params.append(inspect.Parameter(name, kind, default=default))
        except ValueError:
            return None
    try:
        return inspect.Signature(params)
    except ValueError:
        return None


def _split_params(text: str) -> list[str]:
    pieces: list[str] = []
    depth = 0
    current = ""
    for char in text:
        if char in "([{" and char != "[":
            depth += 1
        elif char in ")]}" and char != "]":
            depth -= 1
        if char == "," and depth == 0:
            pieces.append(current)
            current = ""
        else:
            current += char
    pieces.append(current)
    return pieces


def _literal(text: str) -> object:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return OMITTED


class _Omitted:
    """The default of a parameter that may be left out but whose default is unknown."""

    def __repr__(self) -> str:
        return "OMITTED"


OMITTED: typing.Final = _Omitted()


def has_text_signature(function: object) -> bool:
    """Whether ``function`` has a signature of its own (Python code, or a C callable
    with ``__text_signature__``), not one only its docstring writes."""
    return getattr(function, "__text_signature__", None) is not None or not (
        inspect.isbuiltin(function) or inspect.ismethoddescriptor(function)
    )


def is_async(function: object) -> bool:
    """Whether calling ``function`` gives a coroutine or an async iterator (through
    ``functools.partial`` and decorators that keep ``__wrapped__``)."""
    while True:
        if inspect.iscoroutinefunction(function) or inspect.isasyncgenfunction(function):
            return True
        inner = getattr(function, "func", None) or getattr(function, "__wrapped__", None)
        if inner is None or inner is function:
            return False
        function = inner
