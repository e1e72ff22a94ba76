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

    async def slow_ask(self, seconds: float, elicit: objmcp.Elicit) -> str:
        """Work ``seconds`` seconds (the call becomes a task), then ask a question naming
        this process; answer with the answer and this process's id."""
        await anyio.sleep(seconds)
        answer = await elicit(f"Sure? (asked by {os.getpid()})", bool)
        return f"{answer.action}:{answer.value!r} (answered by {os.getpid()})"

    async def until_cancelled(self, marker: str) -> int:
        """Note ``started PID`` in the file ``marker``, wait until cancelled, then note
        ``cancelled PID``."""
        with open(marker, "a") as noted:
            noted.write(f"started {os.getpid()}\n")
        try:
            await anyio.sleep(120)
        except anyio.get_cancelled_exc_class():
            with open(marker, "a") as noted:
                noted.write(f"cancelled {os.getpid()}\n")
            raise
        return os.getpid()

    @objmcp.tool(task="always")
    async def always_pid(self, seconds: float) -> int:
        """Always a task: work ``seconds`` seconds, answer with the process id."""
        await anyio.sleep(seconds)
        return os.getpid()

    @objmcp.tool(idempotent=True)
    async def again_pid(self, seconds: float, marker: str) -> int:
        """Idempotent: note this process's id in the file ``marker`` (a line a start),
        work ``seconds`` seconds, answer with the process id."""
        with open(marker, "a") as noted:
            noted.write(f"{os.getpid()}\n")
        await anyio.sleep(seconds)
        return os.getpid()

    async def once_pid(self, seconds: float, marker: str) -> int:
        """Not idempotent: as ``again_pid``."""
        with open(marker, "a") as noted:
            noted.write(f"{os.getpid()}\n")
        await anyio.sleep(seconds)
        return os.getpid()

    async def progressing(self, gate: str, progress: objmcp.Progress) -> int:
        """Report progress naming this process, then wait until the file ``gate`` exists;
        answer with the process id."""
        await progress(1, 2, f"half-way in {os.getpid()}")
        while not os.path.exists(gate):
            await anyio.sleep(0.02)
        return os.getpid()
