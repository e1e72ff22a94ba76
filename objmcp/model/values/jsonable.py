"""Python values as JSON: what a tool returns, and a value shown as an argument.

:func:`to_jsonable` turns whatever a method returns into plain JSON data (the mirror of
:func:`objmcp.model.values.convert.from_json`, which reads arguments); :func:`argument_form` is a
value as an argument carries it (a default in an input schema), which
:func:`~objmcp.model.values.convert.from_json` reads back as itself. Bytes have one form in both,
a result's and an argument's (:func:`binary_form`): their text when they are UTF-8,
else ``{"base64": "..."}``; so any bytes a tool answers can be sent back as an argument
unchanged.
"""

from __future__ import annotations

import binascii
import collections
import contextlib
import dataclasses
import enum
import inspect
import itertools
import math
import typing
from collections import abc

from ..describe import hints as t
from .durations import iso_duration
from .exports import exported
from .nonfinite import name_of
from .pysource import source_text
from .reals import NotFinite, is_real, real_form, said_number
from .shapes import NO_FORM, own_method, plain_form, readable
from .timezones import zone_text

__all__ = [
    "BASE64_KEY",
    "Budget",
    "NotJsonable",
    "argument_form",
    "binary_form",
    "to_jsonable",
]


class NotJsonable(TypeError):
    """A value has no JSON form (a cycle; or, in strict mode, NaN, an infinity or an unknown
    type)."""


BASE64_KEY = "base64"
"""The one key of the object that carries bytes that are not text: ``{"base64": "..."}``."""


def binary_form(data: bytes | bytearray | memoryview) -> object:
    """The JSON form of ``data``, in a result as in an argument (the inverse of
    :func:`~objmcp.model.values.scalars.binary_from_json`): its text when it is UTF-8, else
    ``{"base64": "..."}``."""
    raw = bytes(data)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return {BASE64_KEY: binascii.b2a_base64(raw, newline=False).decode("ascii")}


def argument_form(value: object) -> object:
    """``value`` as an argument carries it (a default shown in an input schema): its
    :func:`to_jsonable` form, strict, except that a duration, alone or in a plain list,
    tuple or dict, takes its ISO 8601 text
    (:func:`~objmcp.model.values.durations.iso_duration`), and an exact number (a ``Decimal``,
    a ``Fraction``) is a JSON number only when its digits are its value."""
    datetime = t.loaded_module("datetime")
    if datetime is not None and isinstance(value, datetime.timedelta):
        return iso_duration(value)  # what the schema's duration text says
    if type(value) in (list, tuple):
        return [argument_form(item) for item in typing.cast(abc.Sequence[object], value)]
    if type(value) is dict:
        return {key: argument_form(v) for key, v in _entries(value)}
    if is_real(value) and not isinstance(value, (bool, int, float)):
        try:
            return real_form(value, by_digits=True)  # read back by its digits (_to_fraction)
        except NotFinite as error:
            raise NotJsonable(str(error)) from None
    return to_jsonable(value, strict=True)


# --- Python -> JSON ---------------------------------------------------------------------------


class Budget:
    """The items that may still be read from iterators and generators for one result: a
    bound shared by all of them, nested ones included (a list of generators), so that an
    endless or huge one ends. ``cut`` says some iterator went on past it."""

    cut = False
    """Some iterator had more items than the budget allowed."""

    def __init__(self, limit: int) -> None:
        self.limit = self.left = limit

    def take(self, iterator: abc.Iterator[object]) -> list[object]:
        """The items of ``iterator`` the budget still allows; when that is not all of them
        (one more is read to tell), ``cut`` is set.

        When the first item is a tuple holding iterators, each item's are read before the
        next item is, since reading on may end them (``itertools.groupby``'s ``(key,
        group)`` pairs); other items are read all at once."""
        items: list[object] = []
        while self.left:
            item = next(iterator, _END)
            if item is _END:
                return items
            self.left -= 1
            if not (type(item) is tuple and any(isinstance(p, abc.Iterator) for p in item)):
                items.append(item)
                if len(items) == 1:  # the first item holds no iterator: the rest at once
                    rest = list(itertools.islice(iterator, self.left)) if self.left else []
                    self.left -= len(rest)
                    items.extend(rest)
                    break
                continue
            items.append(tuple(self.take(p) if isinstance(p, abc.Iterator) else p for p in item))
        if not self.cut:
            self.cut = next(iterator, _END) is not _END
        return items


_END = object()


def to_jsonable(
    value: object,
    *,
    strict: bool = False,
    budget: Budget | None = None,
) -> object:
    """Plain JSON data for ``value``.

    Containers, dataclasses, NamedTuples, TypedDicts, pydantic models, enums,
    datetimes, UUIDs, decimals, paths, sets (``collections.abc.Set`` too), a mapping's
    keys, values and items (in order) and iterators have a JSON form;
    bytes are their text when they are UTF-8, else ``{"base64": "..."}``
    (:func:`binary_form`), and a bytes key its text when it is UTF-8 and no other
    key of its mapping is that text (else its ``str``, ``"b'a'"``: no entry is lost). A
    string is always text, never base64 to decode: bare base64 would be ambiguous (``b"aGk="`` as
    text and ``b"hi"`` as base64 are both ``"aGk="``), and the object form is not, so a
    reader tells the two without a schema, and a bytes parameter takes either back. An
    object that says it is a number and prints as it
    (:func:`~objmcp.model.values.reals.said_number`) is that number. Anything else raises
    :class:`NotJsonable` when ``strict``; else it is what it exports of itself
    (:func:`~objmcp.model.values.exports.exported`: ``to_pylist``, ``to_dict`` ..., or its
    ``keys()`` when its ``str`` says nothing), or else
    :func:`~objmcp.model.values.shapes.readable`: its ``str``. NaN and the infinities (a float's,
    or another real number's) are their names, ``"NaN"``, ``"Infinity"`` and
    ``"-Infinity"`` (:mod:`objmcp.model.values.nonfinite`), or raise when ``strict``. Cycles
    always raise.
    Iterators are read out whole, or as far as ``budget`` allows (it says whether
    one was cut).
    """
    return _jsonable(value, strict, set(), budget)


def _jsonable(value: object, strict: bool, active: set[int], budget: Budget | None) -> object:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return _named(value, strict)
        return float(value)  # a float subclass (numpy's float64) as a plain float
    if isinstance(value, enum.Enum):
        return _jsonable(value.value, strict, active, budget)
    if isinstance(value, t.BINARY):
        return binary_form(value)
    standard = _standard_text(value)
    if standard is not None:
        return standard
    if id(value) in active:
        raise NotJsonable("the value refers to itself (a cycle)")
    active.add(id(value))
    try:
        return _jsonable_container(value, strict, active, budget)
    finally:
        active.discard(id(value))


def _standard_text(value: object) -> str | None:
    """The text form of a value of a standard kind (or of a subclass's value): a date's
    or time's ISO text, a UUID's, path's or duration's ``str``, a time zone's name, a
    syntax tree's source."""
    for form in _TEXT_FORMS:
        text = form(value)
        if text is not None:
            return text
    return None


def _iso_text(value: object) -> str | None:
    datetime = t.loaded_module("datetime")
    if datetime is not None and isinstance(value, (datetime.date, datetime.time)):
        return str(value.isoformat())
    return None


def _plain_text(value: object) -> str | None:
    """A UUID, a path and a duration (``"1 day, 2:00:00"``) as their ``str``."""
    uuid, pathlib = t.loaded_module("uuid"), t.loaded_module("pathlib")
    datetime = t.loaded_module("datetime")
    if (
        (uuid is not None and isinstance(value, uuid.UUID))
        or (pathlib is not None and isinstance(value, pathlib.PurePath))
        or (datetime is not None and isinstance(value, datetime.timedelta))
    ):
        return str(value)
    return None


_TEXT_FORMS: tuple[abc.Callable[[object], str | None], ...] = (
    _iso_text,
    _plain_text,
    zone_text,
    source_text,
)
"""The text forms of the standard kinds, each None for a value of another kind."""


def _jsonable_container(
    value: object, strict: bool, active: set[int], budget: Budget | None
) -> object:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _jsonable(getattr(value, f.name), strict, active, budget)
            for f in dataclasses.fields(value)
        }
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        # A NamedTuple's fields never start with "_"; the _asdict() of a library's tuple
        # with extra fields (scipy's results) also holds its private state.
        fields = value._asdict().items()
        return {
            k: _jsonable(v, strict, active, budget)
            for k, v in fields
            if not (isinstance(k, str) and k.startswith("_"))
        }
    dump = own_method(value, "model_dump")
    if dump is not None and not isinstance(value, type):
        return _jsonable(dump(mode="json"), strict, active, budget)
    if isinstance(value, abc.Mapping):
        return {key: _jsonable(v, strict, active, budget) for key, v in _entries(value)}
    if isinstance(value, (list, tuple, abc.KeysView, abc.ValuesView, abc.ItemsView)):
        return [_jsonable(v, strict, active, budget) for v in value]
    if isinstance(value, (set, frozenset, abc.Set)):
        items = [_jsonable(v, strict, active, budget) for v in value]
        try:
            return sorted(items)  # type: ignore[type-var]
        except TypeError:
            return items
    if isinstance(value, abc.Iterator) or inspect.isgenerator(value):
        iterator = typing.cast(abc.Iterator[object], value)
        taken = iterator if budget is None else budget.take(iterator)
        return [_jsonable(v, strict, active, budget) for v in taken]
    if is_real(value):  # a Decimal, a Fraction, mpmath's, numpy's
        try:
            return real_form(value)
        except NotFinite as error:
            if strict or error.number is None:
                raise NotJsonable(str(error)) from None
            return name_of(error.number)
    plain = plain_form(value)
    if plain is not NO_FORM:
        return _jsonable(plain, strict, active, budget)
    number = said_number(value)  # a library's scalar object
    if number is not None:
        return number
    if strict:
        raise NotJsonable(f"{type(value).__qualname__} has no JSON form")
    data = exported(value)  # its own export (to_pylist, to_dict ...), or its keys()
    if data is not NO_FORM:
        return _jsonable(data, strict, active, budget)

    def part(item: object) -> object:
        return _jsonable(item, False, active, budget)

    return readable(value, part)


def _named(number: float, strict: bool) -> str:
    """The name a non-finite number is sent as; :class:`NotJsonable` when ``strict``."""
    if strict:
        raise NotJsonable(f"{number!r} is not a JSON number")
    return name_of(number)


def _entries(mapping: abc.Mapping[typing.Any, object]) -> list[tuple[str, object]]:
    """The items of ``mapping``, each key its JSON text (:func:`_key`); a bytes key whose
    text another key has too (``{b"a": 1, "a": 2}``) keeps its ``str`` (``"b'a'"``)."""
    items = list(mapping.items())
    texts = [_key(key) for key, _ in items]
    shared = {text for text, count in collections.Counter(texts).items() if count > 1}
    return [
        (str(key) if text in shared and isinstance(key, t.BINARY) else text, value)
        for (key, value), text in zip(items, texts, strict=True)
    ]


def _key(key: object) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, enum.Enum):
        return str(key.value)
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, t.BINARY):
        with contextlib.suppress(UnicodeDecodeError):
            return bytes(key).decode("utf-8")  # what a bytes key is read back from
    return str(key)
