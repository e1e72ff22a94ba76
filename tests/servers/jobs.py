"""Slow jobs for the tasks tests (``tests/serving/test_tasks.py``): calls that outlive a
short ``task_after``, ask the user inside their task, report progress, or say ``task=``."""

from __future__ import annotations

import time

import anyio

import objmcp


class Jobs:
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

    def blocking(self, seconds: float, cancelled: objmcp.Cancelled) -> str:
        """Works ``seconds`` seconds in a worker thread, stopping when cancelled."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if cancelled.is_set():
                return "stopped"
            time.sleep(0.02)
        return "done"

    async def ask_name(self, elicit: objmcp.Elicit) -> str:
        """Works a little, then asks the user's name, inside its task."""
        await anyio.sleep(0.4)
        answer = await elicit("Your name?", str, key="name")
        return f"Hello, {answer.value}!"

    @objmcp.tool(task="never")
    async def never(self, seconds: float) -> str:
        """Slow, but never a task."""
        await anyio.sleep(seconds)
        return "never a task"

    @objmcp.tool(task="always")
    async def always(self) -> str:
        """Always a task."""
        await anyio.sleep(0.2)
        return "always a task"
