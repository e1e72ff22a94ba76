"""The holes of issue 27 ("An attacker's afternoon"): SIGTERM, a signal mid-write, a tool
that forks, log records of other libraries, and the secrets of ``--workers``. Real server
processes (``objmcp run``), spoken to through real pipes and real HTTP on 127.0.0.1."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import threading
import time
from pathlib import Path
from typing import Any

from conftest import ROOT, RawServer
from http_helpers import HttpServer, call, modern, modern_headers, post

AFTERNOON = f"{ROOT / 'tests' / 'servers' / 'afternoon.py'}:Afternoon"
PATIENCE = 20.0
"""Seconds to wait for what must come (never asserted: a hang fails the test instead)."""


def afternoon(*options: str, trace: Path | None = None) -> RawServer:
    """``objmcp run`` of the Afternoon object over stdio, with ``options``."""
    env = {"AFTERNOON_TRACE": str(trace)} if trace is not None else None
    return RawServer("-m", "objmcp", "run", AFTERNOON, *options, env=env)


def read_messages(server: RawServer, until: object, patience: float = PATIENCE) -> list[Any]:
    """The messages the server writes up to the answer to ``until`` (or up to the end of
    its output, or ``patience``), decoded; a line that is not JSON fails the test."""
    assert server.process.stdout is not None
    fd = server.process.stdout.fileno()
    messages: list[Any] = []
    pending = b""
    deadline = time.monotonic() + patience
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select((fd,), (), (), left)[0]:
            break
        data = os.read(fd, 1 << 20)
        if not data:
            assert not pending, f"a frame cut after {len(pending)} bytes"
            break
        pending += data
        *lines, pending = pending.split(b"\n")
        messages += [json.loads(line) for line in lines if line.strip()]
        if any(m.get("id") == until and "method" not in m for m in messages):
            break
    return messages


def finish(server: RawServer) -> tuple[bytes, bytes, int]:
    """Close stdin, and the rest of the output, stderr and the exit status."""
    if server.process.stdin is not None and server.process.stdin.closed:
        server.process.stdin = None  # closed by the test already
    try:
        return server.close(timeout=PATIENCE)
    finally:
        if server.process.poll() is None:
            server.process.kill()


# --- 3. log records of other libraries -----------------------------------------------------------


def logged(server: RawServer) -> dict[str, str]:
    """The log records sent during a call of ``fetch``, by logger name."""
    server.initialize()
    assert (
        server.request(
            {
                "jsonrpc": "2.0",
                "id": "level",
                "method": "logging/setLevel",
                "params": {"level": "debug"},
            }
        )["id"]
        == "level"
    )
    server.send(call(1, "fetch"))
    messages = read_messages(server, 1)
    assert messages[-1]["id"] == 1, messages
    return {
        m["params"]["logger"]: m["params"]["data"]
        for m in messages
        if m.get("method") == "notifications/message"
    }


def test_only_the_served_objects_own_log_records_reach_the_client() -> None:
    server = afternoon()
    try:
        records = logged(server)
    finally:
        _, err, status = finish(server)
    assert records == {
        "_objmcp_target_afternoon": "own record",
        "fetch": "injected record",
    }, records
    assert status == 0, err.decode()[-2000:]
    assert b"root: Authorization" in err  # a warning still reaches stderr


def test_the_loggers_sent_are_an_option() -> None:
    server = afternoon("--logger", "urllib3", "--logger", "root")
    try:
        records = logged(server)
    finally:
        finish(server)
    assert records == {
        "urllib3.connectionpool": "Authorization: Bearer s3cr3t",
        "root": "root: Authorization: Bearer s3cr3t",
        "fetch": "injected record",
    }, records


# --- 15. SIGTERM -----------------------------------------------------------------------------


def test_sigterm_on_stdio_ends_as_end_of_input_and_closes_the_object(tmp_path: Path) -> None:
    trace = tmp_path / "trace"
    server = afternoon(trace=trace)
    try:
        server.initialize()
        server.send(call(1, "nap", seconds=0.3))
        server.send(call(2, "add", a=1, b=2))
        assert read_messages(server, 2)[-1]["id"] == 2  # the nap is in flight
        server.process.send_signal(signal.SIGTERM)
        messages = read_messages(server, 1)
        assert messages[-1]["id"] == 1 and messages[-1]["result"]["content"][0]["text"] == (
            "slept 0.3"
        ), messages
        status = server.process.wait(PATIENCE)
        assert server.process.stderr is not None
        err = server.process.stderr.read()
    finally:
        finish(server)
    assert status == 0, err.decode()[-2000:]
    assert trace.read_text() == "napping\nclosed\n"


# --- 16. a signal mid-write ------------------------------------------------------------------


def signalled_mid_answer(tmp_path: Path, sent: signal.Signals) -> tuple[int, bytes]:
    """Ask for a 2 MB answer (4 MB of JSON, far beyond a pipe's buffer), read its first
    bytes, send ``sent``, read the rest: the answer must come whole; returns the exit
    status and stderr."""
    server = afternoon(trace=tmp_path / "trace")
    try:
        server.initialize()
        server.send(call(1, "big", megabytes=2))
        assert server.process.stdout is not None
        fd = server.process.stdout.fileno()
        assert select.select((fd,), (), (), PATIENCE)[0]
        first = os.read(fd, 1 << 10)  # the answer's frame has begun
        assert first.startswith(b'{"jsonrpc"'), first
        server.process.send_signal(sent)
        time.sleep(0.2)  # the signal is handled while the frame waits for the client
        rest = b""
        deadline = time.monotonic() + PATIENCE
        while select.select((fd,), (), (), max(deadline - time.monotonic(), 0))[0]:
            data = os.read(fd, 1 << 20)
            if not data:
                break
            rest += data
        answer = json.loads(first + rest)  # the whole frame, and nothing after it
        assert len(answer["result"]["content"][0]["text"]) == 2_000_000
        status = server.process.wait(PATIENCE)
        assert server.process.stderr is not None
        return status, server.process.stderr.read()
    finally:
        finish(server)


def test_sigterm_mid_answer_finishes_the_frame(tmp_path: Path) -> None:
    status, err = signalled_mid_answer(tmp_path, signal.SIGTERM)
    assert status == 0, err.decode()[-2000:]
    assert (tmp_path / "trace").read_text() == "closed\n"


def test_sigint_mid_answer_finishes_the_frame(tmp_path: Path) -> None:
    status, err = signalled_mid_answer(tmp_path, signal.SIGINT)
    assert status == 130, err.decode()[-2000:]


# --- 15. SIGTERM over HTTP -------------------------------------------------------------------


def test_sigterm_on_http_lets_the_call_in_flight_answer_and_closes_the_object(
    tmp_path: Path,
) -> None:
    trace = tmp_path / "trace"
    server = HttpServer(target=AFTERNOON, env={"AFTERNOON_TRACE": str(trace)})
    answers: list[Any] = []

    def nap() -> None:
        message = modern("tools/call", 1, name="nap", arguments={"seconds": 0.5})
        answers.append(post(server.url, message, **modern_headers("tools/call", "nap")).json())

    caller = threading.Thread(target=nap)
    try:
        caller.start()
        deadline = time.monotonic() + PATIENCE
        while "napping" not in (trace.read_text() if trace.exists() else ""):
            assert time.monotonic() < deadline, "the nap never began"
            time.sleep(0.02)
        server.stop()  # SIGTERM, the nap in flight
        caller.join(PATIENCE)
    finally:
        if server.process.poll() is None:
            server.process.kill()
    assert answers and answers[0]["result"]["content"][0]["text"] == "slept 0.5", answers
    assert trace.read_text() == "napping\nclosed\n"


# --- 4. the secrets of --workers -------------------------------------------------------------


def test_workers_keep_the_token_and_the_state_key_from_the_processes_tools_start(
    tmp_path: Path,
) -> None:
    trace = tmp_path / "trace"
    env = {"AFTERNOON_TRACE": str(trace), "OBJMCP_TOKEN": "s3cr3t"}
    server = HttpServer("--workers", "2", target=AFTERNOON, env=env)
    try:
        headers = {**modern_headers("tools/call", "child_env"), "authorization": "Bearer s3cr3t"}
        message = modern("tools/call", 1, name="child_env", arguments={})
        answer = post(server.url, message, **headers).json()
        assert answer["result"]["structuredContent"] == {"result": []}, answer
    finally:
        server.stop()  # SIGTERM: each worker closes its object
    assert trace.read_text() == "closed\n" * 2


# --- 17. a tool that forks -------------------------------------------------------------------


def test_a_child_forked_by_a_tool_never_speaks_nor_holds_the_pipes() -> None:
    server = afternoon()
    messages: list[Any] = []
    try:
        server.initialize()
        server.send(call(1, "fork"))
        messages += read_messages(server, 1)
        for number in range(2, 6):
            server.send(call(number, "add", a=number, b=1))
        assert server.process.stdin is not None
        server.process.stdin.close()
        messages += read_messages(server, None, patience=5)  # to the end of the output
        status = server.process.wait(PATIENCE)
    finally:
        texts = [m["result"]["content"][0]["text"] for m in messages if "result" in m]
        for pid in {text.rpartition(" ")[2] for text in texts if " " in text}:
            with contextlib.suppress(OSError, ValueError):
                os.kill(int(pid), signal.SIGKILL)  # the child, when it was not stopped
        finish(server)
    answers = [(m["id"], m["result"]["content"][0]["text"]) for m in messages if "id" in m]
    assert [number for number, _ in answers] == [1, 2, 3, 4, 5], answers
    assert answers[0][1].startswith("parent of "), answers
    assert answers[1:] == [(number, str(number + 1)) for number in range(2, 6)]
    assert status == 0
