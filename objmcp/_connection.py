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
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio
import anyio.abc
import anyio.from_thread
import anyio.lowlevel

from . import _jsonrpc as rpc
from ._content import ToolResult
from ._elicit import Question, make_question, read_answer
from ._exceptions import ElicitationUnavailable, ElicitError, FrameError, ObjmcpError
from ._framing import NEED_DATA, FrameDecoder, encode_frame
from ._inject import DONE, Cancelled, Done, Elicit, ElicitResult, InputNeeded, Progress
from ._session import Action, Answer, CancelCall, Send, StartCall
from ._stdio import ByteSink, ByteSource
from ._tools import Toolbox

if typing.TYPE_CHECKING:
    from ._server import Server


__all__ = ["Connection", "call_tool"]

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


_current_call: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "objmcp_call", default=None
)
"""The call a log record belongs to (worker threads inherit it from the call's task)."""

_SYSLOG = ((logging.CRITICAL, "critical"), (logging.ERROR, "error"), (logging.WARNING, "warning"))


def _syslog_level(number: int) -> str:
    for floor, name in _SYSLOG:
        if number >= floor:
            return name
    return "info" if number >= logging.INFO else "debug"


class _LogToClient(logging.Handler):
    """Sends the records of the served object's loggers to the client, at the level it
    asked for, and keeps writing warnings to stderr as Python does with no handler."""

    def __init__(self, connection: Connection) -> None:
        super().__init__(logging.DEBUG)
        self.connection = connection
        self.loop_thread = threading.get_ident()
        self.token = anyio.lowlevel.current_token()

    def emit(self, record: logging.LogRecord) -> None:
        root = logging.getLogger()
        if record.levelno >= logging.WARNING and root.handlers == [self]:
            logging.lastResort.handle(record)  # type: ignore[union-attr]
        if record.name == "objmcp" or record.name.startswith("objmcp."):
            return  # objmcp's own records are for the person at the terminal
        try:
            message = record.getMessage()
        except Exception:
            message = str(record.msg)
        call_id = _current_call.get()
        session = self.connection.session
        level = _syslog_level(record.levelno)

        def post() -> None:
            self.connection._perform(session.log(call_id, level, record.name, message))

        if threading.get_ident() == self.loop_thread:
            post()
        else:
            with contextlib.suppress(RuntimeError):  # the loop is gone
                anyio.from_thread.run_sync(post, token=self.token)


class _Question(typing.NamedTuple):
    """A question a modern-era call must stop for: the request for the client to run."""

    method: str
    params: dict[str, Any]


@dataclass
class _Waiter:
    """A call waiting for the client's answer to its question."""

    call_id: int
    answered: anyio.Event = field(default_factory=anyio.Event)
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    released: bool = False


class Connection:
    """One stream pair served by one session."""

    def __init__(self, server: Server, source: ByteSource, sink: ByteSink) -> None:
        self.server = server
        self.session = server.session()
        self.decoder = FrameDecoder(server.framing, server.max_frame)
        self._source = source
        self._sink = sink
        self._scopes: dict[int, anyio.CancelScope] = {}
        self._flags: dict[int, threading.Event] = {}
        self._waiters: dict[str, _Waiter] = {}
        self._asked: dict[int, int] = {}  # modern era: a call's questions so far
        self._questions: dict[int, _Question] = {}  # modern era: the question a call stops for
        self._closing = False
        self._calls_group: anyio.abc.TaskGroup | None = None
        self._idle = anyio.Event()
        self._out_send, self._out_receive = anyio.create_memory_object_stream[bytes](math.inf)
        self._broken = False

    async def run(self) -> None:
        """Read until end of input, then let calls finish (or cancel them) and flush."""
        root = logging.getLogger()
        handler = _LogToClient(self)
        quiet_root = not root.handlers
        level = root.level
        root.addHandler(handler)
        if quiet_root:
            root.setLevel(logging.DEBUG)  # the client may ask for any level; the handler sorts
        try:
            await self._run()
        finally:
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
                    self._send(rpc.error_response(None, rpc.INVALID_REQUEST, str(frame)))
                    continue
                assert isinstance(frame, bytes)
                self._perform(self._receive(frame), calls)

    def _receive(self, frame: bytes) -> list[Action]:
        try:
            message = json.loads(frame, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as error:
            return self.session.parse_error(_describe_parse_error(error))
        try:
            return self.session.receive(message)
        except Exception:  # a bug of ours: say so for this message, serve the next
            logger.exception("objmcp failed on a message")
            request_id = message.get("id") if isinstance(message, dict) else None
            request_id = request_id if rpc.is_request_id(request_id) else None
            return [Send(rpc.error_response(request_id, rpc.INTERNAL_ERROR, "Internal error"))]

    async def _drain(self, calls: anyio.abc.TaskGroup) -> None:
        self._closing = True
        self._release()  # nobody is left to answer a question
        if not self._scopes:
            return
        with anyio.move_on_after(self.server.grace):
            while self._scopes:
                self._idle = anyio.Event()
                await self._idle.wait()
        if self._scopes:
            logger.warning("cancelling %d call(s) still running at end of input", len(self._scopes))
            for flag in self._flags.values():
                flag.set()
            calls.cancel_scope.cancel()

    def _perform(self, actions: list[Action], group: anyio.abc.TaskGroup | None = None) -> None:
        calls = group or self._calls_group
        assert calls is not None, "actions are performed while the connection runs"
        for action in actions:
            if isinstance(action, Send):
                self._send(action.message)
            elif isinstance(action, StartCall):
                scope = anyio.CancelScope()
                self._scopes[action.call_id] = scope
                calls.start_soon(self._run_call, action, scope, calls)
            elif isinstance(action, Answer):
                waiting = self._waiters.get(action.ask_id)
                if waiting is not None:
                    waiting.result, waiting.error = action.result, action.error
                    waiting.answered.set()
            elif isinstance(action, CancelCall):
                self._release(action.call_id)
                flag = self._flags.pop(action.call_id, None)
                if flag is not None:
                    flag.set()
                cancelled = self._scopes.pop(action.call_id, None)
                if cancelled is not None:
                    cancelled.cancel()

    async def _run_call(
        self, action: StartCall, scope: anyio.CancelScope, calls: anyio.abc.TaskGroup
    ) -> None:
        result: ToolResult | None = None
        # A call stopped by InputNeeded recorded its question when it asked.
        _current_call.set(action.call_id)  # this task's own context: log records find the call
        with scope, contextlib.suppress(InputNeeded):
            result = await call_tool(self.server.tools, action, self._injections(action, calls))
        self._scopes.pop(action.call_id, None)
        self._flags.pop(action.call_id, None)
        self._asked.pop(action.call_id, None)
        # However the tool ended after asking (even if it caught InputNeeded itself, or a
        # task group of its own wrapped it), a question asked is what the call answers.
        question = self._questions.pop(action.call_id, None)
        if not self._scopes:
            self._idle.set()
        if question is not None:
            self._perform(self.session.call_needs_input(action.call_id, *question), calls)
        elif result is not None:
            self._perform(self.session.call_finished(action.call_id, result), calls)

    def _injections(self, action: StartCall, calls: anyio.abc.TaskGroup) -> dict[object, object]:
        """What the call's injected parameters get: a progress reporter and a cancel flag."""
        flag = self._flags[action.call_id] = threading.Event()
        loop_thread = threading.get_ident()
        token = anyio.lowlevel.current_token()

        def progress(done: float, total: float | None = None, message: str | None = None) -> Done:
            for name, number in (("done", done), ("total", total)):
                if number is not None and (
                    isinstance(number, bool) or not isinstance(number, (int, float))
                ):
                    raise TypeError(f"progress {name} must be a number, not {number!r}")
            if message is not None and not isinstance(message, str):
                raise TypeError(f"progress message must be a string, not {message!r}")

            def post() -> None:
                self._perform(self.session.progress(action.call_id, done, total, message), calls)

            if threading.get_ident() == loop_thread:
                post()
            else:
                with contextlib.suppress(RuntimeError):  # the loop is gone: nobody listens
                    anyio.from_thread.run_sync(post, token=token)
            return DONE

        defaults = action.context.revision.elicitation_defaults

        def elicit(message: str, schema: object = bool) -> Any:
            question = make_question(message, schema, defaults=defaults)
            if threading.get_ident() == loop_thread:
                return self._ask_here(action, question)
            try:
                outcome = anyio.from_thread.run(self._ask, action, question, token=token)
            except ObjmcpError:
                raise
            except RuntimeError as error:  # the loop is gone
                raise ElicitationUnavailable("The server stopped while the tool asked") from error
            if isinstance(outcome, _Question):
                raise InputNeeded(outcome)
            return outcome

        return {Progress: progress, Cancelled: flag, Elicit: elicit}

    async def _ask_here(self, action: StartCall, question: Question) -> ElicitResult:
        outcome = await self._ask(action, question)
        if isinstance(outcome, _Question):
            raise InputNeeded(outcome)
        return outcome

    async def _ask(self, action: StartCall, question: Question) -> ElicitResult | _Question:
        """Ask the client the question for a call and wait for the answer.

        Modern era: an earlier answer (from the call's state) is used at once; a new
        question is handed back, for the call to stop and answer ``input_required``.
        """
        call_id = action.call_id
        refusal = self.session.elicitation_refusal(call_id)
        if refusal is not None:
            raise ElicitationUnavailable(refusal)
        if self._closing:
            raise ElicitationUnavailable("The client closed its input: nobody is left to answer")
        params = {"message": question.message, "requestedSchema": question.schema}
        if action.context.revision.era == "modern":
            index = self._asked[call_id] = self._asked.get(call_id, -1) + 1
            if index < len(action.context.answers):
                earlier = action.context.answers[index]
                return read_answer(question, earlier.get("action"), earlier.get("content"))
            asked = self._questions[call_id] = _Question("elicitation/create", params)
            return asked
        actions, ask_id = self.session.ask(call_id, "elicitation/create", params)
        waiter = _Waiter(call_id)
        self._waiters[ask_id] = waiter
        try:
            self._perform(actions)
            await waiter.answered.wait()
        finally:
            self._waiters.pop(ask_id, None)
        if waiter.released:
            raise ElicitationUnavailable("The call ended while it waited for the user")
        if waiter.error is not None:
            said = str(waiter.error.get("message", "no reason given"))
            raise ElicitError(f"The client could not ask the user: {said}")
        result = waiter.result or {}
        return read_answer(question, result.get("action"), result.get("content"))

    def _release(self, call_id: int | None = None) -> None:
        """Stop the waits for answers of one call (or of all): they end with an error."""
        for waiter in self._waiters.values():
            if call_id is None or waiter.call_id == call_id:
                waiter.released = True
                waiter.answered.set()

    def _send(self, message: object) -> None:
        try:
            body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()
        except UnicodeEncodeError:  # lone surrogates: escape them instead
            body = json.dumps(message, separators=(",", ":")).encode()
        framing: Literal["newline", "content-length"] = (
            "content-length" if self.decoder.framing == "content-length" else "newline"
        )
        self._out_send.send_nowait(encode_frame(body, framing))

    async def _write_loop(self) -> None:
        async for frame in self._out_receive:
            chunks = [frame]
            with contextlib.suppress(anyio.WouldBlock, anyio.EndOfStream):
                while True:
                    chunks.append(self._out_receive.receive_nowait())
            if self._broken:
                continue
            try:
                await self._sink(b"".join(chunks))
            except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError) as error:
                logger.warning("the client is gone (%s); dropping further output", error)
                self._broken = True


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not valid JSON")


def _describe_parse_error(error: Exception) -> str:
    if isinstance(error, RecursionError):
        return "the JSON is nested too deeply"
    if isinstance(error, UnicodeDecodeError):
        return f"the frame is not UTF-8 ({error.reason} at byte {error.start})"
    return str(error)
