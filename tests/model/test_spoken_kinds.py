"""Standard kinds a model says as text (issue 37, round 3), as rules of the object model
(each served through a real process in ``serving/test_spoken_kinds.py``):

- a ``datetime.timedelta`` takes ISO 8601 duration text (weeks, days, hours, minutes,
  seconds, fractions, a sign; no years or months), a number of seconds, Python's own text
  of a ``timedelta`` (what one answers with) and the object of its fields;
- a ``datetime.tzinfo`` takes an IANA name, ``"UTC"``/``"Z"`` or a fixed offset, a
  ``zoneinfo.ZoneInfo`` a name, a ``datetime.timezone`` an offset; a zone answers with its
  name, which reads back;
- an ``ast`` node (``ast.AST``, ``ast.expr``, ``ast.stmt``, ``ast.Module`` ...) takes its
  source text and answers with it (``ast.unparse``);
- an element of the ElementTree API (the standard library's, or any class with its shape)
  answers with its XML text.
"""

from __future__ import annotations

import ast
import datetime
import json
import keyword
import zoneinfo
from collections.abc import Iterator
from typing import Any
from xml.etree import ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.convert import from_json
from objmcp.model.values.durations import iso_duration
from objmcp.model.values.jsonable import argument_form, to_jsonable
from objmcp.model.values.mismatch import ConversionError


def wire(value: object) -> Any:
    """``value`` as JSON carries it."""
    return json.loads(json.dumps(value))


# --- durations ----------------------------------------------------------------------------


@given(st.timedeltas())
def test_any_timedelta_as_iso_8601_text_converts_back_to_itself(delta: datetime.timedelta) -> None:
    text = iso_duration(delta)
    assert argument_form(delta) == text
    schema = SchemaBuilder().schema(datetime.timedelta)
    Draft202012Validator(schema).validate(text)
    assert from_json(wire(text), datetime.timedelta) == delta
    answered = to_jsonable(delta)  # Python's own text: "1 day, 2:00:00"
    assert answered == str(delta) and from_json(answered, datetime.timedelta) == delta


@given(
    st.sampled_from(["W", "D", "H", "M", "S"]),
    st.integers(0, 10_000),
    st.integers(0, 999_999),
    st.sampled_from(["", "-", "+"]),
)
def test_a_unit_with_a_fraction_is_its_exact_microseconds(
    unit: str, whole: int, micros: int, sign: str
) -> None:
    microseconds = {"W": 604_800, "D": 86_400, "H": 3_600, "M": 60, "S": 1}[unit] * 10**6
    time = "T" if unit in "HMS" else ""
    text = f"{sign}P{time}{whole}.{micros:06d}{unit}"
    exact = whole * microseconds + micros * microseconds // 10**6
    rest = micros * microseconds % 10**6
    expected = exact + (1 if rest * 2 > 10**6 or (rest * 2 == 10**6 and exact % 2) else 0)
    got = from_json(text, datetime.timedelta)
    assert got == datetime.timedelta(microseconds=-expected if sign == "-" else expected)


@pytest.mark.parametrize("text", ["P1Y", "P2M", "P1Y2M3DT4H", "-P3M"])
def test_years_and_months_are_refused_with_the_reason(text: str) -> None:
    with pytest.raises(ConversionError, match="years and months have no fixed length"):
        from_json(text, datetime.timedelta)


@pytest.mark.parametrize("value", ["P", "PT", "P1DT", "1h", "", True, [1], {"hour": 1}])
def test_what_says_no_duration_is_refused(value: object) -> None:
    with pytest.raises(ConversionError):
        from_json(value, datetime.timedelta)


@given(st.floats(-1e9, 1e9, allow_nan=False) | st.integers(-(10**9), 10**9))
def test_a_number_is_seconds(seconds: float) -> None:
    assert from_json(seconds, datetime.timedelta) == datetime.timedelta(seconds=seconds)


def test_a_number_or_a_time_in_a_union_is_not_taken_for_a_duration() -> None:
    assert from_json(1.5, float | datetime.timedelta) == 1.5
    assert from_json("12:30:00", datetime.timedelta | datetime.time) == datetime.time(12, 30)
    assert from_json("PT1H", str | datetime.timedelta) == "PT1H"


# --- time zones ---------------------------------------------------------------------------

_OFFSETS = st.timedeltas(
    min_value=-datetime.timedelta(hours=24) + datetime.timedelta(microseconds=1),
    max_value=datetime.timedelta(hours=24) - datetime.timedelta(microseconds=1),
)
_NAMES = sorted(zoneinfo.available_timezones())


@given(_OFFSETS)
def test_a_fixed_offset_answers_with_its_name_which_reads_back(offset: datetime.timedelta) -> None:
    zone = datetime.timezone(offset)
    said = to_jsonable(zone)
    assert said == str(zone)
    for hint in (datetime.timezone, datetime.tzinfo):
        Draft202012Validator(SchemaBuilder().schema(hint)).validate(said)
        got = from_json(said, hint)
        assert type(got) is datetime.timezone and got == zone


@pytest.mark.skipif(not _NAMES, reason="never: the IANA database is a test dependency")
@given(st.sampled_from(_NAMES or ["UTC"]))
def test_a_named_zone_answers_with_its_name_which_reads_back(name: str) -> None:
    zone = zoneinfo.ZoneInfo(name)
    assert to_jsonable(zone) == name
    assert from_json(name, zoneinfo.ZoneInfo) is zone
    got = from_json(name, datetime.tzinfo)
    assert got is zone or (name == "UTC" and got is datetime.timezone.utc)


@given(
    st.integers(-23, 23), st.integers(0, 59), st.sampled_from(["{}{:02d}:{:02d}", "{}{:02d}{:02d}"])
)
def test_an_offset_text_is_a_fixed_zone(hours: int, minutes: int, form: str) -> None:
    text = form.format("-" if hours < 0 else "+", abs(hours), minutes)
    delta = datetime.timedelta(hours=abs(hours), minutes=minutes)
    expected = datetime.timezone(-delta if hours < 0 else delta)
    assert from_json(text, datetime.tzinfo) == expected
    with pytest.raises(ConversionError, match="named zone"):
        from_json(text, zoneinfo.ZoneInfo)


@pytest.mark.parametrize("text", ["UTC", "Z", "z", " UTC "])
def test_utc_is_the_standard_librarys_utc(text: str) -> None:
    assert from_json(text, datetime.tzinfo) is datetime.timezone.utc
    assert from_json(text, datetime.timezone) is datetime.timezone.utc
    assert from_json(text, zoneinfo.ZoneInfo) is zoneinfo.ZoneInfo("UTC")


@pytest.mark.parametrize("text", ["Mars/Olympus", "../etc/passwd", "+24:00", "", "Europe/"])
def test_what_names_no_zone_is_refused(text: str) -> None:
    with pytest.raises(ConversionError):
        from_json(text, datetime.tzinfo)


def test_a_library_tzinfo_subclass_is_no_standard_zone() -> None:
    class Own(datetime.tzinfo):
        """A library's own zone class (as pytz's): not made from a zone's text."""

    schema = SchemaBuilder(quiet=True).schema(Own)
    assert schema != SchemaBuilder().schema(datetime.tzinfo)


# --- syntax trees -------------------------------------------------------------------------

_OPERATORS = [ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow]


def _expressions() -> st.SearchStrategy[ast.expr]:
    leaves = st.integers(0, 10**6).map(ast.Constant) | st.from_regex(
        r"[a-z_][a-z0-9_]{0,5}", fullmatch=True
    ).filter(lambda name: not keyword.iskeyword(name)).map(lambda name: ast.Name(name, ast.Load()))

    def extend(inner: st.SearchStrategy[ast.expr]) -> st.SearchStrategy[ast.expr]:
        binary = st.builds(
            lambda left, op, right: ast.BinOp(left, op(), right),
            inner,
            st.sampled_from(_OPERATORS),
            inner,
        )
        unary = st.builds(
            lambda op, operand: ast.UnaryOp(op(), operand),
            st.sampled_from([ast.USub, ast.Invert]),
            inner,
        )
        return binary | unary

    return st.recursive(leaves, extend, max_leaves=12)


@given(_expressions())
def test_an_expression_round_trips_through_its_source_text(node: ast.expr) -> None:
    said = to_jsonable(node)
    assert isinstance(said, str)
    Draft202012Validator(SchemaBuilder().schema(ast.expr)).validate(said)
    for hint in (ast.expr, ast.AST, type(node)):
        got = from_json(said, hint)
        assert isinstance(got, hint) and ast.dump(got) == ast.dump(node)
    module = from_json(said, ast.Module)
    assert ast.dump(module.body[0].value) == ast.dump(node)  # type: ignore[attr-defined]


@given(st.lists(_expressions(), min_size=1, max_size=4))
def test_statements_round_trip_through_their_source_text(values: list[ast.expr]) -> None:
    statements: list[ast.stmt] = [
        ast.Assign([ast.Name(f"v{i}", ast.Store())], value, lineno=1)
        for i, value in enumerate(values)
    ]
    tree = ast.Module(statements, [])
    said = to_jsonable(tree)
    assert ast.dump(from_json(said, ast.Module)) == ast.dump(tree)  # type: ignore[arg-type]
    one = to_jsonable(statements[0])
    assert ast.dump(from_json(one, ast.stmt)) == ast.dump(statements[0])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "hint", "message"),
    [
        ("1 +", ast.expr, "not Python source of an expression"),
        ("x = 1", ast.expr, "not Python source of an expression"),
        ("x = 1\ny = 2", ast.stmt, "expected one statement, got 2"),
        ("f(x)", ast.Name, "expected an expression (Name), got Call source"),
        ("x\0", ast.expr, "not Python source"),
        (3, ast.expr, "expected the Python source text"),
    ],
)
def test_what_is_not_source_of_the_node_is_refused(text: object, hint: type, message: str) -> None:
    with pytest.raises(ConversionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        from_json(text, hint)


def test_a_node_that_has_no_text_alone_is_no_standard_kind() -> None:
    assert SchemaBuilder(quiet=True).schema(ast.arguments) != SchemaBuilder().schema(ast.expr)


# --- XML elements -------------------------------------------------------------------------

_NAME = st.from_regex(r"[a-z][a-z0-9]{0,5}", fullmatch=True)
_TEXT = st.none() | st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff"),
    min_size=1,
    max_size=8,
)


class Shaped:
    """An element of the ElementTree API of a class of this test's own (as lxml's are)."""

    def __init__(self, tag: str, attrib: dict[str, str], text: str | None) -> None:
        self.tag, self.attrib, self.text, self.tail = tag, attrib, text, None
        self.children: list[Shaped] = []

    def __iter__(self) -> Iterator[Shaped]:
        return iter(self.children)


def _trees() -> st.SearchStrategy[tuple[Any, ...]]:
    """(tag, attributes, text, tail, children) of a tree of elements."""
    leaf = st.tuples(
        _NAME,
        st.dictionaries(_NAME, _TEXT.map(lambda t: t or ""), max_size=3),
        _TEXT,
        _TEXT,
        st.just([]),
    )
    return st.recursive(
        leaf,
        lambda inner: st.tuples(
            _NAME,
            st.dictionaries(_NAME, _TEXT.map(lambda t: t or ""), max_size=3),
            _TEXT,
            _TEXT,
            st.lists(inner, max_size=3),
        ),
        max_leaves=8,
    )


def _standard(tree: tuple[Any, ...], root: bool = True) -> ElementTree.Element:
    tag, attrib, text, tail, children = tree
    element = ElementTree.Element(tag, attrib)
    element.text, element.tail = text, None if root else tail
    element.extend(_standard(child, root=False) for child in children)
    return element


def _shaped(tree: tuple[Any, ...], root: bool = True) -> Shaped:
    tag, attrib, text, tail, children = tree
    element = Shaped(tag, attrib, text)
    element.tail = None if root else tail
    element.children = [_shaped(child, root=False) for child in children]
    return element


def _content(element: Any) -> tuple[Any, ...]:
    return (
        element.tag,
        dict(element.attrib),
        element.text or None,
        element.tail or None,
        [_content(child) for child in element],
    )


@given(_trees(), st.booleans())
def test_an_element_answers_with_xml_that_parses_back_to_it(
    tree: tuple[Any, ...], own: bool
) -> None:
    element = _shaped(tree) if own else _standard(tree)
    said = to_jsonable(element)
    assert isinstance(said, str)
    assert _content(ElementTree.fromstring(said)) == _content(_standard(tree))
    assert said == ElementTree.tostring(_standard(tree), encoding="unicode")


def test_a_thing_with_a_tag_but_no_element_shape_is_not_xml() -> None:
    class Tagged:
        tag = "v1"
        attrib = None

        def __str__(self) -> str:
            return "tagged v1"

    assert to_jsonable(Tagged()) == "tagged v1"
