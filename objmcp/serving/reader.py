"""Serving a pair of file descriptors from a reader thread: the fast lane of stdio.

A thread reads the input with blocking reads and hands each message to the
session itself. A call of a sync tool that needs nothing of the event loop (no
injected parameter but ``Cancelled``, no other sync call running) runs right
there, in the reader, and its answer is written at once: no task, no thread
hop, no wait for the loop. Everything else (async tools, questions to the user,
progress, resources and prompts, batches of more than one call) goes to the
event loop as before, in the order it came.

A call must not hold the input up for long: a watchdog that sees the reader
inside one call for more than :data:`TAKEOVER` seconds starts another reader,
and the first one finishes its call as a worker thread would, then ends. The
watchdog also stops inline calls at the server's ``call_timeout``.

The session is used under the connection's lock, a real one here: the reader
threads, the event loop and the watchdog share it. The calls the readers run are an
:class:`InlineLane`, plugged into the runner (which stops and counts them with its
own). :class:`FdInput` is the input half of such a connection (the reader threads, the
calls they run, the watchdog); its output half, every frame through one queue written
by whichever thread finds it idle, is :class:`~objmcp.serving.writer.FdOutput`.
:func:`fd_connection` puts them together.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import anyio
import anyio.abc
import anyio.from_thread

from .._exceptions import FrameError
from ..model.calling.inject import Cancelled
from ..model.calling.pipeline import call_in_thread, settled_on_loop
from ..model.calling.threads import ThreadRunner
from ..model.calling.tool import Tool
from ..model.values.content import ToolResult
from ..model.values.jsontext import ParseFailure, parse_message
from ..protocol import answers
from ..protocol.session import Action, Send, StartCall
from ..transport.forks import end_child, forked_while_serving
from ..transport.framing import FrameDecoder
from ..transport.stdio import ByteSink
from .byte_stream import Backlog, StreamConnection, take_frames
from .execute import call_info, internal_error
from .logs import attribute_thread_logs
from .settings import Settings
from .tracing import answered, ended, request_started, span_of
from .writer import HOLD_TIME, FdOutput

__all__ = ["TAKEOVER", "FdInput", "InlineLane", "fd_connection"]

logger = logging.getLogger("objmcp")

TAKEOVER = 0.01
"""Seconds a call may run in the reader thread before another thread takes the input over."""
_TICK = 0.005  # how often the watchdog looks while calls come
_IDLE = 1.0  # seconds without an inline call after which the watchdog sleeps until one
_CHUNK = 1 << 16


@dataclass(eq=False)
class InlineCall:
    """A call running in a reader thread (or in the thread that was the reader)."""

    call_id: int
    tool: Tool
    started: float
    deadline: float | None
    cancelled: threading.Event | None
    """What an ``objmcp.Cancelled`` parameter gets (None when the tool has none)."""
    answered: bool = False
    """Its answer is sent, or it must never be (cancelled, timed out, input closed)."""
    taken_over: bool = False
    """Another thread reads the input now; this one ends with the call."""
    abandoned: bool = False
    """Stopped while it ran: its thread runs on, unwaited for."""


class InlineLane:
    """The calls reader threads run themselves: a :class:`~objmcp.serving.runner.Lane`
    of the connection, which stops and counts them with its own. ``lock`` is the
    connection's; ``threads`` the tools' runner, whose places the calls take;
    ``give_back`` returns a worker's place taken by a call taken over."""

    def __init__(
        self,
        lock: threading.Lock,
        threads: ThreadRunner,
        give_back: Callable[[InlineCall], None],
    ) -> None:
        self.lock = lock
        self.threads = threads
        self.give_back = give_back
        self.calls: dict[int, InlineCall] = {}
        self.in_reader: InlineCall | None = None
        """The call the reader is running, if any."""

    def cancel(self, call_id: int) -> bool:
        """Stop the call ``call_id`` if it runs in this lane; whether it does."""
        call = self.calls.get(call_id)
        if call is None:
            return False
        self.stop(call)
        return True

    def stop_all(self) -> None:
        """Stop every call of the lane: none will be answered."""
        for call in list(self.calls.values()):
            self.stop(call)

    def unanswered(self) -> int:
        """How many calls of the lane may still answer."""
        with self.lock:
            return sum(not call.answered for call in self.calls.values())

    def stop(self, call: InlineCall) -> bool:
        """Stop waiting for ``call``: it will not be answered. False if it was already."""
        with self.lock:
            if call.answered:
                return False
            call.answered = call.abandoned = True
        self.threads.abandon()
        if call.cancelled is not None:
            call.cancelled.set()
        if call.taken_over:  # as for a worker's job: a stopped call's place is free at once
            self.give_back(call)
        return True


class FdInput:
    """Reads a connection's input file descriptor from threads (POSIX), running the
    calls that can run there at once. ``lock`` is the connection's; ``output`` its
    output half."""

    def __init__(
        self, settings: Settings, input_fd: int, output: FdOutput, lock: threading.Lock
    ) -> None:
        self.settings = settings
        self._output = output
        self._lock = lock
        self._thread = threading.local()  # what each reader thread keeps of its own
        self._input_fd = input_fd
        self._reader: object = None  # the token of the thread that reads the input now
        self.inline = InlineLane(self._lock, settings.tools.threads, self._give_back)
        self._watch = threading.Condition()
        self._watcher_asleep = False
        self._stopped = False
        self._ended: anyio.Event | None = None
        self._wake_r, self._wake_w = os.pipe()

    # --- reading ----------------------------------------------------------------------

    async def read(self, connection: StreamConnection, calls: anyio.abc.TaskGroup) -> None:
        """Read on threads until end of input (see the module)."""
        self.runner, self.decoder, self._connection = (
            connection.runner,
            connection.decoder,
            connection,
        )
        self.runner.lanes.append(self.inline)
        self._ended = anyio.Event()
        token = object()
        self._reader = token
        threading.Thread(target=self._watchdog, name="objmcp-watchdog", daemon=True).start()
        self._start_reader(token)
        try:
            await self._ended.wait()
        finally:
            self._stopped = True
            self._reader = None
            os.write(self._wake_w, b"x")  # a reader waiting for input stops
            with self._watch:
                self._watch.notify()

    def _start_reader(self, token: object) -> None:
        threading.Thread(
            target=self._read_input, args=(token,), name="objmcp-reader", daemon=True
        ).start()

    def _read_input(self, token: object) -> None:
        self._thread.logs_call = attribute_thread_logs(self.runner)
        try:
            if self._take_frames(token):
                self._read_until_end(token)
        except Exception:  # a bug of ours: the input cannot be read any more
            logger.exception("objmcp failed reading the input")
            self._end_input()

    def _read_until_end(self, token: object) -> None:
        while self._reader is token:
            self._output.wait_for_client()
            data = self._read()
            if data is None:
                return  # told to stop
            if not data:
                last = self.decoder.end_of_input()
                if isinstance(last, bytes):
                    self._take(last)
                elif isinstance(last, FrameError):
                    logger.warning("%s", last)
                self._end_input()
                return
            self.decoder.feed(data)
            if not self._take_frames(token):
                return

    def _read(self) -> bytes | None:
        """The next bytes of input (``b""`` at its end), or None when told to stop."""
        while not self._stopped:
            try:
                ready = select.select((self._input_fd, self._wake_r), (), ())[0]
            except (OSError, ValueError):  # the wake-up pipe closed: serving ended
                return None
            if self._stopped:
                return None
            if self._input_fd in ready:
                try:
                    return os.read(self._input_fd, _CHUNK)
                except BlockingIOError:
                    continue
                except OSError as error:
                    logger.warning("reading the input failed: %s", error)
                    return b""
        return None

    def _take_frames(self, token: object) -> bool:
        """Handle the frames read so far; False once this thread is no longer the reader.

        Their answers are written together when the frames run out: a pipelined burst of
        quick calls costs one write, not one for each answer. Held answers go out sooner
        when they pile up (``HOLD`` bytes), when the oldest has waited ``HOLD_TIME``,
        when a call turns out slow, and before this thread waits for the event loop; a
        thread taking the input over takes the holding over too."""
        self._output.hold()
        try:
            return take_frames(
                self.decoder, self._take, self._connection.refuse, lambda: self._reader is token
            )
        finally:
            self._output.release()

    def _take(self, frame: bytes) -> None:
        """Handle one frame: a call that can run in this thread runs here and now; what
        else the session says is carried out."""
        try:
            message = parse_message(frame)
        except ParseFailure as error:
            self._carry_out(self.runner.session.unreadable(error))
            return
        call = None
        caller = None
        if self.settings.fronted:
            from .box import fronted_caller

            caller = fronted_caller(message)
        tracer = self.settings.tracer
        started = None if tracer is None else request_started(tracer)
        try:  # as handle() does, in fewer steps: every message comes this way
            with self._lock:
                actions = self.runner.session.receive(message, caller, source=frame)
                call = self._inline_call(actions)
        except Exception:  # a bug of ours: say so for this message, serve the next
            actions = internal_error(message)
        if started is not None:
            revision = self.runner.session.revision
            version = revision.version if revision is not None else None
            answered(tracer, started, message, actions, version)
        if call is None:
            self._carry_out(actions)
            return
        if self._watcher_asleep:
            with self._watch:
                self._watch.notify()
        start = actions[0]
        assert isinstance(start, StartCall)
        self._run_inline(call, start)

    def _carry_out(self, actions: list[Action]) -> None:
        """Carry out what the session said: messages are sent from here, the rest is done
        on the event loop."""
        if all(isinstance(action, Send) for action in actions):
            for action in actions:
                assert isinstance(action, Send)
                self._output.send(action.message, action.related)
        else:
            self._on_loop(lambda: self.runner.perform(actions))

    def _end_input(self) -> None:
        self._reader = None
        self._on_loop(lambda: self._ended.set() if self._ended else None)

    def _on_loop(self, function: Callable[[], object]) -> None:
        """Run ``function`` on the event loop and wait for it (nothing if the loop is gone)."""
        if self.runner.loop_token is None:
            return
        self._output.write_held()  # what is ready goes out now, however long the loop takes
        with contextlib.suppress(RuntimeError):
            anyio.from_thread.run_sync(function, token=self.runner.loop_token)

    # --- calls in the reader ------------------------------------------------------------

    def _inline_call(self, actions: list[Action]) -> InlineCall | None:
        """The call to run in the reader thread, when ``actions`` start one that can run
        there (registered as it: the caller holds the lock)."""
        plain = self.runner.plain_call(actions)
        if plain is None:
            return None
        action, tool = plain
        tools = self.settings.tools
        if tools.threads.serial or tools.threads.busy:
            return None
        if tools.objects is not None:
            return None  # its object is leased on the loop
        now = time.monotonic()
        timeout = self.settings.call_timeout
        deadline = None if timeout is None else now + timeout
        flag = threading.Event() if tool.injected else None
        if self.inline.calls:
            return None  # one taken over still runs: this one goes to a worker
        call = self.inline.calls[action.call_id] = InlineCall(
            action.call_id, tool, now, deadline, flag
        )
        self.inline.in_reader = call
        return call

    def _run_inline(self, call: InlineCall, action: StartCall) -> None:
        tracer = self.settings.tracer
        if tracer is None:
            outcome = self._inline_outcome(call, action)
        else:
            with span_of(tracer, action) as span:
                outcome = self._inline_outcome(call, action)
                if span is not None:
                    ended(span, outcome)
        with self._lock:
            self.inline.calls.pop(call.call_id, None)
            if self.inline.in_reader is call:
                self.inline.in_reader = None
            answer = not call.answered
            call.answered = True
            taken_over = call.taken_over
            actions = (
                answers.call_finished(self.runner.session, call.call_id, outcome) if answer else []
            )
        for reply in actions:  # its answer (or its batch's)
            assert isinstance(reply, Send)
            self._output.send(reply.message, reply.related)
        if time.monotonic() - call.started >= HOLD_TIME:
            self._output.write_held()  # a slow call: its answer, and any held before it, go now
        threads = self.settings.tools.threads
        if call.abandoned:
            threads.settled()
        if taken_over:
            self._on_loop(lambda: threads.give_back(call))
        if self.runner.closing:
            self._on_loop(self._call_ended)

    def _inline_outcome(self, call: InlineCall, action: StartCall) -> ToolResult:
        """Run an inline call to its result through the pipeline, a result it gave that
        must be awaited settled on the loop."""
        tool = call.tool
        injected: dict[object, object] | None = None
        if call.cancelled is not None:
            injected = {Cancelled: call.cancelled}
        logs_call = self._thread.logs_call  # this reader thread's own
        tools = self.settings.tools
        limits, hooks = tools.limits, tools.hooks
        info = call_info(action) if hooks else None

        def ran() -> None:
            logs_call.call_id = None
            if forked_while_serving():
                end_child()  # the tool forked, and this is the child: only the parent answers

        def settle_on_loop(pending: object) -> ToolResult:
            result: ToolResult | None = None

            async def on_loop() -> None:
                nonlocal result
                result = await settled_on_loop(pending, tool, limits)

            self._output.write_held()
            with contextlib.suppress(RuntimeError):
                anyio.from_thread.run(on_loop, token=self.runner.loop_token)
            return result or ToolResult("The server stopped during the call", None, True)

        logs_call.call_id = call.call_id
        try:
            return call_in_thread(
                tool, action.arguments, injected, limits, hooks, info, settle_on_loop, ran
            )
        finally:
            logs_call.call_id = None

    def _call_ended(self) -> None:
        self.runner.idle.set()  # the event the drain waits on now, looked up on the loop

    def _send_all(self, actions: list[Action]) -> None:
        for action in actions:
            assert isinstance(action, Send)  # an answer is all a finished call makes
            self._output.send(action.message, action.related)

    def _give_back(self, call: InlineCall) -> None:
        """A stopped call taken over frees its worker's place (on the loop)."""
        threads = self.settings.tools.threads
        if threading.get_ident() == self.runner.loop_thread:
            threads.give_back(call)
        else:
            self._on_loop(lambda: threads.give_back(call))

    # --- the watchdog -------------------------------------------------------------------

    def _watchdog(self) -> None:
        seen = time.monotonic()
        while not self._stopped:
            time.sleep(_TICK)
            now = time.monotonic()
            with self._lock:
                calls = list(self.inline.calls.values())
                in_reader = self.inline.in_reader
            if calls:
                seen = now
            for call in calls:
                if call.deadline is not None and now >= call.deadline:
                    self._time_out(call)
            if in_reader is not None and now - in_reader.started >= HOLD_TIME:
                self._output.write_held()  # answers held back do not wait for a slow call
            if in_reader is not None and now - in_reader.started >= TAKEOVER:
                self._take_over(in_reader)
            if not calls and now - seen > _IDLE:
                with self._watch:
                    self._watcher_asleep = True
                    if self.inline.in_reader is None and not self._stopped:
                        self._watch.wait(30)
                    self._watcher_asleep = False
                seen = time.monotonic()

    def _take_over(self, call: InlineCall) -> None:
        """The reader is busy with ``call``: another thread reads the input meanwhile."""
        with self._lock:
            if self.inline.in_reader is not call or self._reader is None:
                return
            call.taken_over = True
            self.inline.in_reader = None
            token = self._reader = object()
        threads = self.settings.tools.threads
        self._on_loop(lambda: None if call.abandoned else threads.take(call))  # a worker's place
        self._start_reader(token)

    def _time_out(self, call: InlineCall) -> None:
        if not self.inline.stop(call):
            return
        timeout = self.settings.call_timeout
        logger.warning("a call to %r ran out of time (call_timeout %s s)", call.tool.name, timeout)
        late = f"The call ran longer than the server allows (call_timeout, {timeout} s): stopped"
        with self._lock:
            actions = answers.call_finished(
                self.runner.session, call.call_id, ToolResult(late, None, True)
            )
        self._send_all(actions)

    # --- serving ----------------------------------------------------------------------

    def closed(self) -> None:
        """Serving ended: close the pipe that wakes a reader waiting for input."""
        self._stopped = True
        os.close(self._wake_r)
        os.close(self._wake_w)


def fd_connection(
    settings: Settings, sink: ByteSink, input_fd: int, output_fd: int
) -> StreamConnection:
    """A connection over two file descriptors, read and written by threads (POSIX);
    ``sink`` writes ``output_fd`` from the event loop."""
    decoder = FrameDecoder(settings.framing, settings.max_frame)
    lock = threading.Lock()
    output = FdOutput(sink, output_fd, Backlog(decoder), settings.grace)
    return StreamConnection(
        settings, decoder, output, FdInput(settings, input_fd, output, lock), lock
    )
