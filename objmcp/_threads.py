"""Where sync tools run: anyio's worker threads, or one dedicated thread.

A Python thread cannot be stopped. A call cancelled while its thread runs is
*abandoned*: the caller stops waiting and the thread finishes on its own. The
:class:`ThreadRunner` counts such threads, so that a process about to exit
knows it would otherwise wait for them. A job cancelled before its thread
took it up never starts.
"""

from __future__ import annotations

import contextlib
import threading
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread

__all__ = ["ThreadRunner"]

T = TypeVar("T")


class JobSkipped(Exception):
    """Raised in place of a job that was cancelled before it started (nobody waits for it)."""


@dataclass
class _JobState:
    started: bool = False
    finished: bool = False
    cancelled: bool = False


class ThreadRunner:
    """Runs sync jobs off the event loop: in worker threads, or on one thread when ``serial``."""

    def __init__(self, serial: bool = False) -> None:
        self.serial = serial
        self._lock = threading.Lock()
        self._abandoned = 0
        self._thread: _SerialThread | None = None

    @property
    def abandoned(self) -> int:
        """Cancelled jobs whose thread is still running."""
        return self._abandoned

    async def run(self, job: Callable[[], T]) -> T:
        """Run ``job`` in a thread and wait for its result (or its exception)."""
        state = _JobState()

        def tracked() -> T:
            with self._lock:
                if state.cancelled:
                    raise JobSkipped
                state.started = True
            try:
                return job()
            finally:
                with self._lock:
                    state.finished = True
                    if state.cancelled:
                        self._abandoned -= 1

        try:
            if self.serial:
                if self._thread is None:
                    self._thread = _SerialThread()
                return await self._thread.run(tracked)
            return await anyio.to_thread.run_sync(tracked, abandon_on_cancel=True)
        except anyio.get_cancelled_exc_class():
            with self._lock:
                state.cancelled = True
                if state.started and not state.finished:
                    self._abandoned += 1
            raise

    def stop(self) -> None:
        """Let the dedicated thread, if any, end after the jobs it has."""
        if self._thread is not None:
            self._thread.stop()
            self._thread = None


class _SerialThread:
    """One dedicated thread that runs jobs one at a time, in order."""

    def __init__(self) -> None:
        self._jobs: list[_Job[object]] = []
        self._ready = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._loop, name="objmcp-serial", daemon=True)
        self._thread.start()

    async def run(self, job: Callable[[], T]) -> T:
        entry: _Job[T] = _Job(job, anyio.Event(), anyio.lowlevel.current_token())
        with self._ready:
            self._jobs.append(typing.cast("_Job[object]", entry))
            self._ready.notify()
        await entry.done.wait()
        if entry.error is not None:
            raise entry.error
        return typing.cast(T, entry.value)

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
            with contextlib.suppress(RuntimeError):  # the loop has closed
                anyio.from_thread.run_sync(entry.done.set, token=entry.token)

    def stop(self) -> None:
        with self._ready:
            self._stopping = True
            self._ready.notify()


class _Job(Generic[T]):
    def __init__(
        self, job: Callable[[], T], done: anyio.Event, token: anyio.lowlevel.EventLoopToken
    ) -> None:
        self.job = job
        self.done = done
        self.token = token
        self.value: T | None = None
        self.error: BaseException | None = None
