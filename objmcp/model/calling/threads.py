"""Where sync tools run: a warm pool's threads (:mod:`~objmcp.model.calling.warmpool`; anyio's
worker threads on another event loop than asyncio), or one dedicated thread.

A Python thread cannot be stopped. A call cancelled while its thread runs is
*abandoned*: the caller stops waiting and the thread finishes on its own. The
:class:`ThreadRunner` counts such threads, so that a process about to exit
knows it would otherwise wait for them. A job cancelled before its thread
took it up never starts.

At most ``limit`` jobs run at once; more wait for a place. A job that waits for
something from outside (a question to the user) gives its place up meanwhile with
:meth:`ThreadRunner.paused`, so that jobs whose answers never come cannot starve
the others.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import sys
import threading
import typing
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread

from .warmpool import WarmPool

__all__ = ["DEFAULT_LIMIT", "Place", "ThreadRunner"]

DEFAULT_LIMIT = 40
"""Sync jobs that may run at once unless told otherwise (anyio's own default)."""

T = TypeVar("T")


class JobSkipped(Exception):
    """Raised in place of a job that was cancelled before it started (nobody waits for it)."""


@dataclass(eq=False)
class Place:
    """One sync job's place in the runner; :meth:`ThreadRunner.current` finds it."""

    started: bool = False
    finished: bool = False
    cancelled: bool = False
    held: bool = False  # it has a place (or lent it out)
    paused: bool = False  # its place is lent out
    abandoned: bool = False
    """Cancelled while its thread ran: the thread runs on, and nobody waits for it."""
    on_abandoned_end: Callable[[], None] | None = None
    """Called in its thread when an abandoned job ends (what it held may go then)."""


_current_job = threading.local()


class ThreadRunner:
    """Runs sync jobs off the event loop: in worker threads, or on one thread when ``serial``."""

    def __init__(self, serial: bool = False, limit: int = DEFAULT_LIMIT) -> None:
        if limit < 1:
            raise ValueError(f"the thread limit must be at least 1, not {limit}")
        self.serial = serial
        self.limit = limit
        self._lock = threading.Lock()
        self._abandoned = 0
        self._thread: _SerialThread | None = None
        self._pool: WarmPool | None = None  # of the loop that last ran a job
        self._places: anyio.CapacityLimiter | None = None  # made on the loop that uses it
        self._unlimited: anyio.CapacityLimiter | None = None
        self.busy = 0
        """Jobs started by :meth:`run` and not yet ended."""

    @staticmethod
    def current() -> Place | None:
        """The job of the calling worker thread, or None outside one."""
        job: Place | None = getattr(_current_job, "job", None)
        return job

    @contextlib.asynccontextmanager
    async def paused(self, job: Place | None) -> AsyncIterator[None]:
        """Give ``job``'s place to another job while the block runs (it waits for something
        from outside), and take a place again after it (which may wait its turn). The one
        thread of a serial runner cannot be given up: there the block just runs."""
        if job is None or self.serial or self._places is None or job.paused:
            yield
            return
        job.paused = True
        self._places.release_on_behalf_of(job)
        try:
            yield
        finally:
            if job.held:  # else the run was given up meanwhile: it needs no place again
                with anyio.CancelScope(shield=True):
                    await self._places.acquire_on_behalf_of(job)
                if not job.held:
                    self._places.release_on_behalf_of(job)
            job.paused = False

    @property
    def abandoned(self) -> int:
        """Cancelled jobs whose thread is still running."""
        return self._abandoned

    def abandon(self) -> None:
        """A job run elsewhere (in a connection's reader thread) was cancelled and runs on;
        from any thread."""
        with self._lock:
            self._abandoned += 1

    def settled(self) -> None:
        """A job :meth:`abandon` counted has ended; from any thread."""
        with self._lock:
            self._abandoned -= 1

    def take(self, owner: object) -> None:
        """On the loop: a job run elsewhere holds a place until :meth:`give_back` (none is
        taken when all are in use)."""
        with contextlib.suppress(anyio.WouldBlock):
            self._limiters()[0].acquire_on_behalf_of_nowait(owner)

    def give_back(self, owner: object) -> None:
        """On the loop: the place :meth:`take` took for ``owner``, if it took one."""
        with contextlib.suppress(RuntimeError):  # it took none
            self._limiters()[0].release_on_behalf_of(owner)

    def _limiters(self) -> tuple[anyio.CapacityLimiter, anyio.CapacityLimiter]:
        if self._places is None or self._unlimited is None:
            self._places = anyio.CapacityLimiter(self.limit)
            self._unlimited = anyio.CapacityLimiter(math.inf)
        return self._places, self._unlimited

    async def run(self, job: Callable[[], T], state: Place | None = None) -> T:
        """Run ``job`` in a thread and wait for its result (or its exception); ``state`` is
        its place, given to learn whether it was abandoned (made here when not given)."""
        state = Place() if state is None else state

        def tracked() -> T:
            with self._lock:
                if state.cancelled:
                    raise JobSkipped
                state.started = True
            _current_job.job = state
            try:
                return job()
            finally:
                _current_job.job = None
                with self._lock:
                    state.finished = True
                    if state.cancelled:
                        self._abandoned -= 1
                if state.abandoned and state.on_abandoned_end is not None:
                    state.on_abandoned_end()

        self.busy += 1
        try:
            if self.serial:
                if self._thread is None:
                    self._thread = _SerialThread()
                context = contextvars.copy_context()  # as anyio's worker threads get it
                return await self._thread.run(lambda: context.run(tracked))
            places, unlimited = self._limiters()
            try:  # a place, by the job (not the task) so that it can be lent out
                places.acquire_on_behalf_of_nowait(state)
            except anyio.WouldBlock:
                await places.acquire_on_behalf_of(state)
            state.held = True
            try:
                pool = self._warm_pool()
                if pool is None:  # not on asyncio
                    return await anyio.to_thread.run_sync(
                        tracked, abandon_on_cancel=True, limiter=unlimited
                    )
                return await pool.submit(tracked)
            finally:
                _leave_place(places, state)
        except anyio.get_cancelled_exc_class():
            with self._lock:
                state.cancelled = True
                if state.started and not state.finished:
                    self._abandoned += 1
                    state.abandoned = True
            raise
        finally:
            self.busy -= 1

    def _warm_pool(self) -> WarmPool | None:
        """The warm pool of the running asyncio loop (None on another event loop)."""
        asyncio = sys.modules.get("asyncio")  # no asyncio loop runs without it: not loaded here
        try:
            loop = asyncio.get_running_loop() if asyncio is not None else None
        except RuntimeError:
            return None
        if loop is None:
            return None
        pool = self._pool
        if pool is None or pool.loop is not loop:
            if pool is not None:
                pool.close()
            pool = self._pool = WarmPool(loop, anyio.lowlevel.current_token())
        return pool

    def run_blocking(self, job: Callable[[], T]) -> T:
        """From sync code, run ``job`` where this runner's jobs run and wait for it: on the
        one thread of a serial runner (made now if need be), else here.

        It runs here too on that one thread itself, and on an event loop's thread while
        jobs are under way: one of them may be waiting for that loop, which would then
        wait for it.
        """
        if not self.serial:
            return job()
        if self._thread is None:
            self._thread = _SerialThread()
        if self._thread.is_current() or (self.busy and _on_event_loop()):
            return job()
        return self._thread.run_blocking(job)

    def stop(self) -> None:
        """Let the dedicated thread, if any, end after the jobs it has."""
        if self._thread is not None:
            self._thread.stop()
            self._thread = None
        if self._pool is not None:
            self._pool.close()
            self._pool = None


class _SerialThread:
    """One dedicated thread that runs jobs one at a time, in order."""

    def __init__(self) -> None:
        self._jobs: list[_Job[object]] = []
        self._ready = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._loop, name="objmcp-serial", daemon=True)
        self._thread.start()

    async def run(self, job: Callable[[], T]) -> T:
        done = anyio.Event()
        token = anyio.lowlevel.current_token()

        def settle() -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                anyio.from_thread.run_sync(done.set, token=token)

        entry = self._put(job, settle)
        await done.wait()
        return entry.outcome()

    def run_blocking(self, job: Callable[[], T]) -> T:
        done = threading.Event()
        entry = self._put(job, done.set)
        done.wait()
        return entry.outcome()

    def is_current(self) -> bool:
        return threading.current_thread() is self._thread

    def _put(self, job: Callable[[], T], settle: Callable[[], None]) -> _Job[T]:
        entry: _Job[T] = _Job(job, settle)
        with self._ready:
            self._jobs.append(typing.cast("_Job[object]", entry))
            self._ready.notify()
        return entry

    def _loop(self) -> None:
        while True:
            with self._ready:
                while not self._jobs and not self._stopping:
                    self._ready.wait()
                if not self._jobs:
                    return
                entry = self._jobs.pop(0)
            try:
                entry.value = entry.job()
            except BaseException as error:
                entry.error = error
            entry.settle()

    def stop(self) -> None:
        with self._ready:
            self._stopping = True
            self._ready.notify()


class _Job(Generic[T]):
    def __init__(self, job: Callable[[], T], settle: Callable[[], None]) -> None:
        self.job = job
        self.settle = settle  # tells the waiter it ended, from the serial thread
        self.value: T | None = None
        self.error: BaseException | None = None

    def outcome(self) -> T:
        if self.error is not None:
            raise self.error
        return typing.cast(T, self.value)


def _on_event_loop() -> bool:
    try:
        anyio.lowlevel.current_token()
    except anyio.NoEventLoopError:
        return False
    return True


def _leave_place(places: anyio.CapacityLimiter, job: Place) -> None:
    """Give back the place :meth:`ThreadRunner.run` took for ``job``, unless it is lent
    out."""
    job.held = False
    if not job.paused:
        places.release_on_behalf_of(job)
