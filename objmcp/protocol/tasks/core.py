"""2025-11-25: the experimental core tasks of that revision, sans-IO.

A server declares ``capabilities.tasks`` (``list``, ``cancel``, ``requests.tools.call``)
and each tool its ``execution.taskSupport`` (``forbidden``, ``optional``, ``required``,
from its ``task`` option: ``"never"``, none or ``"optional"``, ``"always"``). A
``tools/call`` whose params carry ``task`` is answered at once with a
``CreateTaskResult``; the call runs on, and the client asks ``tasks/get`` how it
stands, ``tasks/result`` for its answer (which waits for the end, then answers
exactly what the call would have: its result, with the related-task ``_meta``, or its
JSON-RPC error), ``tasks/list`` for its own tasks (in pages) and ``tasks/cancel``
to give one up. A change of status is told in ``notifications/tasks/status`` (the spec
lets a server choose which): not a cancel, whose answer says it, nor the return to
``working`` when no ``tasks/result`` waits to carry it.

The tasks live in the session's :class:`~objmcp.protocol.tasks.extension.TaskStore`, beside the
2026-07-28 extension's (bounded, expiring, each its caller's), marked
:attr:`~objmcp.protocol.tasks.extension.Task.core`. :class:`CoreTasks` keeps the rest: the
``tasks/result`` requests waiting for a task's end, and the questions of a task's
call. A question (``elicitation/create``, ``sampling/createMessage``) carries the
related-task ``_meta`` and puts the task in ``input_required`` until it is answered. It
goes out on a waiting ``tasks/result`` (over HTTP, that request's stream); else at once
where a message reaches the client unasked (stdio; HTTP's GET stream, while open), for
the clients that only poll ``tasks/get`` (FastMCP's); else it is held until a
``tasks/result`` comes, as the spec's flow and the SDKs have it. The task's other
messages (progress, log records, status) go with a waiting ``tasks/result`` too, else
unrelated (over HTTP, the GET stream).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .. import jsonrpc as rpc
from .. import notifications
from ..actions import Action, CancelCall, Send
from ..calls import Call
from ..jsonrpc import Message, ProtocolError, RequestId
from ..questions import Questions
from .extension import Task, TaskStore

__all__ = [
    "METHODS",
    "RELATED_TASK",
    "CoreTasks",
    "Session",
    "answered",
    "as_core",
    "ask",
    "capability",
    "check_room",
    "create",
    "errored",
    "finished",
    "handle",
    "payload",
    "progress",
    "requested",
    "scope",
    "tag",
    "task_support",
    "wire",
]

METHODS = frozenset({"tasks/get", "tasks/result", "tasks/list", "tasks/cancel"})
"""The methods of the core tasks (2025-11-25)."""


def capability() -> dict[str, Any]:
    """What the server declares in ``capabilities.tasks``."""
    return {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}


RELATED_TASK = "io.modelcontextprotocol/related-task"
"""The ``_meta`` key that ties a message to its task."""

PAGE_SIZE = 100
"""Tasks in one page of ``tasks/list`` when the server sets no ``page_size``."""

_SUPPORT = {"never": "forbidden", "always": "required"}
_STATUS = "notifications/tasks/status"


def task_support(mode: str | None) -> str:
    """A tool's ``execution.taskSupport`` from its ``task`` option: ``"never"`` is
    ``forbidden``, ``"always"`` ``required``, anything else ``optional``."""
    return _SUPPORT.get(mode or "optional", "optional")


class CoreTasks:
    """What a session keeps of its core tasks beside the store: the ``tasks/result``
    requests waiting, the questions held for one, and which task asked which."""

    def __init__(self, reachable: Callable[[], bool] | None = None) -> None:
        self.waiting: dict[RequestId, str] = {}
        """``tasks/result`` requests waiting for their task's end -> its id."""
        self.held: dict[str, list[Message]] = {}
        """Questions of a task's call not sent yet (no ``tasks/result`` waited), by task."""
        self.asks: dict[str, str] = {}
        """Our questions still unanswered -> the task whose call asked."""
        self.reachable: Callable[[], bool] = reachable or _always
        """Whether a message related to no request reaches the client now (always on
        stdio; over HTTP, while the session's GET stream is open): a task's question then
        goes out at once, for the clients that never call ``tasks/result`` before the end
        (FastMCP's); else it is held for a ``tasks/result``."""

    def related(self, task_id: str) -> RequestId | None:
        """A ``tasks/result`` request waiting for ``task_id``, if any: where the task's
        messages go."""
        return next((rid for rid, waited in self.waiting.items() if waited == task_id), None)


def _always() -> bool:
    return True


class Session(Protocol):
    """What of the session (:class:`objmcp.protocol.session.Session`) the core tasks use."""

    tasks: TaskStore
    core: CoreTasks
    questions: Questions
    clock: Callable[[], float]
    page_size: int | None
    max_calls: int

    @property
    def caller_key(self) -> str | None:
        """The key of the caller of the message being read (None: one client only)."""
        ...

    def end_call(self, call_id: int) -> Call | None:
        """Forget the call ``call_id``: its end answers nothing."""
        ...


def requested(params: dict[str, Any], mode: str | None, tool: str, knows: bool) -> bool:
    """Whether a ``tools/call`` asks to run as a task (``params.task``); -32601 when its
    tool's ``taskSupport`` says otherwise, -32602 for a ``task`` that is not one. A
    ``required`` tool called plainly is refused only from a client that ``knows`` tasks
    (it declared the ``tasks`` capability): one that knows none gets a plain call."""
    task = params.get("task")
    support = task_support(mode)
    if task is None:
        if support == "required" and knows:
            raise ProtocolError(
                rpc.METHOD_NOT_FOUND,
                f"Task augmentation required: the tool {tool} runs only as a task "
                "(execution.taskSupport is required); send params.task with the call",
            )
        return False
    ttl = task.get("ttl") if isinstance(task, dict) else None
    if not isinstance(task, dict) or not (
        ttl is None or (isinstance(ttl, (int, float)) and not isinstance(ttl, bool) and ttl >= 0)
    ):
        raise ProtocolError(
            rpc.INVALID_PARAMS,
            'Invalid params: "task" must be an object, with an optional "ttl" in '
            "milliseconds (a number, 0 or more)",
        )
    if support == "forbidden":
        raise ProtocolError(
            rpc.METHOD_NOT_FOUND,
            f"The tool {tool} does not run as a task (execution.taskSupport is forbidden); "
            "call it without params.task",
        )
    return True


def check_room(session: Session) -> None:
    """Refuse a task-augmented call when its caller's share of ``max_tasks`` is used
    (-32000): a client that asked for a task waits for one, not for a plain answer."""
    store, caller_key = session.tasks, session.caller_key
    if not store.room(caller_key, session.clock()):
        raise ProtocolError(
            rpc.SERVER_BUSY,
            f"Server busy: {store.live()} tasks are running, the most this session keeps "
            f"for this client (max_tasks, {store.share(caller_key)} a caller while several have "
            "tasks); send the call again when one has ended, or without params.task",
        )


def create(session: Session, call: Call, call_id: int) -> tuple[list[Action], str] | None:
    """Make the call ``call_id`` a core task: the ``CreateTaskResult`` that answers it
    and the task's id (None when its caller's share of ``max_tasks`` is used: see
    :func:`check_room`)."""
    task = session.tasks.create(call_id, call.caller_key, session.clock())
    if task is None:
        return None
    task.core = True
    call.task = task.task_id
    response = rpc.result_response(call.request_id, {"task": wire(session.tasks, task)})
    return [Send(response, call.request_id)], task.task_id


def wire(store: TaskStore, task: Task) -> dict[str, Any]:
    """The task as 2025-11-25 says it (``Task``): ``ttl`` is ``null`` while it runs (it
    is kept until it ends), then its whole life in milliseconds, ``task_ttl`` after its
    end included."""
    return as_core(store.wire(task, False))


def scope(caller_key: str | None, session_id: str | None) -> str | None:
    """Whose a core task is beyond its session (in a store several processes share): its
    caller's; with no known caller, its session's only (no other session of the same
    anonymous clients may name it)."""
    if caller_key is not None or session_id is None:
        return caller_key
    return f"session:{session_id}"


def as_core(detailed: Mapping[str, Any]) -> dict[str, Any]:
    """A task as 2026-07-28's ``tasks/get`` says it, as 2025-11-25 says it (``Task``):
    ``ttl`` and ``pollInterval`` for ``ttlMs`` and ``pollIntervalMs``, and none of what
    ``tasks/result`` gives (its result, error or questions)."""
    inner = ("result", "error", "inputRequests", "ttlMs", "pollIntervalMs")
    found = {key: value for key, value in detailed.items() if key not in inner}
    found["ttl"] = detailed.get("ttlMs")
    found["pollInterval"] = detailed.get("pollIntervalMs")
    return found


def handle(
    session: Session,
    request_id: RequestId,
    method: str,
    params: dict[str, Any],
    actions: list[Action],
) -> Message | None:
    """Answer ``tasks/get``, ``tasks/list`` or ``tasks/cancel``; answer ``tasks/result``
    now for a task that has ended, else when it ends (None)."""
    store, now = session.tasks, session.clock()
    if method == "tasks/list":
        return rpc.result_response(request_id, _page(session, params))
    task = _task(session, params)
    if method == "tasks/get":
        return rpc.result_response(request_id, wire(store, task))
    if method == "tasks/cancel":
        if task.ended:
            raise ProtocolError(
                rpc.INVALID_PARAMS,
                f"Cannot cancel task: already in terminal status {task.status!r}",
            )
        store.end(task, "cancelled", now)
        task.message = "The task was cancelled by request."
        session.end_call(task.call_id)
        actions.append(CancelCall(task.call_id))
        actions.extend(_ended(session, task, told=False))  # the answer tells it
        return rpc.result_response(request_id, wire(store, task))
    if task.ended:  # tasks/result
        return payload(task, request_id)
    if len(session.core.waiting) >= session.max_calls:
        raise ProtocolError(
            rpc.SERVER_BUSY,
            f"Server busy: {len(session.core.waiting)} tasks/result requests wait already "
            "(max_calls); ask again when one has been answered",
        )
    session.core.waiting[request_id] = task.task_id
    held = session.core.held.pop(task.task_id, [])
    actions.extend(Send(question, request_id) for question in held)
    return None


def finished(session: Session, task_id: str, answer: dict[str, Any]) -> list[Action]:
    """The call of the task ``task_id`` ended with ``answer`` (a ``CallToolResult``): the
    task is ``completed``, or ``failed`` when the result is an error."""
    task = session.tasks.by_id(task_id)
    if task is None:
        return []
    failed = answer.get("isError") is True
    if not session.tasks.end(
        task, "failed" if failed else "completed", session.clock(), result=answer
    ):
        return []
    if failed:
        said = "".join(b.get("text", "") for b in answer.get("content", ()) if isinstance(b, dict))
        task.message = said[:500] or "The tool reported an error"
    return _ended(session, task)


def errored(session: Session, task_id: str, error: ProtocolError) -> list[Action]:
    """The call of the task ``task_id`` ended with a JSON-RPC ``error``: ``failed``."""
    task = session.tasks.by_id(task_id)
    store, now = session.tasks, session.clock()
    if task is None or not store.fail(task, error.code, error.message, error.data, now):
        return []
    return _ended(session, task)


def ask(
    session: Session, task_id: str, call_id: int, method: str, params: dict[str, Any]
) -> tuple[list[Action], str]:
    """The call of the task ``task_id`` asks the client (``method``, ``params``): the
    request, with the related-task ``_meta``, goes on a waiting ``tasks/result`` or is
    held for one; the task is ``input_required`` until it is answered. The actions and
    the question's id."""
    meta = params.get("_meta")
    meta = {**(meta if isinstance(meta, dict) else {}), RELATED_TASK: {"taskId": task_id}}
    sent, ask_id = session.questions.ask(call_id, None, method, {**params, "_meta": meta})
    task = session.tasks.by_id(task_id)
    if task is None or task.ended:
        return [], ask_id  # given up: nobody will answer
    (send,) = sent
    assert isinstance(send, Send) and isinstance(send.message, dict)
    question = send.message
    session.core.asks[ask_id] = task_id
    before = task.status
    session.tasks.ask(task, {ask_id: {"method": method, "params": params}}, session.clock())
    related = session.core.related(task_id)
    actions: list[Action] = _told(session, task, before)
    if related is None and not session.core.reachable():
        session.core.held.setdefault(task_id, []).append(question)
    else:
        actions.append(Send(question, related))
    return actions, ask_id


def answered(session: Session, ask_id: str) -> list[Action]:
    """The client answered our question ``ask_id``: its task works again once nothing is
    left unanswered."""
    task_id = session.core.asks.pop(ask_id, None)
    task = session.tasks.by_id(task_id) if task_id is not None else None
    if task is None:
        return []
    before = task.status
    session.tasks.answer(task, {ask_id: None}, session.clock())
    session.tasks.take_answers(task, {ask_id})
    if session.core.related(task.task_id) is None:
        return []  # told nowhere: over HTTP it would join the answer's own POST
    return _told(session, task, before)


def progress(
    session: Session, call: Call, done: float, total: float | None, message: str | None
) -> list[Action]:
    """A core task's call reports progress: its ``statusMessage`` says it (the caller
    sets it), and the progress notification goes out if the call asked for them, with
    the related-task ``_meta``."""
    return tag(session, call, notifications.progress(call, done, total, message))


def tag(session: Session, call: Call, sent: list[Action]) -> list[Action]:
    """The notifications ``sent`` of a core task's call (progress, log records), with the
    related-task ``_meta`` and going where the task's messages go (its call's own
    request was answered long ago, and its id may be another request's now)."""
    task_id = call.task
    assert task_id is not None
    where = session.core.related(task_id)
    for action in sent:
        if isinstance(action, Send) and isinstance(action.message, dict):
            params = action.message["params"]
            params["_meta"] = {**params.get("_meta", {}), RELATED_TASK: {"taskId": task_id}}
            action.related = where
    return sent


def _told(session: Session, task: Task, before: str) -> list[Action]:
    """``notifications/tasks/status`` when the task's status is not ``before`` any more."""
    return [] if task.status == before else [_status(session, task)]


def _status(session: Session, task: Task) -> Send:
    """``notifications/tasks/status``: the whole task, as it stands."""
    notice = {"jsonrpc": "2.0", "method": _STATUS, "params": wire(session.tasks, task)}
    return Send(notice, session.core.related(task.task_id))


def _ended(session: Session, task: Task, told: bool = True) -> list[Action]:
    """A task ended: its status ``told``, the ``tasks/result`` requests waiting answered,
    its questions forgotten."""
    core = session.core
    actions: list[Action] = [_status(session, task)] if told else []
    core.held.pop(task.task_id, None)
    for ask_id in [a for a, asker in core.asks.items() if asker == task.task_id]:
        del core.asks[ask_id]
    for request_id in [r for r, waited in core.waiting.items() if waited == task.task_id]:
        del core.waiting[request_id]
        actions.append(Send(payload(task, request_id), request_id))
    return actions


def payload(task: Task, request_id: RequestId) -> Message:
    """What ``tasks/result`` answers for an ended task: the call's result, with the
    related-task ``_meta``, or its JSON-RPC error."""
    if task.result is not None:
        meta = task.result.get("_meta")
        meta = {**(meta if isinstance(meta, dict) else {}), RELATED_TASK: {"taskId": task.task_id}}
        return rpc.result_response(request_id, {**task.result, "_meta": meta})
    if task.error is not None:
        return {"jsonrpc": "2.0", "id": request_id, "error": task.error}
    return rpc.error_response(
        request_id,
        rpc.INVALID_PARAMS,
        f"Task {task.task_id} was cancelled: it has no result",
    )


def _task(session: Session, params: dict[str, Any]) -> Task:
    """The task ``params.taskId`` of the caller, if it is a core task not expired;
    -32602 otherwise (another caller's task is not found, whoever asks)."""
    task_id = params.get("taskId")
    if not isinstance(task_id, str):
        raise ProtocolError(rpc.INVALID_PARAMS, 'Invalid params: needs a string "taskId"')
    task = session.tasks.find(task_id, session.caller_key, session.clock())
    if task is None or not task.core:
        raise ProtocolError(
            rpc.INVALID_PARAMS,
            f"Failed to retrieve task: Task not found ({task_id!r} is unknown, or has expired)",
        )
    return task


def _page(session: Session, params: dict[str, Any]) -> dict[str, Any]:
    """One page of the caller's tasks, oldest first; the cursor is the id of the last
    task of the page before (-32602 when that task is gone or was never listed)."""
    owned = [t for t in session.tasks.owned(session.caller_key, session.clock()) if t.core]
    start = 0
    cursor = params.get("cursor")
    if cursor is not None:
        ids = [task.task_id for task in owned]
        if not isinstance(cursor, str) or cursor not in ids:
            raise ProtocolError(
                rpc.INVALID_PARAMS,
                f"Invalid params: {cursor!r} is not a cursor of tasks/list (or its task has "
                "expired since: list again from the start)",
            )
        start = ids.index(cursor) + 1
    size = session.page_size or PAGE_SIZE
    shown = owned[start : start + size]
    found: dict[str, Any] = {"tasks": [wire(session.tasks, task) for task in shown]}
    if start + size < len(owned):
        found["nextCursor"] = shown[-1].task_id
    return found
