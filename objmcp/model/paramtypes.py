"""A parameter's type from everything a library says, when its code says little.

Most code is untyped. :func:`param_type` takes what the signature gives (a hint, or
none) and adds what else the library says: the type its docstring names
(:func:`doc_type`: ``int``, ``list of str``, ``str or None``, ``int, optional``), the
type of a plain default (``width=70`` is an integer), and ``X | None`` for a hint a
``None`` default does not fit. :func:`uncarried` says what a parameter needs that JSON
cannot carry (a callable, a file object, a class, a module): a tool that requires one
cannot be called by a model, and is left out (:class:`Uncarried`).
"""

from __future__ import annotations

import collections.abc
import inspect
import io
import re
import types
import typing
from typing import Any

from .._exceptions import TargetError
from .hints import is_union

__all__ = ["Uncarried", "doc_type", "param_type", "uncarried"]

_EMPTY: Any = inspect.Parameter.empty


def param_type(hint: object, doc_type_name: str | None, default: object) -> object:
    """The type of a parameter: its hint, else the type its docstring names, else its
    plain default's; made ``X | None`` when a ``None`` default does not fit ``X``."""
    if hint is _EMPTY and doc_type_name is not None:
        hint = doc_type(doc_type_name)
    return _with_default(hint, default)


_UNCARRIED_WORDS = re.compile(
    r"^(callable|function|file|file[- ]like(?: object)?|file object|stream|module|class|type)"
    r"(?:,\s*optional)?$",
    re.I,
)


class Uncarried(TargetError):
    """A callable no JSON arguments can call: it needs a Python object for a parameter."""


def uncarried(hint: object, doc_type_name: str | None) -> str | None:
    """What a parameter needs that JSON cannot carry (a callable, a file object, a class,
    a module), from its hint or its docstring's type, or None when JSON can carry it."""
    if is_union(hint):
        needs = {uncarried(arg, None) for arg in typing.get_args(hint) if arg is not type(None)}
        return needs.pop() if len(needs) == 1 and None not in needs else None
    origin = typing.get_origin(hint) or hint
    if origin is collections.abc.Callable or hint is typing.Callable:
        return "a callable"
    if origin is type:
        return "a class"
    if hint is types.ModuleType:
        return "a module"
    if isinstance(hint, type) and (issubclass(hint, io.IOBase) or hint in (typing.IO,)):
        return "a file object"
    if origin in (typing.IO, typing.TextIO, typing.BinaryIO):
        return "a file object"
    said = _UNCARRIED_WORDS.match(doc_type_name.strip()) if doc_type_name else None
    if said is None:
        return None
    word = said.group(1).lower()
    if word in ("callable", "function"):
        return "a callable"
    return (
        f"a {word}"
        if word in ("module", "class")
        else "a class"
        if word == "type"
        else "a file object"
    )


_IMPLIED = (bool, int, float, str)
"""The types a default implies for a parameter nothing else gives a type."""


def _with_default(hint: object, default: object) -> object:
    """The type of a parameter, given its default: the default's own type when nothing
    else said one (a plain ``bool``, ``int``, ``float`` or ``str``), and ``X | None``
    for a hint ``X`` that a ``None`` default does not fit."""
    if hint is _EMPTY:
        return type(default) if type(default) in _IMPLIED else hint
    if default is None and hint is not Any and not _admits_none(hint):
        return hint | None  # type: ignore[operator]
    return hint


def _admits_none(hint: object) -> bool:
    if hint is None or hint is type(None) or hint is object:
        return True
    return any(_admits_none(arg) for arg in typing.get_args(hint)) if is_union(hint) else False


_DOC_NAMES: dict[str, object] = {
    "str": str,
    "string": str,
    "int": int,
    "integer": int,
    "float": float,
    "number": float,
    "bool": bool,
    "boolean": bool,
    "list": list,
    "dict": dict,
    "mapping": dict,
    "tuple": tuple,
    "set": set,
    "bytes": bytes,
    "none": type(None),
    "any": Any,
}
_OF = re.compile(r"^(list|set|tuple|sequence|iterable)\s*(?:of\s+(.+?)|\[(.+)\])s?$", re.I)
_OPTIONAL = re.compile(r"^optional\s*\[(.+)\]$", re.I)


def doc_type(text: str) -> object:
    """The type a docstring names (``int``, ``list of str``, ``list[int]``, ``str or None``,
    ``Optional[int]``, ``int, optional``), or ``inspect.Parameter.empty`` when unknown."""
    text = text.strip().removesuffix(", optional").strip()
    optional = _OPTIONAL.match(text)
    if optional:
        inner = doc_type(optional.group(1))
        return _EMPTY if inner is _EMPTY else inner | None  # type: ignore[operator]
    options = [part.strip() for part in re.split(r"\s+or\s+|\s*\|\s*", text) if part.strip()]
    if len(options) > 1:
        members = [doc_type(option) for option in options]
        if any(member is _EMPTY for member in members):
            return _EMPTY
        return typing.Union[tuple(members)]  # noqa: UP007 - built from a runtime list
    container = _OF.match(text)
    if container:
        kind, *items = container.groups()
        item = doc_type(next(i for i in items if i))
        base = {"list": list, "set": set, "tuple": tuple}.get(kind.lower(), list)
        if item is _EMPTY:
            return base
        return tuple[item, ...] if base is tuple else base[item]  # type: ignore[index,valid-type]
    return _DOC_NAMES.get(text.lower(), _EMPTY)
