"""An HTTP app's side of a shared task store (:mod:`objmcp.serving.shared_tasks`): its
tasks published as they change, its lease renewed, ``tasks/get`` answered from the store
for a task another process holds, and ``tasks/update`` and ``tasks/cancel`` forwarded to
that process.

:func:`share_tasks` runs for the app's life (its ASGI lifespan). Every
:data:`PUBLISH_EVERY` seconds it takes the tasks each session changed and publishes what
``tasks/get`` would answer for them; meanwhile it answers the requests other processes
forward to this one. A failure of Redis is logged and tried again: plain calls never
wait for the store.
"""

from __future__ import annotations

import contextlib
import logging
import math
import secrets
import typing
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import anyio

from ..model.calling.caller import Caller
from ..protocol import jsonrpc as rpc
from ..protocol.actions import Action, Send
from ..protocol.modern import (
    CLIENT_CAPABILITIES_KEY,
    PROTOCOL_VERSION_KEY,
    complete,
    meta_of,
    modern_revision,
)
from ..protocol.subscriptions import SUBSCRIPTION_ID_KEY
from ..protocol.tasks import core
from ..protocol.tasks.extension import TASKS
from ..protocol.tasks.extension_methods import METHODS, declares_tasks
from .shared_tasks import QUEUED, Forwarded, SharedTasks, StoredTask
from .task_queue import CANCELLED, TaskQueue

if TYPE_CHECKING:
    from ..protocol.session import Session
    from ..protocol.tasks.extension import Task, TaskStore
    from .settings import Channel


__all__ = [
    "PUBLISH_EVERY",
    "TAKE_UP_WAIT",
    "STORE_AWAY",
    "Holder",
    "announce_elsewhere",
    "answer_forwarded",
    "forwarded_to",
    "from_store",
    "note_listened",
    "publish_changed",
    "share_tasks",
]

logger = logging.getLogger("objmcp")

STORE_AWAY = (
    "Internal error: the shared task store (Redis) cannot be reached, and this server "
    "process does not hold the task; try again"
)
"""What a request about a task answers while Redis is away."""

HEARD = 10_000
"""Tasks whose last change a process keeps in mind (to tell a change of status from one
of the message alone), and tasks a listen stream may name from elsewhere."""

PUBLISH_EVERY = 0.05
"""Seconds between two looks for tasks changed: how late another process may see a change."""

TAKE_UP_WAIT = 5.0
"""Seconds a request forwarded to a queue's worker waits for it to take up the task it
claimed (two round trips to Redis, as a rule)."""


class Holder(typing.Protocol):
    """What holds a session's tasks (a :class:`~objmcp.serving.runner.Runner`)."""

    @property
    def lock(self) -> contextlib.AbstractContextManager[Any]:
        """What guards the session."""
        ...

    @property
    def session(self) -> Session:
        """The session, whose tasks are published."""
        ...

    @property
    def channel(self) -> Channel:
        """How its client is reached (its session's id, in the handshake era)."""
        ...

    def handle(self, message: object, caller: Caller | None = None) -> list[Action]:
        """What the session says of ``message``."""
        ...

    def perform(self, actions: list[Action]) -> None:
        """Carry out what the session said."""
        ...


class _Outage:
    """Redis away, said once by whichever loop finds it, and said when it is back."""

    def __init__(self) -> None:
        self.failing = False

    def failed(self, error: Exception) -> None:
        if not self.failing:
            logger.warning("the shared task store failed (%s); trying again", error)
        self.failing = True

    def answered(self) -> None:
        if self.failing:
            logger.warning("the shared task store answers again")
        self.failing = False


async def share_tasks(
    shared: SharedTasks,
    runners: Callable[[], Iterable[Holder]],
    taking_up: Callable[[str], anyio.Event | None] | None = None,
) -> None:
    """Publish the tasks the sessions of ``runners()`` change, keep this process's lease,
    and answer the requests forwarded to it, until cancelled. ``taking_up(task_id)`` (a
    queue's worker) is the event set once a task it claimed is in its session, None when
    none is being taken up: a request about such a task is answered once it is set (at
    most :data:`TAKE_UP_WAIT` seconds later), the others meanwhile."""
    outage = _Outage()
    async with anyio.create_task_group() as all_three:
        all_three.start_soon(_answer_forwarded, shared, runners, outage, taking_up)
        all_three.start_soon(_hear_changes, shared, runners, outage)
        await _publish(shared, runners, outage)


async def _hear_changes(
    shared: SharedTasks, runners: Callable[[], Iterable[Holder]], outage: _Outage
) -> None:
    heard: dict[str, object] = {}  # what each task's last change said, oldest first
    while True:
        try:
            async for task in shared.changes():
                if task.core:
                    continue  # its session, which holds it, tells its client
                said = (task.body.get("status"), sorted(task.body.get("inputRequests") or ()))
                if heard.pop(task.task_id, None) == said:
                    heard[task.task_id] = said
                    continue  # its statusMessage alone: that is what polling is for
                heard[task.task_id] = said
                while len(heard) > HEARD:
                    del heard[next(iter(heard))]
                for runner in list(runners()):
                    announce_elsewhere(runner, task)
        except Exception as error:  # Redis away: said once, tried again
            outage.failed(error)
            await anyio.sleep(PUBLISH_EVERY)


def announce_elsewhere(runner: Holder, task: StoredTask) -> None:
    """``notifications/tasks`` for ``task``, which another process changed, on the
    listen streams of ``runner``'s session that asked for it."""
    with runner.lock:
        session = runner.session
        if not session.subscriptions.listens or session.tasks.by_id(task.task_id) is not None:
            return  # nobody listens; or held here, announced as it changed
        sent = session.subscriptions.task_status(task.task_id, task.caller_key, task.body)
    runner.perform([Send(m, m["params"]["_meta"][SUBSCRIPTION_ID_KEY]) for m in sent])


async def note_listened(
    shared: SharedTasks, runner: Holder, message: object, caller_key: str | None
) -> None:
    """Before a 2026-07-28 ``subscriptions/listen`` that names tasks: those this process
    does not hold and the store has for this caller are noted as held elsewhere, for the
    stream to hear of them."""
    if not isinstance(message, dict) or message.get("method") != "subscriptions/listen":
        return
    params = message.get("params")
    requested = params.get("notifications") if isinstance(params, dict) else None
    named = requested.get("taskIds") if isinstance(requested, dict) else None
    if not isinstance(named, list):
        return
    with runner.lock:
        tasks = runner.session.tasks
        asked = [t for t in named[:HEARD] if isinstance(t, str) and tasks.by_id(t) is None]
    for task_id in asked:
        try:
            found = await shared.fetch(task_id, caller_key)
        except Exception as error:  # Redis away: the stream hears of what is held here
            logger.warning("the shared task store failed (%s)", error)
            return
        if found is not None and not found.core:
            with runner.lock:
                runner.session.tasks.held_elsewhere(task_id, caller_key)


async def _publish(
    shared: SharedTasks, runners: Callable[[], Iterable[Holder]], outage: _Outage
) -> None:
    renewed = -math.inf
    while True:
        try:
            now = anyio.current_time()
            if now - renewed >= shared.lease / 3:
                await shared.renew()
                renewed = now
            for runner in list(runners()):
                await publish_changed(shared, runner)
            outage.answered()
        except Exception as error:  # Redis away: said once, tried again
            outage.failed(error)
        await anyio.sleep(PUBLISH_EVERY)


async def publish_changed(shared: SharedTasks, runner: Holder) -> None:
    """Publish the tasks ``runner``'s session changed since the last look, as
    ``tasks/get`` would answer them; those not published when Redis fails are looked at
    again next time."""
    async with shared.publishing:  # in the order taken: no older body lands after a newer
        with runner.lock:
            store = runner.session.tasks
            bodies = [(t, *_published(store, t, runner)) for t in store.take_changed()]
        for done, (task, scope, as_core, body) in enumerate(bodies):
            try:
                await shared.publish(task.task_id, scope, body, core=as_core)
            except BaseException:
                with runner.lock:  # this one and the rest, for the next look
                    store.changed.update(dict.fromkeys(t.task_id for t, *_ in bodies[done:]))
                raise


def _published(
    store: TaskStore, task: Task, runner: Holder
) -> tuple[str | None, bool, dict[str, Any]]:
    """How ``task`` is published: under whose key, whether as a 2025-11-25 core task, and
    its body (``tasks/get``'s of 2026-07-28; a core task's result kept when it failed
    with one, an error result). A core task is published under its
    :func:`~objmcp.protocol.tasks.core.scope`; a queue's worker publishes the task its
    front answered with (:attr:`TaskStore.published_as`)."""
    body = store.wire(task, True)
    scope, as_core = store.published_as.get(task.task_id, (task.caller_key, task.core))
    if as_core:
        scope = core.scope(scope, runner.channel.session_id)
    if as_core and task.result is not None:
        body["result"] = task.result
        if task.result.get("isError") is True and body["status"] == "completed":
            body["status"] = "failed"  # as 2025-11-25 says an error result
    return scope, as_core, body


async def _answer_forwarded(
    shared: SharedTasks,
    runners: Callable[[], Iterable[Holder]],
    outage: _Outage,
    taking_up: Callable[[str], anyio.Event | None] | None,
) -> None:
    one_at_a_time = anyio.Lock()  # answered in turn; only a wait for a take-up is aside

    async def reply(forwarded: Forwarded) -> None:
        async with one_at_a_time:
            await shared.replies(forwarded, await answer_forwarded(shared, runners(), forwarded))

    async def reply_once_taken_up(forwarded: Forwarded, taken: anyio.Event) -> None:
        with anyio.move_on_after(TAKE_UP_WAIT):
            await taken.wait()
        try:
            await reply(forwarded)
        except Exception as error:  # Redis away: said once
            outage.failed(error)

    async with anyio.create_task_group() as waiting:
        while True:
            try:
                forwarded = await shared.takes(wait=1.0)
                if forwarded is None:
                    continue
                params = forwarded.message.get("params")
                task_id = params.get("taskId") if isinstance(params, dict) else None
                taken = taking_up(task_id) if taking_up and isinstance(task_id, str) else None
                if taken is None:
                    await reply(forwarded)
                else:
                    waiting.start_soon(reply_once_taken_up, forwarded, taken)
            except Exception as error:  # Redis away: said once, tried again
                outage.failed(error)
                await anyio.sleep(PUBLISH_EVERY)


async def answer_forwarded(
    shared: SharedTasks, runners: Iterable[Holder], forwarded: Forwarded
) -> dict[str, Any]:
    """The response of the session holding the task of ``forwarded`` (a ``tasks/update``
    or ``tasks/cancel`` another process took), what it says besides carried out and its
    change published; the spec's unknown task when no session here holds it."""
    message = forwarded.message
    params = message.get("params")
    task_id = params.get("taskId") if isinstance(params, dict) else None
    holder = next(
        (r for r in runners if isinstance(task_id, str) and r.session.tasks.by_id(task_id)), None
    )
    request_id = message.get("id")
    if holder is None or not rpc.is_request_id(request_id):
        return _unknown(typing.cast("rpc.RequestId", request_id), task_id)
    key = forwarded.caller_key
    store = holder.session.tasks
    task = store.by_id(typing.cast("str", task_id))
    as_core = store.published_as.get(task.task_id, (None, False))[1] if task else False
    if as_core and task is not None:  # a queue's worker runs it as a 2026-07-28 task
        extension: dict[str, Any] = {CLIENT_CAPABILITIES_KEY: {"extensions": {TASKS: {}}}}
        meta = {PROTOCOL_VERSION_KEY: "2026-07-28", **extension}
        message = {**message, "params": {"taskId": task.task_id, "_meta": meta}}
        key = task.caller_key  # the front checked the caller it was published for
    actions = holder.handle(message, None if key is None else Caller(key=key))
    answer: dict[str, Any] | None = None
    rest = []
    for action in actions:
        if isinstance(action, Send) and _answers(action.message, message["id"]):
            answer = typing.cast("dict[str, Any]", action.message)
        else:
            rest.append(action)
    holder.perform(rest)
    await publish_changed(shared, holder)
    if answer is None:  # every request is answered; this one had better be too
        return rpc.error_response(request_id, rpc.INTERNAL_ERROR, "Internal error: no answer")
    if as_core and task is not None and "result" in answer:  # as 2025-11-25 answers it
        with holder.lock:
            answer = rpc.result_response(message["id"], core.wire(store, task))
    return answer


def _answers(message: object, request_id: rpc.RequestId) -> bool:
    return isinstance(message, dict) and "method" not in message and message.get("id") == request_id


def _unknown(request_id: rpc.RequestId, task_id: object) -> dict[str, Any]:
    return rpc.error_response(
        request_id,
        rpc.INVALID_PARAMS,
        f"Failed to retrieve task: Task not found ({task_id!r} is unknown, or has expired)",
    )


async def from_store(
    shared: SharedTasks,
    runner: Holder,
    message: object,
    caller_key: str | None,
    queue: TaskQueue | None = None,
) -> dict[str, Any] | None:
    """The response to a 2026-07-28 ``tasks/get``, ``tasks/update`` or ``tasks/cancel``
    for a task this process does not hold: ``tasks/get`` from the store, the others from
    the process that holds it (forwarded), or for a task still on the queue, from the
    ``queue``; None when the message is no such request, or the store has no such task
    for this caller (the session then answers as it would)."""
    if not isinstance(message, dict) or message.get("method") not in METHODS:
        return None
    params = message.get("params")
    task_id = params.get("taskId") if isinstance(params, dict) else None
    request_id = message.get("id")
    if not isinstance(params, dict) or not isinstance(task_id, str):
        return None
    if not rpc.is_request_id(request_id):
        return None
    try:
        revision, capabilities = modern_revision(meta_of(params))
    except rpc.ProtocolError:
        return None  # the session says what is wrong with it
    if not declares_tasks(capabilities):
        return None  # -32021, from the session
    with runner.lock:
        if runner.session.tasks.by_id(task_id) is not None:
            return None  # held here: the session answers
        info, cache = runner.session.info, runner.session.cache
    request_id = typing.cast("rpc.RequestId", request_id)
    try:
        found = await shared.fetch(task_id, caller_key)
    except Exception as error:  # Redis away: said, not taken for "no such task"
        logger.warning("the shared task store failed (%s)", error)
        return rpc.error_response(request_id, rpc.INTERNAL_ERROR, STORE_AWAY)
    if found is None or found.core:
        return None  # (a 2025-11-25 task is none of the extension's)
    method = message["method"]
    if method == "tasks/get":
        return rpc.result_response(request_id, complete(found.body, revision, info, cache, None))
    if method == "tasks/update" and not isinstance(params.get("inputResponses"), dict):
        return None  # the session says what is wrong with it
    acknowledged = rpc.result_response(request_id, complete({}, revision, info, cache, None))
    if found.ended:  # nothing left to answer or cancel: acknowledged, as its holder would
        return acknowledged
    owner = found.owner
    if owner == QUEUED and (method == "tasks/update" or queue is None):
        return acknowledged  # nothing asked yet; nothing this process can take off
    if owner == QUEUED and queue is not None:
        try:
            owner = await queue.cancel(task_id, caller_key, found.body)
        except Exception as error:
            logger.warning("the shared task store failed (%s)", error)
            return rpc.error_response(request_id, rpc.INTERNAL_ERROR, STORE_AWAY)
        if owner == CANCELLED:
            return acknowledged
    return await forwarded_to(shared, owner, message, caller_key, request_id)


async def forwarded_to(
    shared: SharedTasks,
    owner: str,
    message: dict[str, Any],
    caller_key: str | None,
    request_id: rpc.RequestId,
) -> dict[str, Any]:
    """The response of the process ``owner`` to ``message`` (a request of ``caller_key``
    about a task it holds), as the response to ``request_id``; an error when none came."""
    try:
        forwarded = {**message, "id": f"objmcp-forwarded-{secrets.token_hex(8)}"}
        response = await shared.forward(owner, forwarded, caller_key)
    except Exception as error:
        logger.warning("the shared task store failed (%s)", error)
        response = None
    if response is None:
        params = message.get("params")
        task_id = params.get("taskId") if isinstance(params, dict) else None
        return rpc.error_response(
            request_id,
            rpc.INTERNAL_ERROR,
            f"Internal error: the server process holding task {task_id!r} did not answer "
            "(or the shared task store is unreachable); try again",
        )
    return {**response, "id": request_id}
