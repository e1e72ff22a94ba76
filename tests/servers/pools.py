"""Calls held until the test releases them, for the bounds of the tasks' pools
(tests/serving/test_task_bounds.py): each becomes a task while it is held, whatever the
machine's speed, and ends, or asks, when released.

Run as ``pools.py name=number ...`` it serves on stdio with those options
(``max_parked=1``); as ``pools.py http PORT name=number ...``, over HTTP, the bearer
tokens ``alice-token`` and ``bob-token`` naming two users.
"""

from __future__ import annotations

import sys
import threading
from collections import Counter, defaultdict
from typing import Any

import anyio
from flat_options import as_records

import objmcp

WAIT = 30.0
"""Seconds a held call waits at most for its release (a test that failed lets go)."""


class Pools:
    """Calls that wait for a gate, by name."""

    def __init__(self) -> None:
        self._gates: defaultdict[str, threading.Event] = defaultdict(threading.Event)
        self._events: defaultdict[str, anyio.Event] = defaultdict(anyio.Event)
        self._runs: Counter[str] = Counter()

    @objmcp.tool(task="always")
    async def made(self, gate: str, size: int = 10) -> str:
        """Wait for ``gate``, then return ``size`` characters."""
        with anyio.move_on_after(WAIT):
            await self._events[gate].wait()
        return "x" * size

    @objmcp.tool(task="always")
    def ask_after(self, gate: str, elicit: objmcp.Elicit) -> str:
        """Wait for ``gate`` in a worker thread, then ask the user's name."""
        self._gates[gate].wait(WAIT)
        return f"Hello, {elicit('Your name?', str, key='name').value}!"

    def greet(self, who: str, elicit: objmcp.Elicit) -> str:
        """Count a run for ``who``, then ask the user's name: a call parked runs once, one
        its retry replays twice."""
        self._runs[who] += 1
        name = elicit("Your name?", str, key="name").value
        return f"Hello, {name}, after {self._runs[who]} run(s)"

    async def release(self, gate: str) -> str:
        """Let the calls waiting for ``gate`` go on."""
        self._gates[gate].set()
        self._events[gate].set()
        return f"released {gate}"


def _options(arguments: list[str]) -> dict[str, Any]:
    return {name: int(value) for name, value in (a.split("=", 1) for a in arguments)}


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        import uvicorn

        users = {"alice-token": {"sub": "alice"}, "bob-token": {"sub": "bob"}}
        options = _options(sys.argv[3:])
        app = objmcp.asgi_app(
            "pools", Pools(), **as_records(options), auth=objmcp.Auth(verify=users.get)
        )
        uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
    else:
        objmcp.start("pools", Pools(), **as_records(_options(sys.argv[1:])))
