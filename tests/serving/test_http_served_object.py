"""The served object's side of an app over real HTTP (issue 36): the request ids its
hooks and spans see in 2026-07-28 are the client's, not the server's aliases; and tools
added through ``app.server`` while serving reach a connected client."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest
from conftest import ZOO
from http_helpers import (
    PYTHON,
    HttpServer,
    call,
    initialize_message,
    modern,
    modern_headers,
    post,
    read_event,
)

COMMONS = ZOO.parent / "commons.py"
ALICE = {"authorization": "Bearer alice-token"}


@pytest.fixture(scope="module")
def commons() -> Iterator[HttpServer]:
    server = HttpServer(command=[PYTHON, str(COMMONS), "{port}"])
    yield server
    server.stop()


def modern_call(url: str, request_id: int | str, tool: str) -> Any:
    message = modern("tools/call", None, name=tool, arguments={})
    message["id"] = request_id
    answer = post(url, message, **ALICE, **modern_headers("tools/call", tool)).json()
    assert answer["id"] == request_id
    return answer["result"]


def test_hooks_and_spans_see_the_id_a_2026_07_28_client_sent(commons: HttpServer) -> None:
    url = commons.url
    modern_call(url, "mine-7", "quick")
    modern_call(url, 4242, "quick")
    listing = modern("tools/list", None)
    listing["id"] = "mine-8"
    listed = post(url, listing, **ALICE, **modern_headers("tools/list"))
    assert listed.json()["id"] == "mine-8"
    seen = modern_call(url, "mine-9", "seen")["structuredContent"]
    assert seen["hooks"][-3:] == ["mine-7", 4242, "mine-9"]
    assert {"mine-7", "4242", "mine-8"} <= set(seen["spans"])
    assert not [shown for shown in seen["spans"] if str(shown).startswith("objmcp-http")]


def test_a_tool_added_through_app_server_is_told_listed_and_callable(commons: HttpServer) -> None:
    url = commons.url
    opened = post(url, initialize_message(), **ALICE)
    session = {
        **ALICE,
        "mcp-session-id": opened.headers["mcp-session-id"],
        "mcp-protocol-version": "2025-11-25",
    }
    told = post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, **session)
    assert told.status_code == 202
    with (
        httpx.Client(timeout=20) as client,
        client.stream("GET", url, headers={**session, "accept": "text/event-stream"}) as stream,
    ):
        assert stream.status_code == 200
        grown = post(url, call(2, "grow"), **session).json()["result"]
        assert grown["content"][0]["text"] == "grown", grown
        lines = stream.iter_lines()
        data = ""
        while not data:  # past the priming event
            data = read_event(lines)["data"]
        assert json.loads(data)["method"] == "notifications/tools/list_changed"
    tools = post(url, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, **session).json()
    assert "sprout" in [tool["name"] for tool in tools["result"]["tools"]]
    sprouted = post(url, call(4, "sprout"), **session).json()["result"]
    assert sprouted["content"][0]["text"] == "sprouted"
