"""The fast lane's output: every frame through one queue, written by whichever thread
finds it idle.

Over the fast lane (:mod:`objmcp.serving.reader`) frames are sent from several
threads: a reader thread answering a call it ran itself, a thread that was the reader
finishing its call after another took the input over, the watchdog answering a call
that ran out of time, and the event loop. Each queues its frame under one lock, and
the first to find nobody writing writes: a thread of its own at once, with blocking
writes to the descriptor (which holds up a client that does not read back, as it
should), the event loop by waking its writer task, which writes with the
connection's sink.

A reader thread handling a burst of pipelined requests holds its answers back and
writes them together when the burst's frames run out: one write for many answers.
What is held goes out sooner when it piles up (:data:`HOLD` bytes), when the oldest
has waited :data:`HOLD_TIME`, or when the thread is about to wait for something else.
The bound on unwritten output is the byte stream's
(:class:`~objmcp.serving.byte_stream.Backlog`); beyond it a reader thread waits for the
client to read (:meth:`FdOutput.wait_for_client`), as the loop's input does.

:class:`FdOutput` is the output half of a
:class:`~objmcp.serving.byte_stream.StreamConnection` whose input is
:class:`~objmcp.serving.reader.FdInput`: it has its own lock and its own state, and
the reading side reaches it through :meth:`~FdOutput.send`, :meth:`~FdOutput.hold`,
:meth:`~FdOutput.release`, :meth:`~FdOutput.write_held` and
:meth:`~FdOutput.wait_for_client`.
"""

from __future__ import annotations

import logging
import os
import threading
import time

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from ..protocol.jsonrpc import RequestId
from ..transport.stdio import ByteSink
from .byte_stream import Backlog

__all__ = ["HOLD", "HOLD_TIME", "FdOutput"]

HOLD = 1 << 16
"""Bytes of answers a reader holds back while it has more frames to handle."""
HOLD_TIME = 0.001
"""Seconds an answer is held back at most while the burst's calls are quick."""
_LOOK = 0.01  # seconds between looks at the output when serving ends

logger = logging.getLogger("objmcp")


class FdOutput:
    """Writes a connection's frames to a file descriptor from any thread: a thread of
    its own writes at once, blocking; the event loop wakes its writer task, which writes
    with ``sink``. ``grace`` is how long frames being written when serving ends may take."""

    def __init__(self, sink: ByteSink, output_fd: int, backlog: Backlog, grace: float) -> None:
        self.backlog = backlog
        self._sink = sink  # what the event loop writes with
        self._broken = False
        self._output_fd = output_fd
        self._grace = grace
        self._out_lock = threading.Lock()
        self._pending: list[bytes] = []
        self._flushing = False
        self._holder: int | None = None  # the reader thread holding back output in a burst
        self._held_since: float | None = None  # when the oldest answer held back was queued
        self._readable = threading.Event()
        self._readable.set()
        self._wake_writer: MemoryObjectSendStream[None] | None = None
        self._loop_thread: int | None = None
        self._closed = False  # serving ended: no frame begins

    def send(self, message: object, related: RequestId | None) -> None:
        """Queue one message; written at once by this thread, or by the loop's writer."""
        frame = self.backlog.frame(message)
        if frame is None:
            return
        with self._out_lock:
            if self._closed:
                return
            self.backlog.sent(len(frame))
            self._pending.append(frame)
            if self._flushing:
                return  # the thread writing now writes this too
            if self._holder == threading.get_ident() and self.backlog.unwritten < HOLD:
                now = time.monotonic()
                if self._held_since is None:
                    self._held_since = now
                if now - self._held_since < HOLD_TIME:
                    return  # written with the burst's other answers
            self._flushing = True
        if threading.get_ident() == self._loop_thread:
            assert self._wake_writer is not None
            try:
                self._wake_writer.send_nowait(None)
            except anyio.ClosedResourceError:  # serving ended: nobody writes it
                with self._out_lock:
                    self._flushing = False
        else:
            self._flush()

    def hold(self) -> None:
        """Hold this thread's answers back while it handles a burst of frames."""
        with self._out_lock:
            self._holder = threading.get_ident()

    def release(self) -> None:
        """Stop holding back this thread's output, and write what it held."""
        with self._out_lock:
            if self._holder != threading.get_ident():
                return
            self._holder = None
        self.write_held()

    def write_held(self) -> None:
        """Write what is queued now, unless another thread is writing it already."""
        with self._out_lock:
            if self._flushing or not self._pending:
                return
            self._flushing = True
        self._flush()

    def _flush(self) -> None:
        """Write what is queued, blocking, until nothing is."""
        while (data := self._next_output()) is not None:
            if not self._broken:
                try:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(self._output_fd, view) :]
                except OSError as error:
                    self._gone(error)
            self._written(len(data))

    def _next_output(self) -> bytes | None:
        with self._out_lock:
            if not self._pending or self._closed:
                self._flushing = False
                return None
            data = b"".join(self._pending)
            self._pending.clear()
            self._held_since = None
            return data

    def _written(self, size: int) -> None:
        with self._out_lock:
            if self.backlog.written(size) and not self._readable.is_set():
                self._readable.set()

    def wait_for_client(self) -> None:
        """While the client leaves too much output unread, read nothing more (a thread)."""
        with self._out_lock:
            if not self.backlog.full:
                return
            self._readable.clear()
        self._readable.wait()

    async def serve(self, until: anyio.Event) -> None:
        """The writer task of the event loop's frames, until ``until``; then the frames
        that threads are writing get the grace to be written, and no frame begins after."""
        self._loop_thread = threading.get_ident()
        try:
            async with anyio.create_task_group() as writers:
                send, receive = anyio.create_memory_object_stream[None](1)
                self._wake_writer = send
                writers.start_soon(self._write_loop, receive)
                with send:
                    await until.wait()
        finally:
            with anyio.move_on_after(self._grace, shield=True):
                while self._writing():
                    await anyio.sleep(_LOOK)
            with self._out_lock:
                self._closed = True
                self._pending.clear()

    async def _write_loop(self, receive: MemoryObjectReceiveStream[None]) -> None:
        async with receive:
            async for _ in receive:
                while (data := self._next_output()) is not None:
                    await self._loop_write(data)

    async def _loop_write(self, data: bytes) -> None:
        """Write ``data`` from the loop with the sink, and count it written."""
        if not self._broken:
            try:
                await self._sink(data)
            except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError) as error:
                self._gone(error)
        self._written(len(data))

    def _gone(self, error: BaseException) -> None:
        """Writing failed: the client is gone, and nothing more is written."""
        if not self._broken:
            logger.warning("the client is gone (%s); dropping further output", error)
        self._broken = True

    def _writing(self) -> bool:
        """Whether a frame is queued or being written."""
        with self._out_lock:
            return self._flushing or bool(self._pending)
