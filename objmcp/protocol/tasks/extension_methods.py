"""2026-07-28: the tasks extension's methods, and what a task's call tells its task.

``tasks/get``, ``tasks/update`` and ``tasks/cancel`` answer only a request that
declares the extension (else -32021), and only about a task of its own caller: a task
of another caller, or one expired, is the spec's unknown task (-32602). The session
(:mod:`objmcp.protocol.session`) keeps the :class:`~objmcp.protocol.tasks.extension.TaskStore`
and calls these with itself.

A ``subscriptions/listen`` stream may name tasks of its caller (``taskIds``): each
change of such a task's status (``input_required`` and back, its end) is sent on
it as ``notifications/tasks``, the ``DetailedTask`` that ``tasks/get`` would answer.
A change of its ``statusMessage`` alone is not: that is what polling is for.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, Protocol

from .. import jsonrpc as rpc
from ..actions import Action, CacheHint, CancelCall, Send, ServerInfo, TaskAnswered
from ..calls import Call
from ..jsonrpc import Message, ProtocolError, RequestId
from ..modern import complete
from ..revisions import Revision
from ..subscriptions import SUBSCRIPTION_ID_KEY, Subscriptions, task_ids_in
from .extension import TASKS, Task, TaskStore

__all__ = [
    "METHODS",
    "Session",
    "announce",
    "asks",
    "check_required",
    "completed",
    "declares_tasks",
    "failed",
    "handle",
    "owned",
    "progress",
]

METHODS = frozenset({"tasks/get", "tasks/update", "tasks/cancel"})
"""The methods of the extension (2026-07-28)."""


class Session(Protocol):
    """What of the session (:class:`objmcp.protocol.session.Session`) the tasks use."""

    tasks: TaskStore
    clock: Callable[[], float]
    info: ServerInfo
    cache: dict[str, CacheHint]
    subscriptions: Subscriptions

    @property
    def caller_key(self) -> str | None:
        """The key of the caller of the message being read (None: one client only)."""
        ...

    def end_call(self, call_id: int) -> Call | None:
        """Forget the call ``call_id``: its end answers nothing."""
        ...


_REQUIRED: dict[str, Any] = {"extensions": {TASKS: {}}}
"""The client capabilities a task needs, as ``requiredCapabilities`` says them."""


def check_required(session: Session, call: Call, tool: str) -> None:
    """Refuse (-32021) a call to a tool that always runs as a task, from a 2026-07-28
    request that did not declare the tasks extension."""
    if call.revision.era != "modern" or declares_tasks(call.capabilities):
        return
    raise rpc.missing_capability(
        _REQUIRED,
        f"Missing required client capability: the tool {tool} always runs as a task; "
        f"declare the extension {TASKS} in the request's client capabilities",
    )


def handle(
    session: Session,
    request_id: RequestId,
    method: str,
    params: dict[str, Any],
    revision: Revision,
    capabilities: Mapping[str, Any],
    actions: list[Action],
) -> Message:
    """Answer ``tasks/get``, ``tasks/update`` or ``tasks/cancel``."""
    if not declares_tasks(capabilities):
        raise rpc.missing_capability(
            _REQUIRED,
            f"Missing required client capability: {method} needs the extension {TASKS} "
            "declared in the request's client capabilities",
        )
    task = _task(session, params, method)
    store, now = session.tasks, session.clock()
    body: dict[str, Any] = {}
    if method == "tasks/get":
        body = store.wire(task, True)
    elif method == "tasks/update":
        responses = params.get("inputResponses")
        if not isinstance(responses, dict):
            raise ProtocolError(
                rpc.INVALID_PARAMS,
                "tasks/update needs inputResponses: an object of answers keyed as the "
                "task's inputRequests",
            )
        before = task.status
        if store.answer(task, responses, now) or task.answers:
            actions.append(TaskAnswered(task.task_id))
        if task.status != before:
            actions.extend(announce(session, task))
    elif store.end(task, "cancelled", now):  # tasks/cancel; an ended task stays as it is
        task.message = "Cancelled by the client"
        session.end_call(task.call_id)
        actions.append(CancelCall(task.call_id))
        actions.extend(announce(session, task))
    result = complete(body, revision, session.info, session.cache, None)
    return rpc.result_response(request_id, result)


def completed(session: Session, task_id: str, result: dict[str, Any]) -> list[Action]:
    """The call of the task ``task_id`` ended with ``result`` (a ``CallToolResult``):
    the notifications its listeners are due."""
    task = session.tasks.by_id(task_id)
    if task is None or not session.tasks.end(task, "completed", session.clock(), result=result):
        return []
    return announce(session, task)


def failed(session: Session, task_id: str, error: ProtocolError) -> list[Action]:
    """The call of the task ``task_id`` ended with a JSON-RPC ``error``: the
    notifications its listeners are due."""
    task = session.tasks.by_id(task_id)
    store, now = session.tasks, session.clock()
    if task is None or not store.fail(task, error.code, error.message, error.data, now):
        return []
    return announce(session, task)


def asks(session: Session, task_id: str, requests: dict[str, dict[str, Any]]) -> list[Action]:
    """The call of the task ``task_id`` asks ``requests`` (by key): the notifications
    its listeners are due when that changed the task's status or questions."""
    task = session.tasks.by_id(task_id)
    if task is None:
        return []
    before = (task.status, set(task.questions))
    session.tasks.ask(task, requests, session.clock())
    if (task.status, set(task.questions)) == before:
        return []
    return announce(session, task)


def announce(session: Session, task: Task) -> list[Action]:
    """``notifications/tasks`` with ``task`` as ``tasks/get`` would answer it, on every
    listen stream of its caller that asked for it."""
    listening = session.subscriptions.listens
    if not listening:
        return []
    detailed = session.tasks.wire(task, True)
    sent = session.subscriptions.task_status(task.task_id, task.caller_key, detailed)
    return [Send(message, message["params"]["_meta"][SUBSCRIPTION_ID_KEY]) for message in sent]


def owned(
    session: Session,
    revision: Revision,
    capabilities: Mapping[str, Any],
    requested: object,
    extensions: Collection[str],
) -> Callable[[str], bool] | None:
    """For a ``subscriptions/listen`` whose filter is ``requested``: which task ids its
    caller may hear of (its own, alive), or None when the server has no tasks in
    ``revision`` (its ``extensions``). A filter that names tasks, from a request that
    did not declare the extension, is refused (-32021)."""
    if revision.era != "modern" or TASKS not in extensions:
        return None
    if isinstance(requested, dict) and task_ids_in(requested) and not declares_tasks(capabilities):
        raise rpc.missing_capability(
            _REQUIRED,
            f"Missing required client capability: notifications of tasks need the "
            f"extension {TASKS} declared in the request's client capabilities",
        )
    caller_key = session.caller_key

    def mine(task_id: str) -> bool:
        found = session.tasks.find(task_id, caller_key, session.clock())
        return found is not None or session.tasks.is_elsewhere(task_id, caller_key)

    return mine


def progress(
    session: Session, task_id: str, done: float, total: float | None, message: str | None
) -> None:
    """A task's call reports progress: its ``statusMessage`` says it."""
    task = session.tasks.by_id(task_id)
    if task is None:
        return
    if message is None:
        message = f"{done:g}" if total is None else f"{done:g} of {total:g}"
    session.tasks.say(task, message, session.clock())


def _task(session: Session, params: dict[str, Any], method: str) -> Task:
    task_id = params.get("taskId")
    if not isinstance(task_id, str):
        raise ProtocolError(rpc.INVALID_PARAMS, f'{method} needs a string "taskId"')
    task = session.tasks.find(task_id, session.caller_key, session.clock())
    if task is None:
        raise ProtocolError(
            rpc.INVALID_PARAMS,
            f"Failed to retrieve task: Task not found ({task_id!r} is unknown, or has expired)",
        )
    return task


def declares_tasks(capabilities: Mapping[str, Any]) -> bool:
    """Whether a request's client capabilities declare the tasks extension."""
    extensions = capabilities.get("extensions")
    return isinstance(extensions, dict) and isinstance(extensions.get(TASKS), dict)
