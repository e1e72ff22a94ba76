"""Calls handed to a queue, for workers to run: Docket (``pydocket``), on the Redis of the
shared task store (:mod:`objmcp.serving.shared_tasks`).

A front (an HTTP app with a store) answers a 2026-07-28 call that is a task from the
start (its tool says ``task="always"``) or of a tool named in ``Tasks.queue`` with a
task at once, publishes the task as *queued* (no process holds it yet), and adds the
call to the queue, keyed by the task's id. An ``objmcp worker`` process
(:mod:`objmcp.serving.queue_worker`) takes it and runs it as its own session would, the
task's id kept; from then on the task is the worker's, as any task is the process's that
runs its call. What goes on the queue is sealed as the task records are: the request,
and who sent it.

A task still queued is cancelled in the store (and taken off the queue): whichever comes
first, the cancel or a worker, *claims* it (:meth:`SharedTasks.claim`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from ..model.calling.caller import caller_record
from ..protocol.modern import CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY
from ..protocol.tasks.extension import TASKS
from .shared_tasks import QUEUED, SharedTasks

if TYPE_CHECKING:
    from docket import Docket

    from ..model.calling.toolbox import Toolbox
    from ..protocol.actions import StartCall

__all__ = [
    "CANCELLED",
    "CALL_TASK",
    "QUEUE_NAME",
    "TaskQueue",
    "queued_message",
]

logger = logging.getLogger("objmcp")

QUEUE_NAME = "objmcp-calls"
"""The docket the calls go to (its keys' prefix in Redis)."""

CALL_TASK = "objmcp_call"
"""The name of the docket's task that runs a call (:mod:`objmcp.serving.queue_worker`)."""

CANCELLED = "cancelled"
"""Who claimed a task cancelled while it was queued (:meth:`SharedTasks.claim`)."""


class TaskQueue:
    """A front's side of the queue: which calls go there (those of the tools ``tools``,
    and of every tool that is always a task), and handing them over."""

    def __init__(self, shared: SharedTasks, tools: Collection[str] = ()) -> None:
        try:
            import docket  # noqa: F401  (said now, not at the first call)
        except ImportError:
            raise ImportError(
                "a queue of calls needs the redis extra: pip install 'objmcp[redis]'"
            ) from None
        self.shared = shared
        """The store the queue's tasks are published in."""
        self.tools = frozenset(tools)
        """The tools whose every call goes on the queue (beside those always a task)."""
        self._docket: Docket | None = None

    def takes(self, start: StartCall, toolbox: Toolbox) -> bool:
        """Whether the call ``start`` goes on the queue: a tool call of a tool named in
        :attr:`tools`, or always a task."""
        if start.kind != "tool":
            return False
        tool = toolbox.get(start.tool)
        return tool is not None and (tool.task == "always" or start.tool in self.tools)

    async def enqueue(
        self,
        task_id: str,
        caller_key: str | None,
        body: Mapping[str, Any],
        start: StartCall,
        created: float,
        *,
        core: bool = False,
    ) -> None:
        """Publish the task ``task_id`` of ``caller_key`` (``body``, as ``tasks/get``
        answers it) as queued, then put its call ``start`` on the queue; ``core`` for a
        2025-11-25 core task (``caller_key`` is then what it is published under)."""
        await self.shared.publish(task_id, caller_key, body, owner=QUEUED, core=core)
        job = {
            "message": queued_message(start, core),
            "caller": caller_record(start.context.caller),
            "created": created,
            "core": core,
            "scope": caller_key,
        }
        docket = await self._opened()
        await docket.add(CALL_TASK, key=task_id)(task_id, self.shared.sealed(_label(task_id), job))

    async def cancel(
        self, task_id: str, caller_key: str | None, body: Mapping[str, Any], *, core: bool = False
    ) -> str:
        """Cancel the queued task ``task_id`` (``body`` as ``tasks/get`` answers it now):
        taken off the queue and published cancelled, unless a worker claimed it first.
        Who holds it: :data:`CANCELLED`, or the worker's owner name."""
        holder = await self.shared.claim(task_id, CANCELLED)
        if holder != CANCELLED:
            return holder
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        cancelled = {**body, "status": "cancelled", "lastUpdatedAt": now}
        cancelled["statusMessage"] = "Cancelled by the client"
        await self.shared.publish(task_id, caller_key, cancelled, owner=QUEUED, core=core)
        docket = await self._opened()
        await docket.cancel(task_id)
        return CANCELLED

    async def aclose(self) -> None:
        """Let go of the queue's connections."""
        if self._docket is not None:
            docket, self._docket = self._docket, None
            await docket.__aexit__(None, None, None)

    async def _opened(self) -> Docket:
        if self._docket is None:
            from docket import Docket

            docket = Docket(name=QUEUE_NAME, url=self.shared.url)
            await docket.__aenter__()
            docket.register(_front_stand_in, names=[CALL_TASK])
            self._docket = docket
        return self._docket


async def _front_stand_in(task_id: str, job: str) -> None:  # pragma: no cover
    """A front names the workers' task; it never runs it."""
    raise RuntimeError("a queued call runs in an objmcp worker")


def opened_job(shared: SharedTasks, task_id: str, job: str) -> dict[str, Any] | None:
    """What :meth:`TaskQueue.enqueue` sealed for the task ``task_id``, or None."""
    return shared.opened(_label(task_id), job)


def _label(task_id: str) -> str:
    return f"queue:{task_id}"


def queued_message(start: StartCall, core: bool = False) -> dict[str, Any]:
    """The ``tools/call`` request a worker runs for the call ``start``: a 2026-07-28 one
    (that of a 2025-11-25 core task made so, with the tasks extension)."""
    meta = dict(start.context.meta)
    if core:
        meta[PROTOCOL_VERSION_KEY] = "2026-07-28"
        meta[CLIENT_CAPABILITIES_KEY] = {"extensions": {TASKS: {}}}
    params = {"name": start.tool, "arguments": start.arguments, "_meta": meta}
    return {"jsonrpc": "2.0", "id": "objmcp-queued", "method": "tools/call", "params": params}
