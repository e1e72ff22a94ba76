"""Hole 4 of issue 36: what discovery's meta-tools cost is bounded. A ``search_tools``
query has at most ``MAX_QUERY`` characters and ``describe_tools`` at most ``MAX_NAMES``
names, ``call_tool``'s arguments sent as JSON text at most ``MAX_CALL_TEXT`` characters
and ``max_values`` values (a tool error beyond, through a real server); a name is looked
up in an index, made once per change of the tools, not by going through every tool for
each name."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import NOTES, RawServer

import objmcp.model.discovery.metatools as discovery_module
from objmcp.model.calling.tool import Tool, make_tool
from objmcp.model.discovery.metatools import MAX_CALL_TEXT, MAX_NAMES, MAX_QUERY, Discovery


def meta_call(server: RawServer, request_id: int, tool: str, arguments: object) -> Any:
    """A meta-tool's result (the notifications before it, of tools a search brought up,
    passed over); ``arguments`` an object, or its JSON text, as some clients send it."""
    server.send(
        {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        }
    )
    answer = server.read()
    while "id" not in answer:
        answer = server.read()
    assert answer["id"] == request_id
    return answer["result"]


def test_long_queries_many_names_and_large_call_texts_get_a_tool_error() -> None:
    server = RawServer(
        "-m", "objmcp", "run", f"{NOTES}:Notes", "--discovery", "search", "--max-values", "50"
    )
    try:
        server.initialize()
        too_long = meta_call(server, 1, "search_tools", {"query": "note " * 200 + "x"})
        assert too_long["isError"] is True
        assert too_long["content"][0]["text"] == (
            f"The query has {MAX_QUERY + 1:,} characters, over the {MAX_QUERY:,} searched: "
            "say what you want done in a few words"
        )
        found = meta_call(server, 2, "search_tools", {"query": "add a note" + " " * 990})
        assert not found["isError"]
        assert "add" in found["content"][0]["text"]

        names = [f"unknown_{i}" for i in range(MAX_NAMES + 1)]
        too_many = meta_call(server, 3, "describe_tools", {"names": names})
        assert too_many["isError"] is True
        assert too_many["content"][0]["text"] == (
            f"{MAX_NAMES + 1:,} names given, over the {MAX_NAMES} described at once: "
            "ask for the ones you need, a few at a time"
        )
        described = meta_call(server, 4, "describe_tools", {"names": names[:MAX_NAMES]})
        assert not described["isError"]
        assert described["content"][0]["text"].count("no tool is called so") == MAX_NAMES

        def call_text(title: str, tags: int) -> str:
            arguments = {"title": title, "tags": ["t"] * tags}
            return json.dumps({"name": "add", "arguments": arguments})

        resolved = meta_call(server, 5, "call_tool", call_text("short", 40))
        assert not resolved["isError"], resolved
        assert json.loads(resolved["content"][0]["text"])["title"] == "short"
        too_many = meta_call(server, 6, "call_tool", call_text("many", 60))
        assert too_many["isError"] is True
        assert "over the server's max_values of 50" in too_many["content"][0]["text"]
        too_long = meta_call(server, 7, "call_tool", call_text("x" * MAX_CALL_TEXT, 0))
        assert too_long["isError"] is True
        assert too_long["content"][0]["text"] == (
            f"call_tool's arguments for the tool 'add' came as JSON text of more than "
            f"{MAX_CALL_TEXT:,} characters: send them as a JSON object, or call 'add' by its name"
        )
    finally:
        server.close()


def tools_named(*names: str) -> dict[str, Tool]:
    """A tool of each name."""

    def work() -> None:
        """Do the work."""

    return {name: make_tool(name, work) for name in names}


def test_names_are_looked_up_in_an_index_made_once_per_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fitted: list[str] = []
    api_name = discovery_module.api_name

    def counted(name: str) -> str:
        fitted.append(name)
        return api_name(name)

    monkeypatch.setattr(discovery_module, "api_name", counted)
    tools = tools_named("geo.area", "geo:area", "geo.length", *(f"t{i}" for i in range(47)))
    generation = [0]
    discovery = Discovery(lambda: tools, lambda: generation[0], "geo")

    unknown = [f"missing_{i}" for i in range(MAX_NAMES)]
    assert all("unknown" in entry for entry in discovery.describe(unknown))
    assert discovery.real_name("geo_length") == "geo.length"  # renamed for an LLM API
    assert discovery.real_name("geo_area") is None  # two tools have that name there
    assert discovery.real_name("t3") == "t3"
    assert len(fitted) == len(tools)  # once each, not once per name asked

    tools = {**tools, **tools_named("geo.volume")}
    generation[0] += 1
    assert discovery.real_name("geo_volume") == "geo.volume"
    assert len(fitted) == 2 * len(tools) - 1
