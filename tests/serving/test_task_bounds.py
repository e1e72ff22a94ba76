"""The bounds of the 2026-07-28 tasks' pools, through real server processes: ended tasks
are kept at most ``max_tasks`` and ``max_task_results`` characters (the oldest forgotten
first, a running one never); a task's call that asks counts in ``max_parked`` and
``max_waiting_total``; over HTTP each caller has its share of ``max_tasks`` and
``max_parked``.

The calls of ``tests/servers/pools.py`` wait for a gate the test opens: each is a task
before it ends or asks, however slow the machine."""

from __future__ import annotations

import concurrent.futures
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON, RawServer
from http_helpers import HttpServer, modern_headers, post
from test_tasks import WITH_TASKS, Client, request, text

POOLS = Path(__file__).resolve().parent.parent / "servers" / "pools.py"
ELICIT: dict[str, Any] = {"elicitation": {}}


@contextlib.contextmanager
def served(*arguments: str) -> Iterator[Client]:
    """A server process on stdio, for the block."""
    server = RawServer(*arguments)
    try:
        yield Client(server)
    finally:
        server.process.kill()
        server.process.wait()


def held(client: Client, gate: str, size: int = 10) -> str:
    """A call of ``made`` waiting for ``gate``: its task's id."""
    created = client.result("tools/call", name="made", arguments={"gate": gate, "size": size})
    assert created["resultType"] == "task", created
    task_id: str = created["taskId"]
    return task_id


def finished(client: Client, gate: str, size: int = 10) -> str:
    """A task made, released and run to its end: its id."""
    task_id = held(client, gate, size)
    client.result("tools/call", name="release", arguments={"gate": gate})
    assert client.until(task_id, "never")["status"] == "completed"
    return task_id


def not_found(client: Client, task_id: str) -> bool:
    """Whether ``task_id`` answers as an unknown or expired task does."""
    answer = client.ask("tasks/get", taskId=task_id)
    return "error" in answer and "Task not found" in answer["error"]["message"]


def test_beyond_max_tasks_ended_the_oldest_ended_task_is_forgotten() -> None:
    with served("-m", "objmcp", "run", "--max-tasks", "3", f"{POOLS}:Pools") as client:
        ended = [finished(client, f"g{n}") for n in range(4)]
        assert not_found(client, ended[0])
        for task_id in ended[1:]:
            kept = client.result("tasks/get", taskId=task_id)
            assert kept["status"] == "completed" and text(kept["result"]) == "x" * 10


def test_beyond_max_task_results_the_oldest_ended_is_forgotten_never_a_running_one() -> None:
    options = ("--max-task-results", "350000")
    with served("-m", "objmcp", "run", *options, f"{POOLS}:Pools") as client:
        running = held(client, "running")
        ended = [finished(client, f"big{n}", 100_000) for n in range(4)]
        assert not_found(client, ended[0])  # 400,000 characters kept would be too many
        newest = client.result("tasks/get", taskId=ended[-1])
        assert len(text(newest["result"])) == 100_000
        assert client.result("tasks/get", taskId=running)["status"] == "working"
        client.result("tools/call", name="release", arguments={"gate": "running"})
        assert client.until(running, "never")["status"] == "completed"


def asking(client: Client, gate: str) -> dict[str, Any]:
    """A task whose call, released from ``gate``, asks the user: the task once it
    asked (``input_required``) or ended."""
    created = client.result("tools/call", name="ask_after", arguments={"gate": gate})
    assert created["resultType"] == "task", created
    client.result("tools/call", name="release", arguments={"gate": gate})
    return client.until(created["taskId"], "input_required")


@pytest.mark.parametrize("bound", ["max_parked", "max_waiting_total"])
def test_a_task_that_asks_counts_in_the_bounds_of_waiting_calls(bound: str) -> None:
    with served(str(POOLS), f"{bound}=1") as client:
        first = asking(client, "first")
        assert first["status"] == "input_required"
        refused = asking(client, "second")  # no room: its question fails at once
        assert refused["status"] == "completed" and refused["result"]["isError"] is True
        assert bound in text(refused["result"])
        (key,) = first["inputRequests"]
        answer = {"action": "accept", "content": {"value": "Ada"}}
        client.result("tasks/update", taskId=first["taskId"], inputResponses={key: answer})
        done = client.until(first["taskId"], "never")
        assert text(done["result"]) == "Hello, Ada!"
        again = asking(client, "third")  # the first one's room is free again
        assert again["status"] == "input_required"
        client.result("tasks/cancel", taskId=again["taskId"])


@pytest.fixture(scope="module")
def shared() -> Iterator[HttpServer]:
    """The pools over HTTP, with two users and pools of two."""
    server = HttpServer(
        command=[PYTHON, str(POOLS), "http", "{port}", "max_tasks=2", "max_parked=2"]
    )
    yield server
    server.process.kill()  # a failed test may leave calls parked for minutes
    server.process.wait()


def call_as(
    server: HttpServer,
    token: str,
    request_id: int,
    tool: str,
    meta: Any = WITH_TASKS,
    **params: Any,
) -> dict[str, Any]:
    """A 2026-07-28 ``tools/call`` of ``tool`` by the user of ``token``: its result."""
    message = request(request_id, "tools/call", meta, name=tool, **params)
    headers = {**modern_headers("tools/call", tool), "authorization": f"Bearer {token}"}
    answer = post(server.url, message, **headers).json()
    assert "result" in answer, answer
    result: dict[str, Any] = answer["result"]
    return result


def test_over_http_one_caller_cannot_take_every_callers_tasks(shared: HttpServer) -> None:
    gates: list[str] = []

    def made(token: str, request_id: int, gate: str) -> dict[str, Any]:
        gates.append(gate)
        return call_as(shared, token, request_id, "made", arguments={"gate": gate})

    try:
        assert made("alice-token", 1, "a1")["resultType"] == "task"
        assert made("alice-token", 2, "a2")["resultType"] == "task"
        with concurrent.futures.ThreadPoolExecutor(1) as pool:  # alice's share is used:
            third = pool.submit(made, "alice-token", 3, "a3")  # a plain call, answered at its end
            assert made("bob-token", 4, "b1")["resultType"] == "task"  # bob has his share
            call_as(shared, "alice-token", 5, "release", arguments={"gate": "a3"})
            assert third.result()["resultType"] == "complete"
    finally:
        for number, gate in enumerate(gates):
            call_as(shared, "alice-token", 10 + number, "release", arguments={"gate": gate})


def test_over_http_one_caller_cannot_take_every_callers_parks(shared: HttpServer) -> None:
    def asked(token: str, request_id: int, who: str) -> dict[str, Any]:
        """``greet`` called: it asks (parked, or stopped to be replayed)."""
        found = call_as(shared, token, request_id, "greet", ELICIT, arguments={"who": who})
        assert found["resultType"] == "input_required", found
        return found

    def retried(token: str, request_id: int, who: str, asking: dict[str, Any]) -> str:
        """The retry that answers it: what it says of its runs."""
        (key,) = asking["inputRequests"]
        params = {
            "arguments": {"who": who},
            "inputResponses": {key: {"action": "accept", "content": {"value": "Ada"}}},
            "requestState": asking["requestState"],
        }
        return text(call_as(shared, token, request_id, "greet", ELICIT, **params))

    first, second = asked("alice-token", 20, "a1"), asked("alice-token", 21, "a2")
    third = asked("alice-token", 22, "a3")  # alice's share is used: not parked
    assert retried("alice-token", 23, "a3", third).endswith("after 2 run(s)")  # replayed
    bobs = asked("bob-token", 24, "b1")
    assert retried("bob-token", 25, "b1", bobs).endswith("after 1 run(s)")  # parked, resumed
    assert retried("alice-token", 26, "a1", first).endswith("after 1 run(s)")
    assert retried("alice-token", 27, "a2", second).endswith("after 1 run(s)")
