"""Parameters objmcp fills in itself, hidden from the model.

A method asks for one by annotation (``elicit: objmcp.Elicit``,
``progress: objmcp.Progress``, ``cancelled: objmcp.Cancelled``, ``log:
objmcp.Log``, ``sample: objmcp.Sample``, ``roots: objmcp.Roots``, ``caller:
objmcp.Caller`` (or ``objmcp.Caller | None``), or all of them as ``context:
objmcp.Context``) or, when the parameter has neither
annotation nor default, by name (``elicit``, ``progress``, ``cancelled``,
``log``, ``sample``). The markers and result types live here, in the object
model (which parameters ask for them, and what each gets when the caller gives
nothing, is :mod:`objmcp.model.calling.injecting`); what answers them is the server's
business.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol

from ..asking.questions import Question
from .caller import Caller

__all__ = [
    "CARRIED",
    "LOG_LEVELS",
    "LOG_MARK",
    "NESTED_SPAN",
    "Cancelled",
    "Carried",
    "Context",
    "Done",
    "Elicit",
    "ElicitResult",
    "Injected",
    "InputNeeded",
    "Log",
    "LogLevel",
    "Progress",
    "Root",
    "Roots",
    "Sample",
    "SampleResult",
]

LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
LOG_LEVELS: Mapping[str, int] = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO + 5,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
    "alert": logging.CRITICAL + 5,
    "emergency": logging.CRITICAL + 10,
}
"""The syslog levels of MCP logging, least severe first, and the ``logging`` level of each."""
LOG_MARK = "objmcp_log"
"""The attribute of a log record made by an injected :class:`Log` (sent to the client
whatever its logger's name)."""


@dataclass(frozen=True)
class ElicitResult:
    """The user's answer to a question asked with :class:`Elicit`.

    ``action`` is ``"accept"``, ``"decline"`` or ``"cancel"``; ``content`` is
    the raw answer; ``value`` is the answer converted into the type asked for
    (``None`` unless accepted).
    """

    action: Literal["accept", "decline", "cancel"]
    content: Mapping[str, Any] = field(default_factory=dict)
    value: Any = None

    elicitation_id: str | None = None
    """A URL question's id (2025-11-25), to pass to ``elicit.complete`` when it is done."""

    @property
    def accepted(self) -> bool:
        """Whether the user accepted and answered."""
        return self.action == "accept"


class Elicit(Protocol):
    """Annotate a parameter with this to receive a callable that asks the user.

    ``elicit(message, schema)`` takes the question and what is wanted (a JSON
    Schema dict, or a Python type) and returns an :class:`ElicitResult`;
    ``key=`` names the question (its ``inputRequests`` key in 2026-07-28; ``q0``,
    ``q1``... by default). ``elicit.many({"name": ("Your name?", str), ...})``
    asks several forms at once and returns their answers by key;
    ``elicit.question(message, schema)`` makes a question for
    :func:`~objmcp.ask_all`, to ask with others of any kind.
    ``elicit.url(message, url)`` asks the user to go to a web page instead
    (where the client supports it); ``elicit.complete(result.elicitation_id)``
    then tells the client when what the page was for is done.
    """

    def __call__(
        self, message: str, schema: object = ..., *, key: str | None = None
    ) -> ElicitResult:
        """Ask the user ``message`` and wait for the answer."""
        ...

    def many(self, questions: Mapping[str, str | tuple[str, object]]) -> dict[str, ElicitResult]:
        """Ask several forms at once: each key's message (asked as ``elicit(message)``
        asks it) or ``(message, schema)``; the answers by key."""
        ...

    def question(self, message: str, schema: object = ...) -> Question:
        """The question ``elicit(message, schema)`` asks, not asked yet: for
        :func:`~objmcp.ask_all`."""
        ...

    def url(self, message: str, url: str, *, key: str | None = None) -> ElicitResult:
        """Ask the user to open ``url`` (``message`` says why) and wait for the answer
        (accept, decline or cancel; no content)."""
        ...

    def complete(self, elicitation_id: str | None) -> Done:
        """Tell the client that the step of a URL question is done (2025-11-25 only;
        elsewhere, and for ``None``, nothing is sent)."""
        ...


@dataclass(frozen=True)
class SampleResult:
    """What the client's model answered to :class:`Sample`.

    ``text`` is the answer's text (its text blocks joined); ``content`` the
    content blocks as sent; ``model`` the model that answered; ``stop_reason``
    why it stopped (``"endTurn"``, ``"maxTokens"``, ...), if the client said.
    """

    text: str
    model: str
    stop_reason: str | None = None
    role: str = "assistant"
    content: tuple[Mapping[str, Any], ...] = ()


class Sample(Protocol):
    """Annotate a parameter with this to receive a callable that asks the client's model
    for a completion (MCP sampling).

    ``sample(messages, max_tokens=1024, system=None, temperature=None,
    stop=None, models=None, metadata=None)``: ``messages`` is a string (one
    user message), or a list of strings and ``{"role": ..., "content": ...}``
    messages (content a string or MCP content blocks); ``models`` are model
    name hints, best first. Returns a :class:`SampleResult`. ``key=`` names the
    question; ``sample.question(...)`` makes one for :func:`~objmcp.ask_all`.
    """

    def __call__(
        self,
        messages: str | Sequence[str | Mapping[str, Any]],
        *,
        max_tokens: int = 1024,
        system: str | None = None,
        temperature: float | None = None,
        stop: Sequence[str] | None = None,
        models: Sequence[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        key: str | None = None,
    ) -> SampleResult:
        """Ask the client's model and wait for its answer (``key`` names the question)."""
        ...

    def question(
        self,
        messages: str | Sequence[str | Mapping[str, Any]],
        *,
        max_tokens: int = 1024,
        system: str | None = None,
        temperature: float | None = None,
        stop: Sequence[str] | None = None,
        models: Sequence[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Question:
        """The request ``sample(...)`` makes, not asked yet: for :func:`~objmcp.ask_all`."""
        ...


@dataclass(frozen=True)
class Root:
    """A root the client shares: a ``file://`` URI and, maybe, a name."""

    uri: str
    name: str | None = None


class Roots(Protocol):
    """Annotate a parameter with this to receive a callable that lists the client's roots
    (the directories or files it lets the server work in). ``roots(key=...)`` names
    the question; ``roots.question()`` makes one for :func:`~objmcp.ask_all`."""

    def __call__(self, *, key: str | None = None) -> list[Root]:
        """Ask the client for its roots and wait for them."""
        ...

    def question(self) -> Question:
        """The request ``roots()`` makes, not asked yet: for :func:`~objmcp.ask_all`."""
        ...


class Log(Protocol):
    """Annotate a parameter with this to receive a logger that reaches the client.

    ``log(message, level="info")``, or ``log.info(message)`` and the like, for
    each of MCP's syslog levels: the record goes to the client (if it asked for
    that level) as ``notifications/message``, and to Python's ``logging``
    under the tool's name. ``message`` is a string or any JSON value.
    """

    def __call__(self, message: object, level: LogLevel = "info") -> Done:
        """Log ``message`` at ``level``."""
        ...

    def debug(self, message: object) -> Done:
        """Log at ``debug``."""
        ...

    def info(self, message: object) -> Done:
        """Log at ``info``."""
        ...

    def notice(self, message: object) -> Done:
        """Log at ``notice``."""
        ...

    def warning(self, message: object) -> Done:
        """Log at ``warning``."""
        ...

    def error(self, message: object) -> Done:
        """Log at ``error``."""
        ...

    def critical(self, message: object) -> Done:
        """Log at ``critical``."""
        ...


class Progress(Protocol):
    """Annotate a parameter with this to receive a callable that reports progress.

    ``progress(done, total=None, message=None)`` tells the client how far the
    call has come (``notifications/progress``); it does nothing when the client
    asked for no progress. It works as it is in sync methods and awaited in
    async ones (``await progress(3, 10)``).
    """

    def __call__(self, done: float, total: float | None = None, message: str | None = None) -> Done:
        """Report ``done`` out of ``total`` (if known), with an optional message."""
        ...


class ResourceUpdated(Protocol):
    """Annotate a parameter with this to receive a callable that says a resource changed.

    ``resource_updated(uri)`` sends ``notifications/resources/updated`` to every
    client that subscribed to ``uri`` (on any connection of the server); it does
    nothing when nobody did, or when nothing serves the object. It works as it is
    in sync methods and awaited in async ones.
    """

    def __call__(self, uri: str) -> Done:
        """Say the resource ``uri`` changed and may be read again."""
        ...


class Cancelled(Protocol):
    """Annotate a parameter with this to receive a flag set when the client cancels the call.

    An async method is cancelled at its next ``await`` anyway; a sync one cannot
    be stopped from outside, so a long loop checks ``cancelled.is_set()`` and
    returns early (its result is dropped).
    """

    def is_set(self) -> bool:
        """Whether the client cancelled the call."""
        ...


class Injected(Mapping[object, object]):
    """objmcp's own: a parameter annotated with this receives every value the call's
    injected parameters get, by marker, for a meta-tool that calls other tools as this
    call (code mode's ``execute``). Not for served methods; never made."""


class InputNeeded(BaseException):
    """Raised out of a call that must stop until an answer comes from elsewhere (a later,
    retried call). ``request`` says what to ask. A BaseException, so that a tool's own
    ``except Exception`` does not swallow it; objmcp never turns it into a result."""

    def __init__(self, request: object) -> None:
        super().__init__("the call waits for input")
        self.request = request


class Done:
    """What an injected callable returns: nothing, but awaitable, so that one callable
    serves sync methods (which ignore it) and async ones (which ``await`` it)."""

    def __await__(self) -> Iterator[None]:
        return iter(())


DONE: Done = Done()


@dataclass(frozen=True)
class Context:
    """Annotate one parameter with this to receive everything a call can reach at once:
    ``elicit`` (:class:`Elicit`), ``progress``, ``cancelled``, ``log``, ``sample`` and
    ``list_roots`` (:class:`Roots`), ``resource_updated`` (:class:`ResourceUpdated`),
    the ``tool``'s name, the ``caller`` (:class:`~objmcp.Caller`, None when the
    transport checks no credentials), the request's ``meta`` (its ``_meta``: W3C
    trace context, ``traceparent``, ``tracestate`` and ``baggage``, for a tool that
    continues the client's trace; empty outside a protocol call), and ``extensions``:
    the MCP extensions negotiated for this call (declared by the server's
    ``extensions=`` and by the client of this request), with the client's settings of
    each (``"com.example/maps" in context.extensions``), and ``client_capabilities``: what
    the client of this call declared it can do (its ``initialize`` in the handshake era,
    the request's ``_meta`` in 2026-07-28), for a tool that asks only what the client can
    answer (``"elicitation" in context.client_capabilities``)."""

    tool: str
    elicit: Elicit
    progress: Progress
    cancelled: Cancelled
    log: Log
    sample: Sample
    list_roots: Roots
    resource_updated: ResourceUpdated
    caller: Caller | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    extensions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    client_capabilities: Mapping[str, Any] = field(default_factory=dict)


REQUEST_META: Final = object()
"""The key, in what an injected parameter is given, of the request's ``_meta``."""
REQUEST_EXTENSIONS: Final = object()
"""The key, in what an injected parameter is given, of the extensions negotiated."""
NESTED_SPAN: Final = object()
"""The key, in what an injected parameter is given, of what makes the span of a tool call
made for this call (code mode's): a function of the tool's name that gives a context
manager; absent when nothing traces."""
REQUEST_CAPABILITIES: Final = object()
"""The key, in what an injected parameter is given, of the client's capabilities."""
CARRIED: Final = object()
"""The key, in what an injected parameter is given, of the call's :class:`Carried`;
absent where no question ends the request (the handshake era, a task)."""


class Carried(Protocol):
    """What a call carries across the end of its request when a question ends it
    (2026-07-28's ``input_required``): opaque bytes in the request state, which its retry
    brings back, whichever process it reaches."""

    @property
    def given(self) -> bytes | None:
        """What the call left when it stopped, brought back by this retry (None: the
        call is no retry, or left nothing)."""
        ...

    def leave(self, make: Callable[[], bytes] | None) -> None:
        """What to leave if the call stops to ask now: ``make()`` gives it, called (in
        a worker thread) only if it does; None leaves nothing."""
        ...
