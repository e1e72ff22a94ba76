"""The soak's server: sync and async tools, calls that run until cancelled, and a census
of the process's threads and the event loop's tasks."""

from __future__ import annotations

import asyncio
import threading
import time

import anyio

import objmcp
from objmcp.model.calling.warmpool import WarmThread


class Soaked:
    """Tools of every kind, and one that counts what the process holds."""

    def add(self, a: int, b: int) -> int:
        """Add in a worker thread."""
        return a + b

    async def add_async(self, a: int, b: int) -> int:
        """Add on the event loop."""
        return a + b

    def pad(self, size: int) -> dict[str, object]:
        """A structured result with a string of ``size`` characters."""
        return {"size": size, "text": "p" * size}

    def spin(self, cancelled: objmcp.Cancelled) -> str:
        """Run in a worker thread until cancelled."""
        while not cancelled.is_set():
            time.sleep(0.005)
        return "stopped"

    async def hang(self) -> str:
        """Wait on the event loop until cancelled."""
        await anyio.sleep_forever()
        return "never"

    async def census(self) -> dict[str, int]:
        """The process's threads and the event loop's tasks, this one included. Idle
        worker threads (objmcp's warm pool, anyio's) are not counted: a pool keeps them
        ten seconds for the next sync call, and how many it keeps follows how loaded the
        machine was a moment ago, not what the server leaks."""
        idle = sum(1 for thread in threading.enumerate() if _idle_worker(thread))
        return {"threads": threading.active_count() - idle, "tasks": len(asyncio.all_tasks())}


def _idle_worker(thread: threading.Thread) -> bool:
    """Whether ``thread`` is a worker thread waiting in its pool: objmcp's or anyio's."""
    if isinstance(thread, WarmThread):
        return thread.idle
    idle_workers = getattr(thread, "idle_workers", None)  # anyio's WorkerThread (asyncio)
    return idle_workers is not None and thread in idle_workers


if __name__ == "__main__":
    objmcp.start("soak", Soaked())
