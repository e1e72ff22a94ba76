"""Interoperability: the official TypeScript SDK 1.x client's experimental tasks
(``client.experimental.tasks``, 2025-11-25's core tasks) against objmcp's
``tests/servers/jobs.py``, over stdio and Streamable HTTP.

The driver ``tests/js/tasks.mjs`` prints one JSON report; each test below checks one
behaviour in it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import JS, PYTHON, ROOT
from http_helpers import HttpServer
from peer_helpers import drive_js

DRIVER = JS / "tasks.mjs"
JOBS = ROOT / "tests" / "servers" / "jobs.py"


@pytest.fixture(scope="module", params=["stdio", "http"])
def steps(request: pytest.FixtureRequest, node: str) -> Iterator[dict[str, Any]]:
    """What each step of the driver saw, over one transport."""
    if request.param == "stdio":
        report, _ = drive_js(node, DRIVER, {}, "stdio", PYTHON, str(JOBS))
        yield report["steps"]
        return
    server = HttpServer(target=f"{JOBS}:Jobs")
    try:
        report, _ = drive_js(node, DRIVER, {}, "http", server.url)
        yield report["steps"]
    finally:
        server.stop()


def step(steps: dict[str, Any], name: str) -> dict[str, Any]:
    outcome: dict[str, Any] = steps[name]
    assert "error" not in outcome or outcome["error"] is None, outcome
    return outcome


def test_the_client_sees_the_tasks_capability_and_each_tools_support(
    steps: dict[str, Any],
) -> None:
    found = step(steps, "capabilities")
    assert found["tasks"] == {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    assert found["support"]["slow"] == "optional"
    assert found["support"]["never"] == "forbidden"
    assert found["support"]["always"] == "required"


def test_a_task_is_streamed_to_its_result(steps: dict[str, Any]) -> None:
    found = step(steps, "toTheEnd")
    assert found["kinds"][0] == "taskCreated" and found["kinds"][-1] == "result"
    assert found["statuses"][-1] == "completed"
    assert found["text"] == "slept 0.5"


def test_a_question_inside_a_task_reaches_the_handler(steps: dict[str, Any]) -> None:
    found = step(steps, "throughAQuestion")
    # at once, or on tasks/result once the client saw input_required: answered either way
    (asked,) = found["asked"]
    assert asked["message"] == "Your name?"
    assert "io.modelcontextprotocol/related-task" in asked["_meta"]
    assert found["text"] == "Hello, Ada!"


def test_a_cancelled_task_stays_cancelled_and_is_listed(steps: dict[str, Any]) -> None:
    found = step(steps, "cancelled")
    assert found == {"answered": "cancelled", "later": "cancelled", "listed": True}


def test_a_required_tool_runs_only_as_a_task(steps: dict[str, Any]) -> None:
    assert step(steps, "requiredWithoutTask")["refused"] is True
    assert step(steps, "requiredStreamed")["text"] == "always a task"
