"""Issue 37's causes already seen, as rules of the object model (each served through a real
process in ``serving/test_rule_causes1.py``):

- a subclass of a standard kind (a ``datetime``, ``date``, ``time``, ``Decimal``,
  ``Fraction``, ``UUID``, path, ``str``, ``int``, ``float`` or ``bytes`` subclass, at
  any depth) has its base kind's schema and converts to an instance of the subclass;
- a union tries its members narrow first (a subclass before its base, ``date`` and
  ``time`` before ``datetime``), and a union of a ``date`` and a ``time`` kind takes a
  date-time too, as a ``datetime``;
- a result declared ``bytes`` (``bytearray``, ``memoryview``, or in a container) fits its
  output schema in the form ``structuredContent`` sends it in, the form a bytes argument
  takes (issue 37, round 4), and converts back to the same bytes.
"""

from __future__ import annotations

import datetime
import decimal
import fractions
import json
import pathlib
import uuid
from typing import Any, Optional

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import objmcp
from objmcp.model.calling.toolbox import tool_result
from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.convert import from_json
from objmcp.model.values.jsonable import argument_form
from objmcp.model.values.mismatch import ConversionError

_OFFSETS = (
    st.timedeltas(
        min_value=-datetime.timedelta(hours=23, minutes=59),
        max_value=datetime.timedelta(hours=23, minutes=59),
    )
    # whole seconds: Python 3.11's datetime.fromisoformat drops an offset's microseconds
    # ("+00:00:00.000001" reads as UTC), and the subclasses here read with it
    .map(lambda offset: datetime.timedelta(seconds=int(offset.total_seconds())))
    .map(datetime.timezone)
)
_ZONES = st.none() | _OFFSETS

KINDS: dict[type, st.SearchStrategy[Any]] = {
    str: st.text(),
    int: st.integers(),
    float: st.floats(allow_nan=False, allow_infinity=False),
    bytes: st.binary(max_size=20),
    bytearray: st.binary(max_size=20).map(bytearray),
    decimal.Decimal: st.decimals(allow_nan=False, allow_infinity=False),
    fractions.Fraction: st.fractions(),
    uuid.UUID: st.uuids(),
    datetime.date: st.dates(),
    datetime.time: st.times(timezones=_ZONES),
    datetime.datetime: st.datetimes(timezones=_ZONES),
    datetime.timedelta: st.timedeltas(),
    pathlib.PurePosixPath: st.text(alphabet="ab/.", min_size=1).map(pathlib.PurePosixPath),
}


def wire(value: object) -> object:
    """``value`` as the other end of a JSON connection sends it as an argument."""
    return json.loads(json.dumps(argument_form(value)))


def subclass_of(base: type, depth: int) -> type:
    """A plain subclass of ``base``, ``depth`` classes down."""
    cls = base
    for level in range(depth):
        cls = type(f"{base.__name__}Sub{level}", (cls,), {})
    return cls


@given(st.sampled_from(list(KINDS)), st.integers(1, 3), st.data())
def test_a_subclass_of_a_standard_kind_takes_its_values_as_instances_of_itself(
    base: type, depth: int, data: st.DataObject
) -> None:
    cls = subclass_of(base, depth)
    plain = data.draw(KINDS[base])
    sent = wire(plain)
    schema = SchemaBuilder().schema(cls)
    assert schema == SchemaBuilder().schema(base) != {}
    Draft202012Validator(schema).validate(sent)
    got = from_json(sent, cls)
    assert type(got) is cls and got == plain
    if isinstance(plain, (datetime.datetime, datetime.time)):
        assert got.utcoffset() == plain.utcoffset()  # type: ignore[attr-defined]


@given(st.sampled_from([datetime.datetime, datetime.time]), st.integers(1, 999_999))
def test_an_offset_of_microseconds_is_kept_in_the_subclass(base: type, micros: int) -> None:
    zone = datetime.timezone(-datetime.timedelta(hours=5, microseconds=micros))
    cls = subclass_of(base, 1)
    plain = base(2026, 12, 6, 1, 2, tzinfo=zone) if base is datetime.datetime else base(1, 2)
    plain = plain.replace(tzinfo=zone)
    got = from_json(wire(plain), cls)
    assert type(got) is cls and got == plain and got.utcoffset() == plain.utcoffset()


class Lowered(str):
    """A subclass that reads its value its own way."""

    def __new__(cls, text: str) -> Lowered:
        return super().__new__(cls, text.lower())


class Port(int):
    """A subclass that refuses some values of its kind."""

    def __new__(cls, number: int) -> Port:
        if not 0 < number < 65536:
            raise ValueError(f"no port {number}")
        return super().__new__(cls, number)


class Labelled(float):
    """A subclass whose constructor wants more than a value."""

    def __new__(cls, number: float, label: str) -> Labelled:
        made = super().__new__(cls, number)
        made.label = label  # type: ignore[attr-defined]
        return made


class Moment(datetime.datetime):
    """A subclass with a constructor of its own, as pendulum's and the like."""

    def __new__(cls, text: str) -> Moment:  # type: ignore[misc]
        return cls.fromisoformat(text)

    @classmethod
    def fromisoformat(cls, text: str) -> Moment:
        read = datetime.datetime.fromisoformat(text)
        return super().__new__(cls, *read.timetuple()[:6], read.microsecond, read.tzinfo)


@given(st.text())
def test_the_subclass_reads_the_value_its_own_way(text: str) -> None:
    got = from_json(text, Lowered)
    assert type(got) is Lowered and got == text.lower()


@given(st.integers(-(2**53), 2**53))
def test_a_refusal_of_the_subclass_is_an_error_and_a_way_it_lacks_gives_the_base_kind(
    number: int,
) -> None:
    if 0 < number < 65536:
        assert type(from_json(number, Port)) is Port
    else:
        with pytest.raises(ConversionError, match=f"Port refused it: no port {number}"):
            from_json(number, Port)
    got = from_json(float(number), Labelled)  # Labelled(number) lacks its label
    assert type(got) is float and got == number


@given(st.datetimes(timezones=_ZONES))
def test_a_date_subclass_is_made_by_its_own_fromisoformat(moment: datetime.datetime) -> None:
    got = from_json(moment.isoformat(), Moment)
    assert type(got) is Moment and got == moment


DATE_KINDS: dict[type, st.SearchStrategy[Any]] = {
    datetime.date: st.dates(),
    datetime.time: st.times(timezones=_ZONES),
    datetime.datetime: st.datetimes(timezones=_ZONES),
    datetime.timedelta: st.timedeltas(),
    float: st.floats(allow_nan=False, allow_infinity=False),
    type(None): st.none(),
}


@given(
    st.lists(st.sampled_from(list(DATE_KINDS)), unique=True).map(
        lambda others: [datetime.date, datetime.time, *others]
    ),
    st.randoms(use_true_random=False),
    st.data(),
)
def test_a_union_of_date_kinds_takes_each_kind_as_itself(
    members: list[type], order: Any, data: st.DataObject
) -> None:
    order.shuffle(members)
    union = members[0]
    for member in members[1:]:
        union = union | member  # type: ignore[assignment]
    kind = data.draw(st.sampled_from([*members, datetime.datetime]))
    value = data.draw(DATE_KINDS[kind])
    schema = SchemaBuilder().schema(union)
    assert {"type": "string", "format": "date-time"} in schema["anyOf"]
    Draft202012Validator(schema).validate(wire(value))
    got = from_json(wire(value), union)
    assert type(got) is type(value) and got == value


Stamp = subclass_of(datetime.datetime, 1)
Day = subclass_of(datetime.date, 1)
Name = subclass_of(str, 1)


@given(
    st.sampled_from(
        [
            (datetime.datetime, Stamp, st.datetimes()),
            (datetime.date, Day, st.dates()),
            (str, Name, st.text()),
            (datetime.date, Stamp, st.datetimes()),
        ]
    ),
    st.booleans(),
    st.data(),
)
def test_a_union_tries_a_subclass_before_its_base(
    case: tuple[type, type, st.SearchStrategy[Any]], base_first: bool, data: st.DataObject
) -> None:
    base, cls, values = case
    union = base | cls if base_first else cls | base
    value = data.draw(values)
    got = from_json(wire(value), union)
    assert type(got) is cls and got == value


BYTES_RESULTS: dict[str, tuple[object, st.SearchStrategy[Any]]] = {
    "bytes": (bytes, st.binary()),
    "bytearray": (bytearray, st.binary().map(bytearray)),
    "memoryview": (memoryview, st.binary().map(memoryview)),
    "optional": (Optional[bytes], st.none() | st.binary()),  # noqa: UP045
    "list": (list[bytes], st.lists(st.binary(), max_size=3)),
    "mapping": (dict[str, bytes], st.dictionaries(st.text(), st.binary(), max_size=3)),
    "tuple": (tuple[bytes, ...], st.lists(st.binary(), max_size=3).map(tuple)),
}


def plain(value: object) -> object:
    """``value`` with its bytes-like values as bytes and its tuples as lists."""
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


@given(st.sampled_from(sorted(BYTES_RESULTS)), st.data())
def test_a_result_declared_bytes_fits_its_output_schema_and_converts_back(
    name: str, data: st.DataObject
) -> None:
    hint, values = BYTES_RESULTS[name]
    value = data.draw(values)

    def method() -> None:
        return value  # type: ignore[no-any-return]

    method.__annotations__["return"] = hint
    tool = objmcp.Toolbox({"method": method})["method"]
    assert tool.output_schema is not None
    result = tool_result(tool, value)
    assert not result.is_error, result.text
    assert result.structured is not None
    jsonschema.validate(result.structured, tool.output_schema)
    sent = json.loads(json.dumps(result.structured))  # JSON all through: no bytes left
    sent = sent["result"] if tool.wraps_output else sent
    assert plain(from_json(sent, hint)) == plain(value)


@given(st.sampled_from([fractions.Fraction, decimal.Decimal]), st.integers(1, 60))
def test_an_exact_number_as_an_argument_reads_back_as_itself(kind: type, power: int) -> None:
    # 2**-power is exact as a double, but a double's shortest digits are not its value
    value = kind(1) / kind(2**power)
    assert from_json(wire(value), kind) == value
