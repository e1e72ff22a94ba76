"""A connection's calls handed to the queue of calls (:mod:`objmcp.serving.task_queue`),
and, in a queue's worker, a queued call taken up as the task its front answered with.

A front hands over a 2026-07-28 call of a queued tool from a client with the tasks
extension (answered with a task at once), and a 2025-11-25 core task's call of a queued
tool that asks the client nothing (answered already, as a core task is); either runs
here when the queue fails or, for the first, when its caller has no room for a task.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..model.calling.caller import Caller
from ..protocol import answers
from ..protocol.actions import Action, Send, StartCall
from ..protocol.jsonrpc import INTERNAL_ERROR, ProtocolError
from ..protocol.tasks import core, handoff
from ..protocol.tasks.extension import TASKS

if TYPE_CHECKING:
    import anyio.abc

    from ..protocol.session import Session
    from .running import RunningCall
    from .settings import Channel, Settings

__all__ = ["Queued", "Runner", "adopt", "hand_over", "queued"]

logger = logging.getLogger("objmcp")


class Runner(Protocol):
    """What of a connection (:class:`objmcp.serving.runner.Runner`) hands calls over."""

    @property
    def settings(self) -> Settings:
        """What the connection runs by (its queue among them)."""
        ...

    @property
    def channel(self) -> Channel:
        """How its client is reached."""
        ...

    @property
    def lock(self) -> contextlib.AbstractContextManager[Any]:
        """What guards the session."""
        ...

    @property
    def session(self) -> Session:
        """The sans-IO session."""
        ...

    def start_call(self, start: StartCall, calls: anyio.abc.TaskGroup) -> RunningCall:
        """Start the call ``start`` here."""
        ...

    def running(self, call_id: int) -> RunningCall | None:
        """The call ``call_id``, while it runs."""
        ...

    def told(self, make: Callable[[Session], list[Action]]) -> list[Action]:
        """What the session says to ``make``, under the lock."""
        ...

    def handle(self, message: object, caller: Caller | None = None) -> list[Action]:
        """What the session says of ``message``."""
        ...

    def perform(self, actions: list[Action], group: anyio.abc.TaskGroup | None = None) -> None:
        """Carry out what the session said."""
        ...


Queued = Literal["task", "core task"]
"""How a call goes on the queue: answered with a task now (2026-07-28), or as the core task
it was answered with already (2025-11-25)."""


def queued(runner: Runner, start: StartCall) -> Queued | None:
    """Whether the call ``start`` goes on the queue, for a worker to run, and as what: a
    2026-07-28 call, answered with a task now; a 2025-11-25 core task's call, answered
    already (not when its tool asks the client: a core task's questions go out on its
    session's ``tasks/result``, so it runs in its session). None: it runs here."""
    queue = runner.settings.queue
    if queue is None or not runner.channel.publishes_tasks:
        return None
    if not queue.takes(start, runner.settings.tools):
        return None
    if start.context.revision.era == "modern":
        return "task" if TASKS in start.context.extensions else None
    tool = runner.settings.tools.get(start.tool)
    if tool is None or tool.needs:
        return None
    with runner.lock:
        call = runner.session.calls.get(start.call_id)
        return "core task" if call is not None and runner.session.is_core(call) else None


async def hand_over(
    runner: Runner, start: StartCall, kind: Queued, calls: anyio.abc.TaskGroup
) -> None:
    """Put the call ``start`` on the queue, as the ``kind`` :func:`queued` said."""
    if kind == "core task":
        await _hand_over_core_task(runner, start, calls)
    else:
        await _hand_over_task(runner, start, calls)


async def _hand_over_task(runner: Runner, start: StartCall, calls: anyio.abc.TaskGroup) -> None:
    """Answer the 2026-07-28 call ``start`` with a task at once and put it on the queue
    (it runs here when its caller has no room for another task); a queue that fails
    answers the call with an error."""
    queue = runner.settings.queue
    assert queue is not None
    with runner.lock:
        made = handoff.queued_task(runner.session, start.call_id)
    if made is None:  # no room: a plain call, run here
        runner.start_call(start, calls)
        return
    actions, task = made
    try:
        body = runner.session.tasks.wire(task, True)
        await queue.enqueue(task.task_id, task.caller_key, body, start, task.created)
    except Exception as error:
        logger.warning("the queue of calls failed (%s)", error)
        failure = ProtocolError(
            INTERNAL_ERROR,
            "Internal error: the call could not be put on the queue of calls "
            f"({type(error).__name__}); try again",
        )
        actions = runner.told(
            lambda session: answers.request_finished(session, start.call_id, None, failure)
        )
    else:
        with runner.lock:
            runner.session.end_call(start.call_id)
    runner.perform(actions)


async def _hand_over_core_task(
    runner: Runner, start: StartCall, calls: anyio.abc.TaskGroup
) -> None:
    """Put the call ``start`` of a 2025-11-25 core task (answered already) on the queue,
    and hand its task over; when the queue fails, it runs here."""
    queue = runner.settings.queue
    assert queue is not None
    with runner.lock:
        call = runner.session.calls.get(start.call_id)
        task = runner.session.tasks.by_id(call.task) if call and call.task else None
        body = runner.session.tasks.wire(task, True) if task is not None else None
    if task is not None and body is not None:
        scope = core.scope(task.caller_key, runner.channel.session_id)
        try:
            await queue.enqueue(task.task_id, scope, body, start, task.created, core=True)
        except Exception as error:
            logger.warning("the queue of calls failed (%s); the call runs here", error)
        else:
            with runner.lock:
                handoff.queued_core_task(runner.session, start.call_id)
            return
    runner.start_call(start, calls)


def adopt(
    runner: Runner,
    message: dict[str, Any],
    caller: Caller | None,
    task_id: str,
    created: float,
    group: anyio.abc.TaskGroup,
) -> dict[str, Any] | None:
    """A queue's worker: run the call ``message`` asks for (in ``group``) as the task
    ``task_id`` a front answered it with (made at ``created``). None when it runs; else
    the response the session gave instead (it refused the call)."""
    actions = runner.handle(message, caller)
    start = next((a for a in actions if type(a) is StartCall), None)
    if start is None:
        sent = [a.message for a in actions if isinstance(a, Send)]
        if sent and isinstance(sent[0], dict):
            return sent[0]
        return ProtocolError(INTERNAL_ERROR, "Internal error: the call did not start").response(
            None
        )
    with runner.lock:
        handoff.adopt_task(runner.session, start.call_id, task_id, created)
    runner.perform([start], group)
    running = runner.running(start.call_id)
    if running is not None:  # its questions go to its task, not to a request
        running.task_id = task_id
    return None
