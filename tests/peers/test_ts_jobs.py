"""Jobs through the official TypeScript SDK client (``tests/js/client.mjs``, a client with no
tasks, over stdio): a slow call of ``objmcp run --jobs`` is answered with a job's text that
the SDK takes as a result (it would throw for a tool whose listed output schema the text does
not meet: with jobs on, a tool that may become a job is listed without one), and the job
tools are listed for the model to come back with."""

from __future__ import annotations

import re

from conftest import JS, PYTHON, ROOT
from peer_helpers import drive_js, is_error, text_of

DRIVER = JS / "client.mjs"
CHORES = ROOT / "tests" / "servers" / "chores.py"


def test_the_ts_client_takes_a_job_s_text_and_sees_the_job_tools(node: str) -> None:
    calls = [
        {"name": "measure", "arguments": {"seconds": 0.8}},
        {"name": "job_result", "arguments": {"job_id": "not-a-job"}},
        {"name": "never", "arguments": {"seconds": 0.4}},
    ]
    server = ["-m", "objmcp", "run", "--jobs", "--task-after", "0.2", f"{CHORES}:Chores"]
    report, _ = drive_js(node, DRIVER, {"calls": calls}, PYTHON, *server)
    tools = {tool["name"]: tool for tool in report["tools"]}
    assert list(tools)[-3:] == ["job_status", "job_result", "job_cancel"]
    assert "outputSchema" not in tools["measure"] and "outputSchema" in tools["never"]
    started, unknown, never = report["calls"]
    assert not is_error(started)
    assert re.search(r'still running, as job \S+\. .*job_result with job_id "', text_of(started))
    assert is_error(unknown) and text_of(unknown).startswith("Unknown job 'not-a-job'")
    assert never["result"]["structuredContent"] == {"seconds": 0.4, "unit": "s"}
