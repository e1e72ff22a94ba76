"""HTTP's lane: a 2026-07-28 POST whose one call is a plain sync tool runs that call in the
request's own task (``Runner.run_here``), with the same answer, log records, timeout and
cancellation as a call in a task of its own; any other call goes the general way."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest

import objmcp
from objmcp import Progress
from objmcp.serving.runner import Runner

ACCEPT = {"accept": "application/json, text/event-stream"}
pytestmark = pytest.mark.anyio
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


class Plain:
    """Tools of every kind the lane tells apart."""

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    def noisy(self, word: str) -> str:
        """Log a warning, then answer."""
        logging.getLogger(__name__).warning("heard %s", word)
        return word.upper()

    def slow(self, seconds: float) -> str:
        """Sleep, then answer."""
        time.sleep(seconds)
        return "slept"

    def counted(self, steps: int, progress: Progress) -> int:
        """Report progress (not a plain tool: it is given a Progress)."""
        for step in range(steps):
            progress(step + 1, steps)
        return steps


def call(request_id: int, name: str, meta: dict[str, Any] | None = None, **arguments: Any) -> Any:
    params = {"name": name, "arguments": arguments, "_meta": {**META, **(meta or {})}}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def headers(method: str, name: str | None = None) -> dict[str, str]:
    found = {**ACCEPT, "mcp-protocol-version": "2026-07-28", "mcp-method": method}
    if name is not None:
        found["mcp-name"] = name
    return found


def events(text: str) -> list[Any]:
    import json

    datas = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
    return [json.loads(data) if data else None for data in datas]


@pytest.fixture
def ran_here(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The tools whose calls the lane ran."""
    names: list[str] = []
    original = Runner.run_here

    async def counted(self: Runner, start: Any) -> None:
        names.append(start.tool)
        await original(self, start)

    monkeypatch.setattr(Runner, "run_here", counted)
    yield names


async def post(app: Any, *messages: tuple[dict[str, Any], dict[str, str]]) -> list[Any]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        return [await client.post("/mcp", json=body, headers=head) for body, head in messages]


async def test_a_plain_call_is_answered_from_the_lane_as_json(ran_here: list[str]) -> None:
    app = objmcp.asgi_app("lane", Plain())
    (answer,) = await post(app, (call(1, "add", a=2, b=3), headers("tools/call", "add")))
    await app.aclose()
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    assert answer.json()["result"]["content"] == [{"type": "text", "text": "5"}]
    assert ran_here == ["add"]


async def test_what_a_plain_call_logs_comes_before_its_answer_on_one_stream(
    ran_here: list[str],
) -> None:
    app = objmcp.asgi_app("lane", Plain())
    meta = {"io.modelcontextprotocol/logLevel": "info"}
    (answer,) = await post(app, (call(2, "noisy", meta, word="hi"), headers("tools/call", "noisy")))
    await app.aclose()
    assert answer.headers["content-type"].startswith("text/event-stream")
    logged, answered = [event for event in events(answer.text) if event]
    assert logged["method"] == "notifications/message"
    assert "heard hi" in str(logged["params"]["data"])
    assert answered["id"] == 2
    assert answered["result"]["content"] == [{"type": "text", "text": "HI"}]
    assert ran_here == ["noisy"]


async def test_a_plain_call_past_the_call_timeout_is_stopped_in_the_lane(
    ran_here: list[str],
) -> None:
    app = objmcp.asgi_app("lane", Plain(), limits=objmcp.Limits(call_timeout=0.2))
    (answer,) = await post(app, (call(3, "slow", seconds=2), headers("tools/call", "slow")))
    await app.aclose()
    result = answer.json()["result"]
    assert result["isError"] is True
    assert "call_timeout" in result["content"][0]["text"]
    assert ran_here == ["slow"]


async def test_a_plain_call_in_the_lane_is_cancelled_by_its_callers_notification(
    ran_here: list[str],
) -> None:
    app = objmcp.asgi_app("lane", Plain())
    cancel = {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": 4, "_meta": META},
    }
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        running = asyncio.create_task(
            client.post(
                "/mcp", json=call(4, "slow", seconds=1.5), headers=headers("tools/call", "slow")
            )
        )
        with anyio.fail_after(10):
            while not ran_here:
                await asyncio.sleep(0.01)
        told = await client.post("/mcp", json=cancel, headers=headers("notifications/cancelled"))
        stopped = await running
    await app.aclose()
    assert told.status_code == 202
    assert "slept" not in stopped.text
    assert ran_here == ["slow"]


async def test_a_call_given_more_than_it_sends_goes_the_general_way(ran_here: list[str]) -> None:
    app = objmcp.asgi_app("lane", Plain())
    (answer,) = await post(app, (call(5, "counted", steps=2), headers("tools/call", "counted")))
    await app.aclose()
    assert answer.status_code == 200
    assert answer.json()["result"]["content"] == [{"type": "text", "text": "2"}]
    assert ran_here == []


async def test_a_handshake_sessions_plain_call_runs_in_the_lane_too(ran_here: list[str]) -> None:
    app = objmcp.asgi_app("lane", Plain())
    client_info = {"name": "lane", "version": "0"}
    opening = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client_info},
    }
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        opened = await client.post("/mcp", json=opening, headers=ACCEPT)
        session_id = opened.headers["mcp-session-id"]
        session = {**ACCEPT, "mcp-session-id": session_id, "mcp-protocol-version": "2025-11-25"}
        initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        await client.post("/mcp", json=initialized, headers=session)
        level = {"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel"}
        await client.post("/mcp", json={**level, "params": {"level": "info"}}, headers=session)
        plain = {"jsonrpc": "2.0", "method": "tools/call"}
        added = await client.post(
            "/mcp",
            json={**plain, "id": 2, "params": {"name": "add", "arguments": {"a": 1, "b": 1}}},
            headers=session,
        )
        noisy = await client.post(
            "/mcp",
            json={**plain, "id": 3, "params": {"name": "noisy", "arguments": {"word": "yo"}}},
            headers=session,
        )
    await app.aclose()
    assert added.headers["content-type"] == "application/json"
    assert added.headers["mcp-session-id"] == session_id
    assert added.json()["result"]["content"] == [{"type": "text", "text": "2"}]
    assert noisy.headers["content-type"].startswith("text/event-stream")
    assert noisy.headers["mcp-session-id"] == session_id
    logged, answered = [event for event in events(noisy.text) if event]
    assert logged["method"] == "notifications/message"
    assert answered["result"]["content"] == [{"type": "text", "text": "YO"}]
    assert noisy.text.startswith("id: ")  # the priming event 2025-11-25 asks for comes first
    assert ran_here == ["add", "noisy"]
