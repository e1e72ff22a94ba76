"""Jobs, the session's side: a call made a job, and the job tools answered.

The session (:mod:`objmcp.protocol.session`) calls these with itself. A job is a
task of its :class:`~objmcp.protocol.tasks.extension.TaskStore`, and the store's rules hold:
a job belongs to the caller that started it (another caller is told it is unknown,
as is one forgotten ``task_ttl`` seconds after it ended, or earlier beyond the bounds
of what ended tasks keep), at most ``max_tasks`` are alive at once (each caller its
share). ``job_status`` and ``job_cancel`` are answered at once; so is
``job_result`` for a job that has ended, while for one still running the request is
held and the runner told to wait (:class:`~objmcp.protocol.actions.WaitForJob`): it
reports back when the job ends or the wait is over, and the request is answered
with the job as it stands then (:func:`waited`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..._exceptions import ArgumentError
from ...model.calling.toolbox import Toolbox
from .. import jsonrpc as rpc
from ..actions import Action, CacheHint, CancelCall, ServerInfo, WaitForJob
from ..calls import Call, answer_call
from ..jsonrpc import Message
from ..modern import complete
from ..questions import Questions
from ..revisions import Revision
from .extension import Task, TaskStore
from .jobs import JobTools

__all__ = ["Session", "handle", "started", "waited"]

_STAMPED = ("resultType", "_meta")
"""What a result was stamped with for its request's revision (``complete``), made again
for the ``job_result`` request's."""


class Session(Protocol):
    """What of the session (:class:`objmcp.protocol.session.Session`) the jobs use."""

    toolbox: Toolbox
    tasks: TaskStore
    clock: Callable[[], float]
    info: ServerInfo
    cache: dict[str, CacheHint]
    questions: Questions

    @property
    def caller_key(self) -> str | None:
        """The key of the caller of the message being read (None: one client only)."""
        ...

    def end_call(self, call_id: int) -> Call | None:
        """Forget the call ``call_id``: its end answers nothing."""
        ...

    def hold(self, call: Call) -> int:
        """Take ``call`` in as a request in flight, answered later; its call id."""
        ...


def started(session: Session, jobs: JobTools, job_id: str, revision: Revision) -> dict[str, Any]:
    """The result that answers a call become the job ``job_id``."""
    return _text(session, revision, jobs.started(session.toolbox, job_id))


def handle(
    session: Session, jobs: JobTools, call: Call, arguments: object, actions: list[Action]
) -> Message | None:
    """Answer a call of a job tool (``call.tool``): at once, or, for ``job_result`` of
    a job still running, later (None: the request is held)."""
    status, result, _ = jobs.names(session.toolbox)
    revision = call.revision
    try:
        positional, keywords = jobs.tools(session.toolbox)[call.tool].bind(
            arguments, None, session.toolbox.limits.max_values
        )
    except ArgumentError as error:
        return _answer(call, _text(session, revision, str(error), True))
    job_id = keywords.get("job_id", positional[0] if positional else None)
    if not isinstance(job_id, str):  # the input schema says so: never, but never trusted
        return _answer(call, _text(session, revision, "job_id must be a string", True))
    store, now = session.tasks, session.clock()
    task = store.find(job_id, session.caller_key, now)
    if task is None:
        return _answer(call, _unknown(session, revision, job_id))
    if call.tool == status:
        return _answer(call, _text(session, revision, _status(jobs, session, task)))
    if call.tool == result:
        if task.ended:
            return _answer(call, _result(session, revision, task))
        call_id = session.hold(call)
        actions.append(WaitForJob(call_id, task.task_id, jobs.wait))
        return None
    if store.end(task, "cancelled", now):  # job_cancel
        task.message = "Cancelled (job_cancel)"
        session.end_call(task.call_id)
        actions.append(CancelCall(task.call_id))
        said = f"Job {job_id} is cancelled: its call was stopped, and it has no result."
    else:
        said = f"Job {job_id} had ended already ({task.status}): nothing to stop."
    return _answer(call, _text(session, revision, said))


def waited(session: Session, jobs: JobTools, call: Call, call_id: int, job_id: str) -> list[Action]:
    """The wait of the held ``job_result`` request ``call`` is over (the job ended, or
    the time is up): its answer, the job as it stands now."""
    revision = call.revision
    task = session.tasks.find(job_id, call.caller_key, session.clock())
    if task is None:
        body = _unknown(session, revision, job_id)
    elif task.ended:
        body = _result(session, revision, task)
    else:
        status, result, cancel = jobs.names(session.toolbox)
        said = (
            f"Job {job_id} is still running ({_progress(session, task)}). Call {result} "
            f'with job_id "{job_id}" again to wait for it, {status} to see how it is '
            f"going, {cancel} to stop it."
        )
        body = _text(session, revision, said)
    return answer_call(call, call_id, rpc.result_response(call.request_id, body))


def _status(jobs: JobTools, session: Session, task: Task) -> str:
    job_id = task.task_id
    _, result, _ = jobs.names(session.toolbox)
    if task.status == "completed":
        return f"Job {job_id} has ended: its result is ready; {result} gives it."
    if task.status == "failed":
        return f"Job {job_id} failed: {task.message or 'no reason given'}."
    if task.status == "cancelled":
        return f"Job {job_id} was cancelled: it has no result."
    return f"Job {job_id} is running ({_progress(session, task)}); {result} waits for its result."


def _progress(session: Session, task: Task) -> str:
    """How long the job has run, its latest progress message, and whether it waits for
    the client's answer to a question (handshake era)."""
    seconds = max(0.0, session.clock() - task.created)
    said = f"for {seconds:.0f} s"
    if task.message:
        said = f"{said}; latest progress: {task.message}"
    if task.call_id in session.questions.asks.values():
        said = f"{said}; waiting for the answer to a question the client was asked"
    return said


def _result(session: Session, revision: Revision, task: Task) -> dict[str, Any]:
    """The result ``job_result`` gives for an ended job: the call's own, or why none."""
    job_id = task.task_id
    if task.status == "completed" and task.result is not None:
        own = {key: value for key, value in task.result.items() if key not in _STAMPED}
        return complete(own, revision, session.info, session.cache, None)
    if task.status == "failed" and task.error is not None:
        said = f"Job {job_id} failed: {task.error.get('message', 'no reason given')}"
        return _text(session, revision, said, True)
    return _text(session, revision, f"Job {job_id} was cancelled: it has no result.", True)


def _unknown(session: Session, revision: Revision, job_id: str) -> dict[str, Any]:
    said = (
        f"Unknown job {job_id!r}: no job of yours has this id (a job is forgotten "
        f"{session.tasks.keep:g} s after it ends)."
    )
    return _text(session, revision, said, True)


def _text(
    session: Session, revision: Revision, text: str, is_error: bool = False
) -> dict[str, Any]:
    body = {"content": [{"type": "text", "text": text}], "isError": is_error}
    return complete(body, revision, session.info, session.cache, None)


def _answer(call: Call, body: dict[str, Any]) -> Message:
    return rpc.result_response(call.request_id, body)
