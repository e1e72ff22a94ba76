"""Calls on the queue (``--tasks redis://… --queue TOOL``, and tools always a task) run by
``objmcp worker`` processes, on a real Redis: the front answers with a task at once, a
worker runs the call, and every front answers for the task; a question and a cancel reach
the worker; a task cancelled while queued is never run; a worker killed mid-call has its
call run again by another worker when the tool is idempotent, and its task failed, saying
why, when it is not."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from conftest import PYTHON, server_env, start_redis
from http_helpers import (
    WORKERS,
    HttpServer,
    call,
    free_port,
    modern,
    modern_headers,
    open_session,
    post,
)
from slow_link import SlowLink
from task_helpers import GUARD, QueueWorker, lines, with_tasks
from test_shared_tasks_http import answer_of, core_request, get, send, started_task, until

TARGET = f"{WORKERS}:Workers"
ROUNDS, STEP = 100, 0.02


def test_a_queued_call_runs_in_a_worker_and_any_front_answers_for_it(
    redis_url: str, tmp_path: Path
) -> None:
    env = {"OBJMCP_STATE_KEY": secrets.token_hex(32)}
    options = ("--tasks", redis_url, "--queue", "slow_pid", "--queue", "slow_ask")
    options += ("--queue", "progressing")
    front = HttpServer(*options, target=TARGET, env=env)
    other = HttpServer(*options, target=TARGET, env=env)
    worker = QueueWorker(redis_url, env, tmp_path / "worker.log")
    gate = tmp_path / "gate"
    try:
        reporting = started_task(front.url, "progressing", gate=str(gate))
        deadline = time.monotonic() + GUARD
        while (said := get(other.url, reporting, 3)["result"]).get("statusMessage") is None:
            assert time.monotonic() < deadline, said
            time.sleep(0.05)
        gate.touch()
        reported = until(other.url, reporting, "completed")
        queued = started_task(front.url, "slow_pid", seconds=0.2)
        always = started_task(other.url, "always_pid", seconds=0.1)
        done = until(other.url, queued, "completed")
        always_done = until(front.url, always, "completed")
        asking = started_task(front.url, "slow_ask", seconds=0.1)
        waiting = until(other.url, asking, "input_required")
        (key,) = waiting["inputRequests"]
        answer = {"action": "accept", "content": {"value": True}}
        send(other.url, "tasks/update", asking, 2, inputResponses={key: answer})
        answered = until(front.url, asking, "completed")
    finally:
        log = worker.stop()
        _, err = front.stop()
        other.stop()
    assert said["statusMessage"] == f"half-way in {worker.pid}", said  # its progress
    assert reported["result"]["structuredContent"]["result"] == worker.pid
    assert "the calls of always_pid, progressing, slow_ask, slow_pid go on the queue" in err
    assert done["result"]["structuredContent"]["result"] == worker.pid, done
    assert always_done["result"]["structuredContent"]["result"] == worker.pid
    text = answered["result"]["structuredContent"]["result"]
    assert text == f"accept:True (answered by {worker.pid})", text
    assert "Traceback" not in log, log


def test_a_cancel_stops_a_queued_call_before_or_while_it_runs(
    redis_url: str, tmp_path: Path
) -> None:
    env = {"OBJMCP_STATE_KEY": secrets.token_hex(32)}
    options = ("--tasks", redis_url, "--queue", "until_cancelled", "--queue", "once_pid")
    front = HttpServer(*options, target=TARGET, env=env)
    never, running = tmp_path / "never", tmp_path / "running"
    worker = None
    try:
        waiting = started_task(front.url, "once_pid", seconds=0, marker=str(never))
        cancelled = send(front.url, "tasks/cancel", waiting, 2)
        after = get(front.url, waiting, 3)["result"]
        worker = QueueWorker(redis_url, env, tmp_path / "worker.log")
        stopping = started_task(front.url, "until_cancelled", marker=str(running))
        started = lines(running, 2)  # the worker runs it
        send(front.url, "tasks/cancel", stopping, 5)
        stopped = get(front.url, stopping, 6)["result"]
        ran = lines(running, 4)
        later = get(front.url, waiting, 7)["result"]
    finally:
        if worker is not None:
            worker.stop()
        front.stop()
    assert "error" not in cancelled, cancelled
    assert after["status"] == "cancelled" and later["status"] == "cancelled"
    assert not never.exists()  # taken off the queue: no worker ran it
    assert stopped["status"] == "cancelled", stopped
    assert started == ["started", str(worker.pid)]
    assert ran == ["started", str(worker.pid), "cancelled", str(worker.pid)]  # stopped there


def test_a_worker_killed_mid_call_leaves_the_call_to_another(
    redis_url: str, tmp_path: Path
) -> None:
    env = {"OBJMCP_STATE_KEY": secrets.token_hex(32)}
    options = ("--tasks", redis_url, "--queue", "again_pid", "--queue", "once_pid")
    front = HttpServer(*options, target=TARGET, env=env)
    first = QueueWorker(redis_url, env, tmp_path / "first.log")
    second = None
    again, once = tmp_path / "again", tmp_path / "once"
    try:
        idempotent = started_task(front.url, "again_pid", seconds=4, marker=str(again))
        not_idempotent = started_task(front.url, "once_pid", seconds=4, marker=str(once))
        assert lines(again, 1) == [str(first.pid)] and lines(once, 1) == [str(first.pid)]
        os.kill(first.pid, signal.SIGKILL)
        first.process.wait()
        second = QueueWorker(redis_url, env, tmp_path / "second.log")
        rerun = until(front.url, idempotent, "completed")
        failed = until(front.url, not_idempotent, "failed")
    finally:
        if second is not None:
            second.stop()
        front.stop()
    assert rerun["result"]["structuredContent"]["result"] == second.pid
    assert lines(again, 2) == [str(first.pid), str(second.pid)]
    assert "stopped before it ended" in failed["statusMessage"], failed
    assert lines(once, 1) == [str(first.pid)]  # never run twice


def test_redis_going_away_is_said_and_plain_calls_go_on(tmp_path: Path) -> None:
    redis, url = start_redis(tmp_path)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    env = {"OBJMCP_STATE_KEY": secrets.token_hex(32)}
    options = ("--task-after", "0.2", "--tasks", url, "--queue", "once_pid")
    holder = HttpServer(*options, target=TARGET, env=env)
    other = HttpServer(*options, target=TARGET, env=env)
    try:
        task_id = started_task(holder.url, "slow_pid", seconds=1.0)
        assert get(other.url, task_id, 2)["result"]["status"] == "working"
        redis.kill()
        redis.wait()
        plain = post(
            holder.url,
            modern("tools/call", 3, name="pid", arguments={}),
            **modern_headers("tools/call", "pid"),
        )
        held = until(holder.url, task_id, "completed")  # the process holding it answers
        away = get(other.url, task_id, 4)
        queued = post(
            other.url,
            with_tasks("tools/call", 5, name="once_pid", arguments={"seconds": 0, "marker": "x"}),
            **modern_headers("tools/call", "once_pid"),
        ).json()
        redis, _ = start_redis(tmp_path, port)  # back, empty: the holder publishes again
        back = until(other.url, task_id, "completed")
    finally:
        for server in (holder, other):
            server.stop()
        redis.terminate()
        redis.wait()
    assert plain.json()["result"]["structuredContent"]["result"] == holder.process.pid
    assert held["result"]["structuredContent"]["result"] == holder.process.pid
    assert away["error"]["code"] == -32603, away
    assert "task store (Redis) cannot be reached" in away["error"]["message"]
    assert queued["error"]["code"] == -32603, queued
    assert "could not be put on the queue" in queued["error"]["message"]
    assert back["result"] == held["result"]


def test_a_queue_naming_no_tool_is_refused_at_start(redis_url: str) -> None:
    port = str(free_port())
    run = [PYTHON, "-m", "objmcp", "run", "--http", "--port", port, "--tasks", redis_url]
    refused = subprocess.run(
        [*run, "--queue", "slow_pidd", TARGET],
        check=False,
        capture_output=True,
        text=True,
        env=server_env(),
        timeout=60,
    )
    assert refused.returncode == 2, refused
    assert "--queue slow_pidd: " in refused.stderr and "has no such tool" in refused.stderr


def test_a_2025_11_25_task_of_a_queued_tool_runs_in_a_worker(
    redis_url: str, tmp_path: Path
) -> None:
    env = {"OBJMCP_STATE_KEY": secrets.token_hex(32)}
    queued = ("--queue", "slow_pid", "--queue", "once_pid", "--queue", "until_cancelled")
    front = HttpServer("--tasks", redis_url, *queued, target=TARGET, env=env)
    never, running = tmp_path / "never", tmp_path / "running"
    worker = None

    def task_call(request_id: int, tool: str, **arguments: object) -> dict[str, Any]:
        message = call(request_id, tool, **arguments)
        message["params"]["task"] = {}
        return message

    try:
        session = open_session(front.url, {"tasks": {}})

        def ask(message: dict[str, Any]) -> dict[str, Any]:
            return answer_of(post(front.url, message, **session))

        waiting = ask(task_call(2, "once_pid", seconds=0, marker=str(never)))["result"]["task"]
        taken_off = ask(core_request(3, "tasks/cancel", taskId=waiting["taskId"]))
        worker = QueueWorker(redis_url, env, tmp_path / "worker.log")
        made = ask(task_call(4, "slow_pid", seconds=0.3))["result"]["task"]
        got = ask(core_request(5, "tasks/get", taskId=made["taskId"]))
        result = ask(core_request(6, "tasks/result", taskId=made["taskId"]))
        listed = ask(core_request(7, "tasks/list"))
        stopping = ask(task_call(8, "until_cancelled", marker=str(running)))["result"]["task"]
        started = lines(running, 2)
        stopped = ask(core_request(9, "tasks/cancel", taskId=stopping["taskId"]))
        ran = lines(running, 4)
    finally:
        if worker is not None:
            worker.stop()
        front.stop()
    assert waiting["status"] == "working" and made["status"] == "working"
    assert taken_off["result"]["status"] == "cancelled", taken_off
    assert not never.exists()
    assert got["result"]["taskId"] == made["taskId"] and "pollInterval" in got["result"], got
    assert result["result"]["structuredContent"]["result"] == worker.pid, result
    related = result["result"]["_meta"]["io.modelcontextprotocol/related-task"]
    assert related == {"taskId": made["taskId"]}
    ids = [task["taskId"] for task in listed["result"]["tasks"]]
    assert ids == [waiting["taskId"], made["taskId"]], listed
    assert started == ["started", str(worker.pid)]
    assert stopped["result"]["status"] == "cancelled", stopped
    assert ran == ["started", str(worker.pid), "cancelled", str(worker.pid)]


def test_a_cancel_while_a_far_worker_takes_the_call_up_reaches_it(
    redis_url: str, tmp_path: Path
) -> None:
    # the worker is 50 ms from Redis: between its claim of a call and the task in its
    # session there are at least two of its round trips. A cancel sent then finds the task
    # claimed and goes to the worker, which answers once it has the task (not "Task not
    # found"). Each round sends its cancel STEP later after the call than the last, until the
    # calls run before their cancels come: the rounds before went through the window
    env = {"OBJMCP_STATE_KEY": secrets.token_hex(32)}
    options = ("--tasks", redis_url, "--queue", "until_cancelled")
    front = HttpServer(*options, target=TARGET, env=env)
    other = HttpServer(*options, target=TARGET, env=env)
    far = urlsplit(redis_url)
    link = SlowLink(far.hostname or "127.0.0.1", far.port or 6379, delay=0.05)
    far_url = urlunsplit(far._replace(netloc=f"127.0.0.1:{link.port}"))
    worker = QueueWorker(far_url, env, tmp_path / "worker.log")
    ran: list[list[str]] = []
    try:
        for round_ in range(ROUNDS):
            marker = tmp_path / f"marker{round_}"
            task_id = started_task(front.url, "until_cancelled", marker=str(marker))
            time.sleep(round_ * STEP)
            answer = send(other.url, "tasks/cancel", task_id, 2)
            assert "error" not in answer, (round_, answer)
            assert until(other.url, task_id, "cancelled")["status"] == "cancelled"
            if marker.exists():
                ran.append(lines(marker, 4))
                if len(ran) == 2:
                    break
    finally:
        log = worker.stop()
        front.stop()
        other.stop()
        link.close()
    assert len(ran) == 2, f"no call ran before its cancel, even {ROUNDS * STEP:g} s later"
    assert ran == [["started", str(worker.pid), "cancelled", str(worker.pid)]] * 2, ran
    assert "Traceback" not in log, log
