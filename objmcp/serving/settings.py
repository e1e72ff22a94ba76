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
from typing import TYPE_CHECKING, Any, Protocol

from ..transport.framing import DEFAULT_MAX_FRAME, Framing

if TYPE_CHECKING:  # the options are read before what serves is imported
    from ..model.calling.toolbox import Toolbox
    from ..protocol.session import Action, Session
    from .shared_tasks import SharedTasks
    from .task_queue import TaskQueue

__all__ = [
    "DEFAULT_MAX_WAITING",
    "DEFAULT_MAX_WAITING_TOTAL",
    "Hub",
    "Member",
    "Channel",
    "Settings",
    "Waits",
]

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


def _always() -> bool:
    return True


@dataclass(frozen=True)
class Channel:
    """A runner's channel to its client: what the client can be reached for, fixed when
    the runner is made.

    The defaults are a connection of its own (stdio): calls may ask the client, jobs and
    tasks outlive their requests, and calls' objects are kept for the connection."""

    cannot_ask: str | None = None
    """Why calls cannot send the client requests at all (stateless HTTP,
    :meth:`objmcp.Server.handle`); None when they can."""
    lasting: bool = True
    """Whether a job can be made: False where no later request could reach it, or where
    every call is waited for (their calls are answered plainly)."""
    in_session: bool = True
    """Whether its requests belong to a session, whose calls' objects are kept for it
    (``per="session"``); False for 2026-07-28 over HTTP and stateless HTTP."""
    session_id: str | None = None
    """The HTTP session's id, when there is one (spans carry it)."""
    keeps_tasks: bool = True
    """Whether a task outlives its request (not on stateless HTTP, whose every request has
    a session of its own): 2025-11-25 declares ``tasks`` only then."""
    task_route: str | None = None
    """The route tag its tasks' ids start with, naming their process to a proxy."""
    reachable: Callable[[], bool] = _always
    """Whether a message related to no request reaches the client now (always on stdio;
    over HTTP, while the session's GET stream is open)."""
    publishes_tasks: bool = False
    """Whether its tasks are published to the server's shared task store, when it has one
    (an HTTP app's lasting connections, whose app publishes them)."""


@dataclass(frozen=True, eq=False)
class Settings:
    """The options a connection runs by (see :class:`objmcp.Server` for each)."""

    tools: Toolbox
    make_session: Callable[[Channel], Session]
    """A new sans-IO session, for one client reached as a :class:`Channel` says."""
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
    shared: SharedTasks | None = None
    """Where tasks' answers are published for every process of the deployment (None:
    they stay in this process)."""
    queue: TaskQueue | None = None
    """Where calls that are tasks from the start go, for workers to run (None: here)."""
    loggers: tuple[str, ...] | None = None
    """The loggers whose records go to the client, with their children (None: the served
    object's packages')."""
    tracer: Any | None = None
    """The OpenTelemetry tracer every call's span goes to (None: no spans;
    :mod:`objmcp.serving.tracing`)."""
    fronted: bool = False
    """Each request on a stream names its caller (a boxed server's front checked it):
    :func:`objmcp.serving.box.fronted_caller`."""
