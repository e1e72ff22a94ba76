"""What a connection runs by, fixed when serving starts, and the set of connections served.

A connection never reaches back into the :class:`~objmcp.Server` that made it: it is
given :class:`Settings`, a frozen record of the server's options and its tools, and
the :class:`Hub` it joins while it serves, through which a change reaches every
client (a tool list that changed, a resource updated). The server makes both
(:meth:`objmcp.Server.settings`); the ASGI app is given them the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..model.calling.toolbox import Toolbox
from ..protocol.session import Action, Session
from ..transport.framing import DEFAULT_MAX_FRAME, Framing

__all__ = ["DEFAULT_MAX_WAITING", "DEFAULT_MAX_WAITING_TOTAL", "Hub", "Member", "Settings", "Waits"]

DEFAULT_MAX_WAITING = 64
"""Calls of one session waiting for the client's answer at once (handshake era)."""
DEFAULT_MAX_WAITING_TOTAL = 1000
"""Calls of every session together waiting for their clients' answers at once."""


class Member(Protocol):
    """A connection, as the hub sees it."""

    def post(self, make: Callable[[Session], list[Action]]) -> None:
        """Carry out what ``make`` says the connection's session must do (any thread)."""


class Hub:
    """The connections being served: each joins while it serves, and leaves."""

    def __init__(self) -> None:
        self.members: set[Member] = set()

    def join(self, member: Member) -> None:
        """``member`` serves now: it hears what is broadcast."""
        self.members.add(member)

    def leave(self, member: Member) -> None:
        """``member`` stopped serving."""
        self.members.discard(member)

    def broadcast(self, make: Callable[[Session], list[Action]]) -> None:
        """Have every connection carry out what ``make`` says of its session (any thread)."""
        for member in list(self.members):
            member.post(make)

    def resource_updated(self, uri: str) -> None:
        """Tell the subscribers of ``uri``, on every connection, that it changed."""
        self.broadcast(lambda session: session.resource_updated(uri))


class Waits:
    """The calls waiting for their clients' answers, every connection's together (each
    may keep a worker thread): at most ``limit``. Used on the event loop only."""

    def __init__(self, limit: int = DEFAULT_MAX_WAITING_TOTAL) -> None:
        if limit < 0:
            raise ValueError("max_waiting_total cannot be negative")
        self.limit = limit
        self.count = 0

    @property
    def full(self) -> bool:
        """Whether another call may not wait now."""
        return self.count >= self.limit


@dataclass(frozen=True, eq=False)
class Settings:
    """The options a connection runs by (see :class:`objmcp.Server` for each)."""

    tools: Toolbox
    make_session: Callable[[], Session]
    """A new sans-IO session, for one client."""
    hub: Hub = field(default_factory=Hub)
    waits: Waits = field(default_factory=Waits)
    """The calls waiting for their clients' answers, on every connection of the server."""
    max_waiting: int = DEFAULT_MAX_WAITING
    """Calls of one connection waiting for the client's answer at once (handshake era)."""
    framing: Framing = "auto"
    max_frame: int = DEFAULT_MAX_FRAME
    call_timeout: float | None = None
    grace: float = 5.0
    park_timeout: float = 300.0
    task_after: float | None = None
    """2026-07-28: seconds after which a call still running is answered as a task, to a
    client with the tasks extension (None: only tools that say ``task=``)."""
    jobs: bool = False
    """Jobs: such a call from a client with no tasks is answered with a text naming a job
    (:mod:`objmcp.protocol.tasks.jobs`)."""
    loggers: tuple[str, ...] | None = None
    """The loggers whose records go to the client, with their children (None: the served
    object's packages')."""
    tracer: Any | None = None
    """The OpenTelemetry tracer every call's span goes to (None: no spans;
    :mod:`objmcp.serving.tracing`)."""
