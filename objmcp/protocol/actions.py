"""What passes between the session and the I/O layer: the records, and nothing else.

The session does no I/O. It takes decoded messages and answers with a list of
:data:`Action` records, which the layer that owns the socket or the pipe carries
out in order:

- :class:`Send` a message (a response, a batch of them, a notification, a question);
- :class:`StartCall` a tool, a resource read or a prompt, however long it takes;
- :class:`Resume` a parked call with the answers its retry brought (modern era);
- :class:`CancelCall` a call the client gave up on;
- :class:`Answer`: the client answered a question a call asked it;
- :class:`TaskAnswered`: the client answered questions of a task's call;
- :class:`WaitForJob`: hold a ``job_result`` request until its job ends, or a while.

Going the other way, the session is given a :class:`ServerInfo` (who the server
says it is) once, and hands each started call a :class:`CallContext` (what the call
knows of its request). :data:`Feature` names what a call may ask the client for and
:data:`CacheHint` how long a modern-era result may be cached.

These are plain records with no behaviour beyond a field or two. They live apart
from the session so that the contract with the I/O layer can be read in one place,
without the state machine around it; :mod:`objmcp.protocol.session` re-exports
them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model.calling.caller import Caller
from .jsonrpc import Message, RequestId
from .revisions import Revision

__all__ = [
    "Action",
    "Answer",
    "CacheHint",
    "CallContext",
    "CancelCall",
    "Feature",
    "Resume",
    "Send",
    "ServerInfo",
    "StartCall",
    "TaskAnswered",
    "WaitForJob",
]

Feature = Literal["elicitation", "elicitation.url", "sampling", "roots"]
"""What a call may ask the client for."""

CacheHint = tuple[int, Literal["public", "private"]]
"""Modern era: how long (``ttlMs``) and by whom (``cacheScope``) a result may be cached."""


@dataclass(eq=False)
class ServerInfo:
    """Who the server says it is."""

    name: str
    version: str = "1.0.0"
    title: str | None = None
    instructions: str | None = None
    description: str | None = None
    website_url: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    """The ``_meta`` of the ``initialize`` and ``server/discover`` results."""

    def implementation(self, revision: Revision) -> dict[str, Any]:
        """The ``Implementation`` object, with the fields ``revision`` defines."""
        candidates = {
            "name": self.name,
            "version": self.version,
            "title": self.title,
            "description": self.description,
            "websiteUrl": self.website_url,
        }
        return {
            key: value
            for key, value in candidates.items()
            if value is not None and key in revision.server_info_fields
        }


@dataclass(eq=False)
class CallContext:
    """What a tool call knows of the request that asked for it."""

    request_id: RequestId
    revision: Revision
    client_capabilities: Mapping[str, Any]
    meta: Mapping[str, Any] = field(default_factory=dict)
    answers: Mapping[str, Any] = field(default_factory=dict)
    """Modern era: the answers to the call's earlier questions, by their keys (from its
    state)."""
    kept: bytes | None = None
    """Modern era: what the call's earlier round left for its retry (from its state)."""
    caller: Caller | None = None
    """Who sent the request, when the transport checked credentials."""
    client: str | None = None
    """The name the client gave in its ``clientInfo`` (at ``initialize``, or in the
    request's ``_meta``), if any."""
    extensions: Mapping[str, Any] = field(default_factory=dict)
    """The extensions negotiated for the request (the server and the client declare
    them), with the client's settings of each."""


@dataclass(eq=False)
class Send:
    """Write this message (a dict, or a list for a batch response). ``related`` is the id
    of the client's request it belongs to (its response, a report or a question of its
    call, a notification of its listen stream); None for the rest (HTTP routes by it)."""

    message: Message | list[Message]
    related: RequestId | None = None


@dataclass(eq=False)
class StartCall:
    """Call ``tool`` with ``arguments``; report its end with ``call_finished(call_id, ...)``.

    ``kind`` ``"resource"`` reads the resource whose URI is ``tool``, ``"prompt"`` gets
    the prompt ``tool`` with ``arguments``: their ends are reported with
    ``request_finished``.
    """

    call_id: int
    tool: str
    arguments: object
    context: CallContext
    kind: Literal["tool", "resource", "prompt"] = "tool"


@dataclass
class CancelCall:
    """Stop the call ``call_id``: the client no longer wants its answer."""

    call_id: int


@dataclass(eq=False)
class Answer:
    """The client answered the question ``ask_id`` (one of ``result`` and ``error`` is set)."""

    ask_id: str
    result: dict[str, Any] | None
    error: dict[str, Any] | None


@dataclass(eq=False)
class Resume:
    """Modern era: a retry answers the questions the call ``parked`` waits at, parked.

    The runner hands that call the answers (in ``start.context.answers``); the
    call then answers as ``start.call_id``, the retry's. A runner that no longer holds
    it carries out ``start`` instead: the method runs again, its questions answered
    from the state (a replay)."""

    parked: int
    start: StartCall


@dataclass(eq=False)
class TaskAnswered:
    """2026-07-28: ``tasks/update`` answered questions of the task ``task_id``: its call,
    waiting for them, goes on."""

    task_id: str


@dataclass(eq=False)
class WaitForJob:
    """Jobs: the ``job_result`` request held as ``call_id`` waits for the job ``job_id``
    to end, at most ``seconds``; then report it with ``job_waited(call_id, job_id)``."""

    call_id: int
    job_id: str
    seconds: float


Action = Send | StartCall | Resume | CancelCall | Answer | TaskAnswered | WaitForJob
