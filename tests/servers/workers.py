"""Tools that say which process answered, for servers of several processes."""

from __future__ import annotations

import os
import time

import anyio

import objmcp


class Workers:
    """Which worker process is this?"""

    def pid(self) -> int:
        """The process id of the worker that answered."""
        return os.getpid()

    def ask_where(self, elicit: objmcp.Elicit) -> str:
        """Ask a question naming this process; answer naming the one that answers."""
        answer = elicit(f"Sure? (asked by {os.getpid()})", bool)
        return f"{answer.action}:{answer.value!r} (answered by {os.getpid()})"

    async def hold(self, seconds: float) -> int:
        """Block this worker's event loop for ``seconds`` (on purpose: meanwhile, new
        connections go to the other workers); answer with its process id."""
        time.sleep(seconds)
        return os.getpid()

    async def slow_pid(self, seconds: float) -> int:
        """Work ``seconds`` seconds without blocking (long enough, and the call becomes
        a task); answer with the process id."""
        await anyio.sleep(seconds)
        return os.getpid()
