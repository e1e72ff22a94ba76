"""A parameter's type from everything a library says, when its code says little.

Most code is untyped. :func:`param_type` takes what the signature gives (a hint, or
none) and adds what else the library says: the type its docstring names
(:func:`doc_type`: ``int``, ``list of str``, ``str or None``, ``int, optional``), the
type a stub file gives it, the kind its description's leading phrase names
(:mod:`objmcp.model.describe.describedtypes`: ``A byte string to be armored``), the type of a plain
default (``width=70`` is an integer),
and ``X | None`` for a hint a ``None`` default does not fit; :func:`sourced_type` also
says which of these gave it (:data:`TypeSource`), a class the docstring names by its
name included (:mod:`objmcp.model.describe.classnames`). :func:`uncarried` says
what a parameter needs that JSON
cannot carry (a callable, a file object, a class of too many kinds, a module), and
:func:`unbuilt_class` the library class it needs that JSON neither carries nor builds
(:mod:`objmcp.model.values.built`). A tool that requires a callable, a file object, a class or
a module cannot be called by a model, and is left out (:class:`Uncarried`); an optional
parameter that needs one, or an unbuilt class, is left out of the schema (its default is
used); a required parameter of an unbuilt class takes any value, for the library to read
(sympy reads ``"x"`` as a ``Symbol``).
"""

from __future__ import annotations

import collections.abc
import inspect
import io
import re
import types
import typing
from collections.abc import Callable
from typing import Any, Literal

from ..._exceptions import TargetError
from ..values.built import library_class
from ..values.subclasses import chosen_base, class_choices
from .classnames import capitalised, named_class
from .describedtypes import described_type
from .doctypes import doc_type, plain_roles, python_only
from .hints import is_union
from .schema import class_json_cannot_carry

__all__ = [
    "TypeSource",
    "Uncarried",
    "doc_type",
    "param_type",
    "sourced_type",
    "unbuilt_class",
    "uncarried",
]

_EMPTY: Any = inspect.Parameter.empty


def param_type(
    hint: object,
    doc_type_name: str | None,
    default: object,
    stub_hint: Callable[[], object] = lambda: _EMPTY,
) -> object:
    """The type of a parameter: its hint, else the type its docstring names, else the
    one its package's stub gives (``stub_hint``, asked only then: reading stubs costs),
    else its plain default's; made ``X | None`` when a ``None`` default does not fit
    ``X``."""
    return sourced_type(hint, doc_type_name, default, stub_hint)[0]


TypeSource = Literal["annotation", "docstring", "stub", "default"]
"""Where a parameter's type came from: what the library itself says of it. A type from
anywhere else (a guess from the parameter's name, say) must not be given one of these:
the bench counts a parameter as typed only when it has one."""


def sourced_type(
    hint: object,
    doc_type_name: str | None,
    default: object,
    stub_hint: Callable[[], object] = lambda: _EMPTY,
    documented: object = None,
    prose: str | None = None,
) -> tuple[object, TypeSource | None]:
    """:func:`param_type`'s type, and where it came from (None when nothing gave one).
    ``documented``: what the docstring documents, whose module gives the classes its
    types name (:func:`~objmcp.model.describe.classnames.named_class`); a name written with a
    capital that names a class there is that class before any generic word (``Array``
    is the library's class, ``array`` any array). ``prose``: the parameter's
    description, whose leading phrase types it when nothing above did and its default
    does not say otherwise (:func:`~objmcp.model.describe.describedtypes.described_type`: ``A
    byte string to be armored``)."""
    source: TypeSource | None = "annotation" if hint is not _EMPTY else None
    if hint is _EMPTY and doc_type_name is not None:
        named = named_class(doc_type_name, documented) if documented is not None else _EMPTY
        if named is _EMPTY or not capitalised(doc_type_name):
            hint = doc_type(doc_type_name)
        hint = named if hint is _EMPTY else hint
        source = "docstring" if hint is not _EMPTY else None
    if hint is _EMPTY:
        hint = stub_hint()
        source = "stub" if hint is not _EMPTY else None
    if hint is _EMPTY and prose:
        hint = _fitting(described_type(prose), default)
        source = "docstring" if hint is not _EMPTY else None
    typed = _with_default(hint, default)
    if source is None and typed is not _EMPTY:
        source = "default"
    return typed, source


class Uncarried(TargetError):
    """A callable no JSON arguments can call: it needs a Python object for a parameter."""


def uncarried(
    hint: object, doc_type_name: str | None, prose: str | None = None, default: object = _EMPTY
) -> str | None:
    """What a parameter needs that JSON cannot carry (a callable, a file object, a class,
    a module), from its hint, its docstring's type, (``prose``, for a required
    parameter) what its description says it is, or a function or module as its
    ``default`` (``cbook.flatten(seq, scalarp=is_scalar_or_string)``); None when JSON
    can carry it."""
    if is_union(hint):
        needs = {uncarried(arg, None) for arg in typing.get_args(hint) if arg is not type(None)}
        return needs.pop() if len(needs) == 1 and None not in needs else None
    origin = typing.get_origin(hint) or hint
    if origin is collections.abc.Callable or hint is typing.Callable:
        return "a callable"
    if origin is type:
        base = chosen_base(hint)
        return None if base is not None and class_choices(base) else "a class"
    if hint is types.ModuleType:
        return "a module"
    if isinstance(hint, type) and (issubclass(hint, io.IOBase) or hint in (typing.IO,)):
        return "a file object"
    if origin in (typing.IO, typing.TextIO, typing.BinaryIO):
        return "a file object"
    if hint is not _EMPTY and hint is not Any:
        return None
    if inspect.isfunction(default) or inspect.isbuiltin(default) or inspect.ismethod(default):
        return "a callable"
    if isinstance(default, types.ModuleType):
        return "a module"
    said = python_only(doc_type_name) if doc_type_name else None
    if said is None and prose is not None:
        return _needs_by_prose(plain_roles(prose).replace("`", "").strip())
    return said


def unbuilt_class(hint: object) -> type | None:
    """The class ``hint`` (or each of its members beside None) asks for that JSON
    neither carries nor builds (:mod:`objmcp.model.values.built`): a library's ``MemoryPool``
    made by no constructor a model can call; None when JSON carries some member."""
    members = [hint]
    if is_union(hint):
        members = [member for member in typing.get_args(hint) if member is not type(None)]
    if _EMPTY in members or not members:
        return None
    if not all(
        isinstance(member, type) and library_class(member) and class_json_cannot_carry(member)
        for member in members
    ):
        return None
    return typing.cast(type, members[0])


_SUPPORTING = re.compile(r"\.(?:write|read|readline|readlines)\(\)-supporting", re.I)
_FILE_PROSE = re.compile(
    r"^(?:an?|the)\s+(?:open\s+|writable\s+|readable\s+|text\s+|binary\s+)*"
    r"(?:file[- ]like|file object|file handle|stream)\b",
    re.I,
)
_CALLABLE_PROSE = re.compile(
    r"^(?:an?|the)\s+(?:\w+\s+)?(?:callable\b|function (?:to call|that|which|called)\b)",
    re.I,
)


def _needs_by_prose(text: str) -> str | None:
    """What a parameter's description says it needs that JSON cannot carry: ``a
    .write()-supporting file-like object``, ``a callable that ...``, ``the function
    to call``."""
    first = re.split(r"(?<=[.!?])\s+(?=[A-Z])", text, maxsplit=1)[0]
    if _SUPPORTING.search(first) or _FILE_PROSE.match(first):
        return "a file object"
    if _CALLABLE_PROSE.match(first):
        return "a callable"
    return None


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


def _fitting(hint: object, default: object) -> object:
    """``hint``, unless a default (other than None) is not one of its values."""
    if hint is _EMPTY or default is _EMPTY or default is None:
        return hint
    kind = typing.get_origin(hint) or hint
    if isinstance(default, bool) and kind is not bool:
        return _EMPTY
    return hint if isinstance(kind, type) and isinstance(default, kind) else _EMPTY


def _admits_none(hint: object) -> bool:
    if hint is None or hint is type(None) or hint is object:
        return True
    return any(_admits_none(arg) for arg in typing.get_args(hint)) if is_union(hint) else False
