"""The runner: one connection's frames, session and calls, on anyio.

:class:`Connection` reads frames, feeds the sans-IO session and carries out its
actions: calls start in a task group (sync methods in worker threads), answers
are written as each call ends, progress and log records and questions to the
user travel while calls run. At end of input, calls still running get a grace
period to answer, then are cancelled.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import math
import threading
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import anyio
import anyio.abc
import anyio.from_thread
import anyio.lowlevel

from .._exceptions import ArgumentError, FrameError, ToolError, UnknownResourceError
from ..model.content import ToolResult, error_result
from ..model.inject import LOG_LEVELS, InputNeeded
from ..model.jsontext import ParseFailure, encode_message, parse_message
from ..model.threads import Job
from ..model.toolbox import Toolbox
from ..protocol import jsonrpc as rpc
from ..protocol.jsonrpc import ProtocolError, RequestId
from ..protocol.session import (
    RESOURCE_NOT_FOUND,
    Action,
    Answer,
    CancelCall,
    Send,
    ServerInfo,
    Session,
    StartCall,
)
from ..transport.framing import NEED_DATA, FrameDecoder, Framing, encode_frame
from ..transport.stdio import ByteSink, ByteSource
from .running import STOP, ClientRequest, RunningCall, injections

__all__ = [
    "Connection",
    "Host",
    "LogToClient",
    "OUTPUT_HIGH_WATER",
    "StreamConnection",
    "call_tool",
    "attribute_logs",
    "read_or_get",
]

logger = logging.getLogger("objmcp")


async def call_tool(
    tools: Toolbox, action: StartCall, injected: dict[object, object] | None = None
) -> ToolResult:
    """Call the tool an action names; a failure inside objmcp itself is an error result."""
    try:
        return await tools.acall(action.tool, action.arguments, injected=injected)
    except Exception as error:  # acall turns failures into results; this is the last line
        logger.exception("calling %r failed inside objmcp", action.tool)
        return ToolResult(f"Internal error in objmcp: {type(error).__name__}", None, True)


async def read_or_get(
    tools: Toolbox, action: StartCall, injected: dict[object, object] | None = None
) -> tuple[dict[str, Any] | None, ProtocolError | None]:
    """Read a resource or get a prompt an action names: the result's body, or the error
    to answer with."""
    try:
        if action.kind == "resource":
            return {"contents": await tools.read_resource(action.tool, injected=injected)}, None
        return await tools.get_prompt(action.tool, action.arguments, injected=injected), None
    except UnknownResourceError as error:
        return None, ProtocolError(RESOURCE_NOT_FOUND, str(error), {"uri": error.uri})
    except (ArgumentError, ToolError) as error:
        return None, ProtocolError(rpc.INVALID_PARAMS, str(error))
    except Exception as error:
        failed = error_result(error, f"{action.kind} {action.tool}")
        return None, ProtocolError(rpc.INTERNAL_ERROR, failed.text)


class _Call(typing.Protocol):
    @property
    def call_id(self) -> int | None: ...


def internal_error(message: object) -> list[Action]:
    """The answer to a message objmcp itself failed on (logged with the traceback): an
    internal error for this message only."""
    logger.exception("objmcp failed on a message")
    request_id = message.get("id") if isinstance(message, dict) else None
    request_id = request_id if rpc.is_request_id(request_id) else None
    return [Send(rpc.error_response(request_id, rpc.INTERNAL_ERROR, "Internal error"))]


def attribute_logs(connection: Connection, call: _Call) -> Callable[[], None]:
    """Log records of the current context belong to ``call`` of ``connection`` from now on;
    returns what undoes that."""
    call_token = _current_call.set(call)
    connection_token = _current_connection.set(connection)

    def undo() -> None:
        _current_call.reset(call_token)
        _current_connection.reset(connection_token)

    return undo


class ThreadCall:
    """Which call a thread's log records belong to now (``call_id``; None between calls)."""

    __slots__ = ("call_id",)

    def __init__(self) -> None:
        self.call_id: int | None = None


def attribute_thread_logs(connection: Connection) -> ThreadCall:
    """Log records of this thread belong to ``connection`` from now on (the thread is
    its own; nothing undoes that), and to the call the returned :class:`ThreadCall`
    names: a thread running one call after another sets its ``call_id`` for each."""
    call = ThreadCall()
    _current_connection.set(connection)
    _current_call.set(call)
    return call


_current_call: contextvars.ContextVar[_Call | None] = contextvars.ContextVar(
    "objmcp_call", default=None
)
"""The call a log record belongs to (worker threads inherit it from the call's task)."""
_current_connection: contextvars.ContextVar[Connection | None] = contextvars.ContextVar(
    "objmcp_connection", default=None
)
"""The connection of that call."""

_SYSLOG = sorted(((number, name) for name, number in LOG_LEVELS.items()), reverse=True)


def _syslog_level(number: int) -> str:
    """The MCP level of a ``logging`` level: the most severe one it reaches."""
    return next((name for floor, name in _SYSLOG if number >= floor), "debug")


class LogToClient(logging.Handler):
    """Sends the records of the served object's loggers to the client, at the level it
    asked for, and keeps writing warnings to stderr as Python does with no handler."""

    def __init__(self, connection: Connection | None) -> None:
        super().__init__(logging.DEBUG)
        self.connection = connection
        """Where records of no call go (None: nowhere but stderr)."""

    def emit(self, record: logging.LogRecord) -> None:
        root = logging.getLogger()
        if record.levelno >= logging.WARNING and root.handlers == [self]:
            logging.lastResort.handle(record)  # type: ignore[union-attr]
        if record.name == "objmcp" or record.name.startswith("objmcp."):
            return  # objmcp's own records are for the person at the terminal
        if getattr(record, "objmcp_forwarded", False):
            return  # another server of this process sent it already
        record.objmcp_forwarded = True
        message: object
        if not isinstance(record.msg, str) and not record.args and _is_json(record.msg):
            message = record.msg  # a JSON value logged as such (objmcp.Log allows it)
        else:
            try:
                message = record.getMessage()
            except Exception:
                message = str(record.msg)
        call = _current_call.get()
        call_id = call.call_id if call is not None else None
        connection = _current_connection.get() or self.connection
        if connection is None:
            return
        level = _syslog_level(record.levelno)
        connection.post(lambda session: session.log(call_id, level, record.name, message))


@dataclass(eq=False)
class _Waiter:
    """A call waiting for the client's answer to its request."""

    call: RunningCall
    answered: anyio.Event = field(default_factory=anyio.Event)
    result: Mapping[str, Any] | None = None
    error: dict[str, Any] | None = None
    released: bool = False


@dataclass(eq=False)
class _Parked:
    """Modern era: a call suspended at its question ``index``, until the retry that
    answers it arrives (or the park expires)."""

    waiter: _Waiter
    index: int


class Host(Protocol):
    """What a connection needs of the server it serves (:class:`objmcp.Server` is one):
    its settings, its tools, a session for each client, and the set of connections
    open, which a connection joins and leaves."""

    info: ServerInfo
    tools: Toolbox
    framing: Framing
    max_frame: int
    call_timeout: float | None
    grace: float
    max_parked: int
    park_timeout: float
    connections: set[Connection]

    def session(self) -> Session:
        """A new session for one client."""
        ...

    def notify_resource_updated(self, uri: str) -> None:
        """Tell the clients subscribed to ``uri`` that it changed."""
        ...


class Connection:
    """One client's session and the calls it started, whatever carries its messages:
    a subclass says where a message goes (:meth:`_send`)."""

    def __init__(self, server: Host) -> None:
        self.server = server
        self.session = server.session()
        self._running: dict[int, RunningCall] = {}
        self._waiters: dict[str, _Waiter] = {}  # handshake era: by the id of our request
        self._parked: dict[str, _Parked] = {}  # modern era: by the park named in the state
        self._closing = False
        self._calls_group: anyio.abc.TaskGroup | None = None
        self._idle = anyio.Event()
        self._loop_thread: int | None = None
        self._token: anyio.lowlevel.EventLoopToken | None = None
        self.asks = True
        """Whether calls can send the client requests at all (not over stateless HTTP)."""

    def bind(self) -> None:
        """Serve from the running event loop: :meth:`post` reaches it from any thread."""
        self._loop_thread = threading.get_ident()
        self._token = anyio.lowlevel.current_token()

    def _send(self, message: object, related: RequestId | None) -> None:
        """Deliver one message (``related``: the request it belongs to, if any)."""
        raise NotImplementedError

    def post(self, make: Callable[[Session], list[Action]]) -> None:
        """Carry out what ``make`` says the session must do, on the connection's loop;
        callable from any thread (a call from a foreign thread waits for the loop)."""
        if self._token is None:
            return  # not serving (yet, or any more)
        if threading.get_ident() == self._loop_thread:
            self._perform(make(self.session))
            return
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody listens
            anyio.from_thread.run_sync(lambda: self._perform(make(self.session)), token=self._token)

    def handle(
        self, message: object, caller: str | None = None, source: bytes | None = None
    ) -> list[Action]:
        """What the session says of a decoded message (from ``caller``, when known; decoded
        from ``source``, when given); a failure of objmcp's own is an internal error for
        this message only."""
        try:
            return self.session.receive(message, caller, source=source)
        except Exception:  # a bug of ours: say so for this message, serve the next
            return internal_error(message)

    def _perform(self, actions: list[Action], group: anyio.abc.TaskGroup | None = None) -> None:
        for action in actions:
            if isinstance(action, Send):
                self._send(action.message, action.related)
            elif isinstance(action, StartCall):
                calls = group or self._calls_group
                assert calls is not None, "calls start while the connection runs"
                if not self._resume(action):
                    call = RunningCall(action.call_id, action.tool, action.context)
                    self._running[action.call_id] = call
                    calls.start_soon(self._run_call, action, call)
            elif isinstance(action, Answer):
                waiting = self._waiters.get(action.ask_id)
                if waiting is not None:
                    waiting.result, waiting.error = action.result, action.error
                    waiting.answered.set()
            elif isinstance(action, CancelCall):
                cancelled = self._running.get(action.call_id)
                if cancelled is not None:
                    self._release(cancelled)
                    cancelled.cancelled.set()
                    cancelled.scope.cancel()

    def cancel_calls(self) -> None:
        """Stop every running call: nobody is left to answer them."""
        for call in list(self._running.values()):
            call.cancelled.set()
            call.scope.cancel()

    def _resume(self, action: StartCall) -> bool:
        """Modern era: hand a retry's answer to the call parked for it, if this
        connection holds it; the call then answers the retry."""
        park = action.context.park
        parked = self._parked.get(park) if park is not None else None
        if parked is None or parked.index != len(action.context.answers) - 1:
            return False
        assert park is not None
        del self._parked[park]
        call = parked.waiter.call
        self._running.pop(call.call_id, None)
        call.call_id, call.context = action.call_id, action.context
        self._running[call.call_id] = call
        parked.waiter.result = action.context.answers[-1]
        parked.waiter.answered.set()
        return True

    async def _run_call(self, action: StartCall, call: RunningCall) -> None:
        result: ToolResult | None = None
        answer: tuple[dict[str, Any] | None, ProtocolError | None] | None = None
        attribute_logs(self, call)  # this task's own context: log records find the call
        timeout = self.server.call_timeout
        with call.scope, contextlib.suppress(InputNeeded), call.timer:
            if timeout is not None:
                call.timer.deadline = anyio.current_time() + timeout
            if action.kind == "tool":
                result = await call_tool(self.server.tools, action, injections(self, call))
            else:
                answer = await read_or_get(self.server.tools, action, injections(self, call))
        if call.timer.cancelled_caught and call.question is None:
            call.cancelled.set()  # a sync call's thread runs on: its flag tells it to stop
            logger.warning("a call to %r ran out of time (call_timeout %s s)", call.tool, timeout)
            late = (
                f"The call ran longer than the server allows (call_timeout, {timeout} s): stopped"
            )
            if action.kind == "tool":
                result = ToolResult(late, None, True)
            else:
                answer = (None, ProtocolError(rpc.INTERNAL_ERROR, late))
        self._running.pop(call.call_id, None)
        if not self._running:
            self._idle.set()
        # However the method ended after asking (even if it caught InputNeeded itself, or
        # a task group of its own wrapped it), a question asked is what the call answers.
        if call.question is not None:
            self._perform(self.session.call_needs_input(call.call_id, *call.question))
        elif result is not None:
            self._perform(self.session.call_finished(call.call_id, result))
        elif answer is not None:
            self._perform(self.session.request_finished(call.call_id, *answer))

    # --- what the injected callables reach (see _running.Reach) ---------------------------

    def report_progress(
        self, call: RunningCall, done: float, total: float | None, message: str | None
    ) -> None:
        """Send a progress report of ``call``, if its client asked for them."""
        self.post(lambda session: session.progress(call.call_id, done, total, message))

    def complete_elicitation(self, elicitation_id: str) -> None:
        """Tell the client a URL question's step is done."""
        self.post(lambda session: session.elicitation_complete(elicitation_id))

    def resource_updated(self, uri: str) -> None:
        """Tell every subscriber of ``uri``, on every connection, that it changed."""
        self.server.notify_resource_updated(uri)

    async def ask(self, call: RunningCall, request: ClientRequest, job: Job | None) -> Any:
        """Ask the client for ``call`` and wait for the answer; returns it read, or
        :data:`STOP` when the call must stop for an ``input_required`` answer.

        Handshake era: a request to the client, awaited. Modern era: an answer the
        retry brought (from the sealed state) is used at once; a new question answers
        the request ``input_required`` and parks the call until the retry comes, or,
        with no room to park, stops the call, to be replayed by the retry.
        """
        if not self.asks:
            raise request.unavailable(
                "This server cannot send the client requests here (stateless HTTP has no "
                "way back to the client)"
            )
        refusal = self.session.refusal(call.call_id, request.feature)
        if refusal is not None:
            raise request.unavailable(refusal)
        if self._closing:
            raise request.unavailable("The client closed its input: nobody is left to answer")
        if call.context.revision.era == "modern":
            index, call.asked = call.asked, call.asked + 1
            if index < len(call.context.answers):
                return request.read(call.context.answers[index])
            if not self._can_park(job):
                call.question = (request.method, request.params)
                return STOP
            with _clock_stopped(call):
                waiter = await self._park(call, request, index, job)
        else:
            actions, ask_id = self.session.ask(call.call_id, request.method, request.params)
            waiter = self._waiters[ask_id] = _Waiter(call)
            try:
                self._perform(actions)
                with _clock_stopped(call):
                    async with self.server.tools.threads.paused(job):
                        await waiter.answered.wait()
            finally:
                self._waiters.pop(ask_id, None)
        if waiter.released and self._closing:
            raise request.unavailable(
                "The client closed its input while the call waited for its answer: nobody "
                "is left to answer"
            )
        if waiter.released:
            raise request.unavailable("The call ended while it waited for the client")
        if waiter.error is not None:
            raise request.failed(str(waiter.error.get("message", "no reason given")))
        return request.read(waiter.result or {})

    def _can_park(self, job: Job | None) -> bool:
        if job is not None and self.server.tools.threads.serial:
            return False  # the one thread of serial calls cannot wait for a retry
        return len(self._parked) < self.server.max_parked

    async def _park(
        self, call: RunningCall, request: ClientRequest, index: int, job: Job | None
    ) -> _Waiter:
        import secrets  # only a parked question needs it

        park = secrets.token_urlsafe(16)
        waiter = _Waiter(call)
        self._parked[park] = _Parked(waiter, index)
        self._perform(
            self.session.call_needs_input(call.call_id, request.method, request.params, park)
        )
        with anyio.move_on_after(self.server.park_timeout):
            async with self.server.tools.threads.paused(job):
                await waiter.answered.wait()
        still_parked = self._parked.pop(park, None) is not None
        if still_parked and not waiter.answered.is_set():  # no retry came for it in time
            logger.warning("a call to %r waited too long for its answer; dropped", call.tool)
            waiter.released = True
            call.cancelled.set()
        return waiter

    def _release(self, call: RunningCall | None = None) -> None:
        """Stop the waits for answers of one call (or of all): they end with an error."""
        parked = [entry.waiter for entry in self._parked.values()]
        for waiter in [*self._waiters.values(), *parked]:
            if call is None or waiter.call is call:
                waiter.released = True
                waiter.answered.set()


OUTPUT_HIGH_WATER = 8 * 1024 * 1024
"""Bytes waiting to be written beyond which a stream connection stops reading requests and
drops progress and log notifications, until the client has read half of them."""
_DROPPABLE = frozenset({"notifications/progress", "notifications/message"})


class StreamConnection(Connection):
    """A connection over one pair of byte streams (stdio): frames in, frames out.

    A client that does not read its answers holds the server back, with bounded memory:
    beyond :data:`OUTPUT_HIGH_WATER` bytes unwritten, no further request is read (the
    client's writes block in turn) and progress and log notifications are dropped;
    answers and the server's own requests are always kept.
    """

    def __init__(self, server: Host, source: ByteSource, sink: ByteSink) -> None:
        super().__init__(server)
        self.decoder = FrameDecoder(server.framing, server.max_frame)
        self._source = source
        self._sink = sink
        self._out_send, self._out_receive = anyio.create_memory_object_stream[bytes](math.inf)
        self._broken = False
        self.unwritten = 0
        """Bytes of frames sent but not yet written."""
        self.dropped = 0
        """Notifications dropped because the client did not read."""
        self._read_on = anyio.Event()  # set when the unwritten bytes fall back below half

    async def run(self) -> None:
        """Read until end of input, then let calls finish (or cancel them) and flush."""
        root = logging.getLogger()
        handler = LogToClient(self)
        quiet_root = not root.handlers
        level = root.level
        root.addHandler(handler)
        if quiet_root:
            root.setLevel(logging.DEBUG)  # the client may ask for any level; the handler sorts
        self.bind()
        self.server.connections.add(self)
        try:
            await self._run()
        finally:
            self.server.connections.discard(self)
            self._token = None
            root.removeHandler(handler)
            root.setLevel(level)

    async def _run(self) -> None:
        async with anyio.create_task_group() as writers:
            writers.start_soon(self._write_loop)
            async with anyio.create_task_group() as calls:
                self._calls_group = calls
                await self._read_loop(calls)
                await self._drain(calls)
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
                    self._perform(self._receive(last), calls)
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
                self._perform(self._receive(frame), calls)

    def _receive(self, frame: bytes) -> list[Action]:
        try:
            message = parse_message(frame)
        except ParseFailure as error:
            return self.session.parse_error(str(error))
        return self.handle(message, source=frame)

    async def _drain(self, calls: anyio.abc.TaskGroup) -> None:
        self._closing = True
        self._perform(self.session.close())
        self._release()  # nobody is left to answer a question
        if not self._calls_left():
            return
        with anyio.move_on_after(self.server.grace):
            while self._calls_left():
                self._idle = anyio.Event()
                await self._idle.wait()
        still = self._calls_left()
        if still:
            logger.warning("cancelling %d call(s) still running at end of input", still)
            self._stop_calls_left()
            calls.cancel_scope.cancel()

    def _calls_left(self) -> int:
        """Calls that may still answer."""
        return len(self._running)

    def _stop_calls_left(self) -> None:
        """Raise the flag of every call that may still answer (the scope stops the tasks)."""
        for call in self._running.values():
            call.cancelled.set()

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


@contextlib.contextmanager
def _clock_stopped(call: RunningCall) -> Iterator[None]:
    """The call's ``call_timeout`` does not run while the block waits for the client."""
    left = call.timer.deadline - anyio.current_time()
    call.timer.deadline = math.inf
    try:
        yield
    finally:
        if left != math.inf:
            call.timer.deadline = anyio.current_time() + left


def _is_json(value: object) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return False
    return True
