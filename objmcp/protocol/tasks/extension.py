"""2026-07-28: the tasks extension (``io.modelcontextprotocol/tasks``, SEP-2663), sans-IO.

A ``tools/call`` that runs long is answered ``resultType: "task"`` with a task id, to
a client that declared the extension on that request; the call runs on, and the
client polls it (``tasks/get``), answers its questions (``tasks/update``) or gives it
up (``tasks/cancel``). A :class:`TaskStore` holds one session's tasks: each belongs to
the caller that started it (another caller is told it does not exist), at most
``limit`` are alive at once (each caller its share:
:class:`~objmcp.protocol.shares.Shares`), and an ended task is kept ``keep`` seconds,
then forgotten. What ended tasks keep is bounded in all, across every store of a server,
by a :class:`~objmcp.protocol.tasks.kept.KeptTasks`: at most ``max_tasks`` ended tasks and
``max_task_results`` characters of their results; beyond either, ended tasks are
forgotten early, oldest first (a caller's over its share first), and answer as expired
ones do. The store has no clock of its own: every operation is given ``now``.

Theory of operation:

1. A task is ``working``, ``input_required`` (questions outstanding), or ended:
   ``completed``, ``failed`` or ``cancelled``; once ended it never changes again.
2. A cancelled task keeps no result, whatever the call does after.
3. Question keys are never reused within a task: an answer to a key that is not
   outstanding is ignored.
4. Nothing is kept past its expiry: every operation first forgets what expired.
5. A running task is never forgotten; an ended one may be, early, to keep within the
   bounds of :class:`~objmcp.protocol.tasks.kept.KeptTasks`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..shares import Shares
from .kept import KeptTasks, size_of

__all__ = [
    "DEFAULT_KEEP",
    "DEFAULT_MAX_TASKS",
    "DEFAULT_POLL_INTERVAL",
    "ENDED",
    "TASKS",
    "Status",
    "Task",
    "TaskStore",
    "TASK_MODES",
]

TASKS = "io.modelcontextprotocol/tasks"
"""The extension's name, in ``capabilities.extensions``."""

TASK_MODES = ("never", "optional", "always")
"""What a tool may say of tasks (``ToolOptions.task``)."""

Status = Literal["working", "input_required", "completed", "failed", "cancelled"]
ENDED = frozenset({"completed", "failed", "cancelled"})
"""The final statuses."""

DEFAULT_KEEP = 600.0
"""Seconds an ended task is kept for the client to fetch it (``task_ttl``)."""
DEFAULT_MAX_TASKS = 1000
"""Tasks alive at once in a session (``max_tasks``), beyond which a call is answered as a
plain call; and ended tasks kept at once in all, beyond which the oldest are forgotten."""
DEFAULT_POLL_INTERVAL = 0.5
"""Seconds between the client's polls, as suggested in ``pollIntervalMs``."""


@dataclass(eq=False)
class Task:
    """One task: its call, its caller's key, where it stands."""

    task_id: str
    call_id: int
    caller_key: str | None
    created: float
    updated: float
    status: Status = "working"
    message: str | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    questions: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Outstanding questions, by key (the ``inputRequests``)."""
    answers: dict[str, Any] = field(default_factory=dict)
    """Answers given by ``tasks/update`` and not yet taken by the call."""
    asked: set[str] = field(default_factory=set)
    """Every key ever asked (keys are never reused)."""
    expires: float | None = None
    """When it is forgotten (set when it ends)."""
    core: bool = False
    """A 2025-11-25 core task (:mod:`objmcp.protocol.tasks.core`), not the extension's."""
    size: int = 0
    """Once ended: about the characters it keeps (its result or error, its message)."""

    @property
    def ended(self) -> bool:
        """Whether the task reached a final status."""
        return self.status in ENDED


TASK_OVERHEAD = 256
"""Characters an ended task is counted for beyond its result: its record."""


class TaskStore:
    """The tasks of one session, bounded and expiring."""

    def __init__(
        self,
        limit: int = DEFAULT_MAX_TASKS,
        keep: float = DEFAULT_KEEP,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        route: str | None = None,
        kept: KeptTasks | None = None,
        published: bool = False,
    ) -> None:
        if limit < 0 or keep <= 0 or poll_interval <= 0:
            raise ValueError(
                "max_tasks cannot be negative; task_ttl and the poll interval must be positive"
            )
        self.limit, self.keep, self.poll_interval, self.route = limit, keep, poll_interval, route
        self.kept = kept if kept is not None else KeptTasks(limit)
        """The bounds of the ended tasks kept, shared by every store of the server."""
        self._tasks: dict[str, Task] = {}
        self._ended: dict[str, None] = {}  # ended, oldest first
        self._live = Shares(limit)
        self._closed = False
        self.published = published
        """Whether the tasks are published to a store shared by several processes: then
        the ids of those changed are kept for :meth:`take_changed`."""
        self.changed: dict[str, None] = {}
        self._elsewhere: dict[str, str | None] = {}  # oldest first
        self.made = 0
        """How many tasks the store has made (or adopted)."""
        self.published_as: dict[str, tuple[str | None, bool]] = {}
        """A queue's worker: the tasks published under another caller key than their
        call's, and as 2025-11-25 core tasks or not (what the front answered with)."""

    def held_elsewhere(self, task_id: str, caller_key: str | None) -> None:
        """The task ``task_id`` of the caller ``caller_key`` is another process's (a
        shared store has it): a listen stream of that caller may name it. At most
        ``limit`` such tasks are kept in mind, the oldest forgotten first."""
        self._elsewhere.pop(task_id, None)
        self._elsewhere[task_id] = caller_key
        while len(self._elsewhere) > max(self.limit, 1):
            del self._elsewhere[next(iter(self._elsewhere))]

    def is_elsewhere(self, task_id: str, caller_key: str | None) -> bool:
        """Whether :meth:`held_elsewhere` said the task ``task_id`` is ``caller_key``'s."""
        return task_id in self._elsewhere and self._elsewhere[task_id] == caller_key

    def _touched(self, task_id: str) -> None:
        if self.published:
            self.changed[task_id] = None

    def take_changed(self) -> list[Task]:
        """The tasks changed since the last call, each once, oldest change first."""
        ids, self.changed = self.changed, {}
        return [task for task_id in ids if (task := self._tasks.get(task_id)) is not None]

    def __len__(self) -> int:
        return len(self._tasks)

    def live(self) -> int:
        """Tasks not ended yet."""
        return len(self._live)

    def room(self, caller_key: str | None, now: float) -> bool:
        """Whether the caller ``caller_key`` may start one more task now: within its share
        of ``limit`` (see :class:`~objmcp.protocol.shares.Shares`)."""
        self.expire(now)
        return self._live.room(caller_key)

    def share(self, caller_key: str | None) -> int:
        """The tasks the caller ``caller_key`` may have alive now."""
        return self._live.share(caller_key)

    def create(self, call_id: int, caller_key: str | None, now: float) -> Task | None:
        """A new working task for the call ``call_id`` of the caller ``caller_key``; None
        when that caller has no room for it (:meth:`room`)."""
        if not self.room(caller_key, now):
            return None
        return self.adopt(self.new_id(), call_id, caller_key, now, now)

    def new_id(self) -> str:
        """A task id nobody can guess, with this store's route tag."""
        import secrets  # only a task needs it: serving starts without

        task_id = secrets.token_urlsafe(24)
        return task_id if not self.route else f"{self.route}.{task_id}"

    def adopt(
        self, task_id: str, call_id: int, caller_key: str | None, created: float, now: float
    ) -> Task:
        """A working task ``task_id`` for the call ``call_id`` of the caller ``caller_key``,
        made at ``created`` (by another process, when it named the task: a queue's worker
        runs the call of a task a front answered; no share is checked)."""
        task = self._tasks[task_id] = Task(task_id, call_id, caller_key, created, now)
        self._live.take(caller_key)
        self._touched(task_id)
        self.made += 1
        return task

    def find(self, task_id: object, caller_key: str | None, now: float) -> Task | None:
        """The task ``task_id`` if it is the caller ``caller_key``'s and has not expired."""
        self.expire(now)
        task = self._tasks.get(task_id) if isinstance(task_id, str) else None
        if task is None or task.caller_key != caller_key:
            return None
        return task

    def owned(self, caller_key: str | None, now: float) -> list[Task]:
        """The tasks of the caller ``caller_key`` not expired, oldest first."""
        self.expire(now)
        return [task for task in self._tasks.values() if task.caller_key == caller_key]

    def by_id(self, task_id: str) -> Task | None:
        """The task ``task_id`` whoever owns it (for the call that runs it)."""
        return self._tasks.get(task_id)

    def end(
        self,
        task: Task,
        status: Status,
        now: float,
        result: dict[str, Any] | None = None,
        error: dict[str, Any] | None = None,
    ) -> bool:
        """End ``task`` with ``status`` (and its result or error); False when it had
        ended already (a cancelled task keeps no later result)."""
        if task.ended or task.task_id not in self._tasks:
            return False
        task.status, task.updated = status, now
        task.result, task.error = result, error
        task.questions.clear()
        task.answers.clear()
        task.expires = now + self.keep
        self._live.give(task.caller_key)
        self._ended[task.task_id] = None
        task.size = TASK_OVERHEAD + size_of(result) + size_of(error)
        self._touched(task.task_id)
        if not self._closed:
            self.kept.keep(self, task, now)
        return True

    def fail(self, task: Task, code: int, message: str, data: object, now: float) -> bool:
        """End ``task`` ``failed`` with the JSON-RPC error ``code``, ``message`` (its
        ``statusMessage`` too) and ``data`` (None: none); False when it had ended already."""
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        if not self.end(task, "failed", now, error=error):
            return False
        task.message = message
        self._touched(task.task_id)
        return True

    def ask(self, task: Task, questions: Mapping[str, dict[str, Any]], now: float) -> None:
        """The task's call asks ``questions`` (by key): it is ``input_required`` until all
        are answered."""
        if task.ended:
            return
        for key, question in questions.items():
            if key not in task.asked and key not in task.answers:
                task.asked.add(key)
                task.questions[key] = question
        if task.questions:
            task.status, task.updated = "input_required", now
        self._touched(task.task_id)

    def answer(self, task: Task, responses: Mapping[str, Any], now: float) -> bool:
        """Record the answers to outstanding questions (others are ignored); whether all
        are answered now."""
        for key, response in responses.items():
            if key in task.questions:
                del task.questions[key]
                task.answers[key] = response
        if task.ended:
            return False
        if not task.questions and task.status == "input_required":
            task.status, task.updated = "working", now
        self._touched(task.task_id)
        return not task.questions

    def take_answers(self, task: Task, keys: set[str]) -> dict[str, Any]:
        """The answers to ``keys`` the client gave, handed to the call and forgotten."""
        return {key: task.answers.pop(key) for key in keys if key in task.answers}

    def say(self, task: Task, message: str, now: float) -> None:
        """The call's latest progress message becomes the task's ``statusMessage``."""
        if not task.ended:
            task.message, task.updated = message, now
            self._touched(task.task_id)

    def expire(self, now: float) -> None:
        """Forget the ended tasks whose time is up."""
        ended = self._ended
        while ended:
            task = self._tasks[next(iter(ended))]
            if task.expires is not None and task.expires > now:
                break
            self.forget(task)
            self.kept.drop(task)

    def hand_over(self, task: Task) -> None:
        """Forget the running ``task`` now: another process runs its call (a queue's
        worker), and the shared store answers for it."""
        if not task.ended and self._tasks.get(task.task_id) is task:
            del self._tasks[task.task_id]
            self._live.give(task.caller_key)
            self.changed.pop(task.task_id, None)

    def forget(self, task: Task) -> None:
        """Forget the ended ``task`` now (expired, or beyond the bounds of what is kept):
        it answers as an expired task does."""
        if task.ended and self._tasks.get(task.task_id) is task:
            del self._tasks[task.task_id]
            del self._ended[task.task_id]

    def close(self) -> None:
        """The session is over: what its ended tasks keep counts no more in the bounds
        of :attr:`kept`, nor will what its tasks still running keep when they end."""
        self._closed = True
        for task_id in self._ended:
            self.kept.drop(self._tasks[task_id])

    def wire(self, task: Task, detailed: bool) -> dict[str, Any]:
        """The task on the wire: a ``Task`` (``CreateTaskResult``), or with ``detailed``
        the ``DetailedTask`` of ``tasks/get`` (its result, error or questions inlined)."""
        found: dict[str, Any] = {
            "taskId": task.task_id,
            "status": task.status,
            "createdAt": _iso(task.created),
            "lastUpdatedAt": _iso(task.updated),
            "ttlMs": None if task.expires is None else _ms(task.expires - task.created),
            "pollIntervalMs": _ms(self.poll_interval),
        }
        if task.message is not None:
            found["statusMessage"] = task.message
        if not detailed:
            return found
        if task.status == "completed" and task.result is not None:
            found["result"] = task.result
        elif task.status == "failed" and task.error is not None:
            found["error"] = task.error
        elif task.status == "input_required":
            found["inputRequests"] = dict(task.questions)
        return found


def _iso(moment: float) -> str:
    import datetime  # only a task needs it: serving starts without

    return (
        datetime.datetime.fromtimestamp(moment, datetime.timezone.utc)
        .isoformat()
        .replace("+00:00", "Z")
    )


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))
