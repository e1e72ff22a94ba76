"""An HTTP app's side of a shared task store (:mod:`objmcp.serving.shared_tasks`): its
tasks published as they change, its lease renewed, and ``tasks/get`` answered from the
store for a task another process holds.

:func:`share_tasks` runs for the app's life (its ASGI lifespan). Every
:data:`PUBLISH_EVERY` seconds it takes the tasks each session changed and publishes what
``tasks/get`` would answer for them. A failure of Redis is logged and tried again: plain
calls never wait for the store.
"""

from __future__ import annotations

import contextlib
import logging
import math
import typing
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import anyio

from ..protocol import jsonrpc as rpc
from ..protocol.modern import complete, meta_of, modern_revision
from ..protocol.tasks.extension_methods import declares_tasks
from .shared_tasks import SharedTasks

if TYPE_CHECKING:
    from ..protocol.session import Session


__all__ = ["PUBLISH_EVERY", "Holder", "from_store", "publish_changed", "share_tasks"]

logger = logging.getLogger("objmcp")

PUBLISH_EVERY = 0.05
"""Seconds between two looks for tasks changed: how late another process may see a change."""


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


async def share_tasks(shared: SharedTasks, runners: Callable[[], Iterable[Holder]]) -> None:
    """Publish the tasks the sessions of ``runners()`` change, and keep this process's
    lease, until cancelled."""
    renewed = -math.inf
    failing = False
    while True:
        try:
            now = anyio.current_time()
            if now - renewed >= shared.lease / 3:
                await shared.renew()
                renewed = now
            for runner in list(runners()):
                await publish_changed(shared, runner)
            failing = False
        except Exception as error:  # Redis away: said once, tried again
            if not failing:
                logger.warning("the shared task store failed (%s); trying again", error)
            failing = True
        await anyio.sleep(PUBLISH_EVERY)


async def publish_changed(shared: SharedTasks, runner: Holder) -> None:
    """Publish the tasks ``runner``'s session changed since the last look, as
    ``tasks/get`` would answer them; those not published when Redis fails are looked at
    again next time."""
    with runner.lock:
        store = runner.session.tasks
        changed = [t for t in store.take_changed() if not t.core]
        bodies = [(t.task_id, t.caller_key, store.wire(t, True)) for t in changed]
    for done, (task_id, caller_key, body) in enumerate(bodies):
        try:
            await shared.publish(task_id, caller_key, body)
        except BaseException:
            with runner.lock:  # this one and the rest, for the next look
                store.changed.update(dict.fromkeys(t for t, _, _ in bodies[done:]))
            raise


async def from_store(
    shared: SharedTasks, runner: Holder, message: object, caller_key: str | None
) -> dict[str, Any] | None:
    """The response to a 2026-07-28 ``tasks/get`` for a task this process does not hold,
    from the store; None when the message is no such request, or the store has no such
    task for this caller (the session then answers as it would)."""
    if not isinstance(message, dict) or message.get("method") != "tasks/get":
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
    try:
        found = await shared.fetch(task_id, caller_key)
    except Exception as error:  # Redis away: the session answers with what it holds
        logger.warning("the shared task store failed (%s)", error)
        return None
    if found is None:
        return None
    answer = complete(found.body, revision, info, cache, None)
    return rpc.result_response(typing.cast("rpc.RequestId", request_id), answer)
