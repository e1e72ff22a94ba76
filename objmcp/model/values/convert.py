"""JSON values as the Python values a tool's hints ask for.

:func:`from_json` turns a JSON value that already passed the tool's schema into
the Python value its type hint asks for (Enum members, dataclass instances,
tuples, datetimes, a library's classes built from JSON, ...). It mirrors
:mod:`objmcp.model.describe.schema` and :mod:`objmcp.model.values.jsonable`: a value of a type, sent
through ``to_jsonable``, validates against that type's schema and comes back equal
through ``from_json``; except bytes, whose argument form is not their result form. A
string argument is always text: for a bytes parameter, its UTF-8 bytes, and any bytes
come as ``{"base64": "..."}`` (:func:`binary_from_json`). A float is also the name of
NaN or an infinity, as a result sends it (:func:`~objmcp.model.values.nonfinite.named_float`).
"""

from __future__ import annotations

import binascii
import enum
import inspect
import json
import re
import typing
from collections import abc
from typing import Any

from ..describe import hints as t
from .arrays import array_hint, array_union, to_array
from .built import Refused, build, construction
from .durations import read_duration
from .jsonable import BASE64_KEY
from .jsontext import parse_json
from .nonfinite import named_float
from .pysource import read_source
from .subclasses import chosen_base, class_choices
from .timezones import read_zone

__all__ = [
    "ConversionError",
    "binary_from_json",
    "describe_json",
    "from_json",
    "from_text",
]


class ConversionError(ValueError):
    """A JSON value does not convert into the type asked for; ``path`` says where."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


# --- JSON -> Python ---------------------------------------------------------------------------


def from_texts(
    values: abc.Mapping[str, str], hints: abc.Mapping[str, object], label: str
) -> dict[str, object]:
    """Convert strings from the wire by name (URI variables, prompt arguments) with
    :func:`from_text`; raise :class:`~objmcp.ArgumentError` naming the ``label``ed one
    that does not convert."""
    from ..._exceptions import ArgumentError

    converted: dict[str, object] = {}
    for key, text in values.items():
        try:
            converted[key] = from_text(text, hints[key], key)
        except ConversionError as error:
            raise ArgumentError(f"Invalid {label} '{key}': {error.message}") from None
    return converted


def from_text(text: str, hint: object, path: str = "") -> object:
    """Convert a string from the wire (a URI variable, a prompt argument) into a value of
    ``hint``: the string itself where a string fits, else its JSON reading (``"5"`` is
    5 for an ``int``); raise :class:`ConversionError`."""
    try:
        return from_json(text, hint, path)
    except ConversionError as first:
        try:
            parsed = parse_json(text)
        except (ValueError, RecursionError):
            raise first from None
        return from_json(parsed, hint, path)


def from_json(value: object, hint: object, path: str = "") -> object:
    """Convert a JSON value into a value of ``hint``; raise :class:`ConversionError`."""
    if type(hint) is type:
        scalar = _SCALARS.get(hint)
        if scalar is not None:
            return scalar(value, path)
    hint = t.bytes_like(t.strip_qualifiers(t.annotated_parts(t.strip_qualifiers(hint))[0]))
    if hint in (Any, object, inspect.Parameter.empty) or isinstance(hint, (str, typing.ForwardRef)):
        return value
    if isinstance(hint, typing.TypeVar):
        return value if hint.__bound__ is None else from_json(value, hint.__bound__, path)
    supertype = getattr(hint, "__supertype__", None)
    if supertype is not None:
        return from_json(value, supertype, path)
    found = array_hint(hint)
    if found is not None:
        try:
            return to_array(value, found)
        except ValueError as error:
            raise ConversionError(path, str(error)) from None
    if t.is_union(hint):
        return _from_union(value, typing.get_args(hint), path)
    if t.is_literal(hint):
        for option in typing.get_args(hint):
            plain = option.value if isinstance(option, enum.Enum) else option
            if plain == value and _same_json_kind(plain, value):
                return option
        raise ConversionError(path, f"expected one of {list(typing.get_args(hint))!r}")
    if hint is None or hint is type(None):
        if value is None:
            return None
        raise ConversionError(path, f"expected null, got {describe_json(value)}")
    origin = typing.get_origin(hint) or hint
    args = typing.get_args(hint)
    if isinstance(origin, type):
        converter = _SCALARS.get(origin)
        if converter is not None:
            return converter(value, path)
        standard = t.standard_kind(origin)
        if standard is not None:
            return _STANDARD[standard](value, path, origin)
        if issubclass(origin, enum.Enum):
            try:
                return origin(value)
            except ValueError:
                values = [m.value for m in origin]
                raise ConversionError(path, f"expected one of {values!r}") from None
        if t.is_pydantic_model(origin):
            try:
                return origin.model_validate(value)  # type: ignore[attr-defined]
            except Exception as error:
                raise ConversionError(path, str(error)) from None
        if t.is_dataclass_type(origin) or t.is_typeddict_type(origin):
            return _from_object(value, origin, path)
        if t.is_namedtuple_type(origin):
            return _from_object(value, origin, path)
        if t.path_class(origin):
            return origin(_expect(value, str, "string", path))
        base = t.standard_base(origin)
        if base is not None:
            return _to_subclass(from_json(value, base, path), origin, path)
        number = t.number_kind(origin)
        if number is not None:
            return _to_number_class(_SCALARS[number](value, path), origin)
        if construction(origin) is not None:  # the class, or a generic one's alias
            try:
                return build(value, origin)
            except Refused as refusal:
                raise ConversionError(path, f"{origin.__name__} refused it: {refusal}") from None
    chosen = chosen_base(hint)
    if chosen is not None:
        return _chosen_class(value, chosen, path)
    if origin is tuple:
        return _from_tuple(value, args, path)
    if origin in t.SEQUENCES:
        if isinstance(value, str) and t.takes_text(hint):
            return value
        items = _expect(value, list, "array", path)
        return [from_json(v, args[0] if args else Any, f"{path}[{i}]") for i, v in enumerate(items)]
    if origin in t.SETS:
        items = _expect(value, list, "array", path)
        member = args[0] if args else Any
        converted = {from_json(v, member, f"{path}[{i}]") for i, v in enumerate(items)}
        return frozenset(converted) if origin is frozenset else converted
    if origin in t.MAPPINGS:
        mapping = _expect(value, dict, "object", path)
        key_hint, value_hint = args if args else (str, Any)
        entries: dict[object, object] = {}
        for k, v in mapping.items():
            key = _key_from_json(k, key_hint, path)
            if key in entries:  # "1" and "01" are one int key: neither may be lost
                raise ConversionError(path, f"keys {k!r} and another are the same {key!r}")
            entries[key] = from_json(v, value_hint, f"{path}.{k}" if path else k)
        return entries
    return value


_INT_KEY = re.compile(r"-?[0-9]+")


def _same_json_kind(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` are the same kind of JSON value (1 and 1.0 are one number;
    True is no number)."""
    numbers = (int, float)
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, numbers):
        return type(a) is type(b)
    return isinstance(b, numbers)


def _key_from_json(key: str, hint: object, path: str) -> object:
    """JSON object keys are strings; parse them into the key type asked for."""
    hint = t.annotated_parts(hint)[0]
    try:
        if hint is int:
            if not _INT_KEY.fullmatch(key):  # int() would take " 5", "+5" and "5\n" too
                raise ValueError(key)
            return int(key)
        if hint is float:
            return float(key)
    except ValueError:
        raise ConversionError(
            path, f"key {key!r} is not a {getattr(hint, '__name__', hint)}"
        ) from None
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        for member in hint:
            if str(member.value) == key:
                return member
        raise ConversionError(path, f"key {key!r} is not one of {[m.value for m in hint]!r}")
    return from_json(key, hint, path)


def _from_union(value: object, members: tuple[object, ...], path: str) -> object:
    errors = []
    # None first; and a JSON fraction tries float before int, so 1.0 stays a float.
    declared = sorted(
        t.union_members(array_union(members)),
        key=lambda m: (
            m is not type(None) and m is not None,
            m is int and isinstance(value, float),
        ),
    )
    carried = [m for m in declared if not (isinstance(m, type) and construction(m) is not None)]
    if any(member is not type(None) and member is not None for member in carried):
        declared = carried  # a library's own class in a union: JSON sends the other members
    for member in _narrow_first(declared):
        try:
            return from_json(value, member, path)
        except ConversionError as error:
            errors.append(error.message)
    raise ConversionError(path, "fits none of the allowed types: " + "; ".join(errors))


def _narrow_first(members: list[object]) -> list[object]:
    """``members`` in the order a value is tried on them: each as declared, except that a
    member is tried after those that take fewer values of its own kind (a subclass
    before its base, ``date`` and ``time`` before ``datetime``, whose reading takes a
    date alone too)."""
    pending, ordered = list(members), []
    while pending:
        ready = [m for m in pending if not any(_tried_before(o, m) for o in pending if o is not m)]
        ordered.append(ready[0] if ready else pending[0])
        pending.remove(ordered[-1])
    return ordered


def _tried_before(first: object, then: object) -> bool:
    """Whether the union member ``first`` is tried before ``then``: every member before
    ``Any`` or ``object``, which take any value as it is (so a string that reads as an
    ISO date-time is the ``datetime`` of ``datetime | Any``); a string is text before it
    is bytes, a duration, a time zone or source text, a number is a number and a date or
    time's text is one before it is a duration."""
    if first is str and then in t.BINARY:
        return True
    if then in (Any, object) and first not in (Any, object):
        return True  # any value fits them: the others convert what fits them first
    if t.standard_kind(then) in _SAID_KINDS and (
        first in (str, int, float) or _date_kind(first) is not None
    ):
        return True  # "12:30:00" is a time of day before it is a duration
    kinds = (_date_kind(first), _date_kind(then))
    if None not in kinds and "date-time" in kinds and kinds[0] != kinds[1]:
        return kinds[1] == "date-time"
    if not isinstance(first, type) or not isinstance(then, type) or first is then:
        return False
    try:
        return issubclass(first, then)
    except TypeError:  # a class that refuses the question (a TypedDict)
        return False


_SAID_KINDS = ("duration", "time-zone", "ast")
"""The standard kinds a model says as text (or a number), which text and numbers are
first."""


def _date_kind(hint: object) -> str | None:
    kind = t.standard_kind(hint) or t.standard_kind(t.standard_base(hint))
    return kind if kind in ("date-time", "date", "time") else None


def _to_subclass(plain: Any, cls: type, path: str) -> object:
    """A value of ``cls``, a subclass of a standard kind, made from ``plain``, the base
    kind's value: by the subclass's own ``fromisoformat`` (dates and times) or
    constructor, the first way that gives an instance equal to ``plain`` (else the
    first that gives an instance: the subclass may read a value its own way). A refusal
    (its ValueError, say) is a :class:`ConversionError`; a subclass none of whose ways
    can take the value (a constructor of other parameters) gets ``plain`` itself."""
    refusal: Exception | None = None
    instances: list[object] = []
    for make in _makers(plain, cls):
        try:
            made = make()
        except (TypeError, AttributeError, NotImplementedError):
            continue  # this way does not take such a value; another may
        except Exception as error:
            refusal = refusal or error
            continue
        if isinstance(made, cls):
            if _equal(made, plain):
                return made
            instances.append(made)
    if instances:
        return instances[0]
    if refusal is not None:
        raise ConversionError(path, f"{cls.__name__} refused it: {refusal}")
    return plain


def _to_number_class(plain: object, cls: type) -> object:
    """A ``cls`` (a class the :mod:`numbers` ABCs know: :func:`~.hints.number_kind`) made
    from the number ``plain``, or ``plain`` itself when the class refuses it (an abstract
    class, a constructor of other parameters): a library that accepts such a class takes
    Python's own numbers too, as the ABCs promise."""
    try:
        return cls(plain)
    except Exception:
        return plain


def _chosen_class(value: object, base: type, path: str) -> type:
    """The class of :func:`~objmcp.model.values.subclasses.class_choices` ``value`` names."""
    choices = class_choices(base)
    found = choices.get(value) if isinstance(value, str) else None
    if found is None:
        raise ConversionError(path, f"expected one of {list(choices)!r}")
    return found


def _equal(made: object, plain: object) -> bool:
    """Whether ``made`` is ``plain``'s value, with the same UTC offset where it has one
    (``==`` compares aware date-times as instants, whatever their offsets)."""
    try:
        same = bool(made == plain)
    except Exception:  # the subclass's own __eq__ failed
        return False
    offset = getattr(plain, "utcoffset", None)
    return same and (offset is None or offset() == made.utcoffset())  # type: ignore[attr-defined]


def _makers(plain: Any, cls: Any) -> list[abc.Callable[[], object]]:
    """The ways to make a ``cls`` from the base kind's value ``plain``, in order."""
    datetime = t.loaded_module("datetime")
    if datetime is not None and isinstance(plain, datetime.timedelta):
        parts = {"days": plain.days, "seconds": plain.seconds, "microseconds": plain.microseconds}
        return [lambda: cls(plain), lambda: cls(**parts)]
    if datetime is None or not isinstance(plain, (datetime.date, datetime.time)):
        uuid = t.loaded_module("uuid")
        given = str(plain) if uuid is not None and isinstance(plain, uuid.UUID) else plain
        return [lambda: cls(given)]

    def by_fields() -> object:
        if isinstance(plain, datetime.time):
            clock = (plain.hour, plain.minute, plain.second, plain.microsecond)
            return cls(*clock, plain.tzinfo, fold=plain.fold)
        day = (plain.year, plain.month, plain.day)
        if not isinstance(plain, datetime.datetime):
            return cls(*day)
        clock = (plain.hour, plain.minute, plain.second, plain.microsecond)
        return cls(*day, *clock, plain.tzinfo, fold=plain.fold)

    return [lambda: cls.fromisoformat(plain.isoformat()), by_fields]


def _from_tuple(value: object, args: tuple[object, ...], path: str) -> tuple[object, ...]:
    items = _expect(value, list, "array", path)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(from_json(v, args[0], f"{path}[{i}]") for i, v in enumerate(items))
    if not args:
        return tuple(items)
    if args == ((),):
        args = ()
    if len(items) != len(args):
        raise ConversionError(path, f"expected an array of {len(args)} items, got {len(items)}")
    return tuple(
        from_json(v, a, f"{path}[{i}]") for i, (v, a) in enumerate(zip(items, args, strict=True))
    )


def _from_object(value: object, cls: type, path: str) -> object:
    mapping = _expect(value, dict, "object", path)
    fields, required = t.fields_of(cls)
    for name in required:
        if name not in mapping:
            raise ConversionError(path, f"missing required field '{name}'")
    converted: dict[str, object] = {}
    for name, item in mapping.items():
        if name not in fields:
            raise ConversionError(path, f"unknown field '{name}'")
        converted[name] = from_json(item, fields[name][0], f"{path}.{name}" if path else name)
    if t.is_typeddict_type(cls):
        return converted
    try:
        return cls(**converted)
    except Exception as error:
        raise ConversionError(path, f"{cls.__name__} refused it: {error}") from None


def _expect(value: object, kind: type, name: str, path: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConversionError(path, f"expected {name}, got {describe_json(value)}")
    return value


def describe_json(value: object) -> str:
    """A JSON value for an error message: its JSON type and (shortened) text."""
    if value is None:
        return "null"
    kinds = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{kinds.get(type(value), 'object')} {text}"


def _to_int(value: object, path: str) -> int:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return typing.cast(int, _expect(value, int, "integer", path))


def _to_float(value: object, path: str) -> float:
    # A JSON integer stays an int, as Python's typing lets an int stand for a float
    # (``humanize.intcomma(1234567)`` is "1,234,567", not "1,234,567.0").
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float):
        return value
    named = named_float(value) if isinstance(value, str) else None
    if named is not None:  # "Infinity", "NaN": what a result sends them as
        return named
    raise ConversionError(path, f"expected number, got {describe_json(value)}")


def _parse_text(
    value: object,
    path: str,
    kind: str,
    parse: abc.Callable[[str], object],
    *errors: type[Exception],
) -> object:
    """``parse`` of the string ``value``; a :class:`ConversionError` naming ``kind`` when
    it is no string or ``parse`` refuses it (ValueError, TypeError, ``errors``)."""
    text = _expect(value, str, f"{kind} string", path)
    refusals: tuple[type[Exception], ...] = (ValueError, TypeError, binascii.Error, *errors)
    try:
        return parse(text)
    except refusals:
        raise ConversionError(path, f"expected {kind}, got {describe_json(value)}") from None


# The standard classes' modules are loaded (a hint names one of their classes) when these run.


def _to_datetime(value: object, path: str) -> object:
    datetime = t.loaded_module("datetime")
    read = datetime.datetime.fromisoformat
    return _parse_text(value, path, "an ISO 8601 date-time", lambda s: _offset(read(_utc(s)), s))


def _to_time(value: object, path: str) -> object:
    datetime = t.loaded_module("datetime")
    read = datetime.time.fromisoformat
    return _parse_text(value, path, "an ISO 8601 time", lambda s: _offset(read(_utc(s)), s))


def _utc(text: str) -> str:
    return text[:-1] + "+00:00" if text.endswith("Z") else text


_FINE_OFFSET = re.compile(r"([+-])([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{6})$")


def _offset(parsed: Any, text: str) -> Any:
    """``parsed`` with the microseconds of its UTC offset, which Python 3.11's
    ``fromisoformat`` reads and drops (``+00:00:00.000001``, as ``isoformat`` writes it)."""
    fine = _FINE_OFFSET.search(text)
    if fine is None or parsed.tzinfo is None:
        return parsed
    datetime = t.loaded_module("datetime")
    sign, hours, minutes, seconds, micros = fine.groups()
    delta = datetime.timedelta(
        hours=int(hours), minutes=int(minutes), seconds=int(seconds), microseconds=int(micros)
    )
    return parsed.replace(tzinfo=datetime.timezone(-delta if sign == "-" else delta))


def _to_date(value: object, path: str) -> object:
    datetime = t.loaded_module("datetime")
    parsed = _parse_text(value, path, "an ISO 8601 date", datetime.date.fromisoformat)
    if isinstance(parsed, datetime.datetime):
        raise ConversionError(path, f"expected an ISO 8601 date, got {describe_json(value)}")
    return parsed


def _to_uuid(value: object, path: str) -> object:
    return _parse_text(value, path, "a UUID", t.loaded_module("uuid").UUID)


def _to_decimal(value: object, path: str) -> object:
    decimal = t.loaded_module("decimal")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return decimal.Decimal(str(value))
    return _parse_text(value, path, "a decimal number", decimal.Decimal, decimal.InvalidOperation)


def _to_fraction(value: object, path: str) -> object:
    fractions = t.loaded_module("fractions")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return fractions.Fraction(str(value))  # 0.1 is 1/10, not its nearest binary fraction
    return _parse_text(value, path, "a fraction", fractions.Fraction, ZeroDivisionError)


def binary_from_json(value: object, path: str = "") -> bytes:
    """The bytes a JSON value stands for as an argument: a string is text, taken as its
    UTF-8 bytes, whatever its characters (``"aGk="`` is those four bytes, not their
    base64 reading); any bytes come as ``{"base64": "..."}``; raise
    :class:`ConversionError`."""
    if isinstance(value, str):
        try:
            return value.encode("utf-8")
        except UnicodeEncodeError:
            raise ConversionError(
                path, 'a text with a lone surrogate has no UTF-8 bytes; send {"base64": ...}'
            ) from None
    if isinstance(value, dict) and set(value) == {BASE64_KEY}:
        import base64  # only a bytes parameter needs it

        encoded = value[BASE64_KEY]
        if isinstance(encoded, str):
            try:
                return base64.b64decode(encoded, validate=True)
            except (binascii.Error, ValueError):
                pass
        got = describe_json(encoded)
        raise ConversionError(path, f"expected padded base64 at {BASE64_KEY!r}, got {got}")
    raise ConversionError(
        path,
        f'expected a text (taken as its UTF-8 bytes) or {{"{BASE64_KEY}": "..."}}, '
        f"got {describe_json(value)}",
    )


_SCALARS: dict[type, abc.Callable[[object, str], object]] = {
    bool: lambda v, p: _expect(v, bool, "boolean", p),
    int: _to_int,
    float: _to_float,
    str: lambda v, p: _expect(v, str, "string", p),
    bytes: binary_from_json,
    bytearray: lambda v, p: bytearray(binary_from_json(v, p)),
    memoryview: lambda v, p: memoryview(binary_from_json(v, p)),
}


def _reading(read: abc.Callable[[object, type], object]) -> _Standard:
    """A converter by ``read`` (a duration's, a time zone's, a syntax tree's), whose
    ValueError, which says what is wrong, becomes a :class:`ConversionError`."""

    def convert(value: object, path: str, cls: type) -> object:
        try:
            return read(value, cls)
        except ValueError as error:
            raise ConversionError(path, str(error)) from None

    return convert


_Standard = abc.Callable[[object, str, type], object]
"""A standard kind's converter: the JSON value, its path, and the class asked for."""
_STANDARD: dict[t.StandardKind, _Standard] = {
    "date-time": lambda v, p, _: _to_datetime(v, p),
    "date": lambda v, p, _: _to_date(v, p),
    "time": lambda v, p, _: _to_time(v, p),
    "uuid": lambda v, p, _: _to_uuid(v, p),
    "decimal": lambda v, p, _: _to_decimal(v, p),
    "fraction": lambda v, p, _: _to_fraction(v, p),
    "duration": _reading(lambda v, _: read_duration(v)),
    "time-zone": _reading(read_zone),
    "ast": _reading(read_source),
}
