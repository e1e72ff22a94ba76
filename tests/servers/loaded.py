"""An object for the load, limit and vanishing-client tests: calls that are fast, slow,
sync, async, that ask the user, that say a lot, and that hang (until cancelled)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from typing import Any

import anyio

import objmcp


class Loaded:
    """Calls of every speed and kind."""

    def __init__(self) -> None:
        self.started: dict[str, int] = {}
        self._lock = threading.Lock()

    def echo(self, value: Any) -> Any:
        """Return ``value`` as it came."""
        return value

    def length(self, text: str) -> int:
        """The number of characters in ``text``."""
        return len(text)

    def blob(self, kib: int) -> str:
        """A string of ``kib`` KiB."""
        return "b" * (kib * 1024)

    def sync_nap(self, seconds: float) -> str:
        """Sleep in a worker thread."""
        time.sleep(seconds)
        return f"slept {seconds}"

    async def nap(self, seconds: float) -> str:
        """Sleep on the event loop."""
        await anyio.sleep(seconds)
        return f"napped {seconds}"

    def spin(self, cancelled: objmcp.Cancelled) -> str:
        """Run until cancelled (checking the flag), then say so in a file named by
        $LOADED_TRACE, if set."""
        while not cancelled.is_set():
            time.sleep(0.01)
        trace = os.environ.get("LOADED_TRACE")
        if trace:
            with open(trace, "a") as out:
                out.write("spin stopped\n")
        return "stopped"

    async def hang(self) -> str:
        """Wait forever (until cancelled)."""
        await anyio.sleep_forever()
        return "never"

    def ask(self, elicit: objmcp.Elicit) -> str:
        """Ask the user a yes/no question from a worker thread."""
        answer = elicit("Go on?", bool)
        return f"answered {answer.value}"

    async def ask_async(self, elicit: objmcp.Elicit) -> str:
        """Ask the user a yes/no question on the event loop."""
        answer = await elicit("Go on?", bool)  # type: ignore[misc]
        return f"answered {answer.value}"

    def chatter(self, count: int, size: int, progress: objmcp.Progress) -> int:
        """Send ``count`` progress reports of ``size`` characters, then return ``count``."""
        message = "x" * size
        for done in range(count):
            progress(done, count, message)
        return count

    async def chatter_async(self, count: int, size: int, progress: objmcp.Progress) -> int:
        """:meth:`chatter` on the event loop."""
        message = "x" * size
        for done in range(count):
            await progress(done, count, message)  # type: ignore[func-returns-value]
        return count

    async def census(self) -> dict[str, int]:
        """The process's threads and the event loop's tasks, this one included."""
        return {"threads": threading.active_count(), "tasks": len(asyncio.all_tasks())}


if __name__ == "__main__":
    objmcp.start("loaded", Loaded())
