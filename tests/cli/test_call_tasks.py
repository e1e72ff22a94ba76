"""``objmcp call`` follows a task to its end, through real processes: a call the server
(``tests/servers/jobs.py``) answers as a task is polled to its result, printed as a plain
call's; its status line goes to stderr as it changes; its question is put to the user at
the terminal and answered by ``tasks/update``; Ctrl-C sends ``tasks/cancel``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PYTHON, ROOT, interrupted, on_a_terminal, server_env

JOBS = f"{Path(__file__).resolve().parent.parent / 'servers' / 'jobs.py'}:Jobs"


def call(*args: str) -> tuple[str, str, int]:
    done = subprocess.run(
        [PYTHON, "-m", "objmcp", "call", *args],
        capture_output=True,
        check=False,
        cwd=str(ROOT),
        env=server_env(),
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    return done.stdout.decode(), done.stderr.decode(), done.returncode


def test_a_call_that_becomes_a_task_is_followed_to_its_result() -> None:
    out, error, status = call("--task-after", "0.2", JOBS, "slow", "seconds=1.2")
    assert (out, status) == ("slept 1.2\n", 0), error
    assert "the call goes on as task " in error
    lines = [line for line in error.splitlines() if line.startswith("objmcp call: task ")]
    assert lines[0] == "objmcp call: task working"
    assert "objmcp call: task working: half-way" in lines  # the status line, as it changed
    assert lines[-1] == "objmcp call: task completed"
    assert len(lines) == len(set(lines))  # shown once each, not at every poll


def test_a_task_s_result_prints_as_a_plain_call_s() -> None:
    as_task, error, status = call("--task-after", "0.1", JOBS, "slow", "seconds=0.6", "--json")
    assert status == 0 and "goes on as task" in error
    plain, error, status = call("--task-after", "off", JOBS, "slow", "seconds=0.6", "--json")
    assert status == 0 and "task" not in error
    assert json.loads(as_task) == json.loads(plain)
    assert json.loads(plain)["content"] == [{"type": "text", "text": "slept 0.6"}]


def test_a_tool_that_is_always_a_task_is_followed_with_task_after_off() -> None:
    out, error, status = call("--task-after", "off", JOBS, "always")
    assert (out, status) == ("always a task\n", 0), error
    assert "goes on as task" in error


def test_a_task_s_question_is_declined_when_stdin_is_not_a_terminal() -> None:
    out, error, status = call("--task-after", "0.1", JOBS, "ask_name")
    assert (out, status) == ("Hello, None!\n", 0), error
    assert "objmcp call: task input_required" in error
    assert "declined a question (stdin is not a terminal): Your name?" in error


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_task_s_question_is_asked_on_the_terminal_and_answered() -> None:
    out, said, status = on_a_terminal(
        "call", "--task-after", "0.1", JOBS, "ask_name", typed=b"y\nAda\n"
    )
    assert (out, status) == ("Hello, Ada!\n", 0), said
    assert "objmcp call: task input_required" in said and "The tool asks: Your name?" in said
    assert said.index("task input_required") < said.index("The tool asks")


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT")
def test_ctrl_c_cancels_the_task_on_the_server() -> None:
    out, said, status = interrupted(
        "call",
        "--task-after",
        "0.2",
        JOBS,
        "blocking",
        "seconds=60",
        ready=b"objmcp call: task working",
    )
    assert (out, status) == ("", 130), said
    assert "objmcp call: cancelling task " in said
    assert re.search(r"objmcp call: Ctrl-C: task \S+ is cancelled\n", said)  # as tasks/get says


SUMMARIES = '''
import anyio
import objmcp


class Summaries:
    async def summarize(self, text: str, sample: objmcp.Sample) -> str:
        """Works a little, then asks the client's model (objmcp call has none)."""
        await anyio.sleep(0.3)
        return (await sample(text)).text
'''


def test_a_task_that_fails_exits_2_with_its_error(tmp_path: Path) -> None:
    (tmp_path / "summaries.py").write_text(SUMMARIES, encoding="utf-8")
    target = f"{tmp_path / 'summaries.py'}:Summaries"
    out, error, status = call("--task-after", "0.1", target, "summarize", "text=a story")
    assert (out, status) == ("", 2), error
    assert "objmcp call: task failed" in error
    assert (
        "does not support sampling" in error
        and '{"requiredCapabilities": {"sampling": {}}}' in error
    )
