"""OpenAI's strict mode is claimed only where the schema can be strict (issue 40): a schema in
it says what its values are (an untyped ``{}``, such as an unannotated parameter's, is
refused: "schema must have a 'type' key"), and an array gives its items' schema ("array
schema missing items"), besides the closed objects :func:`strict_compatible` checked before."""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterator
from typing import Annotated, Any, Literal

from hypothesis import given
from hypothesis import strategies as st

import objmcp

TYPING = ("type", "anyOf", "$ref", "enum", "const")


def untyped(x) -> str:
    """Show what arrived."""
    return repr(x)


def rows(items: list) -> int:
    """Count."""
    return len(items)


def anything(value: Annotated[Any, "Whatever."]) -> str:
    """Show it."""
    return repr(value)


def nested(grid: list[list[Any]]) -> int:
    """Count."""
    return len(grid)


def add(a: int, b: float, names: list[str], flag: bool | None) -> float:
    """Add."""
    return a + b


def strictness(functions: dict[str, Callable[..., object]]) -> dict[str, bool]:
    """Each tool's ``strict`` flag in both OpenAI formats (the same in both)."""
    tools = objmcp.Toolbox(functions)
    chat = {spec["function"]["name"]: spec["function"]["strict"] for spec in tools.specs("openai")}
    responses = {spec["name"]: spec["strict"] for spec in tools.specs("openai-responses")}
    assert chat == responses
    return responses


def test_untyped_and_itemless_schemas_are_not_claimed_strict() -> None:
    functions = {f.__name__: f for f in (untyped, rows, anything, nested, add)}
    assert strictness(functions) == {
        "untyped": False,  # {"x": {}}
        "rows": False,  # {"type": "array"}, no items
        "anything": False,  # {"description": "Whatever."}
        "nested": False,  # items of items: {}
        "add": True,
    }


def nodes(schema: Any) -> Iterator[dict[str, Any]]:
    """Every schema in ``schema``: itself, its properties, items and anyOf members."""
    if not isinstance(schema, dict):
        return
    yield schema
    for value in schema.get("properties", {}).values():
        yield from nodes(value)
    yield from nodes(schema.get("items"))
    for member in schema.get("anyOf", []):
        yield from nodes(member)


TYPED_LEAVES = st.sampled_from([int, str, float, bool, Literal["a", "b"]])
LEAVES = st.one_of(TYPED_LEAVES, st.sampled_from([Any, object, list, dict]))


def hints(leaves: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            inner.map(lambda hint: list[hint]),
            inner.map(lambda hint: typing.Optional[hint]),  # noqa: UP045
        ),
        max_leaves=4,
    )


def probe(hint: object) -> Callable[..., object]:
    def tool(value: Any) -> int:
        """Probe."""
        return 0

    tool.__annotations__ = {"value": hint, "return": int}
    return tool


@given(hints(LEAVES))
def test_strict_is_claimed_only_where_every_schema_is_typed(hint: object) -> None:
    tools = objmcp.Toolbox({"tool": probe(hint)})
    (spec,) = tools.specs("openai-responses")
    if spec["strict"]:
        for node in nodes(spec["parameters"]):
            assert any(key in node for key in TYPING), node
            kinds = node.get("type")
            if "array" in (kinds if isinstance(kinds, list) else [kinds]):
                assert "items" in node, node


@given(hints(TYPED_LEAVES))
def test_strict_is_claimed_where_every_schema_is_typed(hint: object) -> None:
    tools = objmcp.Toolbox({"tool": probe(hint)})
    (spec,) = tools.specs("openai-responses")
    assert spec["strict"] is True, spec["parameters"]
