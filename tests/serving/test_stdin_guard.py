"""stdin belongs to the protocol: served code that reads it (``input()``, ``sys.stdin``,
``os.read(0, n)``, a child process that inherits file descriptor 0) finds it at end of file,
and the requests written after its call are all answered. Real server processes, requests
pipelined in one write, through the reader's fast lane and the plain stream connection."""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from typing import Any

import pytest
from conftest import PYTHON, ROOT, RawServer, server_env

READERS = str(ROOT / "tests" / "servers" / "stdin_readers.py")
PATIENCE = 20.0
"""Seconds to wait for every answer: a stolen request is never answered at all."""

INIT = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def call(request_id: int, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments or {}},
    }


def pipelined(*messages: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(message).encode() + b"\n" for message in messages)


def answers(server: RawServer, ids: set[Any], patience: float = PATIENCE) -> dict[Any, Any]:
    """The answers to ``ids`` (by id), read until all came or ``patience`` ran out."""
    assert server.process.stdout is not None
    fd = server.process.stdout.fileno()
    found: dict[Any, Any] = {}
    pending = b""
    deadline = time.monotonic() + patience
    while not ids <= found.keys():
        left = deadline - time.monotonic()
        if left <= 0 or not select.select((fd,), (), (), left)[0]:
            break
        data = os.read(fd, 1 << 16)
        if not data:
            break
        pending += data
        *complete, pending = pending.split(b"\n")
        for line in complete:
            if line.strip():
                message = json.loads(line)
                if "id" in message:
                    found[message["id"]] = message
    return found


def text(answer: dict[str, Any]) -> str:
    return str(answer["result"]["content"][0]["text"])


def kill(server: RawServer) -> None:
    if server.process.poll() is None:
        server.process.kill()
    server.process.communicate(timeout=30)


# What each tool gives back with stdin at end of file: (is an error, a piece of its text).
AT_END = {
    "ask": (True, "EOFError"),
    "read_all": (False, "''"),
    "read_fd": (False, "b''"),
    "child": (False, "status=0 out=b''"),
    "stdin_kind": (False, "fd0=char own=False"),
}


@pytest.mark.parametrize("lane", ["fast lane", "stream"])
@pytest.mark.parametrize("tool", sorted(AT_END))
def test_a_tool_reading_stdin_finds_its_end_and_every_request_is_answered(
    tool: str, lane: str
) -> None:
    server = RawServer(READERS, *(["stream"] if lane == "stream" else []))
    try:
        started = time.monotonic()
        server.write(
            pipelined(
                INIT,
                INITIALIZED,
                call(2, tool),
                call(3, "add", {"a": 1, "b": 2}),
                call(4, "add", {"a": 3, "b": 4}),
                call(5, "add", {"a": 5, "b": 6}),
            )
        )
        got = answers(server, {"init", 2, 3, 4, 5})
        assert got.keys() == {"init", 2, 3, 4, 5}, (
            f"unanswered: { ({'init', 2, 3, 4, 5} - got.keys()) }"
        )
        assert time.monotonic() - started < PATIENCE
        is_error, piece = AT_END[tool]
        assert bool(got[2]["result"].get("isError")) is is_error, got[2]
        assert piece in text(got[2]), got[2]
        assert [text(got[n]) for n in (3, 4, 5)] == ["3", "7", "11"]
        # Still serving, and stdin still guarded.
        server.write(pipelined(call(6, tool), call(7, "add", {"a": 20, "b": 22})))
        again = answers(server, {6, 7})
        assert again.keys() == {6, 7}
        assert piece in text(again[6]) and text(again[7]) == "42"
        out, _, status = server.close()
        assert out == b"" and status == 0
    finally:
        kill(server)


def test_an_explicit_input_stream_is_left_alone() -> None:
    server = RawServer(READERS, "explicit")
    try:
        server.write(pipelined(INIT, INITIALIZED, call(2, "stdin_kind")))
        got = answers(server, {"init", 2})
        assert text(got[2]) == "fd0=fifo own=True"
        assert server.close()[2] == 0
    finally:
        kill(server)


GUARDED = """
import os, sys
from objmcp.transport.stdio import StdinGuard

before = sys.stdin
with StdinGuard() as guard:
    try:
        input()
        print("input: a line")
    except EOFError:
        print("input: EOFError")
    print("read:", repr(sys.stdin.read()), repr(os.read(0, 10)))
    print("protocol:", repr(os.read(guard.protocol_fd, 5)))
print("restored:", sys.stdin is before, repr(sys.stdin.readline()))
"""


def test_the_guard_keeps_a_copy_for_the_protocol_and_restores_stdin() -> None:
    done = subprocess.run(
        [PYTHON, "-c", GUARDED],
        input=b"12345rest\n",
        capture_output=True,
        env=server_env(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == [
        "input: EOFError",
        "read: '' b''",
        "protocol: b'12345'",
        "restored: True 'rest\\n'",
    ]


def test_serving_builtins_and_calling_input_gives_eof_and_answers_the_rest() -> None:
    server = RawServer("-m", "objmcp", "run", "builtins", "--include", "input")
    try:
        server.write(
            pipelined(
                INIT,
                INITIALIZED,
                call(2, "input"),
                {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
                {"jsonrpc": "2.0", "id": 4, "method": "ping"},
            )
        )
        got = answers(server, {"init", 2, 3, 4})
        assert got.keys() == {"init", 2, 3, 4}
        assert got[2]["result"]["isError"] is True
        assert "EOFError" in text(got[2])
        assert [tool["name"] for tool in got[3]["result"]["tools"]] == ["input"]
        assert got[4]["result"] == {}
        assert server.close()[2] == 0
    finally:
        kill(server)


def test_objmcp_call_builtins_input_ends_with_eof() -> None:
    done = subprocess.run(
        [PYTHON, "-m", "objmcp", "call", "builtins", "input", "--include", "input"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=server_env(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert b"EOFError" in done.stdout
