"""What :mod:`objmcp.testing`'s client hands a test, and what it makes of the test's answers.

The results a test reads (:class:`CallResult`, :class:`ProgressReport`,
:class:`Task`), the error that goes both ways (:class:`ResponseError`: the
server's error answer, or the test's function refusing a question), and the other
direction: the functions a test gives to answer the server's questions (a
:data:`Handler` each), the capabilities they make the client declare, and the
readers that turn what they return (an :class:`~objmcp.ElicitResult`, a string, a
list of roots...) into the JSON-RPC result. Plain data, no I/O: the client that
sends and receives is in ``objmcp._testclient``. The public names are re-exported
by :mod:`objmcp.testing`, and that is where to import them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .model.calling.inject import ElicitResult, Root, SampleResult
from .protocol.revisions import REVISIONS, Era
from .protocol.tasks.extension import ENDED, TASKS

__all__ = [
    "CallResult",
    "Handler",
    "ProgressReport",
    "READERS",
    "ResponseError",
    "Task",
    "capabilities_for",
    "constant",
]

Handler = Callable[[dict[str, Any]], Any]
"""A function that answers one kind of the server's requests: called with the request's
``params``, sync or async (its result may be awaitable)."""


class ResponseError(Exception):
    """A JSON-RPC error answer.

    The client raises it when the server answers a request with an error
    (``code``, ``message``, ``data`` as sent). Raise it from an ``elicit``,
    ``sample`` or ``roots`` function to answer the server with that error: in the
    handshake era it goes back as the error response; in the modern era, where a
    client cannot answer a question with an error, it comes out of
    :meth:`Client.call`, as the official SDK does.
    """

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def error(self) -> dict[str, Any]:
        """The JSON-RPC ``error`` object."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class ProgressReport(NamedTuple):
    """One ``notifications/progress`` of a call; compares equal to its plain tuple."""

    progress: float
    total: float | None = None
    message: str | None = None


@dataclass(frozen=True)
class CallResult:
    """What a tool call answered.

    ``raw`` is the result object as the server sent it (the last one, in the
    modern era; a task's inlined result when the call became a task);
    ``progress`` the progress reports received for the call; ``rounds`` the
    ``input_required`` rounds it took (modern era; 0 otherwise); ``task_id`` the
    task the call became, followed to its end (2026-07-28; else None).
    """

    raw: Mapping[str, Any]
    progress: list[ProgressReport] = field(default_factory=list)
    rounds: int = 0
    task_id: str | None = None

    @property
    def content(self) -> list[dict[str, Any]]:
        """The content blocks."""
        return list(self.raw.get("content") or [])

    @property
    def text(self) -> str:
        """The text blocks' text, joined."""
        return "".join(
            str(block.get("text", "")) for block in self.content if block.get("type") == "text"
        )

    @property
    def is_error(self) -> bool:
        """Whether the tool failed (``isError``)."""
        return self.raw.get("isError") is True

    @property
    def structured(self) -> Any:
        """The ``structuredContent``, where the server sent one (else None)."""
        return self.raw.get("structuredContent")

    @property
    def value(self) -> Any:
        """The text read as JSON when it is JSON (``"5"`` is ``5``), else the text itself."""
        try:
            return json.loads(self.text)
        except ValueError:
            return self.text


@dataclass(frozen=True)
class Task:
    """A task, as the server last described it: of the 2026-07-28 tasks extension, or
    one of 2025-11-25's core tasks.

    ``raw`` is the task object as sent: ``tools/call``'s ``resultType: "task"``
    answer, or ``tasks/get``'s (which inlines the result, the error or the
    questions); in 2025-11-25, the ``task`` of the ``CreateTaskResult``, or
    ``tasks/get``'s answer, to which :meth:`Client.follow_task` adds the ``result``
    or ``error`` that ``tasks/result`` gave.
    """

    raw: Mapping[str, Any]

    @property
    def task_id(self) -> str:
        """The task's id (``taskId``)."""
        return str(self.raw.get("taskId"))

    @property
    def status(self) -> str:
        """``working``, ``input_required``, ``completed``, ``failed`` or ``cancelled``."""
        return str(self.raw.get("status"))

    @property
    def ended(self) -> bool:
        """Whether the status is final: ``completed``, ``failed`` or ``cancelled``."""
        return self.status in ENDED

    @property
    def status_message(self) -> str | None:
        """The ``statusMessage`` (a task's latest progress message), if any."""
        message = self.raw.get("statusMessage")
        return None if message is None else str(message)

    @property
    def input_requests(self) -> dict[str, dict[str, Any]]:
        """The questions outstanding (``input_required``), by key: ``method`` and
        ``params`` each, to answer with :meth:`Client.update_task`."""
        return dict(self.raw.get("inputRequests") or {})

    @property
    def result(self) -> CallResult | None:
        """The call's result, once ``completed`` (and fetched by ``tasks/get``); in
        2025-11-25 also once ``failed`` by a result with ``isError``."""
        result = self.raw.get("result")
        if self.status not in ("completed", "failed") or not isinstance(result, Mapping):
            return None
        return CallResult(result, task_id=self.task_id)

    @property
    def error(self) -> ResponseError | None:
        """The call's JSON-RPC error, once ``failed``."""
        error = self.raw.get("error")
        if self.status != "failed" or not isinstance(error, Mapping):
            return None
        return ResponseError(error.get("code", 0), str(error.get("message")), error.get("data"))

    @property
    def poll_interval(self) -> float | None:
        """The seconds the server suggests between two polls (``pollIntervalMs``; in
        2025-11-25, ``pollInterval``)."""
        interval = self.raw.get("pollIntervalMs", self.raw.get("pollInterval"))
        if isinstance(interval, bool) or not isinstance(interval, (int, float)):
            return None
        return interval / 1000


# --- the test's answers ------------------------------------------------------


def capabilities_for(
    handlers: Mapping[str, Handler], era: Era = "handshake", revision: str | None = None
) -> dict[str, Any]:
    """What a client declares by default: what the functions given can answer, and the
    tasks it follows itself: in the modern era the tasks extension, at a handshake
    ``revision`` with core tasks (2025-11-25) the ``tasks`` capability."""
    capabilities: dict[str, Any] = {"extensions": {TASKS: {}}} if era == "modern" else {}
    known = REVISIONS.get(revision or "")
    if era == "handshake" and known is not None and known.core_tasks:
        capabilities["tasks"] = {}
    if "elicitation/create" in handlers:
        capabilities["elicitation"] = {"form": {}, "url": {}}
    if "sampling/createMessage" in handlers:
        capabilities["sampling"] = {}
    if "roots/list" in handlers:
        capabilities["roots"] = {}
    return capabilities


def constant(value: object, params: dict[str, Any]) -> object:
    """A handler's body that answers ``value`` whatever it is asked (``roots=[...]``)."""
    return value


def _elicit_answer(answer: object) -> dict[str, Any]:
    if isinstance(answer, ElicitResult):
        said: dict[str, Any] = {"action": answer.action}
        if answer.action == "accept":
            said["content"] = dict(answer.content)
        return said
    if isinstance(answer, Mapping) and "action" in answer:
        return dict(answer)
    raise TypeError(
        f"an elicit function returns an objmcp.ElicitResult or an {{'action': ..., "
        f"'content': ...}} dict, not {answer!r}"
    )


def _sample_answer(answer: object) -> dict[str, Any]:
    if isinstance(answer, str):
        answer = SampleResult(answer, "objmcp.testing", "endTurn")
    if isinstance(answer, SampleResult):
        blocks = [dict(block) for block in answer.content] or [
            {"type": "text", "text": answer.text}
        ]
        said: dict[str, Any] = {
            "role": answer.role,
            "content": blocks[0] if len(blocks) == 1 else blocks,
            "model": answer.model,
        }
        if answer.stop_reason is not None:
            said["stopReason"] = answer.stop_reason
        return said
    if isinstance(answer, Mapping):
        return dict(answer)
    raise TypeError(
        f"a sample function returns a string, an objmcp.SampleResult or a "
        f"CreateMessageResult dict, not {answer!r}"
    )


def _roots_answer(answer: object) -> dict[str, Any]:
    if isinstance(answer, Mapping):
        return dict(answer)
    if isinstance(answer, str) or not isinstance(answer, Sequence):
        raise TypeError(f"roots are a list of objmcp.Root, URIs or dicts, not {answer!r}")
    roots: list[dict[str, Any]] = []
    for root in answer:
        if isinstance(root, str):
            roots.append({"uri": root})
        elif isinstance(root, Root):
            roots.append({"uri": root.uri, **({} if root.name is None else {"name": root.name})})
        elif isinstance(root, Mapping):
            roots.append(dict(root))
        else:
            raise TypeError(f"a root is an objmcp.Root, a URI or a dict, not {root!r}")
    return {"roots": roots}


READERS: Mapping[str, Callable[[object], dict[str, Any]]] = {
    "elicitation/create": _elicit_answer,
    "sampling/createMessage": _sample_answer,
    "roots/list": _roots_answer,
}
"""By method: what a handler returned, as the JSON-RPC result (a TypeError for what is not one)."""
