"""Structured output, titles, annotations, icons and hidden tools: from return annotations,
decorators and the ``tools=`` option, as the object model builds them, as each revision
lists them (in memory, through ``objmcp.testing``), and as the official SDK client checks
them against a real server."""

from __future__ import annotations

import dataclasses
import statistics
from typing import Any, NamedTuple, TypedDict

import jsonschema
import pytest
from conftest import ZOO, stdio_server
from hypothesis import given
from hypothesis import strategies as st
from mcp import Client

import objmcp
from objmcp.model.calling.toolbox import tool_result
from objmcp.testing import connect


@dataclasses.dataclass
class Point:
    """A point."""

    x: float
    y: float = 0.0


class Span(NamedTuple):
    start: int
    end: int


class Movie(TypedDict):
    title: str
    year: int


class Shapes:
    def point(self) -> Point:
        return Point(1.0, 2.0)

    def span(self) -> Span:
        return Span(1, 2)

    def movie(self) -> Movie:
        return {"title": "Up", "year": 2009}

    def counts(self) -> dict[str, int]:
        return {"a": 1}

    def number(self) -> int:
        return 3

    def points(self) -> list[Point]:
        return [Point(1.0)]

    def maybe(self) -> Point | None:
        return None

    def text(self) -> str:
        return "hi"

    def nothing(self) -> None:
        return None

    def untyped(self):  # type: ignore[no-untyped-def]
        return 1


def test_return_annotations_give_output_schemas() -> None:
    tools = objmcp.Toolbox(Shapes())
    for name in ("point", "span", "movie", "counts"):
        assert tools[name].output_schema is not None, name
        assert tools[name].output_schema["type"] == "object"  # type: ignore[index]
        assert not tools[name].wraps_output, name
    for name in ("number", "points", "maybe", "text"):
        schema = tools[name].output_schema
        assert schema is not None and tools[name].wraps_output, name
        assert schema["required"] == ["result"]
    points = tools["points"].output_schema["properties"]["result"]  # type: ignore[index]
    assert points["items"]["type"] == "object" and points["items"]["title"] == "Point"
    for name in ("nothing", "untyped"):
        assert tools[name].output_schema is None, name


@pytest.mark.parametrize(
    ("name", "structured"),
    [
        ("point", {"x": 1.0, "y": 2.0}),
        ("span", {"start": 1, "end": 2}),
        ("movie", {"title": "Up", "year": 2009}),
        ("counts", {"a": 1}),
        ("number", {"result": 3}),
        ("points", {"result": [{"x": 1.0, "y": 0.0}]}),
        ("maybe", {"result": None}),
        ("text", {"result": "hi"}),
        ("nothing", None),
        ("untyped", None),
    ],
)
def test_results_carry_their_structured_form_and_keep_their_text(
    name: str, structured: Any
) -> None:
    tools = objmcp.Toolbox(Shapes())
    result = tools.call(name, {})
    assert (result.is_error, result.structured) == (False, structured)
    plain = objmcp.Toolbox(Shapes(), tools={name: {"structured": False}}).call(name, {})
    assert (plain.text, plain.structured) == (result.text, None)  # the text never changes
    if structured is not None:
        jsonschema.validate(structured, tools[name].output_schema)  # type: ignore[arg-type]


POINTS = st.builds(Point, st.floats(allow_nan=False, allow_infinity=False), st.floats(-9, 9))
VALUES: dict[str, tuple[object, st.SearchStrategy[Any]]] = {
    "point": (Point, POINTS),
    "points": (list[Point], st.lists(POINTS, max_size=3)),
    "span": (Span, st.builds(Span, st.integers(), st.integers())),
    "movie": (Movie, st.fixed_dictionaries({"title": st.text(), "year": st.integers()})),
    "counts": (dict[str, int], st.dictionaries(st.text(), st.integers(), max_size=3)),
    "maybe": (int | None, st.none() | st.integers()),
    "pair": (tuple[int, str], st.tuples(st.integers(), st.text())),
    "tags": (set[str], st.sets(st.text(), max_size=3)),
}


@given(st.sampled_from(sorted(VALUES)), st.data())
def test_every_value_of_the_declared_type_fits_its_output_schema(
    name: str, data: st.DataObject
) -> None:
    hint, values = VALUES[name]
    value = data.draw(values)

    def method() -> None:
        return value  # type: ignore[return-value]

    method.__annotations__["return"] = hint
    tool = objmcp.Toolbox({"method": method})["method"]
    result = tool_result(tool, value)
    assert not result.is_error, result.text
    assert result.structured is not None
    jsonschema.validate(result.structured, tool.output_schema)  # type: ignore[arg-type]
    assert result.structured == ({"result": result.value} if tool.wraps_output else result.value)


def test_a_result_that_breaks_its_declared_type_is_an_error_that_says_so() -> None:
    def lie() -> int:
        return "seven"  # type: ignore[return-value]

    result = objmcp.Toolbox({"lie": lie}).call("lie", {})
    assert result.is_error
    assert "does not fit its declared return type" in result.text and "'seven'" in result.text
    assert objmcp.Toolbox({"lie": lie}, tools={"lie": {"structured": False}}).call(
        "lie", {}
    ).text == ("seven")


class Library:
    """Methods marked with decorators."""

    @objmcp.tool(name="find", title="Find a book", read_only=True, open_world=False)
    def search(self, text: str) -> list[str]:
        """Search the shelves."""
        return [text]

    @objmcp.tool(destructive=True, icons=[{"src": "https://example.com/b.png", "sizes": ["48x48"]}])
    def burn(self) -> None:
        """Burn everything."""

    @objmcp.tool
    def plain(self) -> None:
        """Nothing said."""

    @objmcp.hidden
    def inventory(self) -> int:
        """Never a tool."""
        return 0


def test_decorators_name_title_annotate_and_hide() -> None:
    tools = objmcp.Toolbox(Library())
    assert sorted(tools) == ["burn", "find", "plain"]
    find = tools["find"]
    assert find.title == "Find a book"
    assert find.annotations == {
        "title": "Find a book",
        "readOnlyHint": True,
        "openWorldHint": False,
    }
    assert tools["burn"].annotations == {"destructiveHint": True}
    assert tools["burn"].icons == ({"src": "https://example.com/b.png", "sizes": ["48x48"]},)
    assert tools["plain"].annotations == {}
    assert tools.call("find", {"text": "Dune"}).structured == {"result": ["Dune"]}
    assert Library().inventory() == 0  # the object itself is unchanged


def test_options_as_data_for_code_that_cannot_be_edited() -> None:
    tools = objmcp.Toolbox(
        statistics,
        include=["mean", "median", "mode"],
        tools={
            "median": {"title": "Median", "read_only": True, "description": "The middle."},
            "mode": {"hidden": True},
            "mean": {"name": "average"},
        },
    )
    assert sorted(tools) == ["average", "median"]
    assert tools["median"].description == "The middle."
    assert tools["median"].annotations == {"title": "Median", "readOnlyHint": True}
    assert tools.call("average", {"data": [1, 2, 3]}).text == "2"
    over = objmcp.Toolbox(Library(), tools={"search": {"read_only": False, "title": None}})
    assert over["find"].annotations == {
        "title": "Find a book",
        "readOnlyHint": False,
        "openWorldHint": False,
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"nope": {"title": "x"}}, "'nope', which the target does not have"),
        ({"number": {"colour": "red"}}, "colour"),
        ({"number": {"read_only": "yes"}}, "True or False"),
        ({"number": {"icons": [{"href": "x"}]}}, "src"),
        ({"nothing": {"structured": True}}, "gives no schema"),
        ({"number": {"name": "not a name!"}}, "not a valid MCP tool name"),
    ],
)
def test_options_that_cannot_apply_are_refused_at_start(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises((objmcp.TargetError, TypeError), match=message):
        objmcp.Toolbox(Shapes(), tools=options)


def test_decorators_refuse_what_they_cannot_mark() -> None:
    with pytest.raises(TypeError, match=r"objmcp\.hidden"):
        objmcp.tool(hidden=True)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="cannot be marked"):
        objmcp.tool(len)


@pytest.mark.anyio
@pytest.mark.parametrize(
    "version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
)
async def test_each_revision_lists_the_fields_it_defines(version: str) -> None:
    # The tools and the result exactly as the server sent them, through the real framing.
    async with connect(Library(), revision=version) as client:
        assert client.protocol_version == version
        listed = await client.request("tools/list")
        called = (await client.call("find", text="Dune")).raw
    tools = {tool["name"]: tool for tool in listed["tools"]}
    has = {
        "annotations": version >= "2025-03-26",
        "title": version >= "2025-06-18",
        "outputSchema": version >= "2025-06-18",
    }
    for field, present in has.items():
        assert (field in tools["find"]) is present, field
    assert ("icons" in tools["burn"]) is (version >= "2025-11-25")
    assert ("structuredContent" in called) is (version >= "2025-06-18")
    assert called["content"] == [{"type": "text", "text": '["Dune"]'}]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_sdk_client_checks_structured_results_against_their_schemas(mode: str) -> None:
    params = stdio_server(ZOO)
    async with Client(params, mode=mode) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        origin = await client.call_tool("origin", {})
        added = await client.call_tool("add", {"a": 2, "b": 3})
        shout = await client.call_tool("shout", {"text": "hey"})
        plain = await client.call_tool("plain_total", {"numbers": [1, 2]})
        lie = await client.call_tool("liar", {})
    assert origin.structured_content == {"x": 0.0, "y": 0.0}
    assert added.structured_content == {"result": 5}
    assert added.content[0].text == "5"  # type: ignore[union-attr]
    assert shout.structured_content == {"result": "HEY"}
    assert listed["shout"].title == "Shout it"
    assert listed["shout"].annotations is not None
    assert listed["shout"].annotations.read_only_hint is True
    assert listed["shout"].annotations.idempotent_hint is True
    assert "loud" not in listed and "secret" not in listed
    assert listed["plain_total"].output_schema is None and plain.structured_content is None
    assert lie.is_error and "declared return type" in lie.content[0].text  # type: ignore[union-attr]
