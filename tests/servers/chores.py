"""Slow chores for the jobs tests (``tests/serving/test_jobs.py``, and the official SDK's
client in ``tests/peers/test_python_sdk_jobs.py``): calls that outlive a short
``task_after``, report progress, ask the user, fail, or return structured results.

``python chores.py PORT`` serves them over Streamable HTTP with jobs on, ``task_after``
0.2 s, the route tag ``p1``, and two bearer tokens (alice's and bob's)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import anyio

import objmcp


@dataclass
class Measure:
    """A measure taken slowly."""

    seconds: float
    unit: str


class Chores:
    """Slow work, as a plain object."""

    def quick(self) -> str:
        """Ends at once."""
        return "quick"

    async def slow(self, seconds: float, progress: objmcp.Progress) -> str:
        """Works ``seconds`` seconds, saying so half-way."""
        await anyio.sleep(seconds / 2)
        await progress(1, 2, "half-way")
        await anyio.sleep(seconds / 2)
        return f"slept {seconds:g}"

    async def measure(self, seconds: float) -> Measure:
        """Takes ``seconds`` seconds to measure them."""
        await anyio.sleep(seconds)
        return Measure(seconds, "s")

    def blocking(self, seconds: float, cancelled: objmcp.Cancelled) -> str:
        """Works ``seconds`` seconds in a worker thread, stopping when cancelled."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if cancelled.is_set():
                return "stopped"
            time.sleep(0.02)
        return "done"

    async def failing(self, seconds: float) -> str:
        """Works ``seconds`` seconds, then fails."""
        await anyio.sleep(seconds)
        raise objmcp.ToolError("the chore went wrong")

    async def ask_name(self, elicit: objmcp.Elicit) -> str:
        """Works a little, then asks the user's name."""
        await anyio.sleep(0.5)
        answer = await elicit("Your name?", str, key="name")
        return f"Hello, {answer.value}!" if answer.action == "accept" else answer.action

    @objmcp.tool(task="never")
    async def never(self, seconds: float) -> Measure:
        """Slow, but never a job."""
        await anyio.sleep(seconds)
        return Measure(seconds, "s")


TOKENS = {"alice-token": {"sub": "alice"}, "bob-token": {"sub": "bob"}}

if __name__ == "__main__":
    import uvicorn

    app = objmcp.asgi_app(
        "chores",
        Chores(),
        auth=objmcp.Auth(verify=lambda token: TOKENS.get(token, {})),
        tasks=objmcp.Tasks(jobs=True, after=0.2),
        http=objmcp.Http(route="p1"),
    )
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
