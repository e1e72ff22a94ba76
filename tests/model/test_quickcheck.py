"""The quick check (objmcp/_quickcheck.py): a predicate compiled from a JSON Schema that may
say True only of values ``jsonschema``'s Draft202012Validator (no format checker) accepts;
False only means "ask jsonschema", and None means the schema is beyond it.

Soundness is a property over schemas made of every keyword it understands (and the schemas
objmcp builds), and values of every JSON kind: arbitrary ones, ones shaped after the schema,
valid ones from hypothesis-jsonschema, and those with one change somewhere. Usefulness: for
the schemas objmcp builds for plain parameters the check exists and agrees with jsonschema
on valid values. Anything else a schema says gives None."""

from __future__ import annotations

import datetime
import decimal
import enum
import functools
import json
import math
import pathlib
import uuid
from collections.abc import Callable
from typing import Annotated, Any, Literal, Optional, Union

import pytest
from hypothesis import (
    HealthCheck,
    currently_in_test_context,
    event,
    example,
    given,
    settings,
)
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

import objmcp
from objmcp.model.values.quickcheck import quick_check

SETTINGS = settings(max_examples=120, deadline=None)
FROM_SCHEMA = settings(  # hypothesis-jsonschema is slow to draw from: few, for many schemas
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# --- values ---------------------------------------------------------------------------------

KEYS = ["a", "b", "c", "", "é"]
"""Property names: the schemas below use these, and so do the values."""
POOL: list[Any] = [0, 1, 2, -1, 3, 2**64, 10**30, 0.0, -0.0, 1.0, 2.0, 0.5, -1.5, 1e300]
POOL += [True, False, None, "", "a", "b", "ab", "é", "\U0001f600", "1", [], {}, [1], {"a": 1}]
"""Values the schemas name (enum, const) and the values meet, on purpose."""

scalars = st.one_of(
    st.sampled_from(POOL),
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**300), max_value=2**300),
    st.integers(-1000, 1000).map(float),  # integral floats: 2.0 is an integer to JSON Schema
    st.sampled_from([-0.0, 0.0, 1e308, -1e308, 2.0**53, 5e-324]),
    st.floats(),  # NaN and infinities too: a tool may return them
    st.text(max_size=6),
    st.text(),
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=3), children, max_size=4)
    ),
    max_leaves=12,
)

# --- schemas of the keywords the quick check knows -------------------------------------------

DIALECTS = [
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/schema#",
]
TYPE_NAMES = ["string", "integer", "number", "boolean", "null", "array", "object"]
types = st.sampled_from(TYPE_NAMES) | st.lists(st.sampled_from(TYPE_NAMES), min_size=1, max_size=3)
members = st.sampled_from(POOL) | json_values
numbers = st.one_of(
    st.sampled_from([0, 1, -1, 2, 0.5, -0.5, 1.0, -0.0, 2**64, 1e300, -1e300, 2**1100]),
    st.integers(-5, 5),
    st.floats(-5, 5),
)
sizes = st.integers(-1, 4)
ANNOTATION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "title": st.text(max_size=5),
    "description": st.text(max_size=5),
    "default": json_values,
    "examples": st.lists(json_values, max_size=2),
    "format": st.sampled_from(["date-time", "date", "uuid", "email", "int32", "nonsense"]),
    "deprecated": st.booleans(),
    "readOnly": st.booleans(),
    "writeOnly": st.booleans(),
    "$comment": st.text(max_size=5),
    "contentMediaType": st.just("application/json"),
    "contentEncoding": st.just("base64"),
}
annotations = st.lists(st.sampled_from(sorted(ANNOTATION_VALUES)), max_size=2, unique=True).flatmap(
    lambda names: st.fixed_dictionaries({name: ANNOTATION_VALUES[name] for name in names})
)


def keyword_values(children: st.SearchStrategy[Any]) -> dict[str, st.SearchStrategy[Any]]:
    return {
        "type": types,
        "enum": st.lists(members, max_size=4),
        "const": members,
        "anyOf": st.lists(children, min_size=1, max_size=3),
        "properties": st.dictionaries(st.sampled_from(KEYS), children, max_size=3),
        "required": st.lists(st.sampled_from(KEYS), max_size=3),
        "additionalProperties": st.booleans() | children,
        "items": children,
        "minimum": numbers,
        "maximum": numbers,
        "exclusiveMinimum": numbers,
        "exclusiveMaximum": numbers,
        "minLength": sizes,
        "maxLength": sizes,
        "minItems": sizes,
        "maxItems": sizes,
    }


def with_keywords(children: st.SearchStrategy[Any], most: int) -> st.SearchStrategy[Any]:
    """Schemas of up to ``most`` keywords (and maybe annotations) over ``children``."""
    values = keyword_values(children)
    chosen = st.lists(st.sampled_from(sorted(values)), min_size=1, max_size=most, unique=True)
    return st.builds(
        lambda keywords, notes: {**notes, **keywords},
        chosen.flatmap(lambda names: st.fixed_dictionaries({n: values[n] for n in names})),
        annotations,
    )


schemas = st.recursive(
    st.just({}) | st.just(True) | with_keywords(st.just({}), 2),
    lambda children: with_keywords(children, 3),
    max_leaves=6,
)


def near(limits: list[Any]) -> list[Any]:
    """Numbers at, just inside and just outside each of ``limits``."""
    found: list[Any] = []
    for limit in limits:
        if type(limit) not in (int, float) or not -1e300 < limit < 1e300:
            continue  # not a number; or too big for a float next to it
        found += [limit, limit + 1, limit - 1, float(limit)]
        found += [math.nextafter(limit, math.inf), math.nextafter(limit, -math.inf)]
        if type(limit) is float and limit.is_integer():
            found.append(int(limit))
    return found


def size_near(schema: dict[str, Any], words: tuple[str, str]) -> st.SearchStrategy[int]:
    """A size at or next to the bounds ``words`` in ``schema``, or a small one."""
    sizes = [s for w in words if type(schema.get(w)) is int for s in near([schema[w]]) if s >= 0]
    small = st.integers(0, 4)
    return st.sampled_from([int(s) for s in sizes]) | small if sizes else small


@st.composite
def shaped(draw: st.DrawFn, schema: Any) -> Any:
    """A value made after ``schema`` (often valid, often not quite; at its bounds)."""
    if not isinstance(schema, dict) or draw(st.integers(0, 9)) == 0:
        return draw(json_values)
    if isinstance(schema.get("enum"), list) and schema["enum"] and draw(st.booleans()):
        return draw(st.sampled_from(schema["enum"]))
    if "const" in schema and draw(st.booleans()):
        return schema["const"]
    if schema.get("anyOf") and draw(st.booleans()):
        return draw(shaped(draw(st.sampled_from(schema["anyOf"]))))
    kinds = schema.get("type", draw(st.sampled_from(TYPE_NAMES)))
    kind = kinds if isinstance(kinds, str) else draw(st.sampled_from(kinds))
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        names = draw(st.lists(st.sampled_from(KEYS), max_size=4, unique=True))
        names = list(dict.fromkeys([*schema.get("required", []), *names]))
        extra = schema.get("additionalProperties", {})
        return {
            name: draw(shaped(properties.get(name, extra if extra is not False else {})))
            for name in names
        }
    if kind == "array" or "items" in schema:
        size = draw(size_near(schema, ("minItems", "maxItems")))
        return [draw(shaped(schema.get("items", {}))) for _ in range(size)]
    if kind == "string":
        size = draw(size_near(schema, ("minLength", "maxLength")))
        return draw(st.text(min_size=size, max_size=size))
    bounds = near([schema.get(word) for word in ("minimum", "maximum")])
    bounds += near([schema.get(word) for word in ("exclusiveMinimum", "exclusiveMaximum")])
    kind_values: dict[str, st.SearchStrategy[Any]] = {
        "integer": st.integers(-6, 6) | st.integers(-6, 6).map(float) | st.integers(),
        "number": numbers | st.floats(),
        "boolean": st.booleans(),
        "null": st.none(),
    }
    if kind in ("integer", "number") and bounds and draw(st.booleans()):
        return draw(st.sampled_from(bounds))
    return draw(kind_values.get(kind, json_values))


def mutate(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with one change, at its top or somewhere inside."""
    if isinstance(value, (list, dict)) and value and draw(st.booleans()):
        if isinstance(value, list):
            index = draw(st.integers(0, len(value) - 1))
            return [*value[:index], mutate(draw, value[index]), *value[index + 1 :]]
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: mutate(draw, value[key])}
    changes: list[Any] = [draw(json_values), None, True, False, 0, "", [], {}]
    if type(value) is bool:
        changes += [int(value), float(value)]
    elif type(value) is int:
        changes += [value + 1, value - 1, -value, float(value) if abs(value) < 2**1000 else 1e308]
        changes += [value == 1, str(value)]
    elif type(value) is float:
        changes += [value + 0.5, -value, math.nextafter(value, math.inf), str(value)]
        if value.is_integer():
            changes += [int(value)]
    elif type(value) is str:
        changes += [value + "x", value[:-1], value * 2, [value]]
    elif type(value) is list:
        changes += [[*value, draw(json_values)], value[:-1], value * 2, {"0": value}]
    elif type(value) is dict:
        changes += [{**value, draw(st.sampled_from(KEYS)): draw(json_values)}, [value]]
        if value:
            gone = draw(st.sampled_from(sorted(value)))
            changes.append({k: v for k, v in value.items() if k != gone})
    return draw(st.sampled_from(changes))


@functools.cache
def validator(text: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(text))


def is_valid(schema: Any, value: Any) -> bool:
    """What jsonschema says of ``value`` (no format checker, as objmcp's validators)."""
    return bool(validator(json.dumps(schema)).is_valid(value))


def assert_sound(quick: Callable[[object], bool], schema: Any, value: Any) -> None:
    said = quick(value)
    assert type(said) is bool, said
    if currently_in_test_context():
        event(f"quick says {said}" + (" (to a schema that says something)" if schema else ""))
    if said:
        assert is_valid(schema, value), f"quick said yes to {value!r}, jsonschema says no"


# --- soundness over schemas of the known keywords --------------------------------------------


@SETTINGS
@given(schema=schemas, value=json_values)
@example(schema={"type": "integer"}, value=2.0)
@example(schema={"type": "integer"}, value=True)
@example(schema={"type": "number"}, value=float("nan"))
@example(schema={"enum": [1, 1.0, True, None, "a"]}, value=True)
@example(schema={"enum": [1]}, value=1.0)
@example(schema={"enum": [0]}, value=False)
@example(schema={"enum": [0.0]}, value=-0.0)
@example(schema={"const": False}, value=0)
@example(schema={"const": 1}, value=True)
@example(schema={"const": [1]}, value=[True])
@example(schema={"const": "1"}, value=1)
@example(schema={"minimum": 2**64}, value=float(2**64))
@example(schema={"maximum": 0.1}, value=2**1100)
@example(schema={"exclusiveMaximum": 0}, value=-0.0)
@example(schema={"minimum": 1}, value=True)
@example(schema={"maxLength": 1}, value="\U0001f600")
@example(schema={"minLength": 2}, value="é")
@example(schema={"minItems": 1}, value=[])
@example(schema={"maxItems": 1}, value=[1, 2])
@example(schema={"exclusiveMinimum": 1}, value=1.0)
@example(schema={"required": ["a"]}, value=["a"])
@example(schema={"properties": {"a": {"type": "string"}}}, value={"a": 1})
@example(schema={"additionalProperties": False, "properties": {"a": {}}}, value={"b": 1})
@example(schema={"items": {"type": "integer"}}, value=[1, 2.5])
@example(schema={"anyOf": [{"type": "string"}, {"minimum": 3}]}, value=2)
def test_a_quick_yes_is_a_yes_of_jsonschema(schema: Any, value: Any) -> None:
    quick = quick_check(schema)
    assert quick is not None, schema  # every keyword and annotation here is a known one
    assert_sound(quick, schema, value)


@SETTINGS
@given(st.data())
def test_a_quick_yes_is_sound_for_values_shaped_after_the_schema(data: st.DataObject) -> None:
    schema = data.draw(schemas, "schema")
    quick = quick_check(schema)
    assert quick is not None, schema
    value = data.draw(shaped(schema), "value")
    assert_sound(quick, schema, value)
    assert_sound(quick, schema, mutate(data.draw, value))


# --- the schemas objmcp builds ---------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Params:
    """Methods whose input schemas objmcp builds from plain parameter types."""

    def integer(self, x: int) -> int:
        return x

    def text(self, s: str) -> str:
        return s

    def flag(self, b: bool) -> bool:
        return b

    def real(self, x: float) -> float:
        return x

    def integers(self, xs: list[int]) -> list[int]:
        return xs

    def counts(self, d: dict[str, int]) -> dict[str, int]:
        return d

    def maybe(self, x: Optional[int] = None) -> Optional[int]:  # noqa: UP045 (as users write it)
        return x

    def letter(self, x: Literal["a", "b"]) -> str:
        return x

    def one_or_two(self, x: Literal[1, 2]) -> int:
        return x

    def colour(self, c: Color) -> Color:
        return c

    def level(self, level: Level) -> int:
        return int(level)

    def described(self, x: Annotated[int, "a number"], y: Annotated[str, "a word"] = "") -> str:
        return y * x

    def defaults(self, a: int, b: str = "x", c: float = 1.5, d: bool = False) -> str:
        return f"{a}{b}{c}{d}"

    def either(self, x: Union[int, str]) -> str:  # noqa: UP007 (as users write it)
        return str(x)

    def either_new(self, x: int | str | None) -> str:
        return str(x)

    def nested(self, grid: list[list[Optional[float]]], tags: dict[str, list[bool]]) -> int:  # noqa: UP045
        return len(grid) + len(tags)

    def many(
        self,
        a: int,
        b: str,
        c: float,
        d: bool,
        e: list[str],
        f: dict[str, float],
        g: str | None = None,
        h: tuple[int, ...] = (),
        i: list[int] | None = None,
        j: Any = None,
        k: Literal["x", "y"] = "x",
    ) -> dict[str, Any]:
        return {"a": a}

    def stamped(self, when: datetime.datetime, day: datetime.date, key: uuid.UUID) -> str:
        return str(when)

    def odd_kinds(self, path: pathlib.Path, amount: decimal.Decimal, raw: bytes) -> str:
        return str(path)

    def anything(self, value: Any, more: object = None) -> Any:
        return value

    def star_args(self, *numbers: int) -> int:
        return sum(numbers)

    def star_kwargs(self, **names: str) -> list[str]:
        return list(names)

    def nothing(self) -> None:
        return None

    # beyond the quick check (uniqueItems, prefixItems, propertyNames, $ref)
    def a_set(self, s: set[int]) -> int:
        return len(s)

    def a_pair(self, p: tuple[int, str]) -> str:
        return p[1]

    def int_keys(self, d: dict[int, str]) -> int:
        return len(d)

    def mixed_literal(self, x: Literal[1, "a", True, None]) -> str:
        return str(x)


PLAIN = [
    "integer",
    "text",
    "flag",
    "real",
    "integers",
    "counts",
    "maybe",
    "letter",
    "one_or_two",
    "colour",
    "level",
    "described",
    "defaults",
    "either",
    "either_new",
    "nested",
    "many",
    "stamped",
    "odd_kinds",
    "anything",
    "star_args",
    "star_kwargs",
    "nothing",
]
"""Tools whose every parameter the quick check must understand."""

TOOLS = objmcp.Toolbox(Params())
BEYOND_WORDS = ("$ref", "$defs", "prefixItems", "uniqueItems", "propertyNames")
FORMATS = {"uuid": st.uuids().map(str)}


@functools.cache
def valid_values(text: str) -> st.SearchStrategy[Any]:
    """Values valid against the schema ``text`` (hypothesis-jsonschema)."""
    return from_schema(json.loads(text), custom_formats=FORMATS)


def hand_written() -> list[Any]:
    """A schema for each keyword (and a few of them together)."""
    return [
        {"type": "string"},
        {"type": ["integer", "null"]},
        {"type": ["number", "string", "boolean"]},
        {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
        {"type": "object", "properties": {"a": {}}, "additionalProperties": False},
        {"type": "object", "additionalProperties": True, "required": ["a", "b"]},
        {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "null"}}},
        {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 3}},
        {"type": "array", "minItems": 1, "maxItems": 3, "items": {"enum": [1, 2, 3]}},
        {"enum": ["a", "b", "é"]},
        {"enum": [1, 2, 2**70]},
        {"enum": [1, 2.5, True, None, "x", [1], {"a": 1}]},
        {"const": "fixed"},
        {"const": 7},
        {"const": 0.25},
        {"anyOf": [{"type": "integer", "minimum": 10}, {"type": "string", "maxLength": 2}]},
        {"type": "integer", "minimum": -3, "maximum": 3},
        {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        {"type": "number", "minimum": 0.5, "maximum": 2**64},
        {"type": "string", "format": "date-time", "description": "when"},
        {
            "type": "object",
            "properties": {
                "p": {"type": "array", "items": {"anyOf": [{"type": "number"}, {"const": "n"}]}},
                "q": {"type": "object", "additionalProperties": {"type": "boolean"}},
            },
            "required": ["p"],
            "additionalProperties": False,
            "title": "nested",
        },
    ]


def built() -> list[Any]:
    """Every input and output schema objmcp builds for Params (each once)."""
    found: dict[str, Any] = {}
    for tool in TOOLS.values():
        for schema in (tool.input_schema, tool.output_schema):
            if schema is not None:
                found.setdefault(json.dumps(schema, sort_keys=True), schema)
    return list(found.values())


def schema_id(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True)[:60]


@pytest.mark.parametrize("schema", hand_written() + built(), ids=schema_id)
@FROM_SCHEMA
@given(data=st.data())
def test_valid_values_and_their_mutations_get_a_sound_answer(
    schema: Any, data: st.DataObject
) -> None:
    quick = quick_check(schema)
    if quick is None:  # only for the schemas of Params beyond it
        assert any(word in json.dumps(schema) for word in BEYOND_WORDS), schema
        return
    value = data.draw(valid_values(json.dumps(schema)), "valid")
    assert is_valid(schema, value)
    assert_sound(quick, schema, value)
    for _ in range(2):
        assert_sound(quick, schema, mutate(data.draw, value))


def test_the_schemas_are_the_ones_objmcp_builds_for_its_tools() -> None:
    """Params goes through the same Server objmcp runs: the schemas tested are the served ones."""
    server = objmcp.Server("x", Params())
    for name in PLAIN:
        assert server.toolbox[name].input_schema == TOOLS[name].input_schema


# --- usefulness: plain parameters get a check that says yes to valid values -----------------


@pytest.mark.parametrize("name", PLAIN)
@FROM_SCHEMA
@given(data=st.data())
def test_plain_parameters_and_results_get_a_check_that_says_yes_to_valid_values(
    name: str, data: st.DataObject
) -> None:
    schema = TOOLS[name].input_schema
    quick = quick_check(schema)
    assert quick is not None, schema
    arguments = data.draw(valid_values(json.dumps(schema)), "arguments")
    assert is_valid(schema, arguments)
    assert quick(arguments) is True, (schema, arguments)
    # the wrong kind for each parameter is a quick no (jsonschema says why)
    for key, value in arguments.items():
        wrong = {**arguments, key: {"not": [value]}}
        if not is_valid(schema, wrong):
            assert quick(wrong) is False
    output = TOOLS[name].output_schema
    if output is None:  # nothing declared (None, Any): nothing to check
        return
    quick = quick_check(output)
    assert quick is not None, output
    result = data.draw(valid_values(json.dumps(output)), "result")
    assert quick(result) is True, (output, result)


def test_known_answers() -> None:
    """A few values each way, for the schemas objmcp builds."""
    integer = quick_check(TOOLS["integer"].input_schema)
    assert integer is not None
    assert integer({"x": 1}) and integer({"x": 2**100}) and integer({"x": 3.0})
    assert not integer({"x": True}) and not integer({"x": 1.5}) and not integer({"x": "1"})
    assert not integer({}) and not integer({"x": 1, "y": 2}) and not integer([1])
    letter = quick_check(TOOLS["letter"].input_schema)
    assert letter is not None
    assert letter({"x": "a"}) and not letter({"x": "c"}) and not letter({"x": ["a"]})
    maybe = quick_check(TOOLS["maybe"].input_schema)
    assert maybe is not None
    assert maybe({}) and maybe({"x": None}) and maybe({"x": -4}) and not maybe({"x": "4"})
    kwargs = quick_check(TOOLS["star_kwargs"].input_schema)
    assert kwargs is not None
    assert kwargs({}) and kwargs({"any": "name"}) and not kwargs({"n": 1})


# --- what the quick check does not understand -----------------------------------------------

BEYOND = [
    {"$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}},
    {"$ref": "https://example.com/s"},
    {"$id": "https://example.com/s"},
    {"$anchor": "here"},
    {"$dynamicRef": "#meta"},
    {"type": "string", "pattern": "^a"},
    {"type": "object", "patternProperties": {"^a": {"type": "integer"}}},
    {"type": "array", "prefixItems": [{"type": "integer"}], "items": False},
    {"oneOf": [{"type": "integer"}, {"type": "number"}]},
    {"allOf": [{"type": "integer"}]},
    {"not": {"type": "string"}},
    {"if": {"type": "string"}, "then": {"minLength": 1}},
    {"if": {"type": "string"}, "else": {"minLength": 1}},
    {"type": "array", "uniqueItems": True},
    {"type": "array", "contains": {"type": "integer"}},
    {"type": "array", "contains": {}, "minContains": 2},
    {"type": "number", "multipleOf": 2},
    {"type": "object", "propertyNames": {"maxLength": 1}},
    {"type": "object", "minProperties": 1},
    {"type": "object", "maxProperties": 1},
    {"type": "object", "dependentRequired": {"a": ["b"]}},
    {"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}},
    {"type": "object", "unevaluatedProperties": False},
    {"type": "array", "unevaluatedItems": False},
]
"""Keywords the quick check leaves to jsonschema."""
MALFORMED: list[Any] = [
    False,
    {"items": False},
    {"additionalProperties": {"pattern": "a"}},
    {"type": "integer", "minimum": "1"},
    {"type": "integer", "minimum": True},
    {"type": "string", "minLength": 1.0},
    {"type": "gibberish"},
    {"type": []},
    {"type": None},
    {"type": [{}]},
    {"type": ["string", ["null"]]},
    {"enum": "abc"},
    {"anyOf": []},
    {"anyOf": {"type": "string"}},
    {"required": "a"},
    {"required": [1]},
    {"properties": ["a"]},
    [{"type": "string"}],
    "string",
    None,
    1,
]
"""Schemas it does not read (most not schemas at all, or ones jsonschema would refuse)."""


@pytest.mark.parametrize("schema", BEYOND + MALFORMED, ids=schema_id)
def test_what_it_does_not_understand_gets_no_check(schema: Any) -> None:
    assert quick_check(schema) is None


@pytest.mark.parametrize("schema", BEYOND + MALFORMED[1:], ids=schema_id)  # False is a schema
def test_what_it_does_not_understand_anywhere_inside_gets_no_check(schema: Any) -> None:
    for around in (
        {"type": "object", "properties": {"a": schema}},
        {"additionalProperties": schema},
        {"items": schema},
        {"anyOf": [{"type": "null"}, schema]},
        {"anyOf": [{"anyOf": [True, {"items": {"properties": {"b": schema}}}]}]},
    ):
        assert quick_check(around) is None, around


# --- schemas that once tripped the quick check ----------------------------------------------


@pytest.mark.parametrize(
    ("uri", "schema", "value"),
    [
        ("http://json-schema.org/draft-04/schema#", {"type": "integer"}, 2.0),
        ("http://json-schema.org/draft-03/schema#", {"type": "integer"}, 2.0),
        ("http://json-schema.org/draft-04/schema#", {"type": ["integer", "null"]}, 1.0),
    ],
)
def test_a_subschema_in_another_dialect_gets_no_quick_yes(
    uri: str, schema: dict[str, Any], value: Any
) -> None:
    inner = {"$schema": uri, **schema}
    for around, wrapped in (
        ({"type": "object", "properties": {"a": inner}}, {"a": value}),
        ({"additionalProperties": inner}, {"b": value}),
        ({"items": inner}, [value]),
        ({"anyOf": [inner]}, value),
    ):
        assert not is_valid(around, wrapped)
        quick = quick_check(around)
        assert quick is None or not quick(wrapped), (around, wrapped)


@pytest.mark.parametrize("uri", [*DIALECTS, "http://json-schema.org/draft-04/schema#"])
@pytest.mark.parametrize(
    ("schema", "value"),
    [({"type": "integer"}, 2.0), ({"type": "integer"}, 2), ({"enum": [1]}, 1), ({}, None)],
)
def test_a_root_schema_keyword_is_sound_in_any_dialect(uri: str, schema: Any, value: Any) -> None:
    """At the root, Draft202012Validator keeps its own dialect, whatever ``$schema`` says."""
    rooted = {"$schema": uri, **schema}
    quick = quick_check(rooted)
    if quick is not None:
        assert_sound(quick, rooted, value)


@pytest.mark.parametrize(
    "schema",
    [
        {"$schema": value}
        for value in ([], {}, ["https://json-schema.org/draft/2020-12/schema"], None, 1, True)
    ],
    ids=schema_id,
)
def test_a_root_schema_keyword_that_is_no_uri_gets_no_check(schema: Any) -> None:
    assert quick_check(schema) is None


@SETTINGS
@given(
    schema=st.recursive(
        json_values | schemas,
        lambda children: st.dictionaries(
            st.sampled_from([*keyword_values(st.nothing()), "title", "format", "$schema"]),
            children | json_values | st.sampled_from(DIALECTS),
            max_size=3,
        ),
        max_leaves=6,
    ),
    value=json_values,
)
def test_any_json_as_a_schema_gets_a_check_or_none_and_a_check_is_sound(
    schema: Any, value: Any
) -> None:
    quick = quick_check(schema)  # never raises, whatever the schema
    if quick is None:
        return
    assert_sound(quick, schema, value)
