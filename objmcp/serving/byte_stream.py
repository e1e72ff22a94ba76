"""A connection over a pair of byte streams (stdio, a socket, a pipe): frames in, frames out.

:class:`StreamConnection` is the connection of one client that writes frames (newline
or ``Content-Length``, told apart by the first one) and reads the server's frames
back: a read loop decodes them and hands each message to the session, a write loop
writes what the session sends, several frames in one write when they pile up. At end
of input, calls still running get the server's grace period, then are cancelled.

It owns what only a byte stream has: the framing, end of input, a client that stops
reading (the backlog bound below), a client that is gone. What a connection does with
a message once decoded is :class:`~objmcp.serving.runner.Runner`'s, which
every transport shares; :mod:`objmcp.serving.reader` serves file descriptors faster
from a thread, on top of this.
"""

from __future__ import annotations

import contextlib
import logging
import math
from typing import Literal

import anyio
import anyio.abc

from .._exceptions import FrameError
from ..model.values.jsontext import ParseFailure, encode_message, parse_message
from ..protocol import jsonrpc as rpc
from ..protocol.jsonrpc import RequestId
from ..protocol.session import Action
from ..transport.framing import NEED_DATA, FrameDecoder, encode_frame
from ..transport.stdio import ByteSink, ByteSource
from .logs import LogToClient
from .runner import Runner
from .settings import Settings

__all__ = ["OUTPUT_HIGH_WATER", "StreamConnection"]

logger = logging.getLogger("objmcp")

OUTPUT_HIGH_WATER = 8 * 1024 * 1024
"""Bytes waiting to be written beyond which a stream connection stops reading requests and
drops progress and log notifications, until the client has read half of them."""
_DROPPABLE = frozenset({"notifications/progress", "notifications/message"})


class StreamConnection:
    """A connection over one pair of byte streams (stdio): frames in, frames out.

    A client that does not read its answers holds the server back, with bounded memory:
    beyond :data:`OUTPUT_HIGH_WATER` bytes unwritten, no further request is read (the
    client's writes block in turn) and progress and log notifications are dropped;
    answers and the server's own requests are always kept.

    It drives a :class:`~objmcp.serving.runner.Runner` (:attr:`runner`), which
    hands it each message to write.
    """

    def __init__(self, settings: Settings, source: ByteSource, sink: ByteSink) -> None:
        self.settings = settings
        self.runner = Runner(settings, self._send)
        """The runner: the session, and the calls it starts."""
        self.decoder = FrameDecoder(settings.framing, settings.max_frame)
        self._source = source
        self._sink = sink
        self._out_send, self._out_receive = anyio.create_memory_object_stream[bytes](math.inf)
        self._broken = False
        self.unwritten = 0
        """Bytes of frames sent but not yet written."""
        self.dropped = 0
        """Notifications dropped because the client did not read."""
        self._read_on = anyio.Event()  # set when the unwritten bytes fall back below half
        self._reading = anyio.CancelScope()  # around the read loop: end_input cancels it

    async def run(self) -> None:
        """Read until end of input, then let calls finish (or cancel them) and flush."""
        root = logging.getLogger()
        handler = LogToClient(self.runner, self.settings.tools, self.settings.loggers)
        quiet_root = not root.handlers
        level = root.level
        root.addHandler(handler)
        if quiet_root:
            root.setLevel(logging.DEBUG)  # the client may ask for any level; the handler sorts
        self.runner.bind()
        self.settings.hub.join(self.runner)
        try:
            await self._run()
        finally:
            self.settings.hub.leave(self.runner)
            self.runner.loop_token = None
            root.removeHandler(handler)
            root.setLevel(level)
            await self._end_session()

    async def _end_session(self) -> None:
        """The connection is its session (``per="session"``): its object is closed now,
        unless a call's thread still runs, which closing might wait for forever (the
        server closes it then, within its grace)."""
        tools = self.settings.tools
        tools.end_session(self.runner)
        if not tools.abandoned:
            with anyio.CancelScope(shield=True):
                await tools.close_ended()

    def end_input(self) -> None:
        """Read nothing more: serving goes on as at end of input (on the event loop)."""
        self._reading.cancel()

    async def _run(self) -> None:
        async with anyio.create_task_group() as writers:
            writers.start_soon(self._write_loop)
            async with anyio.create_task_group() as calls:
                self.runner.calls = calls
                with self._reading:
                    await self._read_loop(calls)
                await self.runner.drain(calls)
            self._out_send.close()

    async def _read_loop(self, calls: anyio.abc.TaskGroup) -> None:
        while True:
            if self.unwritten > OUTPUT_HIGH_WATER:
                self._read_on = anyio.Event()
                await self._read_on.wait()
            try:
                data = await self._source()
            except OSError as error:
                logger.warning("reading the input failed: %s", error)
                return
            if not data:
                last = self.decoder.end_of_input()
                if isinstance(last, bytes):
                    self.runner.perform(self._receive(last), calls)
                elif isinstance(last, FrameError):
                    logger.warning("%s", last)
                return
            self.decoder.feed(data)
            while True:
                frame = self.decoder.next_frame()
                if frame is NEED_DATA:
                    break
                if isinstance(frame, FrameError):
                    logger.warning("%s", frame)
                    self._send(rpc.error_response(None, rpc.INVALID_REQUEST, str(frame)), None)
                    continue
                assert isinstance(frame, bytes)
                self.runner.perform(self._receive(frame), calls)

    def _receive(self, frame: bytes) -> list[Action]:
        try:
            message = parse_message(frame)
        except ParseFailure as error:
            return self.runner.session.unreadable(error)
        return self.runner.handle(message, source=frame)

    def _send(self, message: object, related: RequestId | None) -> None:
        """Write one message (``related`` does not matter on one stream)."""
        frame = self._frame(message)
        if frame is not None:
            self.unwritten += len(frame)
            self._out_send.send_nowait(frame)

    def _frame(self, message: object) -> bytes | None:
        """The frame to write for ``message``; None for a notification dropped because the
        client does not read."""
        if (
            self.unwritten > OUTPUT_HIGH_WATER
            and isinstance(message, dict)
            and message.get("method") in _DROPPABLE
        ):
            if not self.dropped:
                logger.warning("the client does not read; dropping progress and log messages")
            self.dropped += 1
            return None
        framing: Literal["newline", "content-length"] = (
            "content-length" if self.decoder.framing == "content-length" else "newline"
        )
        return encode_frame(encode_message(message), framing)

    async def _write_loop(self) -> None:
        async for frame in self._out_receive:
            chunks = [frame]
            with contextlib.suppress(anyio.WouldBlock, anyio.EndOfStream):
                while True:
                    chunks.append(self._out_receive.receive_nowait())
            await self._write(b"".join(chunks))

    async def _write(self, data: bytes) -> None:
        """Write ``data`` with the sink, unless the client is gone, and count it written."""
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

    def _written(self, size: int) -> None:
        """``size`` bytes left the queue: reading resumes once half the backlog is gone."""
        self.unwritten -= size
        if self.unwritten <= OUTPUT_HIGH_WATER // 2:
            self._resume_reading()
            if self.dropped:
                logger.warning("the client reads again (%d messages dropped)", self.dropped)
                self.dropped = 0

    def _resume_reading(self) -> None:
        self._read_on.set()
