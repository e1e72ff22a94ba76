"""2025-11-25's core tasks in a shared task store: a handshake-era session answers
``tasks/get``, ``tasks/result``, ``tasks/list`` and ``tasks/cancel`` for a task of its
caller that another session holds, in this process or another (:mod:`objmcp.serving.
task_sharing` publishes every session's tasks as they change).

A handshake-era session stays in its process (route tags), and so do its tasks' calls;
what reaches another session is its caller's tasks: a client that opened a new session,
after its process was restarted or lost, finds them there. A task of no known caller
(no credentials checked) is its own session's only: no other session may name it, and
its session finds it in the store when a queue's worker runs its call.

``tasks/result`` for a task still working elsewhere waits for its end in the store (at
most :data:`RESULT_WAIT` seconds); the questions of its call go to the session that holds
it. ``tasks/cancel`` is forwarded to the process that holds the task.
"""

from __future__ import annotations

import logging
import typing
from typing import Any

import anyio

from ..protocol import jsonrpc as rpc
from ..protocol.tasks import core
from ..protocol.tasks.extension import Task
from .shared_tasks import QUEUED, SharedTasks, StoredTask
from .task_queue import CANCELLED, TaskQueue
from .task_sharing import PUBLISH_EVERY, STORE_AWAY, Holder, forwarded_to

__all__ = ["RESULT_WAIT", "core_from_store"]

logger = logging.getLogger("objmcp")

RESULT_WAIT = 300.0
"""Seconds a ``tasks/result`` waits for the end of a task another process holds."""


async def core_from_store(
    shared: SharedTasks,
    runner: Holder,
    message: object,
    caller_key: str | None,
    queue: TaskQueue | None = None,
) -> dict[str, Any] | None:
    """The response to a 2025-11-25 core tasks request about tasks this session does not
    hold, from the store; None when the message is no such request, names no task of
    this caller the store has, or the session holds all of them (it answers then)."""
    try:
        return await _answered(shared, runner, message, caller_key, queue)
    except Exception as error:  # Redis away: said, not taken for "no such task"
        logger.warning("the shared task store failed (%s)", error)
        request_id = message.get("id") if isinstance(message, dict) else None
        if not rpc.is_request_id(request_id):
            return None
        return rpc.error_response(
            typing.cast("rpc.RequestId", request_id), rpc.INTERNAL_ERROR, STORE_AWAY
        )


async def _answered(
    shared: SharedTasks,
    runner: Holder,
    message: object,
    caller_key: str | None,
    queue: TaskQueue | None,
) -> dict[str, Any] | None:
    if not isinstance(message, dict):
        return None
    method, params, request_id = message.get("method"), message.get("params"), message.get("id")
    if method not in core.METHODS or not rpc.is_request_id(request_id):
        return None
    params = params if isinstance(params, dict) else {}
    request_id = typing.cast("rpc.RequestId", request_id)
    with runner.lock:
        session = runner.session
        revision = session.revision
        if revision is None or not session.has_core_tasks(revision):
            return None
        named = params.get("taskId")
        task_id = named if isinstance(named, str) else ""
        if method != "tasks/list":
            held = session.tasks.find(named, caller_key, session.clock())
            if not task_id or (held is not None and held.core):
                return None  # the session answers for its own, and says what is wrong
            shown: dict[str, dict[str, Any]] = {}
        else:
            mine = session.tasks.owned(caller_key, session.clock())
            shown = {t.task_id: core.wire(session.tasks, t) for t in mine if t.core}
        size = session.page_size or core.PAGE_SIZE
    key = core.scope(caller_key, runner.channel.session_id)
    if key is None:  # a task of no known caller is its session's only
        return None
    if method == "tasks/list":
        return await _listed(shared, request_id, params, key, shown, size)
    found = await shared.fetch(task_id, key)
    if found is None or not found.core:
        return None
    if method == "tasks/get":
        return rpc.result_response(request_id, core.as_core(found.body))
    if method == "tasks/cancel":
        if found.ended:
            return rpc.error_response(
                request_id,
                rpc.INVALID_PARAMS,
                f"Cannot cancel task: already in terminal status {found.body.get('status')!r}",
            )
        owner = found.owner
        if owner == QUEUED and queue is not None:  # on the queue yet: taken off it
            owner = await queue.cancel(task_id, key, found.body, core=True)
            if owner == CANCELLED:
                cancelled = await shared.fetch(task_id, key)
                if cancelled is not None:
                    return rpc.result_response(request_id, core.as_core(cancelled.body))
        return await forwarded_to(shared, owner, message, key, request_id)
    with anyio.move_on_after(RESULT_WAIT):  # tasks/result
        while not found.ended:
            await anyio.sleep(PUBLISH_EVERY * 4)
            again = await shared.fetch(task_id, key)
            if again is None:
                return None  # expired meanwhile: the session says it is unknown
            found = again
    if not found.ended:
        return rpc.error_response(
            request_id,
            rpc.INTERNAL_ERROR,
            f"Task {task_id} is still working after {RESULT_WAIT:g} s: ask tasks/result again",
        )
    return core.payload(_task(found), request_id)


async def _listed(
    shared: SharedTasks,
    request_id: rpc.RequestId,
    params: dict[str, Any],
    caller_key: str,
    held: dict[str, dict[str, Any]],
    size: int,
) -> dict[str, Any] | None:
    """``tasks/list``: the caller's tasks this session holds and those the store has,
    oldest first, in pages; None when the store has none the session does not hold."""
    stored = [t for t in await shared.listed(caller_key) if t.core and t.task_id not in held]
    if not stored:
        return None
    tasks = sorted([*held.values(), *(core.as_core(t.body) for t in stored)], key=_created)
    start = 0
    cursor = params.get("cursor")
    if cursor is not None:
        ids = [task["taskId"] for task in tasks]
        if not isinstance(cursor, str) or cursor not in ids:
            return rpc.error_response(
                request_id,
                rpc.INVALID_PARAMS,
                f"Invalid params: {cursor!r} is not a cursor of tasks/list (or its task has "
                "expired since: list again from the start)",
            )
        start = ids.index(cursor) + 1
    shown = tasks[start : start + size]
    page: dict[str, Any] = {"tasks": shown}
    if start + size < len(tasks):
        page["nextCursor"] = shown[-1]["taskId"]
    return rpc.result_response(request_id, page)


def _created(task: dict[str, Any]) -> str:
    return str(task["createdAt"])


def _task(found: StoredTask) -> Task:
    """An ended stored task, for :func:`~objmcp.protocol.tasks.core.payload`."""
    body = found.body
    task = Task(found.task_id, -1, found.caller_key, 0.0, 0.0, status=body["status"])
    result = body.get("result")
    if isinstance(result, dict):  # a queue's worker ran it as a 2026-07-28 task
        result = {key: value for key, value in result.items() if key != "resultType"}
    task.result, task.error = result, body.get("error")
    return task
