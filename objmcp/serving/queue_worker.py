"""A queue's worker (``objmcp worker URL TARGET``): the process that runs the calls fronts
put on the queue (:mod:`objmcp.serving.task_queue`).

It serves TARGET as a front would, but to no client: each call it takes from the queue
runs in its app's 2026-07-28 connection as the task the front answered, its id kept, and
the task is the worker's from then on (published as it changes, its lease kept; a
``tasks/update`` or ``tasks/cancel`` reaching any front is forwarded here). ``per=``
objects live here, each caller's its own, as in any process.

A worker that stops mid-call (killed, its machine lost) stops renewing its hold on the
call's message, and Docket hands the message to another worker after
:data:`REDELIVERY` seconds: the call is run once more when its tool says it is
idempotent (``idempotentHint``), and the task fails saying why when it does not (or it
was run again already). With no worker left, the task fails when the stopped worker's
lease runs out, as any task of a process that stopped does.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import anyio

from ..model.calling.caller import Caller, caller_from
from ..protocol.tasks.extension import Task
from .queueing import adopt
from .shared_tasks import SharedTasks
from .task_queue import CALL_TASK, CANCELLED, QUEUE_NAME, opened_job
from .task_sharing import publish_changed, share_tasks

if TYPE_CHECKING:
    from .asgi import McpApp

__all__ = ["REDELIVERY", "RUN_AGAIN_NOT", "QueueWorker"]

logger = logging.getLogger("objmcp")

REDELIVERY = 3.0
"""Seconds after which the call of a worker that stopped goes to another worker."""

RUN_AGAIN_NOT = (
    "The worker running this call stopped before it ended; the call was not run again "
    "(its tool does not say it is idempotent, or it was run again already)"
)
"""The status message of a task whose worker stopped, its call not run again."""

_running: contextvars.ContextVar[QueueWorker] = contextvars.ContextVar("objmcp_worker")
"""The worker whose Docket runs the task (Docket's tasks start in its context)."""


async def _run_queued(task_id: str, job: str) -> None:
    """Docket's task: run the queued call of the task ``task_id``."""
    await _running.get().run(task_id, job)


class QueueWorker:
    """Runs the queued calls of ``app``'s store, ``concurrency`` at once."""

    def __init__(self, app: McpApp[Any], concurrency: int = 10) -> None:
        shared = app.settings.shared
        if shared is None:
            raise ValueError("a worker needs the shared task store (Tasks(store=...))")
        if concurrency < 1:
            raise ValueError("concurrency must be 1 or more")
        self.app = app
        """The app whose 2026-07-28 connection the calls run in."""
        self.shared: SharedTasks = shared
        """The store the tasks are published in, and the queue's Redis."""
        self.concurrency = concurrency
        """Calls run at once."""
        self._taking_up = _TakingUp()

    async def serve(self, started: anyio.Event | None = None) -> None:
        """Take calls from the queue and run them until cancelled (``started`` is set
        once the worker listens)."""
        from docket import Docket, Worker

        _running.set(self)
        try:
            async with Docket(name=QUEUE_NAME, url=self.shared.url) as docket:
                docket.register(_run_queued, names=[CALL_TASK])
                async with anyio.create_task_group() as group:
                    group.start_soon(
                        share_tasks, self.shared, self.app.store.runners, self._taking_up.pending
                    )
                    async with Worker(
                        docket,
                        name=self.shared.owner,
                        concurrency=self.concurrency,
                        redelivery_timeout=timedelta(seconds=REDELIVERY),
                        minimum_check_interval=timedelta(milliseconds=50),
                        scheduling_resolution=timedelta(milliseconds=50),
                    ) as worker:
                        if started is not None:
                            started.set()
                        await worker.run_forever()
        finally:
            await self.app.aclose()
            await self.shared.aclose()

    async def run(self, task_id: str, job: str) -> None:
        """Run the queued call of the task ``task_id`` (``job``, as the front sealed it)
        to its end, the task published as it changes."""
        opened = opened_job(self.shared, task_id, job)
        if opened is None or not isinstance(opened.get("message"), dict):
            logger.warning("a queued call does not open (another state key?): left")
            return
        caller = caller_from(opened.get("caller"))
        core = opened.get("core") is True
        scope = opened.get("scope") if core else (caller.key if caller is not None else None)
        published = _Published(task_id, scope if isinstance(scope, str) else None, core)
        with self._taking_up.claiming(task_id):
            await self._take_up(published, opened, caller)

    async def _take_up(
        self, published: _Published, opened: dict[str, Any], caller: Caller | None
    ) -> None:
        task_id = published.task_id
        holder = await self.shared.claim(task_id, self.shared.owner)
        if holder == CANCELLED:
            return
        if holder != self.shared.owner:  # a worker that took it stopped
            if not await self._run_again(published, opened):
                return
        else:
            await self.shared.runs(task_id)
        runner = self.app.store.modern_connection().runner
        created = opened.get("created")
        created = created if isinstance(created, (int, float)) else time.time()
        store = runner.session.tasks
        async with anyio.create_task_group() as calls:
            refused = adopt(runner, opened["message"], caller, task_id, created, calls)
            if refused is not None:
                await self._fail(published, created, refused.get("error"))
                return
            if published.core:  # published as the 2025-11-25 task its front answered with
                store.published_as[task_id] = (published.scope, True)
            self._taking_up.taken(task_id)  # a forwarded request about it finds it now
            await publish_changed(self.shared, runner)  # this worker's now, before any forward
        await publish_changed(self.shared, runner)  # its end, at once
        store.published_as.pop(task_id, None)

    async def _run_again(self, published: _Published, job: dict[str, Any]) -> bool:
        """The call of the task ``published`` was taken by a worker that stopped: whether
        to run it again (its tool is idempotent, and it was not run again yet); else the
        task fails, saying why."""
        task_id = published.task_id
        found = await self.shared.fetch(task_id, published.scope)
        if found is None or found.ended:
            return False
        params = job["message"].get("params")
        name = params.get("name") if isinstance(params, dict) else None
        tool = self.app.settings.tools.get(name) if isinstance(name, str) else None
        idempotent = tool is not None and tool.annotations.get("idempotentHint") is True
        if idempotent and await self.shared.runs(task_id) < 3:
            await self.shared.claim(task_id, self.shared.owner, again=True)
            return True
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        body = {**found.body, "status": "failed", "statusMessage": RUN_AGAIN_NOT}
        body["lastUpdatedAt"] = now
        await self.shared.publish(task_id, published.scope, body, core=published.core)
        return False

    async def _fail(self, published: _Published, created: float, error: object) -> None:
        """The session refused the call of the task ``published`` (``error``): the task
        fails with it."""
        error = error if isinstance(error, dict) else {"code": -32603, "message": "Internal error"}
        store = self.app.store.modern_connection().runner.session.tasks
        task = Task(published.task_id, -1, published.scope, created, time.time())
        task.status, task.message, task.error = "failed", str(error.get("message")), error
        body = store.wire(task, True)
        await self.shared.publish(published.task_id, published.scope, body, core=published.core)


@dataclass(frozen=True)
class _Published:
    """How a queued call's task is published: under which caller key, and whether as a
    2025-11-25 core task."""

    task_id: str
    scope: str | None
    core: bool


class _TakingUp:
    """The tasks a worker claimed and has not yet made in its session: a request about
    one, forwarded here by the front its client reached (which sends it here as soon as
    the claim is made), is answered once the task is there."""

    def __init__(self) -> None:
        self._claimed: dict[str, anyio.Event] = {}

    @contextlib.contextmanager
    def claiming(self, task_id: str) -> Iterator[None]:
        """While the worker claims and takes up ``task_id`` (marked before the claim; a
        second take-up of the same task, a message handed out again, shares the mark)."""
        mine = task_id not in self._claimed
        if mine:
            self._claimed[task_id] = anyio.Event()
        try:
            yield
        finally:
            if mine:
                self.taken(task_id)

    def taken(self, task_id: str) -> None:
        """``task_id`` is in the session now (or was never to be)."""
        event = self._claimed.pop(task_id, None)
        if event is not None:
            event.set()

    def pending(self, task_id: str) -> anyio.Event | None:
        """The event set once ``task_id`` is taken up; None when it is not being taken up."""
        return self._claimed.get(task_id)
