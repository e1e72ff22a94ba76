"""The runner: one client's session and the calls it started, on anyio.

:class:`Connection` feeds the sans-IO session the messages a transport decoded and
carries out its actions: calls start in a task group (sync methods in worker
threads), answers are sent as each call ends, progress and log records and
questions to the user travel while calls run; a modern-era call that asks is parked
until the retry that answers it. :class:`Host` is what a connection needs of its
server.

Where a message goes is the transport's: a subclass says (:meth:`Connection._send`).
:mod:`objmcp.serving.byte_stream` serves a pair of byte streams (stdio),
:mod:`objmcp.serving.reader` file descriptors from a thread,
:mod:`objmcp.serving.http_sessions` the POSTs and GET streams of Streamable HTTP;
:mod:`objmcp.serving.logs` finds the call a log record belongs to.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio
import anyio.abc
import anyio.from_thread
import anyio.lowlevel

from .._exceptions import ArgumentError, ToolError, UnknownResourceError
from ..model.content import ToolResult, error_result
from ..model.inject import InputNeeded
from ..model.threads import Job
from ..model.toolbox import Toolbox
from ..protocol import jsonrpc as rpc
from ..protocol.jsonrpc import ProtocolError, RequestId
from ..protocol.session import (
    RESOURCE_NOT_FOUND,
    Action,
    Answer,
    CancelCall,
    Resume,
    Send,
    ServerInfo,
    Session,
    StartCall,
)
from ..transport.framing import Framing
from .logs import attribute_logs
from .running import STOP, ClientRequest, RunningCall, injections

__all__ = ["Connection", "Host", "call_tool", "internal_error", "read_or_get"]

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


def internal_error(message: object) -> list[Action]:
    """The answer to a message objmcp itself failed on (logged with the traceback): an
    internal error for this message only."""
    logger.exception("objmcp failed on a message")
    request_id = message.get("id") if isinstance(message, dict) else None
    request_id = request_id if rpc.is_request_id(request_id) else None
    return [Send(rpc.error_response(request_id, rpc.INTERNAL_ERROR, "Internal error"))]


@dataclass(eq=False)
class _Waiter:
    """A call waiting for the client's answer to its request."""

    call: RunningCall
    answered: anyio.Event = field(default_factory=anyio.Event)
    result: Mapping[str, Any] | None = None
    error: dict[str, Any] | None = None
    released: bool = False


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
        self._parked: dict[int, _Waiter] = {}  # modern era: by the call id it was parked as
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
            elif isinstance(action, (StartCall, Resume)):
                start = action if isinstance(action, StartCall) else action.start
                if isinstance(action, Resume) and self._resume(action):
                    continue
                calls = group or self._calls_group
                assert calls is not None, "calls start while the connection runs"
                call = RunningCall(start.call_id, start.tool, start.context)
                self._running[start.call_id] = call
                calls.start_soon(self._run_call, start, call)
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

    def _resume(self, action: Resume) -> bool:
        """Modern era: hand a retry's answer to the call parked for it, if this connection
        still holds it; the call then answers the retry."""
        waiter = self._parked.pop(action.parked, None)
        if waiter is None:
            return False  # given up meanwhile: the retry runs the method again
        call, start = waiter.call, action.start
        self._running.pop(call.call_id, None)
        call.call_id, call.context = start.call_id, start.context
        self._running[call.call_id] = call
        waiter.result = start.context.answers[-1]
        waiter.answered.set()
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
                waiter = await self._park(call, request, job)
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
        return not self.session.parking.full

    async def _park(self, call: RunningCall, request: ClientRequest, job: Job | None) -> _Waiter:
        parked_as = call.call_id
        waiter = self._parked[parked_as] = _Waiter(call)
        self._perform(
            self.session.call_needs_input(call.call_id, request.method, request.params, park=True)
        )
        with anyio.move_on_after(self.server.park_timeout):
            async with self.server.tools.threads.paused(job):
                await waiter.answered.wait()
        still_parked = self._parked.pop(parked_as, None) is not None
        if still_parked and not waiter.answered.is_set():  # no retry came for it in time
            logger.warning("a call to %r waited too long for its answer; dropped", call.tool)
            self.session.unpark(parked_as)
            waiter.released = True
            call.cancelled.set()
        return waiter

    def _release(self, call: RunningCall | None = None) -> None:
        """Stop the waits for answers of one call (or of all): they end with an error."""
        for waiter in [*self._waiters.values(), *self._parked.values()]:
            if call is None or waiter.call is call:
                waiter.released = True
                waiter.answered.set()


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
