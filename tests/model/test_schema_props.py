"""Property tests of type -> schema -> value round trips.

For each type, hypothesis makes values of it; each value, sent through
``argument_form`` (``to_jsonable``'s form, but bytes as arguments carry them: text, or
``{"base64": ...}``) and a real JSON encode/decode, must validate against the
schema :class:`objmcp.model.describe.schema.SchemaBuilder` gives for the type, and
``from_json`` must give back an equal value of the very same types, all the
way down. The other way, a JSON value the schema accepts must convert, and
``from_json`` must never turn a value into something that is not of the type.
"""

import dataclasses
import datetime
import decimal
import enum
import json
import math
import pathlib
import types
import typing
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NamedTuple, Optional, Union

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from typing_extensions import NotRequired, TypedDict

from objmcp.model.describe.schema import JsonSchema, SchemaBuilder, inline_defs
from objmcp.model.values.convert import from_json
from objmcp.model.values.jsonable import argument_form
from objmcp.model.values.mismatch import ConversionError

# --- the types --------------------------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Level(enum.Enum):
    LOW = 1
    HIGH = 2


@dataclass
class Point:
    """A point."""

    x: float
    y: float = 0.0
    label: str = "origin"


@dataclass
class Segment:
    start: Point
    end: Point
    color: Color = Color.RED
    tags: list[str] = field(default_factory=list)


class Movie(TypedDict):
    title: str
    year: NotRequired[int]
    rating: NotRequired[float | None]


class Span(NamedTuple):
    start: int
    end: int = 0


@dataclass
class Tree:
    """A tree of integers, recursive through a forward reference."""

    value: int
    children: list["Tree"] = field(default_factory=list)


@dataclass
class Chain:
    """A linked list, recursive through an optional forward reference."""

    name: str
    next: Optional["Chain"] = None


@dataclass
class Inventory:
    """Several named types at once, one of them twice."""

    where: Point
    items: dict[str, Span]
    trees: tuple[Tree, ...] = ()
    movie: Movie | None = None
    origin: Point = field(default_factory=lambda: Point(0.0))


# --- the strategies ---------------------------------------------------------------------------

finite = st.floats(allow_nan=False, allow_infinity=False)
text = st.text(max_size=12)
offsets = st.integers(-23 * 60 - 59, 23 * 60 + 59).map(
    lambda minutes: datetime.timezone(datetime.timedelta(minutes=minutes))
)
second_offsets = st.timedeltas(
    min_value=datetime.timedelta(hours=-23), max_value=datetime.timedelta(hours=23)
).map(datetime.timezone)
zones = st.none() | st.just(datetime.timezone.utc) | offsets | second_offsets

points = st.builds(Point, x=finite, y=finite, label=text)
spans = st.builds(Span, start=st.integers(), end=st.integers())
movies = st.fixed_dictionaries(
    {"title": text}, optional={"year": st.integers(), "rating": st.none() | finite}
).map(lambda d: typing.cast(Movie, d))
trees = st.recursive(
    st.builds(Tree, value=st.integers(), children=st.just([])),
    lambda inner: st.builds(Tree, value=st.integers(), children=st.lists(inner, max_size=3)),
    max_leaves=8,
)
chains = st.recursive(
    st.builds(Chain, name=text, next=st.none()),
    lambda inner: st.builds(Chain, name=text, next=inner),
    max_leaves=6,
)

CASES: list[Any] = [
    ("int", int, st.from_type(int)),
    ("float", float, finite),
    ("str", str, st.from_type(str)),
    ("bool", bool, st.from_type(bool)),
    ("None", None, st.none()),
    ("NoneType", type(None), st.none()),
    ("int | None", int | None, st.none() | st.integers()),
    ("Union[None, str]", Union[None, str], st.none() | st.text()),  # noqa: UP007
    ("Optional[float]", Optional[float], st.none() | finite),  # noqa: UP045
    ("Point | None", Point | None, st.none() | points),
    (
        "list[int | None] | None",
        list[int | None] | None,
        st.none() | st.lists(st.none() | st.integers()),
    ),
    ("list[int]", list[int], st.from_type(list[int])),
    ("dict[str, float]", dict[str, float], st.dictionaries(st.text(), finite)),
    ("tuple[int, str]", tuple[int, str], st.from_type(tuple[int, str])),
    ("tuple[int, ...]", tuple[int, ...], st.from_type(tuple[int, ...])),
    ("tuple[()]", tuple[()], st.just(())),
    ("set[str]", set[str], st.from_type(set[str])),
    ("frozenset[int]", frozenset[int], st.from_type(frozenset[int])),
    (
        "Literal",
        Literal["fast", "slow", 3, True, None],
        st.sampled_from(["fast", "slow", 3, True, None]),
    ),
    ("Literal[1, True]", Literal[1, True], st.sampled_from([1, True])),
    ("Enum (str)", Color, st.sampled_from(Color)),
    ("Enum (int)", Level, st.sampled_from(Level)),
    ("dataclass", Point, points),
    (
        "nested dataclass",
        Segment,
        st.builds(
            Segment, start=points, end=points, color=st.sampled_from(Color), tags=st.lists(text)
        ),
    ),
    ("TypedDict", Movie, movies),
    ("NamedTuple", Span, spans),
    ("list[NamedTuple]", list[Span], st.lists(spans, max_size=3)),
    ("datetime", datetime.datetime, st.datetimes(timezones=zones)),
    ("date", datetime.date, st.dates()),
    ("time", datetime.time, st.times(timezones=zones)),
    ("UUID", uuid.UUID, st.uuids()),
    ("Decimal", decimal.Decimal, st.decimals(allow_nan=False, allow_infinity=False)),
    ("Path", pathlib.Path, st.builds(pathlib.Path, st.text())),
    ("bytes", bytes, st.binary()),
    ("Annotated", Annotated[int, "A count."], st.integers()),
    ("recursive dataclass", Tree, trees),
    ("recursive optional", Chain, chains),
]


# --- helpers ----------------------------------------------------------------------------------


def rooted(hint: object) -> JsonSchema:
    """The schema of ``hint`` as a tool would publish it: the builder's ``$defs`` at the root."""
    builder = SchemaBuilder()
    schema = builder.schema(hint)
    if builder.defs:
        schema = {**schema, "$defs": builder.defs}
    Draft202012Validator.check_schema(schema)
    return schema


def validator_for(hint: object) -> Draft202012Validator:
    return Draft202012Validator(rooted(hint), format_checker=Draft202012Validator.FORMAT_CHECKER)


def inlined_validator_for(hint: object) -> Draft202012Validator:
    """The validator of the schema as tools serve it: non-recursive definitions in place."""
    schema = inline_defs(rooted(hint))
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def wire(value: object) -> object:
    """``value`` as the other end of a JSON connection would send it as an argument."""
    return json.loads(json.dumps(argument_form(value), allow_nan=False))


def assert_same(got: object, want: object, path: str = "value") -> None:
    """Equal, and of the same types all the way down (so 1 is not 1.0, nor True)."""
    assert type(got) is type(want), f"{path}: {type(got).__name__} {got!r} != {want!r}"
    assert got == want, f"{path}: {got!r} != {want!r}"
    if isinstance(want, float):
        assert math.copysign(1.0, typing.cast(float, got)) == math.copysign(1.0, want), path
    if dataclasses.is_dataclass(want):
        for f in dataclasses.fields(want):
            assert_same(getattr(got, f.name), getattr(want, f.name), f"{path}.{f.name}")
    elif isinstance(want, dict):
        assert isinstance(got, dict)
        assert {(type(k), k) for k in got} == {(type(k), k) for k in want}, path
        for key, item in want.items():
            assert_same(got[key], item, f"{path}[{key!r}]")
    elif isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple))
        assert len(got) == len(want), path
        for i, (a, b) in enumerate(zip(got, want, strict=True)):
            assert_same(a, b, f"{path}[{i}]")
    elif isinstance(want, (set, frozenset)):
        assert isinstance(got, (set, frozenset))
        assert {(type(x), x) for x in got} == {(type(x), x) for x in want}, path
    elif isinstance(want, (datetime.datetime, datetime.time)):
        assert isinstance(got, (datetime.datetime, datetime.time))
        assert got.utcoffset() == want.utcoffset(), path


# --- round trips ------------------------------------------------------------------------------


def _cases(cases: list[Any]) -> list[Any]:
    """pytest params, with ids, from ``(id, *values)`` tuples and ``pytest.param(id, *values)``."""
    out = []
    for case in cases:
        values, marks = (case.values, case.marks) if hasattr(case, "marks") else (case, ())
        out.append(pytest.param(*values[1:], id=values[0], marks=marks))
    return out


@pytest.mark.parametrize(("hint", "values"), _cases(CASES))
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_value_to_json_validates_and_comes_back_the_same(
    hint: object, values: st.SearchStrategy[Any], data: st.DataObject
) -> None:
    validator = validator_for(hint)
    value = data.draw(values, label="value")
    sent = wire(value)
    errors = [e.message for e in validator.iter_errors(sent)]
    assert not errors, (sent, errors)
    back = from_json(sent, hint)
    assert_same(back, value)
    assert wire(back) == sent


inventories = st.builds(
    Inventory,
    where=points,
    items=st.dictionaries(text, spans, min_size=1, max_size=3),
    trees=st.lists(trees, max_size=2).map(tuple),
    movie=st.none() | movies,
    origin=points,
)
QUICK = settings(max_examples=40, deadline=None)


@QUICK
@given(value=inventories)
def test_many_named_types_round_trip(value: Inventory) -> None:
    sent = wire(value)
    assert not list(validator_for(Inventory).iter_errors(sent)), sent
    assert_same(from_json(sent, Inventory), value)


def test_dict_values_are_converted() -> None:
    assert_same(from_json({"a": "red"}, dict[str, Color]), {"a": Color.RED})
    assert_same(from_json({"a": 1.5, "b": 1}, dict[str, float]), {"a": 1.5, "b": 1})
    assert_same(from_json({"p": [1, "x"]}, dict[str, tuple[int, str]]), {"p": (1, "x")})


def test_recursive_schemas_refer_to_themselves() -> None:
    builder = SchemaBuilder()
    assert builder.schema(Tree) == {"$ref": "#/$defs/Tree"}
    assert builder.defs["Tree"]["properties"]["children"] == {
        "type": "array",
        "items": {"$ref": "#/$defs/Tree"},
        "default": [],
    }
    assert builder.defs["Tree"]["required"] == ["value"]


def test_inlining_keeps_only_recursive_definitions() -> None:
    inlined = inline_defs(rooted(Segment))
    assert "$defs" not in inlined and "$ref" not in json.dumps(inlined)
    assert inlined["properties"]["start"]["title"] == "Point"
    assert inlined["properties"]["start"]["properties"]["x"] == {"type": "number"}
    recursive = inline_defs(rooted(list[Tree]))
    assert set(recursive["$defs"]) == {"Tree"}
    assert recursive["items"] == {"$ref": "#/$defs/Tree"}


def test_typeddict_not_required_keys_are_not_required() -> None:
    builder = SchemaBuilder()
    builder.schema(Movie)
    assert builder.defs["Movie"]["required"] == ["title"]


# --- composed types ---------------------------------------------------------------------------

Pair = tuple[object, st.SearchStrategy[Any]]
LEAVES: list[Pair] = [
    (int, st.integers()),
    (float, finite),
    (str, text),
    (bool, st.booleans()),
    (Color, st.sampled_from(Color)),
    (datetime.date, st.dates()),
    (uuid.UUID, st.uuids()),
    (Point, points),
]
HASHABLE_LEAVES: list[Pair] = [(int, st.integers()), (str, text), (Color, st.sampled_from(Color))]


def _compose(inner: st.SearchStrategy[Pair]) -> st.SearchStrategy[Pair]:
    def as_list(p: Pair) -> Pair:
        return list[p[0]], st.lists(p[1], max_size=3)  # type: ignore[name-defined]

    def as_dict(p: Pair) -> Pair:
        return dict[str, p[0]], st.dictionaries(text, p[1], max_size=3)  # type: ignore[name-defined]

    def as_optional(p: Pair) -> Pair:
        if p[0] is None or typing.get_origin(p[0]) in (Union, types.UnionType):
            return p
        return typing.cast(Any, p[0]) | None, st.none() | p[1]

    def as_tuple(ps: list[Pair]) -> Pair:
        hint = tuple.__class_getitem__(tuple(p[0] for p in ps))
        return hint, st.tuples(*(p[1] for p in ps))

    def as_variadic(p: Pair) -> Pair:
        return tuple[p[0], ...], st.lists(p[1], max_size=3).map(tuple)  # type: ignore[name-defined]

    return st.one_of(
        inner.map(as_list),
        inner.map(as_dict),
        inner.map(as_optional),
        inner.map(as_variadic),
        st.lists(inner, min_size=1, max_size=3).map(as_tuple),
    )


def _sets() -> st.SearchStrategy[Pair]:
    def as_set(p: Pair, frozen: bool) -> Pair:
        if frozen:
            return frozenset[p[0]], st.frozensets(p[1], max_size=4)  # type: ignore[name-defined]
        return set[p[0]], st.sets(p[1], max_size=4)  # type: ignore[name-defined]

    return st.builds(as_set, st.sampled_from(HASHABLE_LEAVES), st.booleans())


composed_types: st.SearchStrategy[Pair] = st.recursive(
    st.sampled_from(LEAVES) | _sets(), _compose, max_leaves=5
)


typed_values = composed_types.flatmap(lambda p: st.tuples(st.just(p[0]), p[1]))


@settings(max_examples=100, deadline=None)
@given(case=typed_values)
@example(case=(dict[str, Color], {"a": Color.RED}))
def test_composed_types_round_trip(case: tuple[object, object]) -> None:
    hint, value = case
    sent = wire(value)
    assert not list(validator_for(hint).iter_errors(sent)), (hint, sent)
    assert not list(inlined_validator_for(hint).iter_errors(sent)), (hint, sent)
    assert_same(from_json(sent, hint), value)


# --- what the schema refuses --------------------------------------------------------------------

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | finite
    | st.sampled_from(
        [
            "",
            "red",
            "fast",
            "x",
            "2024-02-29",
            "2024-02-30",
            "12:00:00",
            "1.5",
            "3",
            "2024-01-01T10:00:00Z",
            "7d1c7b0e-5a2b-4c3a-9d4e-0f1a2b3c4d5e",
        ]
    )
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["x", "y", "label", "title", "year", "start", "end", "z"]),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)


def conforms(value: object, hint: object) -> bool:
    """Whether ``value`` is a Python value of ``hint`` (a checker of its own, for a few types)."""
    hint = typing.get_args(hint)[0] if typing.get_origin(hint) is Annotated else hint
    if hint is None or hint is type(None):
        return value is None
    if typing.get_origin(hint) in (Union, types.UnionType):
        return any(conforms(value, member) for member in typing.get_args(hint))
    if typing.get_origin(hint) is Literal:
        return any(value == o and type(value) is type(o) for o in typing.get_args(hint))
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list:
        return type(value) is list and all(conforms(v, args[0]) for v in value)
    if origin in (set, frozenset):
        return type(value) is origin and all(conforms(v, args[0]) for v in value)
    if origin is dict:
        return type(value) is dict and all(
            conforms(k, args[0]) and conforms(v, args[1]) for k, v in value.items()
        )
    if origin is tuple:
        if type(value) is not tuple:
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(conforms(v, args[0]) for v in value)
        return len(value) == len(args) and all(
            conforms(v, a) for v, a in zip(value, args, strict=True)
        )
    if hint is Movie:
        if (
            type(value) is not dict
            or "title" not in value
            or set(value) - {"title", "year", "rating"}
        ):
            return False
        return (
            conforms(value["title"], str)
            and conforms(value.get("year", 0), int)
            and conforms(value.get("rating"), float | None)
        )
    if hint is Point:
        return (
            type(value) is Point
            and conforms(value.x, float)
            and conforms(value.y, float)
            and conforms(value.label, str)
        )
    if hint is Span:
        return type(value) is Span and conforms(value.start, int) and conforms(value.end, int)
    assert isinstance(hint, type), hint
    if hint is float:  # an int stands for a float, as Python's typing says
        return type(value) in (int, float)
    return type(value) is hint


STRICT_CASES: list[Any] = [
    ("int", int, st.integers()),
    ("float", float, finite),
    ("bool", bool, st.booleans()),
    ("str", str, text),
    ("int | None", int | None, st.none() | st.integers()),
    ("Optional[str]", Optional[str], st.none() | text),  # noqa: UP045
    ("list[int]", list[int], st.lists(st.integers(), max_size=4)),
    ("dict[str, float]", dict[str, float], st.dictionaries(text, finite)),
    ("tuple[int, str]", tuple[int, str], st.tuples(st.integers(), text)),
    ("tuple[float, ...]", tuple[float, ...], st.lists(finite, max_size=4).map(tuple)),
    ("set[str]", set[str], st.sets(text, max_size=4)),
    ("Literal", Literal["fast", "slow", 3], st.sampled_from(["fast", "slow", 3])),
    ("Enum", Color, st.sampled_from(Color)),
    ("Enum (int)", Level, st.sampled_from(Level)),
    ("dataclass", Point, points),
    ("TypedDict", Movie, movies),
    ("NamedTuple", Span, spans),
    ("list[Point] | None", list[Point] | None, st.none() | st.lists(points, max_size=3)),
    ("date", datetime.date, st.dates()),
    ("datetime", datetime.datetime, st.datetimes(timezones=zones)),
    ("UUID", uuid.UUID, st.uuids()),
]
KEYS = st.sampled_from(["x", "y", "label", "title", "year", "rating", "start", "end", "z"])


@st.composite
def mutated(draw: st.DrawFn, value: object) -> object:
    """``value`` (JSON) changed in one place: an item or key added, dropped or changed."""
    choice = draw(st.integers(0, 3))
    if isinstance(value, list):
        if choice == 0:
            i = draw(st.integers(0, len(value)))
            return [*value[:i], draw(json_values), *value[i:]]
        i = draw(st.integers(0, max(len(value) - 1, 0)))
        if choice == 1 and value:
            return value[:i] + value[i + 1 :]
        if choice == 2 and value:
            return [*value[:i], draw(mutated(value[i])), *value[i + 1 :]]
    if isinstance(value, dict):
        if choice == 0:
            return {**value, draw(KEYS): draw(json_values)}
        if choice in (1, 2) and value:
            key = draw(st.sampled_from(sorted(value)))
            if choice == 1:
                return {k: v for k, v in value.items() if k != key}
            return {**value, key: draw(mutated(value[key]))}
    return draw(json_values)


def check_refusal(hint: object, value: object) -> None:
    """Refused by the schema, by ``from_json``, or converted to a value of the type; and a
    value the schema accepts always converts."""
    accepted = validator_for(hint).is_valid(value)
    assert inlined_validator_for(hint).is_valid(value) == accepted, "inlining changed the schema"
    try:
        converted = from_json(value, hint)
    except ConversionError:
        # "format" is an annotation in 2020-12 and jsonschema checks "date-time" only
        # with an extra package: there, from_json is the check.
        unchecked_format = hint is datetime.datetime and isinstance(value, str)
        assert not accepted or unchecked_format, f"the schema accepts {value!r}, from_json not"
        return
    if accepted:
        assert conforms(converted, hint), f"{value!r} became {converted!r}"


def check_from_json_alone(hint: object, value: object) -> None:
    """``from_json`` refuses what it cannot convert, even with no schema check before it."""
    try:
        converted = from_json(value, hint)
    except ConversionError:
        return
    assert conforms(converted, hint), f"{value!r} became {converted!r}"


@pytest.mark.parametrize(("hint", "valid"), _cases(STRICT_CASES))
@settings(max_examples=40, deadline=None)
@given(value=json_values)
@example(value={"x": 0})
def test_random_json_is_refused_or_converted_right(
    hint: object, valid: st.SearchStrategy[Any], value: object
) -> None:
    check_refusal(hint, value)
    check_from_json_alone(hint, value)


@pytest.mark.parametrize(("hint", "valid"), _cases(STRICT_CASES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_near_misses_are_refused_or_converted_right(
    hint: object, valid: st.SearchStrategy[Any], data: st.DataObject
) -> None:
    """JSON one change away from a valid value's: the cases where schema and converter
    are most likely to disagree."""
    value = data.draw(valid.flatmap(lambda v: mutated(wire(v))), label="near miss")
    check_refusal(hint, value)
    check_from_json_alone(hint, value)


class _Formatter:
    """A library's own class: no standard kind, no model, no JSON form (its constructor
    takes a function, which JSON cannot carry: it is not built from JSON either)."""

    def __init__(self, render: Callable[[str], str]) -> None:
        self.render = render


CARRIED_MEMBERS = (int, str, bool, float, list[int], dict[str, int])


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(CARRIED_MEMBERS), min_size=1, max_size=4, unique=True),
    st.integers(min_value=0, max_value=4),
    st.booleans(),
)
def test_a_union_takes_its_members_json_carries_without_the_class_it_cannot(
    carried: list[object], at: int, optional: bool
) -> None:
    carried = [*carried, type(None)] if optional else carried
    with_class = [*carried[:at], _Formatter, *carried[at:]]
    builder = SchemaBuilder(quiet=True)
    schema = builder.schema(Union[tuple(with_class)])  # noqa: UP007
    assert schema == SchemaBuilder(quiet=True).schema(Union[tuple(carried)])  # noqa: UP007
    assert schema != {} and not builder.lacking
    assert SchemaBuilder(quiet=True).schema(Union[_Formatter, Any]) == {}  # noqa: UP007
    assert SchemaBuilder(quiet=True).schema(Optional[_Formatter]) == {}  # noqa: UP045
