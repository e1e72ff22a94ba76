"""A runner's calls waiting for their client's answers, in every era: a handshake-era
request to the client awaited, a modern-era call parked until the retry that answers it,
a 2026-07-28 task's call waiting for ``tasks/update``. Each wait counts in the server's
bounds (``max_waiting``, ``max_parked``, ``max_waiting_total``) and stops the call's
``call_timeout`` clock while it lasts.

:class:`Pending` belongs to one :class:`~objmcp.serving.runner.Runner` (its
:class:`Host`), whose session says what to send and whose loop the waits run on.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

import anyio
import anyio.to_thread

from ..model.calling.threads import Place
from ..protocol import answers, midcall
from ..protocol.actions import Answer
from ..protocol.session import Action, Session
from ..protocol.tasks import handoff
from .running import STOP, ClientRequest, RunningCall, Wait
from .settings import Channel, Settings
from .tracing import question_span

__all__ = ["Host", "Pending"]

logger = logging.getLogger("objmcp")


class Host(Protocol):
    """What the waits need of the runner they belong to."""

    settings: Settings
    session: Session
    channel: Channel
    lock: contextlib.AbstractContextManager[Any]
    closing: bool

    def perform(self, actions: list[Action]) -> None:
        """Carry out what the session said."""

    def told(self, make: Callable[[Session], list[Action]]) -> list[Action]:
        """What the session says to ``make``, under the runner's lock."""


class Pending:
    """The calls of one runner waiting for their client's answers: each call's wait is its
    own (:attr:`RunningCall.waiting`); these are the indexes the answers find it by."""

    def __init__(self, runner: Host) -> None:
        self._runner = runner
        self._asking: dict[str, RunningCall] = {}  # handshake era: by the id of our request
        self._parked: dict[int, RunningCall] = {}  # modern era: by the call id parked as
        self._in_tasks: dict[str, RunningCall] = {}  # 2026-07-28: tasks' calls, by task id

    def answered(self, answer: Answer) -> None:
        """The client answered the request ``answer.ask_id``: its call goes on."""
        call = self._asking.get(answer.ask_id)
        if call is not None and call.waiting is not None:
            call.waiting.result, call.waiting.error = answer.result, answer.error
            call.waiting.answered.set()

    def task_answered(self, task_id: str) -> None:
        """``tasks/update`` brought answers to the task ``task_id``: its call looks."""
        call = self._in_tasks.get(task_id)
        if call is not None and call.waiting is not None:
            call.waiting.answered.set()

    def unparked(self, parked_as: int) -> RunningCall | None:
        """The call parked as ``parked_as``, taken for its retry (which :meth:`resumed`
        then lets go on); None when it was given up meanwhile."""
        return self._parked.pop(parked_as, None)

    @staticmethod
    def resumed(call: RunningCall) -> None:
        """The call :meth:`unparked` gave, renumbered as its retry, goes on."""
        if call.waiting is not None:
            call.waiting.answered.set()

    def parked(self, call: RunningCall) -> bool:
        """Whether ``call`` waits parked for its retry."""
        return self._parked.get(call.call_id) is call

    async def ask(
        self, call: RunningCall, requests: Mapping[str, ClientRequest], job: Place | None
    ) -> Any:
        """Ask the client ``requests`` (by key) for ``call`` and wait for the answers;
        returns them read, by key, or :data:`STOP` when the call must stop for an
        ``input_required`` answer.

        Handshake era: a request to the client for each, one after the other, each
        awaited. Modern era: answers the retry brought (from the sealed state) are used
        at once; the questions still unanswered answer the request ``input_required``,
        all in one round, and park the call until the retry comes, or, with no room to
        park, stop the call, to be replayed by the retry.
        """
        first = next(iter(requests.values()))
        if self._runner.channel.cannot_ask is not None:
            raise first.unavailable(self._runner.channel.cannot_ask)
        for request in requests.values():
            with self._runner.lock:
                refusal = midcall.refusal(self._runner.session, call.call_id, request.feature)
                missing = midcall.missing(self._runner.session, call.call_id, request.feature)
            if missing is not None:  # 2026-07-28: the request is answered -32021
                call.refused = missing
                return STOP
            if refusal is not None:
                raise request.unavailable(refusal)
        if self._runner.closing:
            raise first.unavailable("The client closed its input: nobody is left to answer")
        if call.context.revision.era == "modern":
            return await self._ask_modern(call, requests, job)
        return {key: await self._ask_handshake(call, r, job) for key, r in requests.items()}

    async def _ask_modern(
        self, call: RunningCall, requests: Mapping[str, ClientRequest], job: Place | None
    ) -> Any:
        unanswered = {k: r for k, r in requests.items() if k not in call.context.answers}
        if unanswered and call.job:
            raise next(iter(unanswered.values())).unavailable(
                "This call runs on as a job, its request answered already, and its client "
                "has no tasks: nothing can bring the answer back"
            )
        if unanswered and call.task_id is not None:
            return await self._ask_in_task(call, call.task_id, requests, unanswered, job)
        if unanswered:
            call.kept = await _left(call)
            if not self._can_park(call, job):
                call.questions = {key: request.wire() for key, request in unanswered.items()}
                return STOP
            with _clock_stopped(call):
                waiter = await self._park(call, unanswered, job)
            self._check_released(waiter, next(iter(unanswered.values())))
        answers = call.context.answers  # a resumed call's are its retry's: all of them
        return {key: request.read(answers[key]) for key, request in requests.items()}

    async def _ask_in_task(
        self,
        call: RunningCall,
        task_id: str,
        requests: Mapping[str, ClientRequest],
        unanswered: Mapping[str, ClientRequest],
        job: Place | None,
    ) -> Any:
        """A task's call asks: the task is ``input_required`` with the questions until
        ``tasks/update`` answers them all (or ``park_timeout`` runs out)."""
        first = next(iter(unanswered.values()))
        self._check_task_room(call, first)
        wire = {key: request.wire() for key, request in unanswered.items()}
        keys = set(wire)
        self._runner.perform(
            self._runner.told(lambda session: handoff.task_asks(session, task_id, wire))
        )
        given: dict[str, Any] | None = None
        waits = self._runner.settings.waits
        waits.count += 1
        try:
            with _clock_stopped(call), anyio.move_on_after(self._runner.settings.park_timeout):
                async with self._runner.settings.tools.threads.paused(job):
                    self._in_tasks[task_id] = call
                    while True:
                        wait = call.waiting = Wait()
                        with self._runner.lock:
                            given = handoff.task_answers(self._runner.session, task_id, keys)
                        if given is not None:
                            break
                        await wait.answered.wait()
        finally:
            waits.count -= 1
            call.waiting = None
            self._in_tasks.pop(task_id, None)
            with self._runner.lock:
                midcall.release_question(self._runner.session, call.call_id)
        if given is None:
            raise first.unavailable("The task waited too long for its answers (park_timeout)")
        answers = {**call.context.answers, **given}
        return {key: request.read(answers[key]) for key, request in requests.items()}

    async def _ask_handshake(
        self, call: RunningCall, request: ClientRequest, job: Place | None
    ) -> Any:
        self._check_room(request)
        with self._runner.lock:
            actions, ask_id = midcall.ask(
                self._runner.session, call.call_id, request.method, request.params
            )
        wait = call.waiting = Wait()
        self._asking[ask_id] = call
        self._runner.settings.waits.count += 1
        try:
            with question_span(self._runner.settings.tracer, request.method, ask_id):
                self._runner.perform(actions)
                with _clock_stopped(call):
                    async with self._runner.settings.tools.threads.paused(job):
                        await wait.answered.wait()
        finally:
            self._asking.pop(ask_id, None)
            call.waiting = None
            self._runner.settings.waits.count -= 1
        self._check_released(wait, request)
        if wait.error is not None:
            raise request.failed(str(wait.error.get("message", "no reason given")))
        return request.read(wait.result or {})

    def _check_released(self, wait: Wait, request: ClientRequest) -> None:
        """Raise the error of a wait that ended with no answer."""
        if wait.released and self._runner.closing:
            raise request.unavailable(
                "The client closed its input while the call waited for its answer: nobody "
                "is left to answer"
            )
        if wait.released:
            raise request.unavailable("The call ended while it waited for the client")

    def _check_room(self, request: ClientRequest) -> None:
        """Refuse a question when too many calls wait for answers already: in this
        connection (``max_waiting``) or in all (``max_waiting_total``)."""
        limit = self._runner.settings.max_waiting
        if len(self._asking) >= limit:
            raise request.unavailable(
                f"Too many calls of this client wait for its answers: {limit} at most "
                "(the server's max_waiting); try again when one is answered"
            )
        waits = self._runner.settings.waits
        if waits.full:
            raise request.unavailable(
                f"Too many calls wait for their clients' answers: {waits.limit} at most "
                "(the server's max_waiting_total); try again later"
            )

    def _check_task_room(self, call: RunningCall, request: ClientRequest) -> None:
        """Count a task's call that asks, for ``tasks/update``, in the bounds of the calls
        that wait for their clients (it keeps a worker thread as they do): its caller's
        share of ``max_parked``, and ``max_waiting_total``; refuse the question when
        either is used up."""
        waits = self._runner.settings.waits
        if waits.full:
            raise request.unavailable(
                f"Too many calls wait for their clients' answers: {waits.limit} at most "
                "(the server's max_waiting_total); try again later"
            )
        with self._runner.lock:
            held = midcall.hold_question(self._runner.session, call.call_id)
        if not held:
            raise request.unavailable(
                "Too many calls of this client wait for its answers already: its share of "
                f"the server's max_parked ({self._runner.session.parking.limit}, shared by the "
                "callers waiting); try again when one is answered"
            )

    def _can_park(self, call: RunningCall, job: Place | None) -> bool:
        """Whether ``call`` may wait parked for its retry: its caller's share of
        ``max_parked`` has room, and so has ``max_waiting_total`` (a parked call may
        keep a worker thread)."""
        if job is not None and self._runner.settings.tools.threads.serial:
            return False  # the one thread of serial calls cannot wait for a retry
        if self._runner.settings.waits.full:
            return False
        with self._runner.lock:
            return midcall.can_park(self._runner.session, call.call_id)

    async def _park(
        self, call: RunningCall, requests: Mapping[str, ClientRequest], job: Place | None
    ) -> Wait:
        parked_as = call.call_id
        wait = call.waiting = Wait()
        self._parked[parked_as] = call
        wire = {key: request.wire() for key, request in requests.items()}
        self._runner.perform(
            self._runner.told(
                lambda session: answers.call_needs_input(session, parked_as, wire, True, call.kept)
            )
        )
        waits = self._runner.settings.waits
        waits.count += 1
        try:
            with anyio.move_on_after(self._runner.settings.park_timeout):
                async with self._runner.settings.tools.threads.paused(job):
                    await wait.answered.wait()
        finally:
            waits.count -= 1
            call.waiting = None
        still_parked = self._parked.pop(parked_as, None) is not None
        if still_parked and not wait.answered.is_set():  # no retry came for it in time
            logger.warning("a call to %r waited too long for its answer; dropped", call.tool)
            with self._runner.lock:
                midcall.unpark(self._runner.session, parked_as)
            wait.released = True
            call.cancelled.set()
        return wait

    def release(self, call: RunningCall | None = None) -> None:
        """Stop the waits for answers of one call (or of all): they end with an error (a
        task's call waiting for ``tasks/update`` waits on)."""
        for held in [*self._asking.values(), *self._parked.values()]:
            if (call is None or held is call) and held.waiting is not None:
                held.waiting.released = True
                held.waiting.answered.set()


@contextlib.contextmanager
def _clock_stopped(call: RunningCall) -> Iterator[None]:
    """The call's ``call_timeout`` does not run while the block waits for the client."""
    left = call.scope.deadline - anyio.current_time()
    call.scope.deadline = math.inf
    try:
        yield
    finally:
        if left != math.inf:
            call.scope.deadline = anyio.current_time() + left


async def _left(call: RunningCall) -> bytes | None:
    """What ``call`` leaves for its retry as it stops to ask, made in a worker thread (it
    may take a while); None when it leaves nothing, or its maker failed (logged)."""
    make = call.leave
    if make is None:
        return None
    try:
        return await anyio.to_thread.run_sync(make)
    except Exception:
        logger.exception("a call to %r could not leave its state for its retry", call.tool)
        return None
