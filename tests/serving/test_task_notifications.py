"""2026-07-28 ``notifications/tasks`` on a ``subscriptions/listen`` stream (the tasks
extension's ``taskIds``), through real server processes: raw pipes on stdio, and raw
HTTP with two callers. A stream hears every status change of the tasks it named and was
granted (``input_required``, ``working`` again, the end, with the result inlined as
``tasks/get`` would answer), and only of its own caller's tasks; a stream that names
tasks without declaring the extension is refused -32021.

The fixture (``tests/servers/watched.py``) makes each task wait at a gate the test
opens, so a test always listens before the change it waits for."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2 as httpx
import pytest
from conftest import PYTHON, RawServer
from http_helpers import HttpServer, modern_headers
from test_tasks import TASKS, request

WATCHED = Path(__file__).resolve().parent.parent / "servers" / "watched.py"
SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId"


class Pipe:
    """Raw requests to the watched server over stdio; what else arrives is kept."""

    def __init__(self, server: RawServer) -> None:
        self.server = server
        self.ids = iter(range(1, 10_000))
        self.heard: list[dict[str, Any]] = []

    def ask(self, method: str, capabilities: dict[str, Any] | None = None, **params: Any) -> Any:
        request_id = next(self.ids)
        self.server.send(request(request_id, method, capabilities, **params))
        return self.answer_to(request_id)

    def answer_to(self, request_id: int | str) -> Any:
        while True:
            message = self.server.read()
            if message.get("id") == request_id and "method" not in message:
                return message
            self.heard.append(message)

    def result(self, method: str, **params: Any) -> dict[str, Any]:
        response = self.ask(method, **params)
        assert "result" in response, response
        result: dict[str, Any] = response["result"]
        return result

    def next_heard(self, method: str) -> dict[str, Any]:
        """The next notification ``method`` (those before it are dropped)."""
        while True:
            message = self.heard.pop(0) if self.heard else self.server.read()
            if message.get("method") == method:
                return message

    def listen(self, listen_id: str, **notifications: Any) -> dict[str, Any]:
        """Open a listen stream; its acknowledgement's ``notifications``."""
        self.server.send(request(listen_id, "subscriptions/listen", notifications=notifications))
        ack = self.next_heard("notifications/subscriptions/acknowledged")
        assert ack["params"]["_meta"][SUBSCRIPTION] == listen_id
        honored: dict[str, Any] = ack["params"]["notifications"]
        return honored


@pytest.fixture(scope="module")
def pipe() -> Iterator[Pipe]:
    server = RawServer("-m", "objmcp", "run", f"{WATCHED}:Watched")
    yield Pipe(server)
    server.process.kill()
    server.process.wait()


def text(result: dict[str, Any]) -> str:
    return "".join(block["text"] for block in result["content"])


def test_a_listen_stream_hears_each_status_change_of_its_task(pipe: Pipe) -> None:
    created = pipe.result("tools/call", name="ask_at", arguments={"gate": "g1"})
    task_id = created["taskId"]
    honored = pipe.listen("s1", taskIds=[task_id, "no-such-task"])
    assert honored == {"taskIds": [task_id]}
    pipe.result("tools/call", name="open_gate", arguments={"gate": "g1"})

    asking = pipe.next_heard("notifications/tasks")["params"]
    assert asking["_meta"] == {SUBSCRIPTION: "s1"}
    assert asking["taskId"] == task_id and asking["status"] == "input_required"
    polled = pipe.result("tasks/get", taskId=task_id)
    assert asking["inputRequests"] == polled["inputRequests"]
    (key,) = asking["inputRequests"]
    answer = {"action": "accept", "content": {"value": "Ada"}}
    pipe.result("tasks/update", taskId=task_id, inputResponses={key: answer})

    working = pipe.next_heard("notifications/tasks")["params"]
    assert working["status"] == "working" and "inputRequests" not in working
    done = pipe.next_heard("notifications/tasks")["params"]
    assert done["taskId"] == task_id and done["status"] == "completed"
    assert text(done["result"]) == "Hello, Ada!"
    assert "resultType" not in done  # a notification, not a result
    polled = pipe.result("tasks/get", taskId=task_id)
    assert {k: v for k, v in polled.items() if k not in ("_meta", "resultType")} == {
        k: v for k, v in done.items() if k != "_meta"
    }


def test_a_cancel_is_heard_and_nothing_after_it(pipe: Pipe) -> None:
    created = pipe.result("tools/call", name="wait", arguments={"gate": "g2"})
    task_id = created["taskId"]
    assert pipe.listen("s2", taskIds=[task_id]) == {"taskIds": [task_id]}
    pipe.result("tasks/cancel", taskId=task_id)
    cancelled = pipe.next_heard("notifications/tasks")["params"]
    assert cancelled["taskId"] == task_id and cancelled["status"] == "cancelled"
    assert "result" not in cancelled
    # the gate opening now ends nothing: the next task's end is the next news heard
    pipe.result("tools/call", name="open_gate", arguments={"gate": "g2"})
    later = pipe.result("tools/call", name="wait", arguments={"gate": "g3"})
    assert pipe.listen("s3", taskIds=[later["taskId"]]) == {"taskIds": [later["taskId"]]}
    pipe.result("tools/call", name="open_gate", arguments={"gate": "g3"})
    heard = pipe.next_heard("notifications/tasks")["params"]
    assert heard["taskId"] == later["taskId"] and heard["status"] == "completed"


def test_naming_tasks_needs_the_extension_declared(pipe: Pipe) -> None:
    created = pipe.result("tools/call", name="wait", arguments={"gate": "g4"})
    refused = pipe.ask(
        "subscriptions/listen",
        {},
        notifications={"taskIds": [created["taskId"]]},
    )
    assert refused["error"]["code"] == -32021
    assert refused["error"]["data"] == {"requiredCapabilities": {"extensions": {TASKS: {}}}}
    bad = pipe.ask("subscriptions/listen", notifications={"taskIds": "all"})
    assert bad["error"]["code"] == -32602
    # a stream that names no task needs no extension, and hears of no task
    pipe.server.send(request("s5", "subscriptions/listen", {}, notifications={}))
    ack = pipe.next_heard("notifications/subscriptions/acknowledged")
    assert ack["params"]["notifications"] == {}
    pipe.result("tools/call", name="open_gate", arguments={"gate": "g4"})
    done = pipe.result("tasks/get", taskId=created["taskId"])
    while done["status"] != "completed":
        done = pipe.result("tasks/get", taskId=created["taskId"])
    assert not [m for m in pipe.heard if m.get("method") == "notifications/tasks"]


async def _events(response: httpx.Response, into: list[dict[str, Any]]) -> None:
    async for line in response.aiter_lines():
        if line.startswith("data: ") and line != "data: ":
            into.append(json.loads(line[len("data: ") :]))


@pytest.mark.anyio
async def test_over_http_only_the_owner_s_stream_hears_of_a_task() -> None:
    server = HttpServer(command=[PYTHON, str(WATCHED), "{port}"])
    alice_heard: list[dict[str, Any]] = []
    bob_heard: list[dict[str, Any]] = []

    def headers(token: str, message: dict[str, Any]) -> dict[str, str]:
        params = message["params"]
        name = params.get("name", params.get("taskId"))
        return {
            "accept": "application/json, text/event-stream",
            "authorization": f"Bearer {token}",
            **modern_headers(message["method"], name),
        }

    async def post(client: httpx.AsyncClient, token: str, message: dict[str, Any]) -> Any:
        response = await client.post(server.url, json=message, headers=headers(token, message))
        return response.json()

    async def listen(
        client: httpx.AsyncClient, token: str, task_ids: list[str], into: list[dict[str, Any]]
    ) -> None:
        notifications = {"taskIds": task_ids}
        message = request(f"{token}-listen", "subscriptions/listen", notifications=notifications)
        async with client.stream(
            "POST", server.url, json=message, headers=headers(token, message)
        ) as response:
            await _events(response, into)

    async def until(heard: list[dict[str, Any]], method: str, task_id: str | None = None) -> Any:
        while True:
            for message in heard:
                if message.get("method") == method and task_id in (
                    None,
                    message["params"].get("taskId"),
                ):
                    return message
            await anyio.sleep(0.02)

    def wait(request_id: int, gate: str) -> dict[str, Any]:
        return request(request_id, "tools/call", name="wait", arguments={"gate": gate})

    def open_gate(request_id: int, gate: str) -> dict[str, Any]:
        return request(request_id, "tools/call", name="open_gate", arguments={"gate": gate})

    try:
        async with httpx.AsyncClient(timeout=30) as client:
            alices = (await post(client, "alice", wait(1, "a")))["result"]["taskId"]
            bobs = (await post(client, "bob", wait(2, "b")))["result"]["taskId"]
            with anyio.fail_after(30):
                async with anyio.create_task_group() as group:
                    group.start_soon(listen, client, "alice", [alices], alice_heard)
                    group.start_soon(listen, client, "bob", [alices, bobs], bob_heard)
                    mine = await until(alice_heard, "notifications/subscriptions/acknowledged")
                    theirs = await until(bob_heard, "notifications/subscriptions/acknowledged")
                    await post(client, "bob", open_gate(3, "a"))
                    done = await until(alice_heard, "notifications/tasks", alices)
                    # news on one stream come in order: bob's own task's end comes after
                    # anything of alice's task he could have heard
                    await post(client, "alice", open_gate(4, "b"))
                    own = await until(bob_heard, "notifications/tasks", bobs)
                    group.cancel_scope.cancel()
    finally:
        server.process.kill()
        server.process.wait()
    assert mine["params"]["notifications"] == {"taskIds": [alices]}
    assert theirs["params"]["notifications"] == {"taskIds": [bobs]}
    assert done["params"]["status"] == "completed"
    assert text(done["params"]["result"]) == "passed a"
    assert own["params"]["status"] == "completed"
    assert text(own["params"]["result"]) == "passed b"
    told = [m["params"]["taskId"] for m in bob_heard if m.get("method") == "notifications/tasks"]
    assert told == [bobs]
    told = [m["params"]["taskId"] for m in alice_heard if m.get("method") == "notifications/tasks"]
    assert told == [alices]
