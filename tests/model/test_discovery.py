"""Progressive discovery in the object model alone: ``Toolbox(target, discovery=...)`` lists
three meta-tools, and ``call`` runs them, ``call_tool`` exactly as a direct call."""

from __future__ import annotations

import json
import statistics

import pytest

import objmcp
from objmcp.model.describe.specs import mcp_tool
from objmcp.model.discovery.metatools import about_target

META = ["search_tools", "describe_tools", "call_tool"]


class Notes:
    """A notebook of short notes, kept in memory."""

    def __init__(self) -> None:
        self.notes: list[str] = []

    def add_note(self, text: str, progress: objmcp.Progress) -> int:
        """Add a note; returns how many there are.

        Args:
            text: The note.
        """
        progress(1, 1)
        self.notes.append(text)
        return len(self.notes)

    def delete_note(self, index: int) -> str:
        """Remove a note by its position."""
        return self.notes.pop(index)

    async def count_notes(self) -> int:
        """How many notes there are."""
        return len(self.notes)


def test_off_lists_every_tool_and_search_lists_the_meta_tools() -> None:
    listed = [spec["name"] for spec in objmcp.Toolbox(Notes()).specs()]
    assert sorted(listed) == ["add_note", "count_notes", "delete_note"]
    toolbox = objmcp.Toolbox(Notes(), discovery="search")
    assert toolbox.searching
    assert [spec["name"] for spec in toolbox.specs("anthropic")] == META
    assert len(toolbox) == 3 and "add_note" in toolbox  # the real tools, as before


def test_auto_searches_above_the_threshold() -> None:
    assert not objmcp.Toolbox(statistics, discovery="auto").searching  # 18 tools, 40 by default
    toolbox = objmcp.Toolbox(statistics, discovery="auto", discovery_threshold=10)
    assert toolbox.searching
    assert [spec["function"]["name"] for spec in toolbox.specs("openai")] == META


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="discovery"):
        objmcp.Toolbox(Notes(), discovery="maybe")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="discovery_threshold"):
        objmcp.Toolbox(Notes(), discovery_threshold=-1)


def test_the_meta_tools_say_what_the_library_is() -> None:
    toolbox = objmcp.Toolbox(statistics, discovery="search")
    search = toolbox.specs()[0]["description"]
    counted = f"{len(objmcp.Toolbox(statistics))} tools"  # its functions and NormalDist's kind
    assert "statistics: Basic statistics module." in search and counted in search
    told = objmcp.Toolbox(Notes(), discovery="search", about="Team notes: what we agreed.")
    assert "Team notes: what we agreed." in told.specs()[0]["description"]
    assert about_target(Notes()) == "Notes: A notebook of short notes, kept in memory."


def test_search_gives_names_first_lines_and_parameters_in_brief() -> None:
    toolbox = objmcp.Toolbox(Notes(), discovery="search")
    result = toolbox.call("search_tools", {"query": "remove a note", "limit": 2})
    assert not result.is_error
    found = json.loads(result.text)
    assert found[0] == {
        "name": "delete_note",
        "description": "Remove a note by its position.",
        "parameters": "index: integer",
    }
    assert len(found) <= 2


def test_describe_gives_the_full_definitions() -> None:
    toolbox = objmcp.Toolbox(Notes(), discovery="search")
    described = toolbox.call("describe_tools", {"names": ["add_note", "nothing"]}).value
    assert described == [
        mcp_tool(toolbox["add_note"]),
        {"name": "nothing", "unknown": "no tool is called so: search_tools finds them"},
    ]
    assert described[0]["inputSchema"]["required"] == ["text"]


def test_call_tool_is_a_direct_call_with_its_injected_parameters() -> None:
    toolbox = objmcp.Toolbox(Notes(), discovery="search")
    reports: list[tuple[object, ...]] = []
    wrapped = toolbox.call(
        "call_tool",
        {"name": "add_note", "arguments": {"text": "milk"}},
        progress=lambda *args: reports.append(args),
    )
    assert (wrapped.text, wrapped.is_error, reports) == ("1", False, [(1, 1)])
    assert toolbox.call("call_tool", '{"name": "count_notes"}').text == "1"  # async, JSON text
    direct = toolbox.call("delete_note", {"index": "first"})
    through = toolbox.call("call_tool", {"name": "delete_note", "arguments": {"index": "first"}})
    assert through == direct and through.is_error


def test_call_tool_of_no_tool_is_an_error_result_that_says_how_to_find_one() -> None:
    toolbox = objmcp.Toolbox(Notes(), discovery="search")
    result = toolbox.call("call_tool", {"name": "launch"})
    assert result.is_error
    assert result.text == "Unknown tool 'launch': search_tools finds the tools by what they do"
    missing = toolbox.call("call_tool", {"arguments": {}})
    assert missing.is_error and "name" in missing.text
    with pytest.raises(objmcp.UnknownToolError):
        objmcp.Toolbox(Notes()).call("call_tool", {"name": "add_note"})  # off: no meta-tools


class Clashing:
    def search_tools(self, text: str) -> str:
        """The application's own search."""
        return text


def test_a_real_tool_keeps_its_name_and_the_meta_tool_steps_aside() -> None:
    toolbox = objmcp.Toolbox(Clashing(), discovery="search")
    names = [spec["name"] for spec in toolbox.specs()]
    assert names == ["objmcp_search_tools", "describe_tools", "call_tool"]
    assert toolbox.call("search_tools", {"text": "x"}).text == "x"
    found = toolbox.call("objmcp_search_tools", {"query": "search_tools"}).value
    assert isinstance(found, list) and found[0]["name"] == "search_tools"


def test_the_index_follows_what_is_published() -> None:
    toolbox = objmcp.Toolbox(Notes(), discovery="search")
    assert toolbox.discovery.search("square") == []

    def square(x: float) -> float:
        """The square of a number."""
        return x * x

    toolbox.add(square)
    assert toolbox.discovery.search("square")[0]["name"] == "square"
    assert "4 tools" in toolbox.specs()[0]["description"]
    toolbox.remove("square")
    assert toolbox.discovery.search("square") == []


def test_call_tool_takes_the_name_specs_gave_a_tool_for_an_llm_api() -> None:
    tools = objmcp.Toolbox(
        {"stats.mean": statistics.mean, "stats.median": statistics.median}, discovery="search"
    )
    names = [spec["name"] for spec in tools.specs("anthropic")]
    assert "call_tool" in names  # the model sees only the meta-tools, by their API names
    called = tools.call("call_tool", {"name": "stats_mean", "arguments": {"data": [1, 2, 6]}})
    assert not called.is_error and called.value == 3
    described = tools.call("describe_tools", {"names": ["stats_median"]}).value
    assert [entry["name"] for entry in described] == ["stats.median"]
    unknown = tools.call("call_tool", {"name": "stats_mode", "arguments": {}})
    assert unknown.is_error
