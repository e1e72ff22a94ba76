"""A connection over a pair of byte streams (stdio, a socket, a pipe): frames in, frames out.

:class:`StreamConnection` is the connection of one client that writes frames (newline
or ``Content-Length``, told apart by the first one) and reads the server's frames
back. It is made of two parts it is given: an :class:`Input`, which reads frames and
hands each message to the runner, and an :class:`Output`, which writes what the runner
sends, several frames in one write when they pile up. This module's parts serve any
pair of streams from the event loop (:class:`LoopInput`, :class:`LoopOutput`);
:mod:`objmcp.serving.reader` and :mod:`objmcp.serving.writer` serve file descriptors
from threads, faster. At end of input, calls still running get the server's grace
period, then are cancelled.

A connection owns what only a byte stream has: the framing, end of input, a client that
stops reading (the :class:`Backlog` bound), a client that is gone. What it does with a
message once decoded is :class:`~objmcp.serving.runner.Runner`'s, which every transport
shares.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Callable
from typing import Any, Literal, Protocol

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

__all__ = [
    "OUTPUT_HIGH_WATER",
    "Backlog",
    "Input",
    "LoopInput",
    "LoopOutput",
    "Output",
    "StreamConnection",
    "loop_connection",
    "take_frames",
]

logger = logging.getLogger("objmcp")

OUTPUT_HIGH_WATER = 8 * 1024 * 1024
"""Bytes waiting to be written beyond which a stream connection stops reading requests and
drops progress and log notifications, until the client has read half of them."""
_DROPPABLE = frozenset({"notifications/progress", "notifications/message"})


class Backlog:
    """The bytes sent but not yet written, bounded: beyond :data:`OUTPUT_HIGH_WATER`, no
    further request is read (the client's writes block in turn) and progress and log
    notifications are dropped; answers and the server's own requests are always kept."""

    def __init__(self, decoder: FrameDecoder) -> None:
        self.decoder = decoder
        self.unwritten = 0
        """Bytes of frames sent but not yet written."""
        self.dropped = 0
        """Notifications dropped because the client did not read."""

    @property
    def full(self) -> bool:
        """Whether the client leaves too much unread: read nothing more for now."""
        return self.unwritten > OUTPUT_HIGH_WATER

    def frame(self, message: object) -> bytes | None:
        """The frame to write for ``message``; None for a notification dropped because
        the client does not read."""
        if self.full and isinstance(message, dict) and message.get("method") in _DROPPABLE:
            if not self.dropped:
                logger.warning("the client does not read; dropping progress and log messages")
            self.dropped += 1
            return None
        framing: Literal["newline", "content-length"] = (
            "content-length" if self.decoder.framing == "content-length" else "newline"
        )
        return encode_frame(encode_message(message), framing)

    def sent(self, size: int) -> None:
        """``size`` bytes more wait to be written."""
        self.unwritten += size

    def written(self, size: int) -> bool:
        """``size`` bytes left; whether reading may go on (half the backlog is gone)."""
        self.unwritten -= size
        if self.unwritten > OUTPUT_HIGH_WATER // 2:
            return False
        if self.dropped:
            logger.warning("the client reads again (%d messages dropped)", self.dropped)
            self.dropped = 0
        return True


class Output(Protocol):
    """The writing half of a connection."""

    backlog: Backlog

    def send(self, message: object, related: RequestId | None) -> None:
        """Write one message (the runner's :data:`~objmcp.serving.runner.Deliver`)."""

    async def serve(self, until: anyio.Event) -> None:
        """Write what is sent until ``until`` is set and nothing is left to write, or
        the server's grace for it has passed."""


class Input(Protocol):
    """The reading half of a connection."""

    async def read(self, connection: StreamConnection, calls: anyio.abc.TaskGroup) -> None:
        """Read the client's frames until end of input, handing each message to the
        connection's runner (calls start in ``calls``)."""

    def closed(self) -> None:
        """Serving ended, output written: let go of what reading held."""


def take_frames(
    decoder: FrameDecoder,
    take: Callable[[bytes], object],
    refuse: Callable[[FrameError], object],
    going: Callable[[], bool] = lambda: True,
) -> bool:
    """Hand every whole frame the decoder holds to ``take``, and what is not a frame to
    ``refuse``, while ``going()``; False once it says to stop."""
    while going():
        frame = decoder.next_frame()
        if frame is NEED_DATA:
            return True
        if isinstance(frame, FrameError):
            refuse(frame)
            continue
        assert isinstance(frame, bytes)
        take(frame)
    return False


class StreamConnection:
    """A connection over one pair of byte streams: its :attr:`input` reads the frames
    (``decoder`` decodes them), its :attr:`output` writes the answers, and its
    :attr:`runner` stands between. ``lock`` is held around every use of the session (a
    real one where threads share it). :func:`loop_connection` makes the event loop's."""

    def __init__(
        self,
        settings: Settings,
        decoder: FrameDecoder,
        output: Output,
        input: Input,
        lock: contextlib.AbstractContextManager[Any] | None = None,
    ) -> None:
        self.settings = settings
        self.decoder = decoder
        self.output = output
        """Writes what the runner sends."""
        self.runner = Runner(settings, output.send, lock=lock)
        """The runner: the session, and the calls it starts."""
        self.input = input
        """Reads the client's frames."""
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
        done = anyio.Event()
        try:
            async with anyio.create_task_group() as writers:
                writers.start_soon(self.output.serve, done)
                try:
                    async with anyio.create_task_group() as calls:
                        self.runner.calls = calls
                        with self._reading:
                            await self.input.read(self, calls)
                        await self.runner.drain(calls)
                finally:
                    done.set()
        finally:
            self.input.closed()

    def receive(self, frame: bytes) -> list[Action]:
        """What the session says of one frame."""
        try:
            message = parse_message(frame)
        except ParseFailure as error:
            return self.runner.session.unreadable(error)
        if self.settings.fronted:
            from .box import fronted_caller

            return self.runner.handle(message, fronted_caller(message))
        return self.runner.handle(message, source=frame)

    def refuse(self, error: FrameError) -> None:
        """Say what was wrong with bytes that are no frame, and serve the next."""
        logger.warning("%s", error)
        self.output.send(rpc.error_response(None, rpc.INVALID_REQUEST, str(error)), None)


class LoopOutput:
    """Writes a connection's frames from the event loop, with its sink: what piles up
    while a write is on goes in the next one."""

    def __init__(self, sink: ByteSink, backlog: Backlog) -> None:
        self.backlog = backlog
        self._sink = sink
        self._send, self._receive = anyio.create_memory_object_stream[bytes](math.inf)
        self.broken = False
        self.room = anyio.Event()
        """Set when the backlog falls back below half (a reader waiting for it goes on)."""

    def send(self, message: object, related: RequestId | None) -> None:
        """Queue one message (``related`` does not matter on one stream)."""
        frame = self.backlog.frame(message)
        if frame is not None:
            self.backlog.sent(len(frame))
            self._send.send_nowait(frame)

    async def serve(self, until: anyio.Event) -> None:
        async def close_when_done() -> None:
            await until.wait()
            self._send.close()

        async with anyio.create_task_group() as group:
            group.start_soon(close_when_done)
            async for frame in self._receive:
                chunks = [frame]
                with contextlib.suppress(anyio.WouldBlock, anyio.EndOfStream):
                    while True:
                        chunks.append(self._receive.receive_nowait())
                await self.write(b"".join(chunks))

    async def write(self, data: bytes) -> None:
        """Write ``data`` with the sink, unless the client is gone, and count it written."""
        if not self.broken:
            try:
                await self._sink(data)
            except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError) as error:
                self.gone(error)
        if self.backlog.written(len(data)):
            self.room.set()

    def gone(self, error: BaseException) -> None:
        """Writing failed: the client is gone, and nothing more is written."""
        if not self.broken:
            logger.warning("the client is gone (%s); dropping further output", error)
        self.broken = True

    async def wait_for_room(self) -> None:
        """While the client leaves too much output unread, wait."""
        if self.backlog.full:
            self.room = anyio.Event()
            await self.room.wait()


class LoopInput:
    """Reads a connection's frames on the event loop, with its source."""

    def __init__(self, source: ByteSource, output: LoopOutput) -> None:
        self._source = source
        self._output = output

    async def read(self, connection: StreamConnection, calls: anyio.abc.TaskGroup) -> None:
        decoder, runner = connection.decoder, connection.runner

        def take(frame: bytes) -> None:
            runner.perform(connection.receive(frame), calls)

        while True:
            await self._output.wait_for_room()
            try:
                data = await self._source()
            except OSError as error:
                logger.warning("reading the input failed: %s", error)
                return
            if not data:
                last = decoder.end_of_input()
                if isinstance(last, bytes):
                    take(last)
                elif isinstance(last, FrameError):
                    logger.warning("%s", last)
                return
            decoder.feed(data)
            take_frames(decoder, take, connection.refuse)

    def closed(self) -> None:
        """Nothing to let go of."""


def loop_connection(settings: Settings, source: ByteSource, sink: ByteSink) -> StreamConnection:
    """A connection served from the event loop: any pair of byte streams."""
    decoder = FrameDecoder(settings.framing, settings.max_frame)
    output = LoopOutput(sink, Backlog(decoder))
    return StreamConnection(settings, decoder, output, LoopInput(source, output))
