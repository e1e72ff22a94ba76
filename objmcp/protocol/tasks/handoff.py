"""A running call handed over: its request answered now with a task (2026-07-28) or a
job (a client with no tasks), the call running on and its end kept for the client to
fetch; and what a task's call asks and is answered through ``tasks/update``.

Plain functions of the :class:`~objmcp.protocol.session.Session` the call runs in.
"""

from __future__ import annotations

from typing import Any

from .. import jsonrpc as rpc
from ..actions import Action
from ..calls import Call, answer_call
from ..modern import complete
from ..sessionlike import SessionLike
from . import extension_methods as task_methods
from . import job_methods
from .extension import Task

__all__ = [
    "adopt_task",
    "as_task",
    "job_over",
    "job_waited",
    "make_job",
    "make_task",
    "queued_core_task",
    "queued_task",
    "task_answers",
    "task_asks",
]


def make_job(session: SessionLike, call_id: int) -> tuple[list[Action], str | None]:
    """Jobs: answer the running call ``call_id`` with a text naming a job (a task of
    a client that has none); the call runs on and its end is kept in the job. The
    actions and the job's id; none when the call is over, is a task or a job
    already, jobs are off, or its caller's share of ``max_tasks`` is used."""
    if session.jobs is None:
        return [], None
    made = as_task(session, call_id)
    if made is None:
        return [], None
    call, task = made
    body = job_methods.started(session, session.jobs, task.task_id, call.revision)
    return answer_call(call, call_id, rpc.result_response(call.request_id, body)), task.task_id


def job_over(session: SessionLike, job_id: str) -> bool:
    """Jobs: whether the job ``job_id`` has ended (or is gone)."""
    task = session.tasks.by_id(job_id)
    return task is None or task.ended


def job_waited(session: SessionLike, call_id: int, job_id: str) -> list[Action]:
    """The runner's wait for the job ``job_id`` (:class:`WaitForJob`) is over: the
    answer of the ``job_result`` request held as ``call_id``, if still wanted."""
    call = session.end_call(call_id)
    if call is None or session.jobs is None:
        return []
    return job_methods.waited(session, session.jobs, call, call_id, job_id)


def make_task(session: SessionLike, call_id: int) -> tuple[list[Action], str | None]:
    """2026-07-28: answer the running call ``call_id`` as a task (``resultType:
    "task"``); the call runs on and its end is kept in the task. The actions and the
    task's id; none when the call is over, is a task already, or its caller's share of
    ``max_tasks`` is used (it is then answered as a plain call when it ends)."""
    made = as_task(session, call_id)
    if made is None:
        return [], None
    call, task = made
    body = complete(
        session.tasks.wire(task, False), call.revision, session.info, session.cache, None
    )
    body["resultType"] = "task"
    return answer_call(call, call_id, rpc.result_response(call.request_id, body)), task.task_id


def queued_task(session: SessionLike, call_id: int) -> tuple[list[Action], Task] | None:
    """2026-07-28: answer the call ``call_id`` at once as a task another process runs (a
    queue's worker, :mod:`objmcp.serving.task_queue`), and forget the call here: the
    actions, to perform once the call is on the queue, and the task, which this session
    does not keep. None when the call is over or a task already, or its caller's share of
    ``max_tasks`` is used (it then runs here)."""
    call = session.calls.get(call_id)
    now = session.clock()
    if call is None or call.task is not None or not session.tasks.room(call.caller_key, now):
        return None
    task = Task(session.tasks.new_id(), call_id, call.caller_key, now, now)
    body = complete(
        session.tasks.wire(task, False), call.revision, session.info, session.cache, None
    )
    body["resultType"] = "task"
    return answer_call(call, call_id, rpc.result_response(call.request_id, body)), task


def queued_core_task(session: SessionLike, call_id: int) -> Task | None:
    """2025-11-25: the core task the call ``call_id`` runs as (answered already), handed
    over to another process (a queue's worker) and forgotten here with its call; None
    when the call is no core task's."""
    call = session.calls.get(call_id)
    task = session.tasks.by_id(call.task) if call is not None and call.task else None
    if task is None or not task.core or task.ended:
        return None
    session.end_call(call_id)
    session.tasks.hand_over(task)
    return task


def adopt_task(session: SessionLike, call_id: int, task_id: str, created: float) -> bool:
    """A queue's worker: the call ``call_id`` is the task ``task_id`` another process
    answered its request with (made at ``created``): its end is kept in the task, and
    its request, which nobody waits for here, is answered by nothing. False when the call
    is over."""
    call = session.calls.get(call_id)
    if call is None or call.task is not None:
        return False
    session.tasks.adopt(task_id, call_id, call.caller_key, created, session.clock())
    call.task = task_id
    session.calls.let_go(call.request_id)
    return True


def as_task(session: SessionLike, call_id: int) -> tuple[Call, Task] | None:
    """A new task for the running call ``call_id``, which its request no longer waits
    for; None when the call is over, runs as a task already, or its caller's share of
    ``max_tasks`` is used."""
    call = session.calls.get(call_id)
    if call is None or call.task is not None:
        return None
    task = session.tasks.create(call_id, call.caller_key, session.clock())
    if task is None:
        return None
    call.task = task.task_id
    session.calls.let_go(call.request_id)
    return call, task


def task_asks(
    session: SessionLike, task_id: str, requests: dict[str, dict[str, Any]]
) -> list[Action]:
    """A task's call asks the client ``requests`` (key -> ``{"method", "params"}``):
    the task is ``input_required`` until ``tasks/update`` answers them. The
    ``notifications/tasks`` its listeners are due."""
    return task_methods.asks(session, task_id, requests)


def task_answers(session: SessionLike, task_id: str, keys: set[str]) -> dict[str, Any] | None:
    """The answers ``tasks/update`` brought to the questions ``keys`` of a task's call
    (taken), once all are there; None while some are not (or the task is gone)."""
    task = session.tasks.by_id(task_id)
    if task is None or task.ended or not keys <= set(task.answers):
        return None
    return session.tasks.take_answers(task, keys)
