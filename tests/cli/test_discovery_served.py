"""Progressive discovery served by a real ``objmcp run`` process: the meta-tools listed, the
tools a search finds added to that session's list with ``list_changed``, and calls of them
directly and through ``call_tool``, by raw pipes and by the official SDK client."""

from __future__ import annotations

import json
import statistics
from typing import Any

import pytest
from conftest import PYTHON, ROOT, RawServer
from mcp import Client, StdioServerParameters

import objmcp

META = ["search_tools", "describe_tools", "call_tool"]


def request(request_id: int, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def ask(server: RawServer, message: dict[str, Any], heard: list[str] | None = None) -> Any:
    """Send a request and read up to its answer; the notifications before it go to ``heard``."""
    server.send(message)
    while True:
        read = server.read()
        if read.get("id") == message["id"]:
            return read
        if heard is not None:
            heard.append(read["method"])


def names(answer: dict[str, Any]) -> list[str]:
    return [tool["name"] for tool in answer["result"]["tools"]]


def test_search_mode_lists_meta_tools_and_adds_what_a_search_finds() -> None:
    server = RawServer("-m", "objmcp", "run", "statistics", "--discovery", "search")
    try:
        server.initialize()
        assert names(ask(server, request(1, "tools/list"))) == META
        found = ask(
            server,
            request(
                2,
                "tools/call",
                name="search_tools",
                arguments={"query": "median of some numbers", "limit": 2},
            ),
        )
        assert json.loads(found["result"]["content"][0]["text"])[0]["name"] == "median"
        heard: list[str] = []
        listed = names(ask(server, request(3, "tools/list"), heard))
        assert heard == ["notifications/tools/list_changed"]
        assert listed[:3] == META and "median" in listed and len(listed) == 5
        direct = ask(server, request(4, "tools/call", name="median", arguments={"data": [3, 1, 2]}))
        through = ask(
            server,
            request(
                5,
                "tools/call",
                name="call_tool",
                arguments={"name": "median", "arguments": {"data": [3, 1, 2]}},
            ),
        )
        assert direct["result"] == through["result"]
        assert direct["result"]["content"][0]["text"] == "2"
        wrong = ask(
            server,
            request(
                6,
                "tools/call",
                name="call_tool",
                arguments={"name": "median", "arguments": {"datum": [1]}},
            ),
        )
        same = ask(server, request(7, "tools/call", name="median", arguments={"datum": [1]}))
        assert wrong["result"] == same["result"] and wrong["result"]["isError"]
    finally:
        _, stderr, status = server.close()
    said = stderr.decode()
    assert "discovery search: tools/list gives search_tools, describe_tools, call_tool" in said
    assert status == 0


def test_auto_lists_every_tool_at_or_below_the_threshold_and_says_so() -> None:
    server = RawServer("-m", "objmcp", "run", "statistics", "--discovery", "auto")
    try:
        server.initialize()
        assert "median" in names(ask(server, request(1, "tools/list")))
    finally:
        _, stderr, _ = server.close()
    counted = len(objmcp.Toolbox(statistics))  # its functions, NormalDist, LinearRegression
    assert f"discovery auto: all listed ({counted} tools, at most 40)" in stderr.decode()


def test_the_list_is_bounded_the_least_recently_used_dropped() -> None:
    server = RawServer(
        "-m", "objmcp", "run", "statistics", "--discovery", "search", "--max-surfaced", "2"
    )
    try:
        server.initialize()
        for request_id, query in enumerate(("median", "variance", "harmonic_mean"), 1):
            ask(
                server,
                request(
                    request_id,
                    "tools/call",
                    name="search_tools",
                    arguments={"query": query, "limit": 1},
                ),
            )
        assert names(ask(server, request(9, "tools/list"))) == [
            *META,
            "variance",
            "harmonic_mean",
        ]
    finally:
        server.close()


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_sdk_client_searches_sees_the_list_change_and_calls(mode: str) -> None:
    heard: list[str] = []

    async def on_message(message: Any) -> None:
        method = getattr(getattr(message, "root", message), "method", None)
        if isinstance(method, str):
            heard.append(method)

    server = StdioServerParameters(
        command=PYTHON,
        args=["-m", "objmcp", "run", "statistics", "--discovery", "search"],
        env={"PYTHONPATH": str(ROOT)},
    )
    async with Client(server, mode=mode, message_handler=on_message) as client:
        assert [tool.name for tool in (await client.list_tools()).tools] == META
        found = await client.call_tool("search_tools", {"query": "average of a list", "limit": 3})
        assert "mean" in found.content[0].text  # type: ignore[union-attr]
        through = await client.call_tool(
            "call_tool", {"name": "mean", "arguments": {"data": [1, 2, 6]}}
        )
        assert through.content[0].text == "3"  # type: ignore[union-attr]
        listed = [tool.name for tool in (await client.list_tools()).tools]
        assert listed[:3] == META and "mean" in listed
        direct = await client.call_tool("mean", {"data": [1, 2, 6]})
        assert direct.content[0].text == "3"  # type: ignore[union-attr]
    if mode == "legacy":  # a handshake session hears of the change unasked
        assert "notifications/tools/list_changed" in heard
