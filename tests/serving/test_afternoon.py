"""The holes of issue 27 ("An attacker's afternoon"): SIGTERM, a signal mid-write, a tool
that forks, log records of other libraries, and the secrets of ``--workers``. Real server
processes (``objmcp run``), spoken to through real pipes and real HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import os
import select
import time
from pathlib import Path
from typing import Any

from conftest import ROOT, RawServer
from http_helpers import call

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
