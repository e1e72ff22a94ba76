"""The runner: one client's session and the calls it started, on anyio.

:class:`Runner` feeds the sans-IO session the messages a transport decoded and
carries out its actions: calls start in a task group (sync methods in worker
threads), answers are sent as each call ends, progress and log records and
questions to the user travel while calls run (its calls waiting for answers, parked or
not, are its :class:`~objmcp.serving.pending.Pending`'s). A runner runs by frozen
:class:`~objmcp.serving.settings.Settings` and never reaches back into the server;
the calls a transport runs itself (the stdio reader's fast lane) are a :class:`Lane`
it plugs in, stopped and counted with the runner's own; the session is used
under :attr:`Runner.lock` (a real lock only where several threads use it). How
a call is run, whatever its kind, is :mod:`objmcp.serving.execute`'s.

Where a message goes is the transport's: it hands the runner its ``send`` when it
makes one, and drives it (:meth:`Runner.handle`, :meth:`Runner.perform`);
no transport subclasses it.
:mod:`objmcp.serving.byte_stream` serves a pair of byte streams (stdio),
:mod:`objmcp.serving.reader` file descriptors from a thread,
:mod:`objmcp.serving.http_sessions` the POSTs and GET streams of Streamable HTTP;
:mod:`objmcp.serving.logs` finds the call a log record belongs to.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import anyio
import anyio.abc
import anyio.from_thread
import anyio.lowlevel

from ..model.calling.caller import Caller
from ..model.calling.inject import NESTED_SPAN, Cancelled, InputNeeded
from ..model.calling.per import NO_SESSION, SESSION
from ..model.calling.threads import Place
from ..model.calling.tool import Tool
from ..protocol import answers, midcall
from ..protocol.jsonrpc import RequestId
from ..protocol.session import (
    Action,
    Answer,
    CancelCall,
    Resume,
    Send,
    Session,
    StartCall,
    TaskAnswered,
    WaitForJob,
)
from ..protocol.tasks import handoff
from ..protocol.tasks.extension import TASKS
from ..protocol.tasks.jobs import knows_tasks
from .execute import Finish, execute, internal_error, stopped
from .logs import attribute_logs
from .pending import Pending
from .queueing import hand_over, queued
from .running import ClientRequest, RunningCall, injections
from .settings import Channel, Settings
from .tracing import answered, nested_span, request_started

if TYPE_CHECKING:
    from .shared_tasks import SharedTasks

__all__ = ["PUBLISH_WAIT", "Lane", "Runner", "task_delay"]

_OWN = Channel()  # a connection of its own

logger = logging.getLogger("objmcp")


class Lane(Protocol):
    """Calls a transport runs itself, beside the connection's own (the stdio reader's fast
    lane): the connection stops them and counts them with its own."""

    def cancel(self, call_id: int) -> bool:
        """Stop the call ``call_id`` if this lane runs it; whether it did."""
        ...

    def stop_all(self) -> None:
        """Stop every call of the lane: nobody is left to answer them."""
        ...

    def unanswered(self) -> int:
        """How many calls of the lane may still answer."""
        ...


Deliver = Callable[[object, "RequestId | None"], None]
"""Where a connection's messages go: a transport's ``send(message, related)``, where
``related`` is the request the message belongs to, if any."""


PUBLISH_WAIT = 5.0
"""Seconds a new task's answer waits for the task to be in the shared store (then it goes
out all the same, the task published when the store answers)."""


class Runner:
    """The runner: one client's session and the calls it started, whatever carries its
    messages (``send`` delivers them)."""

    def __init__(
        self,
        settings: Settings,
        send: Deliver,
        channel: Channel = _OWN,
        lock: contextlib.AbstractContextManager[Any] | None = None,
    ) -> None:
        self.settings = settings
        self._send = send
        self.session = settings.make_session(channel)
        self.lock = lock if lock is not None else contextlib.nullcontext()
        """Held around every use of the session (a lock where several threads use it)."""
        self.lanes: list[Lane] = []
        """Calls the transport runs itself, stopped and counted with the connection's."""
        self._running: dict[int, RunningCall] = {}
        self.pending = Pending(self)
        """Its calls waiting for their client's answers."""
        self._job_ends: dict[str, anyio.Event] = {}  # jobs waited for, set when they end
        self._job_waits: set[anyio.CancelScope] = set()  # job_result requests waiting
        self.closing = False
        """Set once the client is gone or done: nobody is left to answer questions."""
        self.calls: anyio.abc.TaskGroup | None = None
        """The task group calls start in, while the transport serves."""
        self.idle = anyio.Event()
        """Set when the last running call ends (a transport that waits makes a new one)."""
        self.loop_thread: int | None = None
        self.loop_token: anyio.lowlevel.EventLoopToken | None = None
        """The event loop served from (None: not serving, yet or any more)."""
        self.channel = channel
        """What its client can be reached for (:class:`~objmcp.serving.settings.Channel`)."""
        self.object_session: Hashable = self if channel.in_session else NO_SESSION
        """What names the session its calls' objects are kept for (``per="session"``): the
        runner itself, or :data:`~objmcp.model.calling.per.NO_SESSION` when its requests
        belong to no session."""

    def bind(self) -> None:
        """Serve from the running event loop: :meth:`post` reaches it from any thread."""
        self.loop_thread = threading.get_ident()
        self.loop_token = anyio.lowlevel.current_token()

    def post(self, make: Callable[[Session], list[Action]]) -> None:
        """Carry out what ``make`` says the session must do, on the connection's loop;
        callable from any thread (a call from a foreign thread waits for the loop)."""
        if self.loop_token is None:
            return  # not serving (yet, or any more)
        if threading.get_ident() == self.loop_thread:
            self.perform(self.told(make))
            return
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody listens
            anyio.from_thread.run_sync(lambda: self.perform(self.told(make)), token=self.loop_token)

    def told(self, make: Callable[[Session], list[Action]]) -> list[Action]:
        """What the session says to ``make``, under the connection's lock."""
        with self.lock:
            return make(self.session)

    def handle(
        self,
        message: object,
        caller: Caller | None = None,
        *,
        source: bytes | None = None,
        client_ids: Mapping[RequestId, RequestId] | None = None,
    ) -> list[Action]:
        """What the session says of a decoded message (from ``caller``, when its
        credentials were checked; decoded from ``source``, when given); a failure of
        objmcp's own is an internal error for this message only. ``client_ids`` are the
        ids the client sent, by the ids the transport gave its requests instead (HTTP's
        2026-07-28 requests): spans and hooks show the client's."""
        tracer = self.settings.tracer
        started = request_started(tracer)
        try:
            with self.lock:
                actions = self.session.receive(message, caller, source=source)
        except Exception:  # a bug of ours: say so for this message, serve the next
            actions = internal_error(message)
        if client_ids:
            _show_client_ids(actions, client_ids)
        if started is not None:
            revision = self.session.revision
            version = revision.version if revision is not None else None
            shown = message
            if client_ids and isinstance(message, dict) and message.get("id") in client_ids:
                shown = {**message, "id": client_ids[message["id"]]}
            answered(tracer, started, shown, actions, version, self.channel.session_id)
        return actions

    def perform(self, actions: list[Action], group: anyio.abc.TaskGroup | None = None) -> None:
        """Carry out what the session said, on the event loop: messages sent, calls started
        (in ``group``, else :attr:`calls`), resumed, cancelled, answers handed over."""
        for action in actions:
            if isinstance(action, Send):
                self._send(action.message, action.related)
            elif isinstance(action, (StartCall, Resume)):
                start = action if isinstance(action, StartCall) else action.start
                calls = group or self.calls
                assert calls is not None, "calls start while the connection runs"
                if isinstance(action, Resume) and self._resume(action):
                    self._watch_for_task(start, self._running[start.call_id], calls)
                    continue
                kind = queued(self, action) if type(action) is StartCall else None
                if kind is not None:
                    calls.start_soon(hand_over, self, start, kind, calls)
                    continue
                self._watch_for_task(start, self.start_call(start, calls), calls)
            elif isinstance(action, WaitForJob):
                calls = group or self.calls
                assert calls is not None, "requests wait while the connection runs"
                calls.start_soon(self._wait_for_job, action)
            elif isinstance(action, TaskAnswered):
                self.pending.task_answered(action.task_id)
            elif isinstance(action, Answer):
                self.pending.answered(action)
            elif isinstance(action, CancelCall):
                if any(lane.cancel(action.call_id) for lane in self.lanes):
                    continue
                cancelled = self._running.get(action.call_id)
                if cancelled is not None:
                    self.pending.release(cancelled)
                    cancelled.cancelled.set()
                    cancelled.scope.cancel()

    def plain_call(self, actions: list[Action]) -> tuple[StartCall, Tool] | None:
        """The one call ``actions`` start and its tool, when a lane may run it outside a
        task of its own (stdio's reader thread, HTTP's request task): a self-contained tool
        (sync, given nothing but ``Cancelled`` and ``Caller``) that never becomes a task;
        None otherwise."""
        if len(actions) != 1 or self.closing:
            return None
        start = actions[0]
        if type(start) is not StartCall or start.kind != "tool":
            return None
        tool = self.settings.tools.get(start.tool)
        if tool is None or not tool.self_contained:
            return None
        if task_delay(self.settings, start) is not None:
            return None  # it may become a task: the loop watches it
        if queued(self, start) is not None:
            return None  # a queue's worker runs it
        return start, tool

    def runs_here(self, actions: list[Action]) -> StartCall | None:
        """The one call ``actions`` start, when it may run in the task that read its request
        (HTTP's lane): a :meth:`plain_call` whose tool has no ``Cancelled`` to raise, since
        nothing watches for its client leaving meanwhile."""
        plain = self.plain_call(actions)
        if plain is None or Cancelled in plain[1].injected.values():
            return None
        return plain[0]

    def start_call(self, start: StartCall, calls: anyio.abc.TaskGroup) -> RunningCall:
        """Start the call ``start`` in ``calls``; the call, running."""
        call = self._running[start.call_id] = RunningCall(start.call_id, start.tool, start.context)
        calls.start_soon(self._run_call, start, call)
        return call

    def running(self, call_id: int) -> RunningCall | None:
        """The call ``call_id``, while it runs."""
        return self._running.get(call_id)

    async def run_here(self, start: StartCall) -> None:
        """Run the call ``start`` to its end in the calling task (:meth:`runs_here` chose
        it): the same run, timeout and end as a call in a task of its own."""
        call = RunningCall(start.call_id, start.tool, start.context)
        self._running[start.call_id] = call
        await self._run_call(start, call)

    async def drain(self, calls: anyio.abc.TaskGroup) -> None:
        """The client is done: end its listen streams and its questions, give the calls
        still running the server's grace, then stop them (``calls`` is their group)."""
        self.closing = True
        self.perform(self.told(lambda session: session.close()))
        self.pending.release()  # nobody is left to answer a question
        for waiting in self._job_waits:
            waiting.cancel()  # the job_result requests are answered now
        if not self.calls_left():
            return
        with anyio.move_on_after(self.settings.grace):
            while self.calls_left():
                self.idle = anyio.Event()
                await self.idle.wait()
        still = self.calls_left()
        if still:
            logger.warning("cancelling %d call(s) still running at end of input", still)
            self.stop_calls_left()
            calls.cancel_scope.cancel()

    def cancel_calls(self) -> None:
        """Stop every running call: nobody is left to answer them."""
        self.stop_calls_left()
        for call in list(self._running.values()):
            call.scope.cancel()

    def calls_left(self) -> int:
        """Calls that may still answer."""
        return len(self._running) + sum(lane.unanswered() for lane in self.lanes)

    def stop_calls_left(self) -> None:
        """Raise the flag of every call that may still answer (the caller cancels the scope
        their tasks run in), and stop the lanes' calls."""
        for call in self._running.values():
            call.cancelled.set()
        for lane in self.lanes:
            lane.stop_all()

    def _resume(self, action: Resume) -> bool:
        """Modern era: hand a retry's answers to the call parked for them, if this
        connection still holds it; the call then answers the retry."""
        call = self.pending.unparked(action.parked)
        if call is None:
            return False  # given up meanwhile: the retry runs the method again
        start = action.start
        self._running.pop(call.call_id, None)
        call.call_id, call.context = start.call_id, start.context
        self._running[call.call_id] = call
        self.pending.resumed(call)
        return True

    async def _run_call(self, action: StartCall, call: RunningCall) -> None:
        finish: Finish | None = None
        attribute_logs(self, call)  # this task's own context: log records find the call
        timeout = self.settings.call_timeout
        with call.scope, contextlib.suppress(InputNeeded):
            if timeout is not None:
                call.scope.deadline = anyio.current_time() + timeout
            settings = self.settings
            thread, token = self.loop_thread, self.loop_token
            loop = (thread, token) if thread is not None and token is not None else None
            extra: dict[object, object] = {SESSION: self.object_session}
            if (nested := nested_span(settings.tracer)) is not None:
                extra[NESTED_SPAN] = nested
            injected = injections(self, call, loop, extra)
            finish = await execute(
                settings.tools, action, injected, settings.tracer, self.channel.session_id
            )
        timed_out = call.scope.cancelled_caught and not call.cancelled.is_set()
        if timed_out and call.questions is None and call.refused is None:
            call.cancelled.set()  # a sync call's thread runs on: its flag tells it to stop
            logger.warning("a call to %r ran out of time (call_timeout %s s)", call.tool, timeout)
            finish = stopped(
                action,
                f"The call ran longer than the server allows (call_timeout, {timeout} s): stopped",
            )
        if call.watcher is not None:
            call.watcher.cancel()
        self._running.pop(call.call_id, None)
        if not self._running:
            self.idle.set()
        # However the method ended after asking (even if it caught InputNeeded itself, or
        # a task group of its own wrapped it), a question asked is what the call answers.
        if call.refused is not None:
            refused = call.refused
            self.perform(
                self.told(
                    lambda session: answers.request_finished(session, call.call_id, None, refused)
                )
            )
        elif call.questions is not None:
            questions, kept, call_id = call.questions, call.kept, call.call_id
            ended = answers.call_needs_input
            self.perform(self.told(lambda session: ended(session, call_id, questions, kept=kept)))
        elif finish is not None:
            end = finish
            self.perform(self.told(lambda session: end(session, call.call_id)))
        if call.task_id is not None and call.task_id in self._job_ends:
            self._job_ends.pop(call.task_id).set()  # its job_result requests: it has ended

    # --- what the injected callables reach (see running.Reach) ---------------------------

    async def ask(
        self, call: RunningCall, requests: Mapping[str, ClientRequest], job: Place | None
    ) -> Any:
        """Ask the client ``requests`` for ``call`` and wait for the answers
        (:meth:`~objmcp.serving.pending.Pending.ask`)."""
        return await self.pending.ask(call, requests, job)

    def report_progress(
        self, call: RunningCall, done: float, total: float | None, message: str | None
    ) -> None:
        """Send a progress report of ``call``, if its client asked for them."""
        self.post(lambda session: midcall.progress(session, call.call_id, done, total, message))

    def complete_elicitation(self, elicitation_id: str) -> None:
        """Tell the client a URL question's step is done."""
        self.post(lambda session: midcall.elicitation_complete(session, elicitation_id))

    def resource_updated(self, uri: str) -> None:
        """Tell every subscriber of ``uri``, on every connection, that it changed."""
        self.settings.hub.resource_updated(uri)

    def _watch_for_task(
        self, start: StartCall, call: RunningCall, calls: anyio.abc.TaskGroup
    ) -> None:
        """2026-07-28: answer ``call`` as a task if it runs past its delay (its tool's
        ``task`` option, else ``task_after``), to a client with the tasks extension."""
        delay = task_delay(self.settings, start)
        if delay is None or call.task_id is not None:
            return
        if call.watcher is not None:
            call.watcher.cancel()
        call.watcher = anyio.CancelScope()
        calls.start_soon(self._become_task, call, call.watcher, delay)

    async def _become_task(
        self, call: RunningCall, watcher: anyio.CancelScope, delay: float
    ) -> None:
        with watcher:
            await anyio.sleep(delay)
            if self._running.get(call.call_id) is not call or call.questions is not None:
                return  # over, or stopped to be asked again
            if self.pending.parked(call):
                return  # its retry resumes it, and watches it again
            job = not knows_tasks(call.context.client_capabilities, call.context.extensions)
            if job and not self.channel.lasting:
                return
            with self.lock:
                make = handoff.make_job if job else handoff.make_task
                actions, task_id = make(self.session, call.call_id)
            if task_id is not None:
                call.task_id, call.job = task_id, job
                shared = self.settings.shared
                if shared is not None and not job and self.session.tasks.published:
                    # the call's end cancels the watcher: the task's answer must go out anyway
                    with anyio.CancelScope(shield=True):
                        await self.publish_first(shared)
            self.perform(actions)

    async def publish_first(self, shared: SharedTasks) -> None:
        """Put a new task in the shared store before its id reaches the client, whose
        next request may reach another process (a failure of Redis is logged: the task
        goes on, published when Redis is back)."""
        from .task_sharing import publish_changed

        try:
            with anyio.fail_after(PUBLISH_WAIT):
                await publish_changed(shared, self)
        except Exception as error:
            logger.warning("the shared task store failed (%s); the task is published later", error)

    async def _wait_for_job(self, action: WaitForJob) -> None:
        """Hold a ``job_result`` request until its job ends or its wait is over (or the
        connection closes), then have the session answer it."""
        scope = anyio.CancelScope()
        self._job_waits.add(scope)
        try:
            with self.lock:
                over = handoff.job_over(self.session, action.job_id)
            if not over and not self.closing:
                event = self._job_ends.setdefault(action.job_id, anyio.Event())
                with scope, anyio.move_on_after(action.seconds):
                    await event.wait()
        finally:
            self._job_waits.discard(scope)
            call_id, job_id = action.call_id, action.job_id
            self.perform(self.told(lambda session: handoff.job_waited(session, call_id, job_id)))


TASK_GRACE = 0.05
"""Seconds a call to a tool with ``task="optional"`` or ``"always"`` runs before it is
answered as a task: time to end at once, or to ask its first questions the 2026-07-28
way (``input_required``), before the task is made."""


def task_delay(settings: Settings, start: StartCall) -> float | None:
    """2026-07-28: seconds after which the call ``start`` becomes a task if still running
    (its tool's ``task`` option, else ``task_after``); None when it never does (not a
    tool call, a client without the tasks extension, ``task="never"``). With ``jobs``,
    the same for a client with no tasks at all: the call becomes a job (but in 2026-07-28
    a tool that says it asks the client, which a job could not)."""
    if start.kind != "tool":
        return None
    context = start.context
    tasks = TASKS in context.extensions
    if not tasks and not (
        settings.jobs and not knows_tasks(context.client_capabilities, context.extensions)
    ):
        return None
    tool = settings.tools.get(start.tool)
    mode = tool.task if tool is not None else None
    if mode == "never":
        return None
    if not tasks and tool is not None and tool.needs and context.revision.era == "modern":
        return None
    return TASK_GRACE if mode in ("optional", "always") else settings.task_after


def _show_client_ids(actions: list[Action], client_ids: Mapping[RequestId, RequestId]) -> None:
    """The calls ``actions`` start know their request by the id its client sent."""
    for action in actions:
        if isinstance(action, (StartCall, Resume)):
            context = (action if isinstance(action, StartCall) else action.start).context
            context.request_id = client_ids.get(context.request_id, context.request_id)
