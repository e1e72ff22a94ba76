"""Sync jobs of one asyncio event loop run on one warm thread, handed on when one blocks.

Handing a job to a worker thread costs more than most tools take to run: the thread
must be woken, must take the GIL from the busy loop, and must wake the loop with the
result. anyio's worker threads pay that once a job and let every waiting thread
contend for the GIL. A :class:`WarmPool` pays it once per batch:

* the jobs submitted during one turn of the loop are handed over together, after it;
* one thread, the *runner*, takes them in order, and the loop is woken once for all the
  results that ended while it had not looked yet;
* a job that runs past :data:`HANDOFF` holds its thread alone: the jobs queued behind it
  go to another thread (an idle one, or a new one), and the slow job's thread joins the
  idle ones when it ends. So a blocking tool delays the jobs behind it by at most
  :data:`HANDOFF`, and many blocking tools still run side by side.

Threads idle for :data:`IDLE_EXIT` seconds end. Inside a job, ``anyio.from_thread``
reaches the loop as from anyio's own worker threads, and the job sees the
:mod:`contextvars` of the task that submitted it.
"""

from __future__ import annotations

import contextvars
import threading
import time
import typing
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    import asyncio

__all__ = ["HANDOFF", "IDLE_EXIT", "THREAD_NAME", "WarmPool", "WarmThread"]

HANDOFF = 0.001
"""Seconds a job may hold the runner while others wait behind it."""

IDLE_EXIT = 10.0
"""Seconds an idle thread waits for work before it ends (anyio's workers wait as long)."""

THREAD_NAME = "objmcp-warm"
"""The name of the pool's threads."""

T = TypeVar("T")


class _Entry(Generic[T]):
    """A submitted job, its context and the future that waits for it."""

    __slots__ = ("context", "error", "function", "future", "value")

    def __init__(
        self,
        function: Callable[[], T],
        future: asyncio.Future[T],
        context: contextvars.Context,
    ) -> None:
        self.function = function
        self.future = future
        self.context = context
        self.value: T | None = None
        self.error: BaseException | None = None


class WarmThread(threading.Thread):
    """One thread of a :class:`WarmPool`, and the job it runs now."""

    def __init__(self, pool: WarmPool) -> None:
        super().__init__(target=pool._serve, args=(self,), name=THREAD_NAME, daemon=True)
        self.wake = threading.Condition(pool._lock)
        self.entry: _Entry[object] | None = None
        """The job it runs, if any."""
        self.started = 0.0
        """When it started that job (``time.monotonic``)."""

    @property
    def idle(self) -> bool:
        """Whether it waits for work (and ends if none comes in :data:`IDLE_EXIT`)."""
        return self.entry is None


class WarmPool:
    """Runs the sync jobs of the event loop ``loop`` (see the module). Submit only from
    that loop; ``token`` is anyio's token for it, which the jobs' threads carry."""

    def __init__(self, loop: asyncio.AbstractEventLoop, token: object = None) -> None:
        self.loop = loop
        self._token = token
        self._lock = threading.Lock()
        self._queue: deque[_Entry[object]] = deque()  # handed over, not yet taken
        self._inbox: list[_Entry[object]] = []  # submitted this turn (the loop's alone)
        self._done: list[_Entry[object]] = []  # ended, not yet delivered
        self._delivery_due = False  # a delivery is scheduled on the loop
        self._runner: WarmThread | None = None
        self._idle: list[WarmThread] = []  # waiting, not the runner; the last is the warmest
        self._watch: asyncio.TimerHandle | None = None
        self._closed = False
        self.threads = 0
        """Threads alive in the pool."""

    def submit(self, function: Callable[[], T]) -> asyncio.Future[T]:
        """From the loop: run ``function`` in a thread of the pool, in a copy of the
        calling task's context; its future has the result or the exception. A future
        cancelled before its job started cancels the job."""
        future: asyncio.Future[T] = self.loop.create_future()
        entry = _Entry(function, future, contextvars.copy_context())
        if not self._inbox:
            self.loop.call_soon(self._hand_over)
        self._inbox.append(typing.cast("_Entry[object]", entry))
        return future

    def close(self) -> None:
        """Let every thread end once it has no job (jobs already handed over still run)."""
        with self._lock:
            self._closed = True
            for worker in [*self._idle, *([self._runner] if self._runner else [])]:
                worker.wake.notify()

    # --- the loop's side ------------------------------------------------------------------

    def _hand_over(self) -> None:
        with self._lock:
            self._queue.extend(self._inbox)
            self._inbox.clear()
            self._wake_runner()

    def _look(self) -> None:
        self._watch = None
        with self._lock:
            if self._queue:
                self._wake_runner()

    def _wake_runner(self) -> None:
        """See that a thread takes the queue: the runner, unless it has held one job past
        HANDOFF; and look again in HANDOFF while jobs wait (lock held)."""
        runner = self._runner
        if runner is None or self._blocked(runner):
            runner = self._new_runner()
        if runner.entry is None:
            runner.wake.notify()
        if self._watch is None:
            self._watch = self.loop.call_later(HANDOFF, self._look)

    def _blocked(self, runner: WarmThread) -> bool:
        """Whether the runner has held its job past HANDOFF (lock held)."""
        return runner.entry is not None and time.monotonic() - runner.started >= HANDOFF

    def _new_runner(self) -> WarmThread:
        """Make the warmest idle thread the runner, or a new thread (lock held)."""
        if self._idle:
            self._runner = self._idle.pop()
            return self._runner
        worker = self._runner = WarmThread(self)
        self.threads += 1
        worker.start()
        return worker

    def _deliver(self) -> None:
        with self._lock:
            done, self._done = self._done, []
            self._delivery_due = False
        for entry in done:
            if entry.future.done():  # cancelled: nobody waits
                continue
            if entry.error is not None:
                entry.future.set_exception(entry.error)
            else:
                entry.future.set_result(entry.value)

    # --- the threads' side ----------------------------------------------------------------

    def _serve(self, worker: WarmThread) -> None:
        _claim_for_anyio(self._token)
        while True:
            entry = self._next(worker)
            if entry is None:
                return
            if not entry.future.cancelled():
                try:
                    entry.value = entry.context.run(entry.function)
                except StopIteration as error:  # an asyncio future cannot carry it
                    entry.error = RuntimeError("a sync job raised StopIteration")
                    entry.error.__cause__ = error
                except BaseException as error:
                    entry.error = error
            with self._lock:
                worker.entry = None
                self._done.append(entry)
                if self._delivery_due:
                    continue
                self._delivery_due = True
            try:
                self.loop.call_soon_threadsafe(self._deliver)
            except RuntimeError:  # the loop has closed: nobody waits any more
                with self._lock:
                    self._forget(worker)
                return

    def _next(self, worker: WarmThread) -> _Entry[object] | None:
        """The next job ``worker`` takes, waiting for one; None when it should end."""
        with self._lock:
            while True:
                if self._runner is not worker and worker not in self._idle:
                    self._idle.append(worker)  # handed on while it ran a slow job
                if self._runner is worker and self._queue:
                    entry = worker.entry = self._queue.popleft()
                    worker.started = time.monotonic()
                    return entry
                if self._closed or not worker.wake.wait(IDLE_EXIT):
                    if self._runner is worker and self._queue and not self._closed:
                        continue
                    self._forget(worker)
                    return None

    def _forget(self, worker: WarmThread) -> None:
        """``worker`` ends (lock held)."""
        if self._runner is worker:
            self._runner = None
        if worker in self._idle:
            self._idle.remove(worker)
        self.threads -= 1


def _claim_for_anyio(token: object) -> None:
    """Let ``anyio.from_thread`` find the loop from this thread, as from anyio's own worker
    threads (``token``: anyio's token for the loop; None leaves the thread as it is)."""
    if token is None:
        return
    try:
        from anyio._core._eventloop import threadlocals
    except ImportError:  # a later anyio: a job must then pass the token itself
        return
    threadlocals.current_token = token
    threadlocals.current_cancel_scope = None
