"""A set parameter takes a list with repeats (issue 40): a set has no repeats to keep, so
``set([1, 1, 2])`` is ``{1, 2}`` as Python makes it, and an argument's schema says no
``uniqueItems`` (a client that checks it would refuse what the function takes). A set
result has no repeats, so its output schema still says ``uniqueItems``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
from conftest import RawServer
from hypothesis import given
from hypothesis import strategies as st

from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.convert import from_json
from objmcp.model.values.jsonable import to_jsonable

SETS_PY = '''
def total(numbers: set[int]) -> int:
    """Sum the distinct numbers."""
    return sum(numbers)


def letters(word: frozenset[str]) -> int:
    """How many distinct letters."""
    return len(word)


def anything(items: set) -> int:
    """How many distinct items."""
    return len(items)


def distinct(numbers: list[int]) -> set[int]:
    """The distinct numbers."""
    return set(numbers)
'''


def test_a_set_parameter_takes_repeats_through_a_server(tmp_path: Path) -> None:
    module = tmp_path / "sets.py"
    module.write_text(SETS_PY)
    server = RawServer("-m", "objmcp", "run", str(module), stderr=subprocess.DEVNULL)
    try:
        server.initialize("2025-11-25")
        tools = server.tools()
        for tool, name in [("total", "numbers"), ("letters", "word"), ("anything", "items")]:
            assert "uniqueItems" not in tools[tool]["inputSchema"]["properties"][name], tool
        result = tools["distinct"]["outputSchema"]["properties"]["result"]
        assert result["uniqueItems"] is True
        calls = [
            ("total", {"numbers": [1, 1, 2]}, 3),
            ("letters", {"word": ["a", "b", "a", "a"]}, 2),
            ("anything", {"items": [1, "1", 1]}, 2),
        ]
        for index, (tool, arguments, expected) in enumerate(calls):
            answer = server.call_tool(index, tool, **arguments)
            assert not answer.get("isError"), (tool, answer)
            assert json.loads(answer["content"][0]["text"]) == expected, tool
    finally:
        server.close()


@given(st.lists(st.integers()))
def test_any_list_of_integers_is_a_set_argument(numbers: list[int]) -> None:
    for hint in (set[int], frozenset[int], set):
        jsonschema.validate(numbers, SchemaBuilder().schema(hint))
        assert from_json(numbers, hint) == set(numbers)


@given(st.sets(st.integers()))
def test_a_set_result_is_unique_items(numbers: set[int]) -> None:
    schema = SchemaBuilder(results=True).schema(set[int])
    assert schema["uniqueItems"] is True
    jsonschema.validate(to_jsonable(numbers), schema)
