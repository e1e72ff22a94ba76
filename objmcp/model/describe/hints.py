"""Predicates over type hints, shared by the schema builder and the converter.

Both walk a type the same way; this module is the one place that says what a
hint *is* (a union, a TypedDict, a pydantic model, ...), so that the schema
offered and the conversion done can never disagree about it.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import sys
import types
import typing
from collections import abc
from typing import Any, Final, Literal, TypeGuard, Union

__all__ = [
    "BINARY",
    "BYTES_LIKE",
    "MAPPINGS",
    "NO_DEFAULT",
    "SEQUENCES",
    "SETS",
    "annotated_parts",
    "bytes_like",
    "fields_of",
    "is_dataclass_type",
    "is_literal",
    "is_namedtuple_type",
    "is_pydantic_model",
    "is_typeddict_type",
    "is_union",
    "loaded_module",
    "number_kind",
    "path_class",
    "standard_base",
    "standard_kind",
    "strip_qualifiers",
    "takes_text",
    "text_fits",
    "union_members",
]

BINARY: Final = (bytes, bytearray, memoryview)
"""The kinds that hold bytes: text or base64 on the wire, never a list of numbers."""

BYTES_LIKE: Final[dict[tuple[str, str], type]] = {
    ("collections.abc", "ByteString"): bytes,
    ("typing", "ByteString"): bytes,
    ("collections.abc", "Buffer"): bytes,
    ("typing_extensions", "Buffer"): bytes,
    ("_typeshed", "ReadableBuffer"): bytes,
    ("_typeshed", "ReadOnlyBuffer"): bytes,
    ("_typeshed", "SizedBuffer"): bytes,
    ("_typeshed", "WriteableBuffer"): bytearray,
}
"""The hints that ask for bytes without naming a class of :data:`BINARY` (by module and
name), and the class a value sent for one is made: ``typing.ByteString``, PEP 688's
``Buffer``, typeshed's ``ReadableBuffer``; a buffer the library writes into is a
``bytearray``. A stub that imports one of these where it cannot be imported
(``_typeshed``, typing_extensions not loaded) gets the class in its place."""


def bytes_like(hint: object) -> object:
    """The class of :data:`BINARY` a bytes-like ``hint`` (:data:`BYTES_LIKE`) is read
    as, in schemas and conversions alike; any other ``hint`` itself."""
    target = typing.get_origin(hint) or hint  # typing.ByteString is collections.abc's
    if not isinstance(target, type):
        return hint
    return BYTES_LIKE.get((target.__module__, target.__qualname__), hint)


SEQUENCES: frozenset[object] = frozenset(
    {
        list,
        abc.Sequence,
        abc.MutableSequence,
        abc.Iterable,
        abc.Collection,
        abc.Reversible,
        abc.Container,
    }
)
"""Origins whose values are JSON arrays converted to lists (and, for the abstract ones a
``str`` is, strings as they are: :func:`takes_text`)."""
SETS: frozenset[object] = frozenset({set, frozenset, abc.Set, abc.MutableSet})
"""Origins whose values are JSON arrays of unique items converted to sets."""
MAPPINGS: frozenset[object] = frozenset({dict, abc.Mapping, abc.MutableMapping})
"""Origins whose values are JSON objects converted to dicts."""


def takes_text(hint: object) -> bool:
    """Whether a parameter of ``hint`` takes a string as well as an array: ``hint`` is an
    abstract container of :data:`SEQUENCES` that a ``str`` is (``Iterable``,
    ``Sequence``, ``Collection``, ``Reversible``, ``Container``; not ``list`` or
    ``MutableSequence``) of items a ``str`` is too (:func:`text_fits`). Python iterates
    a string's characters, and the library means it: ``all_unique('ABCB')``. The
    string is passed as it is, never as a list of its characters."""
    origin = typing.get_origin(hint) or hint
    if origin not in SEQUENCES or not isinstance("", typing.cast(type, origin)):
        return False
    args = typing.get_args(hint)
    return text_fits(args[0]) if args else True


def text_fits(item: object) -> bool:
    """Whether a ``str`` is a value of the item type ``item``: ``str``, ``Any``,
    ``object``, a type variable free or bound or constrained to a type a ``str`` fits,
    a union with such a member, a class a ``str`` is an instance of (``Hashable``,
    ``Sized``), or a protocol whose members a ``str`` has (``SupportsLessThan``), checked
    by structure even where the protocol is not ``runtime_checkable``."""
    item = annotated_parts(strip_qualifiers(item))[0]
    if item is Any or item is object:
        return True
    if isinstance(item, typing.TypeVar):
        if item.__constraints__:
            return any(text_fits(member) for member in item.__constraints__)
        return item.__bound__ is None or text_fits(item.__bound__)
    if is_union(item):
        return any(text_fits(member) for member in typing.get_args(item))
    origin = typing.get_origin(item) or item
    if not isinstance(origin, type):
        return False
    try:
        return isinstance("", origin)
    except TypeError:  # a protocol that is not runtime_checkable: asked by its members
        return _str_has_members(origin)


@functools.cache
def _str_has_members(protocol: type) -> bool:
    if not getattr(protocol, "_is_protocol", False):
        return False
    try:  # a runtime_checkable subclass asks what the protocol asks; the protocol is untouched
        checker = typing.runtime_checkable(type(protocol.__name__, (protocol, typing.Protocol), {}))
        return isinstance("", checker)
    except TypeError:
        return False


_QUALIFIERS = {"Required", "NotRequired", "ReadOnly", "ClassVar", "Final"}


def strip_qualifiers(hint: object) -> object:
    """``Required[X]``, ``NotRequired[X]``, ``ReadOnly[X]`` and ``Final[X]`` -> ``X``."""
    while True:
        origin = typing.get_origin(hint)
        name = getattr(origin, "_name", None) or getattr(hint, "_name", None)
        if origin is not None and name in _QUALIFIERS and typing.get_args(hint):
            hint = typing.get_args(hint)[0]
        else:
            return hint


def annotated_parts(hint: object) -> tuple[object, tuple[object, ...]]:
    """Split ``Annotated[X, *meta]`` into ``(X, meta)``; other hints give ``(hint, ())``."""
    if typing.get_origin(hint) is typing.Annotated:
        args = typing.get_args(hint)
        return args[0], tuple(args[1:])
    return hint, ()


def is_union(hint: object) -> bool:
    """``Union[...]``, ``Optional[...]`` and ``X | Y``."""
    origin = typing.get_origin(hint)
    return origin is Union or origin is types.UnionType


def is_literal(hint: object) -> bool:
    """``Literal[...]``."""
    return typing.get_origin(hint) is Literal


def is_dataclass_type(hint: object) -> bool:
    """A dataclass (the class, not an instance)."""
    return isinstance(hint, type) and dataclasses.is_dataclass(hint)


def is_typeddict_type(hint: object) -> bool:
    """A ``TypedDict`` class (typing's or typing_extensions')."""
    return (
        isinstance(hint, type)
        and issubclass(hint, dict)
        and hasattr(hint, "__required_keys__")
        and hasattr(hint, "__annotations__")
    )


def is_namedtuple_type(hint: object) -> bool:
    """A ``NamedTuple`` (or ``collections.namedtuple``) class."""
    return isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields")


def is_pydantic_model(hint: object) -> bool:
    """A pydantic v2 model class, recognised by its methods; pydantic is never imported."""
    return (
        isinstance(hint, type)
        and callable(getattr(hint, "model_json_schema", None))
        and callable(getattr(hint, "model_validate", None))
    )


StandardKind = Literal[
    "date-time", "date", "time", "uuid", "decimal", "fraction", "duration", "time-zone", "ast"
]

_STANDARD: dict[tuple[str, str], StandardKind] = {
    ("datetime", "datetime"): "date-time",
    ("datetime", "date"): "date",
    ("datetime", "time"): "time",
    ("uuid", "UUID"): "uuid",
    ("decimal", "Decimal"): "decimal",
    ("fractions", "Fraction"): "fraction",
    ("datetime", "timedelta"): "duration",
    ("datetime", "tzinfo"): "time-zone",
    ("datetime", "timezone"): "time-zone",
    ("zoneinfo", "ZoneInfo"): "time-zone",
    ("ast", "AST"): "ast",
}
_AST_FAMILIES = ("mod", "expr", "stmt")
"""The kinds of syntax tree node read from source text: modules, expressions, statements
(a node of another kind, ``ast.arguments`` say, is part of one and has no text alone)."""
_NOT_INHERITED: frozenset[StandardKind] = frozenset({"time-zone", "ast"})
"""Kinds whose values a subclass does not take: a library's own ``tzinfo`` (pytz's) is no
``ZoneInfo``, and is not made from one."""


def loaded_module(name: str) -> Any:
    """The standard module ``name`` if something has imported it, else None.

    A hint or a value can only be of a class whose module is loaded, so the
    standard library's value classes (dates and times, UUIDs, decimals, paths)
    are recognised through :data:`sys.modules`: ``import objmcp`` need not load
    ``datetime``, ``uuid``, ``decimal`` and ``pathlib`` itself.
    """
    return sys.modules.get(name)


def standard_kind(hint: object) -> StandardKind | None:
    """Which of the standard library's value classes ``hint`` is exactly (not a
    subclass: :func:`standard_base` finds the class a subclass derives from):
    ``datetime.datetime``, ``datetime.date``, ``datetime.time``, ``uuid.UUID``,
    ``decimal.Decimal``, ``fractions.Fraction``, ``datetime.timedelta`` (a duration),
    ``datetime.tzinfo``, ``datetime.timezone`` and ``zoneinfo.ZoneInfo`` (a time zone),
    or ``ast.AST`` and its module, expression and statement node classes (``ast``).

    The module may hold a subclass in the class's place by now (as freezegun puts
    one for ``datetime.datetime``): the hint, written before, is still the class."""
    if not isinstance(hint, type):
        return None
    key = (hint.__module__, hint.__qualname__)
    kind = _STANDARD.get(key)
    if kind is None:
        return "ast" if key[0] == "ast" and _syntax_node(hint) else None
    there = getattr(loaded_module(key[0]), key[1], None)
    if there is hint or (isinstance(there, type) and issubclass(there, hint)):
        return kind
    return None


def _syntax_node(hint: type) -> bool:
    """Whether ``hint`` is a class of :data:`_AST_FAMILIES` of the ``ast`` module."""
    ast = loaded_module("ast")
    families = tuple(getattr(ast, name) for name in _AST_FAMILIES) if ast else ()
    return bool(families) and issubclass(hint, families)


_BUILTIN_BASES = (str, int, float, bytes, bytearray)


def standard_base(hint: object) -> type | None:
    """The standard class a subclass ``hint`` derives from, nearest first in its MRO: one
    of :func:`standard_kind`'s whose values a subclass takes (no time zone or syntax
    node), or ``str``, ``int``, ``float``, ``bytes``, ``bytearray`` (a ``datetime``
    subclass gives ``datetime``, a ``str`` subclass ``str``); None for the standard
    classes themselves, enums (their members are their values) and anything else."""
    if not isinstance(hint, type) or hint in _BUILTIN_BASES or standard_kind(hint):
        return None
    if issubclass(hint, enum.Enum):
        return None
    for ancestor in hint.__mro__[1:]:
        kind = standard_kind(ancestor)
        if ancestor in _BUILTIN_BASES or (kind is not None and kind not in _NOT_INHERITED):
            return ancestor
    return None


def number_kind(hint: object) -> type[int] | type[float] | None:
    """The JSON number a class the :mod:`numbers` ABCs know is made from: ``int`` for an
    ``Integral`` one (sympy's ``Integer``, numpy's ``int64``, gmpy2's ``mpz``), ``float``
    for a ``Rational``, ``Real`` or ``Complex`` one (``Float``, ``float32``; a real number
    is a complex one, and JSON has no other), subclasses and registered classes alike;
    None for ``bool``, ``int``, ``float``, enums, the standard kinds and any other hint.
    A value is the class called with the number, or the number when the class refuses
    it (:func:`~objmcp.model.values.convert.from_json`)."""
    if not isinstance(hint, type) or hint in (bool, int, float) or issubclass(hint, enum.Enum):
        return None
    if standard_kind(hint) or standard_base(hint):
        return None
    numbers = loaded_module("numbers")
    if numbers is None:  # no class can be registered with an ABC nothing has imported
        return None
    try:
        if issubclass(hint, numbers.Integral):
            return int
        return float if issubclass(hint, numbers.Complex) else None
    except TypeError:  # a class that refuses the question
        return None


def union_members(members: tuple[object, ...]) -> tuple[object, ...]:
    """The members a union of ``members`` takes values of: its own (a bytes-like one as
    its class, :func:`bytes_like`), and
    ``datetime.datetime`` for a union of a ``date`` and a ``time`` kind with no date-time
    kind (babel's ``date | time | float | None``): a datetime is a date, and a callable
    that takes a time of day as well wants the one a date-time gives."""
    members = tuple(bytes_like(member) for member in members)
    kinds = {_kind_of(member) for member in members}
    if {"date", "time"} <= kinds and "date-time" not in kinds:
        return (*members, loaded_module("datetime").datetime)
    return members


def _kind_of(hint: object) -> StandardKind | None:
    """The standard kind of ``hint`` or of the standard class it derives from."""
    return standard_kind(hint) or standard_kind(standard_base(hint))


def path_class(hint: object) -> TypeGuard[type[Any]]:
    """A ``pathlib`` path class (``PurePath`` or a subclass)."""
    pathlib = loaded_module("pathlib")
    return pathlib is not None and isinstance(hint, type) and issubclass(hint, pathlib.PurePath)


def namedtuple_hints(cls: type) -> dict[str, Any]:
    """Field name -> hint for a NamedTuple (``Any`` for untyped namedtuples)."""
    annotations = _class_hints(cls) if getattr(cls, "__annotations__", None) else {}
    return {name: annotations.get(name, Any) for name in cls._fields}  # type: ignore[attr-defined]


class _NoDefault:
    """The default of a field that has none."""

    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()


@functools.cache
def fields_of(cls: type) -> tuple[dict[str, tuple[object, object]], list[str]]:
    """Field name -> (hint, default or NO_DEFAULT), and the required names."""
    fields: dict[str, tuple[object, object]] = {}
    required: list[str] = []
    if is_dataclass_type(cls):
        hints = _class_hints(cls)
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            default: object = NO_DEFAULT
            if f.default is not dataclasses.MISSING:
                default = f.default
            elif f.default_factory is not dataclasses.MISSING:
                try:
                    default = f.default_factory()
                except Exception:  # a factory with needs of its own: no default shown
                    default = NO_DEFAULT
            else:
                required.append(f.name)
            fields[f.name] = (hints.get(f.name, f.type), default)
    elif is_typeddict_type(cls):
        hints = _class_hints(cls)
        required_keys: frozenset[str] = getattr(cls, "__required_keys__", frozenset())
        for name, hint in hints.items():
            fields[name] = (hint, NO_DEFAULT)
            if name in required_keys:
                required.append(name)
    else:  # NamedTuple
        defaults = getattr(cls, "_field_defaults", {})
        for name, hint in namedtuple_hints(cls).items():
            fields[name] = (hint, defaults.get(name, NO_DEFAULT))
            if name not in defaults:
                required.append(name)
    return fields, required


def _class_hints(cls: type) -> dict[str, object]:
    try:
        return dict(typing.get_type_hints(cls, include_extras=True))
    except Exception:
        return dict(getattr(cls, "__annotations__", {}))
