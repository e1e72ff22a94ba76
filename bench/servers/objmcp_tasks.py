"""The tasks bench's tools served over stdio by objmcp (``bench/tasks.py``): ``work`` for
the round trips (it sleeps ``ms`` milliseconds on the event loop), ``hold`` and
``release`` for the memory of many live tasks (every ``hold`` waits until ``release``).

The options come from the environment: ``BENCH_TASK_AFTER`` (seconds, default 1e-6: every
call of a client with the tasks extension still running a microsecond after it started
becomes a task), ``BENCH_MAX_TASKS``, ``BENCH_TASK_TTL`` and ``BENCH_MAX_CALLS``."""

import os

import anyio

import objmcp


class Work:
    """Work that takes a while, and work held until released."""

    def __init__(self) -> None:
        self._released: anyio.Event | None = None

    async def work(self, ms: float) -> int:
        """Sleep ``ms`` milliseconds; returns ``ms`` rounded."""
        await anyio.sleep(ms / 1000)
        return round(ms)

    async def hold(self, n: int) -> int:
        """Wait until ``release`` is called; returns ``n``."""
        if self._released is None:
            self._released = anyio.Event()
        await self._released.wait()
        return n

    async def release(self) -> str:
        """Let every ``hold`` waiting now end."""
        if self._released is not None:
            self._released.set()
        self._released = None
        return "released"


if __name__ == "__main__":
    objmcp.start(
        "bench-tasks",
        Work(),
        tasks=objmcp.Tasks(
            after=float(os.environ.get("BENCH_TASK_AFTER", "1e-6")),
            max_tasks=int(os.environ.get("BENCH_MAX_TASKS", "10000")),
            ttl=float(os.environ.get("BENCH_TASK_TTL", "600")),
        ),
        limits=objmcp.Limits(max_calls=int(os.environ.get("BENCH_MAX_CALLS", "20000"))),
    )
