"""One object per session, or per caller (``per=``), through real processes: the official
SDK's client and raw HTTP requests to ``objmcp run --http`` and to an app checking bearer
tokens (``tests/servers/per_notes.py``), the SDK's client on stdio. Each object logs its
end to a file, so the tests see which object was closed, and after what."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest
from conftest import PYTHON, ROOT
from http_helpers import (
    HttpServer,
    call,
    modern,
    modern_headers,
    open_session,
    post,
)
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

pytestmark = pytest.mark.anyio

NOTES = ROOT / "tests" / "servers" / "per_notes.py"


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """The file the served objects log their ends to."""
    return tmp_path / "ends.jsonl"


def ends(log: Path) -> list[dict[str, Any]]:
    """What the objects logged, in order."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def closed(log: Path) -> dict[int, dict[str, Any]]:
    """The objects closed, by number."""
    return {entry["object"]: entry for entry in ends(log) if entry["event"] == "closed"}


def wait_for(check: Any, what: str) -> None:
    """Wait until ``check()`` holds (the server closes objects as it goes)."""
    deadline = time.monotonic() + 20
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


def result(response: Any) -> Any:
    """The ``result`` of a JSON or SSE answer to one request."""
    assert response.status_code == 200, response.text
    if response.headers["content-type"].startswith("text/event-stream"):
        data = [line[6:] for line in response.text.splitlines() if line.startswith("data: {")]
        return json.loads(data[-1])["result"]
    return response.json()["result"]


def notes(response: Any) -> dict[str, Any]:
    """What a call of ``add`` or ``read`` said of its object."""
    answer = result(response)
    assert not answer.get("isError"), answer
    structured: dict[str, Any] = answer["structuredContent"]
    return structured


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def session_of(url: str, token: str | None = None) -> dict[str, str]:
    """A 2025-11-25 session's headers (and the token's)."""
    return open_session(url, **(bearer(token) if token else {}))


def modern_call(url: str, tool: str, token: str | None = None, **arguments: Any) -> Any:
    message = modern("tools/call", 7, name=tool, arguments=arguments)
    extra = bearer(token) if token else {}
    return post(url, message, **modern_headers("tools/call", tool), **extra)


@pytest.fixture
def per_session(log: Path) -> Iterator[HttpServer]:
    """``objmcp run --http --per session --max-objects 2`` serving the Notes class."""
    server = HttpServer(
        "--per", "session", "--max-objects", "2",
        target=f"{NOTES}:Notes",
        env={"PER_NOTES_LOG": str(log)},
    )  # fmt: skip
    yield server
    server.stop()


def per_caller(log: Path, *numbers: float) -> HttpServer:
    """The factory ``make`` per caller, bearer tokens naming the users; ``numbers``:
    max_objects, object_idle, session_idle."""
    command = [PYTHON, str(NOTES), "{port}", "caller", *map(str, numbers)]
    return HttpServer(command=command, env={"PER_NOTES_LOG": str(log)})


# --- per session, over HTTP ---------------------------------------------------------------


async def test_two_sessions_keep_two_objects(per_session: HttpServer, log: Path) -> None:
    url = per_session.url
    first, second = session_of(url), session_of(url)
    post(url, call(2, "add", text="first's"), **first)
    mine = notes(post(url, call(3, "add", text="second's"), **second))
    theirs = notes(post(url, call(4, "read"), **first))
    assert mine["notes"] == ["second's"] and theirs["notes"] == ["first's"]
    assert mine["object"] != theirs["object"]
    # the official SDK's client, a session of its own, sees neither
    async with Client(streamable_http_client(url), mode="legacy") as client:
        answer = await client.call_tool("read", {})
    assert answer.structured_content is not None
    assert answer.structured_content["notes"] == []
    assert notes(post(url, call(5, "read"), **first)) == theirs


async def test_deleting_a_session_closes_its_object(per_session: HttpServer, log: Path) -> None:
    url = per_session.url
    headers = session_of(url)
    made = notes(post(url, call(2, "add", text="kept until the end"), **headers))
    assert httpx.delete(url, headers=headers, timeout=20).status_code == 200
    assert closed(log)[made["object"]]["notes"] == ["kept until the end"]


async def test_beyond_max_objects_the_least_recently_used_is_closed(
    per_session: HttpServer, log: Path
) -> None:
    url = per_session.url
    a, b, c = session_of(url), session_of(url), session_of(url)
    first = notes(post(url, call(2, "add", text="a"), **a))
    notes(post(url, call(2, "add", text="b"), **b))
    notes(post(url, call(3, "read"), **a))  # a used since: b is the least recent now
    second = notes(post(url, call(2, "add", text="c"), **c))  # a third object: b goes
    wait_for(lambda: closed(log), "an object closed")
    assert [entry["notes"] for entry in closed(log).values()] == [["b"]]
    assert notes(post(url, call(4, "read"), **a)) == {**first, "notes": ["a"]}
    again = notes(post(url, call(5, "read"), **b))  # b's session lives: a new object
    assert again["notes"] == [] and again["object"] > second["object"]


async def test_an_evicted_object_is_closed_after_its_running_call(
    per_session: HttpServer, log: Path
) -> None:
    url = per_session.url
    slow, b, c = session_of(url), session_of(url), session_of(url)
    answers: list[Any] = []
    running = threading.Thread(
        target=lambda: answers.append(post(url, call(2, "slow", seconds=1.5), **slow))
    )
    running.start()
    time.sleep(0.5)  # the slow call runs on its object now
    notes(post(url, call(2, "read"), **b))
    notes(post(url, call(2, "read"), **c))  # the slow one is the least recently used
    running.join()
    number = result(answers[0])["structuredContent"]["result"]
    wait_for(lambda: number in closed(log), "the evicted object closed")
    events = [(entry["event"], entry["object"]) for entry in ends(log)]
    assert events.index(("slow done", number)) < events.index(("closed", number))


async def test_a_session_deleted_during_a_call_closes_its_object_after_the_call(
    per_session: HttpServer, log: Path
) -> None:
    url = per_session.url
    headers = session_of(url)
    made = notes(post(url, call(2, "add", text="busy"), **headers))
    answers: list[Any] = []
    running = threading.Thread(
        target=lambda: answers.append(post(url, call(3, "slow", seconds=1.5), **headers))
    )
    running.start()
    time.sleep(0.5)  # the slow call runs in its thread now
    assert httpx.delete(url, headers=headers, timeout=20).status_code == 200
    running.join()
    wait_for(lambda: any(entry["event"] == "slow done" for entry in ends(log)), "the call ended")
    session_of(url)  # objects whose calls ended are closed as requests come
    wait_for(lambda: made["object"] in closed(log), "the deleted session's object closed")
    events = [(entry["event"], entry["object"]) for entry in ends(log)]
    assert events.index(("slow done", made["object"])) < events.index(("closed", made["object"]))


async def test_a_modern_request_has_no_session_and_is_told_so(per_session: HttpServer) -> None:
    answer = result(modern_call(per_session.url, "read"))
    assert answer["isError"] is True
    text = answer["content"][0]["text"]
    assert "per session" in text and "2026-07-28" in text


async def test_an_expired_session_closes_its_object(log: Path) -> None:
    server = HttpServer(
        "--per", "session", "--session-idle", "0.5",
        target=f"{NOTES}:Notes",
        env={"PER_NOTES_LOG": str(log)},
    )  # fmt: skip
    try:
        url = server.url
        made = notes(post(url, call(2, "add", text="left behind"), **session_of(url)))
        time.sleep(1.0)
        session_of(url)  # requests find the first session expired
        wait_for(lambda: made["object"] in closed(log), "the expired session's object closed")
        assert closed(log)[made["object"]]["notes"] == ["left behind"]
    finally:
        server.stop()


async def test_per_caller_objects_outlive_their_sessions(log: Path) -> None:
    server = per_caller(log)
    try:
        url = server.url
        headers = session_of(url, "bob")
        made = notes(post(url, call(2, "add", text="bob's"), **headers))
        assert httpx.delete(url, headers=headers, timeout=20).status_code == 200
        again = notes(post(url, call(2, "read"), **session_of(url, "bob")))
        assert again == made and not closed(log)
    finally:
        server.stop()


# --- per caller ------------------------------------------------------------------------------


async def test_one_callers_sessions_share_an_object_others_do_not(log: Path) -> None:
    server = per_caller(log)
    try:
        url = server.url
        alice_one, alice_two, bob = (
            session_of(url, "alice-1"),
            session_of(url, "alice-2"),
            session_of(url, "bob"),
        )
        notes(post(url, call(2, "add", text="from one"), **alice_one))
        alice = notes(post(url, call(2, "add", text="from two"), **alice_two))
        bobs = notes(post(url, call(2, "read"), **bob))
        modern_alice = notes(modern_call(url, "read", "alice-2"))
        assert alice["notes"] == ["from one", "from two"] and alice["owner"] == "alice"
        assert modern_alice == alice  # 2026-07-28 finds the caller's object too
        assert bobs["notes"] == [] and bobs["owner"] == "bob"
        transport = streamable_http_client(
            url, http_client=create_mcp_http_client(headers=bearer("alice-1"))
        )
        async with Client(transport, mode="legacy") as client:
            seen = await client.call_tool("read", {})
        assert seen.structured_content == alice
    finally:
        server.stop()


async def test_a_callers_object_unused_for_object_idle_is_closed(log: Path) -> None:
    server = per_caller(log, 10, 0.5)
    try:
        url = server.url
        made = notes(modern_call(url, "add", "bob", text="soon gone"))
        time.sleep(1.0)
        notes(modern_call(url, "read", "alice-1"))  # objects idle too long close as calls come
        wait_for(lambda: made["object"] in closed(log), "bob's idle object closed")
        fresh = notes(modern_call(url, "read", "bob"))
        assert fresh["notes"] == [] and fresh["object"] != made["object"]
    finally:
        server.stop()


async def test_a_failing_factory_is_an_error_result_and_the_server_carries_on(
    log: Path,
) -> None:
    server = per_caller(log)
    try:
        url = server.url
        headers = session_of(url, "mallory")
        answer = result(post(url, call(2, "read"), **headers))
        assert answer["isError"] is True
        assert answer["content"][0]["text"] == (
            "Could not make the Notes object for this caller: "
            "RuntimeError: mallory's notes are locked"
        )
        assert result(post(url, call(3, "read"), **headers))["isError"] is True  # tried again
        assert notes(modern_call(url, "add", "bob", text="fine"))["notes"] == ["fine"]
    finally:
        server.stop()


# --- stdio -----------------------------------------------------------------------------------


def _stdio(log: Path, *options: str, target: str = f"{NOTES}:Notes") -> StdioServerParameters:
    return StdioServerParameters(
        command=PYTHON,
        args=["-m", "objmcp", "run", *options, target],
        env={"PYTHONPATH": str(ROOT), "PER_NOTES_LOG": str(log)},
    )


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_on_stdio_the_connection_is_the_session(log: Path, mode: str) -> None:
    async with Client(_stdio(log, "--per", "session"), mode=mode) as client:
        await client.call_tool("add", {"text": "one"})
        answer = await client.call_tool("add", {"text": "two"})
        listed = await client.list_tools()
    assert answer.structured_content == {"object": 1, "owner": None, "notes": ["one", "two"]}
    assert sorted(tool.name for tool in listed.tools) == ["add", "read", "slow"]
    wait_for(lambda: 1 in closed(log), "the connection's object closed at its end")
    assert closed(log)[1]["notes"] == ["one", "two"]


async def test_on_stdio_per_caller_is_one_object_for_the_local_caller(log: Path) -> None:
    target = f"{NOTES}:make"  # the factory: annotated with the class it makes
    async with Client(_stdio(log, "--per", "caller", target=target), mode="legacy") as client:
        await client.call_tool("add", {"text": "mine"})
        answer = await client.call_tool("read", {})
    assert answer.structured_content == {"object": 1, "owner": None, "notes": ["mine"]}


async def test_the_per_user_notes_example_keeps_a_database_a_user(tmp_path: Path) -> None:
    example = ROOT / "examples" / "per_user_notes.py"
    params = StdioServerParameters(
        command=PYTHON,
        args=["-m", "objmcp", "run", "--per", "caller", "--concurrency", "serial",
              f"{example}:UserNotes"],
        env={"PYTHONPATH": str(ROOT), "NOTES_DIR": str(tmp_path)},
    )  # fmt: skip
    async with Client(params, mode="legacy") as client:
        await client.call_tool("add", {"text": "milk"})
        added = await client.call_tool("add", {"text": "bread"})
        listed = await client.call_tool("list", {})
    assert added.structured_content == {"result": 2}
    assert listed.structured_content == {"result": ["milk", "bread"]}
    assert [path.name for path in tmp_path.iterdir()] == ["notes-local.db"]
