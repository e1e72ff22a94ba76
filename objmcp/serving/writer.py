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
(:data:`~objmcp.serving.byte_stream.OUTPUT_HIGH_WATER`); beyond it a reader thread
waits for the client to read (:meth:`WriterConnection._wait_for_client`), as the
async read loop does.

This is a seam of its own because the output has its own lock and its own state;
the reading side reaches it through ``_send``, ``_write_held``, ``_release_output``
and ``_wait_for_client``, and marks the thread holding a burst back in ``_holder``.
:class:`~objmcp.serving.reader.ReaderConnection` is a :class:`WriterConnection`, so
that a send stays one method call.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from ..protocol.jsonrpc import RequestId
from ..transport.stdio import ByteSink, ByteSource
from .byte_stream import OUTPUT_HIGH_WATER, StreamConnection
from .settings import Settings

__all__ = ["HOLD", "HOLD_TIME", "WriterConnection"]

HOLD = 1 << 16
"""Bytes of answers a reader holds back while it has more frames to handle."""
HOLD_TIME = 0.001
"""Seconds an answer is held back at most while the burst's calls are quick."""
_LOOK = 0.01  # seconds between looks at the output when serving ends


class WriterConnection(StreamConnection):
    """A stream connection whose frames any thread may write to a file descriptor: the
    output half of :class:`~objmcp.serving.reader.ReaderConnection`, whose reader threads
    wait in :meth:`_wait_for_client` (it is not served on its own)."""

    def __init__(
        self, settings: Settings, source: ByteSource, sink: ByteSink, output_fd: int
    ) -> None:
        super().__init__(settings, source, sink)
        self._output_fd = output_fd
        self._out_lock = threading.Lock()
        self._pending: list[bytes] = []
        self._flushing = False
        self._holder: int | None = None  # the reader thread holding back output in a burst
        self._held_since: float | None = None  # when the oldest answer held back was queued
        self._readable = threading.Event()
        self._readable.set()
        self._wake_writer: MemoryObjectSendStream[None] | None = None
        self._closed = False  # serving ended: no frame begins

    def _send(self, message: object, related: RequestId | None) -> None:
        """Queue one message; written at once by this thread, or by the loop's writer."""
        frame = self._frame(message)
        if frame is None:
            return
        with self._out_lock:
            if self._closed:
                return
            self._pending.append(frame)
            self.unwritten += len(frame)
            if self._flushing:
                return  # the thread writing now writes this too
            if self._holder == threading.get_ident() and self.unwritten < HOLD:
                now = time.monotonic()
                if self._held_since is None:
                    self._held_since = now
                if now - self._held_since < HOLD_TIME:
                    return  # written with the burst's other answers
            self._flushing = True
        if threading.get_ident() == self.runner.loop_thread:
            assert self._wake_writer is not None
            with contextlib.suppress(anyio.ClosedResourceError):  # serving ended: nobody reads
                self._wake_writer.send_nowait(None)
        else:
            self._flush()

    def _release_output(self, holder: int | None) -> None:
        """Stop holding back output for the thread ``holder``, and write what it held."""
        with self._out_lock:
            if holder is None or self._holder != holder:
                return
            self._holder = None
        self._write_held()

    def _write_held(self) -> None:
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
            super()._written(size)

    def _resume_reading(self) -> None:
        if not self._readable.is_set():
            self._readable.set()

    async def _write_loop(self, receive: MemoryObjectReceiveStream[None]) -> None:  # type: ignore[override]
        async with receive:
            async for _ in receive:
                while (data := self._next_output()) is not None:
                    await self._write(data)

    def _wait_for_client(self) -> None:
        """While the client leaves too much output unread, read nothing more."""
        with self._out_lock:
            if self.unwritten <= OUTPUT_HIGH_WATER:
                return
            self._readable.clear()
        self._readable.wait()

    async def _run(self) -> None:
        """The writer task and the calls, around the subclass's reading; then the frames
        that threads are writing get the grace to be written, and no frame begins after."""
        try:
            async with anyio.create_task_group() as writers:
                send, receive = anyio.create_memory_object_stream[None](1)
                self._wake_writer = send
                writers.start_soon(self._write_loop, receive)
                with send:
                    async with anyio.create_task_group() as calls:
                        self.runner.calls = calls
                        with self._reading:
                            await self._read_loop(calls)
                        await self.runner.drain(calls)
        finally:
            with anyio.move_on_after(self.settings.grace, shield=True):
                while self._writing():
                    await anyio.sleep(_LOOK)
            with self._out_lock:
                self._closed = True
                self._pending.clear()

    def _writing(self) -> bool:
        """Whether a frame is queued or being written."""
        with self._out_lock:
            return self._flushing or bool(self._pending)
