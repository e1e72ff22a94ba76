"""Interoperability: the official MCP Python SDK **1.x** client's experimental tasks
(``mcp`` 1.30, ``session.experimental``: 2025-11-25's core tasks) against objmcp's
``tests/servers/jobs.py``, over stdio and Streamable HTTP.

The driver ``tests/clients/sdk1_tasks.py`` runs under ``.venv-clients/bin/python`` and
prints one JSON report; each test below checks one behaviour in it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import PYTHON, ROOT
from http_helpers import HttpServer
from peer_helpers import CLIENTS, Report, drive, step

DRIVER = CLIENTS / "sdk1_tasks.py"
JOBS = ROOT / "tests" / "servers" / "jobs.py"
RELATED = "io.modelcontextprotocol/related-task"


@pytest.fixture(scope="module", params=["stdio", "http"])
def report(request: pytest.FixtureRequest) -> Iterator[Report]:
    """The driver's report over one transport."""
    if request.param == "stdio":
        yield drive(DRIVER, "stdio", PYTHON, str(ROOT))
        return
    server = HttpServer(target=f"{JOBS}:Jobs")
    try:
        yield drive(DRIVER, "http", server.url)
    finally:
        server.stop()


def test_the_client_sees_the_tasks_capability_and_each_tools_support(report: Report) -> None:
    found = step(report, "capabilities")
    assert found["tasks"] == {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    assert found["support"]["slow"] == "optional"
    assert found["support"]["never"] == "forbidden"
    assert found["support"]["always"] == "required"


def test_a_task_is_polled_to_its_end_and_its_result_fetched(report: Report) -> None:
    found = step(report, "to_the_end")
    assert found["created"] == "working"
    assert found["statuses"][-1] == "completed"
    assert found["text"] == "slept 0.5" and found["isError"] is False
    assert RELATED in found["meta"]


def test_a_question_inside_a_task_reaches_the_callback(report: Report) -> None:
    found = step(report, "through_a_question")
    # at once, or on tasks/result: the client answers it either way, and polls on
    assert set(found["seen"]) <= {"working", "input_required", "completed"}
    (asked,) = found["asked"]
    assert asked["message"] == "Your name?"
    assert asked["_meta"][RELATED] == {"taskId": found["taskId"]}
    assert found["text"] == "Hello, Ada!"
    assert found["status"] == "completed"


def test_a_cancelled_task_stays_cancelled_and_is_listed(report: Report) -> None:
    found = step(report, "cancelled")
    assert found == {"answered": "cancelled", "later": "cancelled", "listed": True}
