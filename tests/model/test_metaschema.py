"""Every input schema objmcp publishes is a valid JSON Schema 2020-12 document.

For the tools of the zoo fixture, of a few standard library modules, of extra
fixtures (recursive dataclasses, clashing names, pydantic models) and of
functions with random signatures: each ``inputSchema`` passes the 2020-12
metaschema, is an object schema, has no ``$schema`` key, keeps every ``$defs``
at its root, and each ``$ref`` points at an entry there.
"""

from __future__ import annotations

import datetime
import enum
import importlib
import inspect
import json
import sys
import typing
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import BaseModel, create_model
from typing_extensions import NotRequired, TypedDict

from objmcp import Tool, Toolbox
from objmcp.model.calling.toolbox import make_tool

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "servers"))
import zoo

# --- extra fixtures -------------------------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass
class Node:
    """A tree node, recursive three ways."""

    name: str
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None
    index: dict[str, Node] = field(default_factory=dict)


@dataclass
class Point:
    x: float
    y: float = 0.0


def _other_point() -> type:
    @dataclass
    class Point:  # the same __name__ as the module's Point, another type
        z: int
        label: str = ""

    return Point


OtherPoint: Any = _other_point()


class Movie(TypedDict):
    title: str
    year: NotRequired[int]


class Span(NamedTuple):
    start: int
    end: int = 0


class Address(BaseModel):
    street: str
    city: str = "Paris"


class Person(BaseModel):
    """A pydantic model, recursive, with a nested model."""

    name: str
    address: Address
    friends: list[Person] = []
    kind: Literal["friend", "foe"] = "friend"
    color: Color | None = None


Person.model_rebuild()


def _address_dataclass() -> type:
    @dataclass
    class Address:  # the same name as the pydantic Address, another schema
        line: str

    return Address


AddressRecord: Any = _address_dataclass()


class Letter(BaseModel):
    to: Address
    cc: list[Address] = []


class Fixtures:
    """Methods over the fixture types."""

    def tree(self, root: Node, depth: int = 3) -> int:
        return depth

    def points(self, a: Point, b: OtherPoint, c: Point | None = None) -> str:
        return ""

    def many(self, *nodes: Node, **named: Point) -> int:
        return 0

    def typed(
        self,
        movie: Movie,
        span: Span,
        color: Color,
        when: datetime.datetime,
        ident: uuid.UUID,
        maybe: Node | None = None,
        mode: Literal["a", "b", 1] = "a",
        note: Annotated[str, "A note."] = "",
    ) -> str:
        return ""

    def people(self, a: Person, b: Person, letter: Letter) -> str:
        return ""

    def clash(self, record: AddressRecord, letter: Letter, person: Person) -> str:
        return ""

    def clash_reversed(self, letter: Letter, record: AddressRecord) -> str:
        return ""

    def untyped(self, a, b=1, *rest, **more):  # type: ignore[no-untyped-def]
        return a


# --- the checks -----------------------------------------------------------------------------------


SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")
SCHEMA_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")
SCHEMA_ONE = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
)


def subschemas(schema: object, path: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object inside ``schema`` (itself included), by keyword, with where it is;
    data under ``default``, ``enum`` or ``const`` is not a schema and is left alone."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key in SCHEMA_MAPS:
        for name, sub in schema.get(key, {}).items():
            yield from subschemas(sub, f"{path}/{key}/{name}")
    for key in SCHEMA_LISTS:
        for i, sub in enumerate(schema.get(key, [])):
            yield from subschemas(sub, f"{path}/{key}/{i}")
    for key in SCHEMA_ONE:
        if key in schema:
            yield from subschemas(schema[key], f"{path}/{key}")


def pointer(document: object, ref: str) -> object:
    """Resolve a local JSON pointer reference (RFC 6901)."""
    assert ref.startswith("#/"), ref
    node = document
    for raw in ref[2:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        assert isinstance(node, dict) and part in node, f"{ref} does not resolve"
        node = node[part]
    return node


def check_input_schema(schema: dict[str, Any]) -> None:
    json.dumps(schema, allow_nan=False)  # it can be sent
    Draft202012Validator.check_schema(schema)
    assert schema.get("type") == "object", schema
    defs = schema.get("$defs", {})
    assert isinstance(defs, dict)
    for where, node in subschemas(schema):
        assert "$schema" not in node, f"$schema at {where}"
        assert "$id" not in node, f"$id at {where} (would move the base of $refs)"
        assert where == "#" or "$defs" not in node, f"$defs below the root at {where}"
        ref = node.get("$ref")
        if ref is not None:
            assert isinstance(ref, str) and ref.startswith("#/$defs/"), f"{where}: $ref {ref!r}"
            name = ref[len("#/$defs/") :]
            assert "/" not in name, f"{where}: $ref {ref!r} goes below a definition"
            assert name.replace("~1", "/").replace("~0", "~") in defs, (
                f"{where}: {ref} not in $defs"
            )
            assert isinstance(pointer(schema, ref), dict), f"{where}: {ref} is no schema"
    # And jsonschema itself resolves them: compile each definition through the root.
    for name in defs:
        escaped = name.replace("~", "~0").replace("/", "~1")
        Draft202012Validator({"$ref": f"#/$defs/{escaped}", "$defs": defs}).is_valid({})
    Draft202012Validator(schema).is_valid({})


def tools_of(label: str, target: object) -> list[Any]:
    return [pytest.param(tool, id=f"{label}.{name}") for name, tool in Toolbox(target).items()]


TARGETS: list[tuple[str, object]] = [("zoo", zoo.Zoo()), ("fixtures", Fixtures())]
TARGETS += [(name, importlib.import_module(name)) for name in ("math", "statistics", "heapq")]
TARGETS += [(name, importlib.import_module(name)) for name in ("difflib", "textwrap", "json")]
TOOLS = [param for label, target in TARGETS for param in tools_of(label, target)]


@pytest.mark.parametrize("tool", TOOLS)
def test_input_schema_is_valid_2020_12(tool: Tool) -> None:
    check_input_schema(tool.input_schema)


def test_the_targets_have_tools() -> None:
    counts = {label: len(Toolbox(target)) for label, target in TARGETS}
    assert all(counts.values()), counts
    assert len(TOOLS) == sum(counts.values()) > 100


def test_clashing_names_get_distinct_definitions() -> None:
    schema = Toolbox(Fixtures())["clash"].input_schema
    assert set(schema["$defs"]) == {"Person2"}  # only the recursive one is kept
    assert schema["properties"]["person"]["$ref"] == "#/$defs/Person2"
    record = schema["properties"]["record"]
    assert set(record["properties"]) == {"line"}
    letter = schema["properties"]["letter"]
    address = letter["properties"]["to"]
    assert set(address["properties"]) == {"street", "city"}


def test_same_names_in_one_tool_are_told_apart() -> None:
    schema = Toolbox(Fixtures())["points"].input_schema
    a = schema["properties"]["a"]
    b = schema["properties"]["b"]
    assert set(a["properties"]) == {"x", "y"}
    assert set(b["properties"]) == {"z", "label"}
    assert a["title"] != b["title"]


# --- random signatures ---------------------------------------------------------------------------

LEAF_HINTS: list[object] = [
    int,
    float,
    str,
    bool,
    None,
    Any,
    bytes,
    datetime.date,
    datetime.datetime,
    uuid.UUID,
    Path,
    Color,
    Literal["x", 2],
    Point,
    OtherPoint,
    Node,
    Movie,
    Span,
    Address,
    Person,
    Letter,
    AddressRecord,
    Annotated[int, "Counted."],
    inspect.Parameter.empty,
]


def _compose(inner: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    def optional(hint: object) -> object:
        return None if hint is None else typing.cast(Any, hint) | None

    def union(hints: list[object]) -> object:
        return typing.Union[tuple(hints)]  # noqa: UP007

    return st.one_of(
        inner.map(lambda h: list[h]),  # type: ignore[valid-type]
        inner.map(lambda h: dict[str, h]),  # type: ignore[valid-type]
        inner.map(lambda h: tuple[h, ...]),  # type: ignore[valid-type]
        st.lists(inner, min_size=1, max_size=3).map(lambda hs: tuple.__class_getitem__(tuple(hs))),
        inner.map(optional),
        st.lists(inner, min_size=2, max_size=3).map(union),
    )


hints = st.recursive(st.sampled_from(LEAF_HINTS), _compose, max_leaves=4)
KINDS = [
    inspect.Parameter.POSITIONAL_ONLY,
    inspect.Parameter.POSITIONAL_OR_KEYWORD,
    inspect.Parameter.KEYWORD_ONLY,
]


@st.composite
def functions(draw: st.DrawFn) -> Callable[..., object]:
    """A function with a random signature of random hints."""
    count = draw(st.integers(0, 4))
    kinds = sorted(draw(st.lists(st.sampled_from(KINDS), min_size=count, max_size=count)))
    params: list[inspect.Parameter] = []
    annotations: dict[str, object] = {}
    defaulted = False
    for i, kind in enumerate(kinds):
        hint = draw(hints)
        if kind is not inspect.Parameter.KEYWORD_ONLY:
            defaulted = defaulted or draw(st.booleans())
            default = None if defaulted else inspect.Parameter.empty
        else:
            default = draw(st.sampled_from([inspect.Parameter.empty, None, 0, "s"]))
        params.append(inspect.Parameter(f"p{i}", kind, default=default, annotation=hint))
        if hint is not inspect.Parameter.empty:
            annotations[f"p{i}"] = hint
    if draw(st.booleans()):
        hint = draw(hints)
        params.insert(
            sum(p.kind is not inspect.Parameter.KEYWORD_ONLY for p in params),
            inspect.Parameter("rest", inspect.Parameter.VAR_POSITIONAL, annotation=hint),
        )
        annotations["rest"] = hint
    if draw(st.booleans()):
        hint = draw(hints)
        params.append(inspect.Parameter("more", inspect.Parameter.VAR_KEYWORD, annotation=hint))
        annotations["more"] = hint

    def function(*args: object, **kwargs: object) -> None:
        """A function made up by hypothesis."""

    function.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    function.__annotations__ = annotations
    return function


@settings(max_examples=100, deadline=None)
@given(function=functions())
def test_random_signatures_give_valid_schemas(function: Callable[..., object]) -> None:
    check_input_schema(make_tool("made_up", function).input_schema)


# --- $refs point at the right definitions ---------------------------------------------------------


def _family(field_name: str, kind: type) -> type:
    """``Wrap -> Outer -> Inner`` pydantic models; every family names its classes alike."""
    inner = create_model("Inner", **{field_name: (kind, ...)})  # type: ignore[call-overload]
    outer = create_model("Outer", inner=(inner, ...))
    return typing.cast(type, create_model(f"Wrap_{field_name}", o=(outer, ...)))


WrapX: Any = _family("x", int)
WrapY: Any = _family("y", str)


def two_families(a: WrapX, b: WrapY) -> None:
    """Two pydantic models whose nested definitions share names but not schemas."""


TWO_FAMILIES_ARGS = {"a": {"o": {"inner": {"x": 1}}}, "b": {"o": {"inner": {"y": "s"}}}}


def test_same_named_pydantic_definitions_keep_their_own_refs() -> None:
    tool = make_tool("two_families", two_families)
    check_input_schema(tool.input_schema)
    errors = [
        e.message for e in Draft202012Validator(tool.input_schema).iter_errors(TWO_FAMILIES_ARGS)
    ]
    assert not errors, errors
    _, keywords = tool.bind(TWO_FAMILIES_ARGS)
    assert keywords["a"].o.inner.x == 1
    assert keywords["b"].o.inner.y == "s"


def test_valid_pydantic_and_dataclass_values_pass_the_fixture_schemas() -> None:
    tool = Toolbox(Fixtures())["clash"]
    person = Person(
        name="a",
        address=Address(street="s"),
        friends=[Person(name="b", address=Address(street="t"))],
    )
    letter = Letter(to=Address(street="u"), cc=[Address(street="v", city="w")])
    arguments = {
        "record": {"line": "l"},
        "letter": letter.model_dump(mode="json"),
        "person": person.model_dump(mode="json"),
    }
    assert Draft202012Validator(tool.input_schema).is_valid(arguments)
    _, keywords = tool.bind(arguments)
    assert keywords["person"] == person
    assert keywords["letter"] == letter
    assert keywords["record"] == AddressRecord(line="l")
