"""Jobs through the official MCP Python SDK **1.x** client (``mcp`` 1.30's ``ClientSession``),
a client with no tasks: the driver ``tests/clients/sdk1_jobs.py`` (under ``.venv-clients``)
calls a slow tool of ``objmcp run --jobs`` over stdio, gets a job's text, and comes back for
the result with ``job_status`` and ``job_result``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import PYTHON, ROOT
from peer_helpers import CLIENTS, Report, drive, step

DRIVER = CLIENTS / "sdk1_jobs.py"


@pytest.fixture(scope="module")
def report() -> Iterator[Report]:
    yield drive(DRIVER, PYTHON, str(ROOT))


def test_the_job_tools_are_listed_and_no_job_can_break_an_output_schema(report: Report) -> None:
    assert step(report, "initialize")["protocolVersion"] == "2025-11-25"
    tools = step(report, "list_tools")
    assert tools["names"][-3:] == ["job_status", "job_result", "job_cancel"]
    assert tools["output"]["measure"] is False  # the SDK would check a job's text against it
    assert tools["output"]["never"] is True  # task="never": never a job


def test_a_slow_call_is_a_job_whose_result_is_fetched(report: Report) -> None:
    started = step(report, "call_slow")
    assert started["isError"] is False and "still running, as job" in started["text"]
    assert "job_result" in started["text"]
    assert (
        " is running " in step(report, "job_status")["text"]
        or "has ended" in (step(report, "job_status")["text"])
    )
    done = step(report, "job_result")
    assert done == {
        "text": '{"seconds":0.8,"unit":"s"}',
        "isError": False,
        "structured": {"seconds": 0.8, "unit": "s"},
    }


def test_a_tool_that_is_never_a_job_keeps_its_checked_output(report: Report) -> None:
    never = step(report, "call_never")
    assert never["structured"] == {"seconds": 0.4, "unit": "s"}
