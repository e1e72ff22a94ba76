"""The official SDK clients as real peers of a deployment with a shared task store
(``--tasks redis://…``, issue 42): two fronts (``objmcp run --http``) of one state key and one
bearer token, a task made through one of them and followed, fetched and cancelled through
the other, by:

- the Python SDK **1.x** client's experimental tasks (``mcp`` 1.30, ``session.experimental``:
  2025-11-25's core tasks), the driver ``tests/clients/sdk1_task_store.py`` under
  ``.venv-clients``;
- the TypeScript SDK 1.x client's experimental tasks (``client.experimental.tasks``, 2025-11-25's
  core tasks), the driver ``tests/js/task_store.mjs``;
- the TypeScript client 2.x with the tasks extension's client package
  (``@modelcontextprotocol/ext-tasks``, 2026-07-28's ``io.modelcontextprotocol/tasks``), the
  driver ``tests/js2/task_store.mjs``: the front's session hands the task off, a session on the
  other front takes it up (``resumeTask``) and settles it.

Each runs against two deployments of ``tests/servers/workers.py:Workers``: ``queued``
(``--queue slow_pid --queue until_cancelled`` and an ``objmcp worker``: the worker runs the
calls) and ``held`` (``--task-after 0.2``, no worker: the front that was called runs them and
holds their tasks). ``slow_pid`` answers with the id of the process that ran it, and
``until_cancelled`` notes it in its marker file: the worker's, or the first front's, never the
other front's.

The SDK 2.x Python client (``mcp`` 2.3.0, in this venv) is not among them: it has no tasks.
Its ``Client.call_tool`` takes no ``task``, and a task-augmented ``tools/call`` sent through
``ClientSession.send_request`` is refused when its answer comes: the 2025-11-25 result of
``tools/call`` is validated as a ``CallToolResult`` (``mcp_types/methods.py``, the row
``("tools/call", "2025-11-25"): v2025.CallToolResult``, with ``# 2025-11-25 (tasks/*
deliberately absent)`` above the requests; raised from ``mcp/client/session.py``'s
``send_request``, ``_methods.validate_server_result``), and in 2026-07-28 a ``resultType:
"task"`` is taken only by a ``ClientExtension`` that claims it, which the SDK does not ship.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import JS, JS2
from http_helpers import WORKERS, HttpServer
from peer_helpers import CLIENTS, drive, drive_js, step
from task_helpers import GUARD, QueueWorker

TARGET = f"{WORKERS}:Workers"
TOKEN = "the-deployment-token"
RELATED = "io.modelcontextprotocol/related-task"


@dataclass
class Deployment:
    """Two fronts sharing a task store; a worker when calls go on the queue."""

    kind: str
    front: HttpServer  # where the calls are made
    other: HttpServer  # where their tasks are followed
    worker: QueueWorker | None
    folder: Path

    @property
    def runner(self) -> int:
        """The id of the process that runs the calls made through ``front``."""
        if self.worker is not None:
            return self.worker.process.pid
        return self.front.process.pid

    def marker(self, name: str) -> Path:
        """A file of its own for ``until_cancelled`` to note its start and end in."""
        return self.folder / name


@pytest.fixture(scope="module", params=["queued", "held"])
def deployment(
    request: pytest.FixtureRequest, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Deployment]:
    kind: str = request.param
    folder = tmp_path_factory.mktemp(kind)
    env = {"OBJMCP_STATE_KEY": secrets.token_hex(32)}
    options = ["--tasks", redis_url, "--token", TOKEN]
    if kind == "queued":
        options += ["--queue", "slow_pid", "--queue", "until_cancelled"]
    else:
        options += ["--task-after", "0.2"]
    front = HttpServer(*options, target=TARGET, env=env)
    other = HttpServer(*options, target=TARGET, env=env)
    worker = None
    try:
        if kind == "queued":
            worker = QueueWorker(redis_url, env, folder / "worker.log")
        yield Deployment(kind, front, other, worker, folder)
    finally:
        log = worker.stop() if worker is not None else ""
        front.stop()
        other.stop()
    assert "Traceback" not in log, log


def noted(marker: Path, count: int) -> list[str]:
    """The lines of ``marker`` once it has ``count`` of them (or the guard's time is up)."""
    deadline = time.monotonic() + GUARD
    while True:
        lines = marker.read_text().splitlines() if marker.exists() else []
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


def test_the_python_sdk_1x_follows_a_task_through_another_front(deployment: Deployment) -> None:
    marker = deployment.marker("sdk1")
    front, other = deployment.front.url, deployment.other.url
    report = drive(CLIENTS / "sdk1_task_store.py", front, other, TOKEN, str(marker))
    assert report["client"] == "mcp 1.30.0"
    pid = deployment.runner

    # poll_task's first tasks/get reaches the other front right after the call's answer:
    # the store holds the task by then, or it is "not found" there
    followed = step(report, "followed")
    task_id = followed["taskId"]
    assert followed["created"] == "working"
    assert followed["statuses"][-1] == "completed", followed
    assert set(followed["statuses"]) <= {"working", "completed"}, followed
    assert followed["result"]["structured"] == {"result": pid}, followed
    assert followed["result"]["isError"] is False
    assert followed["result"]["meta"][RELATED] == {"taskId": task_id}
    assert task_id in followed["listed"]

    waited = step(report, "waited")  # tasks/result at the other front waits for the end
    assert waited["result"]["structured"] == {"result": pid}, waited
    assert waited["after"] == "completed"

    cancelled = step(report, "cancelled")
    assert (cancelled["answered"], cancelled["later"]) == ("cancelled", "cancelled"), cancelled
    assert noted(marker, 2) == [f"started {pid}", f"cancelled {pid}"]


def test_the_ts_sdk_1x_follows_a_task_through_another_front(
    node: str, deployment: Deployment
) -> None:
    marker = deployment.marker("ts1")
    script = {
        "front": deployment.front.url,
        "other": deployment.other.url,
        "token": TOKEN,
        "marker": str(marker),
    }
    report, _ = drive_js(node, JS / "task_store.mjs", script)
    steps: dict[str, Any] = report["steps"]
    for name, outcome in steps.items():
        assert "error" not in outcome, f"{name}: {outcome['error']}"
    pid = deployment.runner

    followed = steps["followed"]
    task_id = followed["taskId"]
    assert followed["created"] == "working"
    assert followed["statuses"][-1] == "completed", followed
    assert set(followed["statuses"]) <= {"working", "completed"}, followed
    assert followed["result"]["structured"] == {"result": pid}, followed
    assert followed["result"]["isError"] is False
    assert followed["result"]["meta"][RELATED] == {"taskId": task_id}
    assert task_id in followed["listed"]

    waited = steps["waited"]
    assert waited["result"]["structured"] == {"result": pid}, waited
    assert waited["after"] == "completed"

    cancelled = steps["cancelled"]
    assert (cancelled["answered"], cancelled["later"]) == ("cancelled", "cancelled"), cancelled
    assert noted(marker, 2) == [f"started {pid}", f"cancelled {pid}"]


def test_the_ts_client_2x_takes_up_a_task_handed_off_at_another_front(
    node2: str, deployment: Deployment
) -> None:
    marker = deployment.marker("ts2")
    script = {
        "front": deployment.front.url,
        "other": deployment.other.url,
        "token": TOKEN,
        "steps": [
            {"label": "slow", "tool": "slow_pid", "arguments": {"seconds": 1.0}},
            {
                "label": "cancel",
                "tool": "until_cancelled",
                "arguments": {"marker": str(marker)},
                "cancel": True,
            },
        ],
    }
    report, _ = drive_js(node2, JS2 / "task_store.mjs", script)
    assert report["errors"] == [], report["errors"]
    steps: dict[str, Any] = report["steps"]
    for name, outcome in steps.items():
        assert "error" not in outcome, f"{name}: {outcome['error']}"
    pid = deployment.runner

    slow = steps["slow"]
    assert slow["kind"] == "task", slow
    assert slow["outcome"]["status"] == "completed", slow
    assert slow["outcome"]["result"]["structuredContent"] == {"result": pid}, slow
    assert slow["events"][-1] == "completed" and slow["after"] == "completed", slow

    cancel = steps["cancel"]
    assert cancel["kind"] == "task", cancel
    assert cancel["outcome"] == {"status": "cancelled"}, cancel
    assert cancel["after"] == "cancelled"
    assert noted(marker, 2) == [f"started {pid}", f"cancelled {pid}"]

    # the front was only called; every tasks/* request went to the other front
    front_sent = [method for method in report["sent"]["front"] if method != "tools/list"]
    other_sent = {method for method in report["sent"]["other"] if method != "tools/list"}
    assert front_sent == ["server/discover", "tools/call", "tools/call"], report["sent"]
    assert other_sent == {"server/discover", "tasks/get", "tasks/cancel"}, report["sent"]
