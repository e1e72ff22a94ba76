"""Tasks kept in a real Redis (``--tasks redis://…``) are answered by every process of a
deployment: two servers on two ports, and one server of two workers (the issue's
reproduction: eight ``tasks/get``, none answered "Task not found")."""

from __future__ import annotations

import secrets
import time
from typing import Any

from http_helpers import MODERN_META, WORKERS, HttpServer, modern, modern_headers, post

GUARD = 30.0  # seconds before a task that never ends fails the test
TASKS = "io.modelcontextprotocol/tasks"
WITH_TASKS = {
    **MODERN_META,
    "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS: {}}},
}


def slow_call(seconds: float) -> dict[str, Any]:
    call = modern("tools/call", 1, name="slow_pid", arguments={"seconds": seconds})
    call["params"]["_meta"] = WITH_TASKS
    return call


def get(url: str, task_id: str, request_id: int) -> dict[str, Any]:
    message = modern("tasks/get", request_id, taskId=task_id)
    message["params"]["_meta"] = WITH_TASKS
    answered: dict[str, Any] = post(url, message, **modern_headers("tasks/get", task_id)).json()
    return answered


def test_a_task_made_by_one_server_is_answered_by_another(redis_url: str) -> None:
    env = {"OBJMCP_STATE_KEY": secrets.token_hex(32)}
    options = ("--task-after", "0.3", "--tasks", redis_url)
    first = HttpServer(*options, target=f"{WORKERS}:Workers", env=env)
    second = HttpServer(*options, target=f"{WORKERS}:Workers", env=env)
    stranger = HttpServer(*options, target=f"{WORKERS}:Workers")  # another state key
    try:
        started = post(first.url, slow_call(1.0), **modern_headers("tools/call", "slow_pid"))
        task = started.json()["result"]
        assert task["resultType"] == "task", task
        task_id = task["taskId"]
        deadline = time.monotonic() + GUARD
        seen = []
        while True:
            answered = get(second.url, task_id, len(seen) + 2)
            assert "result" in answered, answered  # never "Task not found"
            seen.append(answered["result"]["status"])
            if seen[-1] != "working" or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        result = answered["result"]
        refused = get(stranger.url, task_id, 99)
    finally:
        for server in (first, second, stranger):
            server.stop()
    assert seen[0] == "working" and seen[-1] == "completed", seen
    assert result["result"]["structuredContent"]["result"] == first.process.pid
    assert refused["error"]["code"] == -32602  # sealed under another key: nothing to open


def test_every_tasks_get_is_answered_whichever_worker_it_reaches(redis_url: str) -> None:
    # The reproduction: with --workers 2 and tasks in memory, three of eight
    # tasks/get answered -32602 "Task not found".
    options = ("--workers", "2", "--task-after", "0.3", "--tasks", redis_url)
    server = HttpServer(*options, target=f"{WORKERS}:Workers")
    try:
        started = post(server.url, slow_call(1.5), **modern_headers("tools/call", "slow_pid"))
        task = started.json()["result"]
        assert task["resultType"] == "task", task
        task_id = task["taskId"]
        answers = [get(server.url, task_id, number) for number in range(2, 10)]  # a connection each
    finally:
        _, err = server.stop()
    assert all("result" in answer for answer in answers), answers
    assert {answer["result"]["taskId"] for answer in answers} == {task_id}
    assert "tasks and jobs are off" not in err
