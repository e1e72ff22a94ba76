"""The handshake era's sessions over HTTP: opened, found, expired and ended.

A handshake-era client (2025-03-26 to 2025-11-25) opens a session with
``initialize`` and names it in every later request (``Mcp-Session-Id``). A session
is an :class:`HttpSession`: it drives the
:class:`~objmcp.serving.runner.Runner` of one client, whose messages go to
the POST they belong to, or to the session's GET stream, or nowhere when neither is
open; it keeps its streams numbered for a while, so that a client that lost a
connection gets the rest of one (``Last-Event-ID``).

A :class:`SessionStore` holds the open sessions by id: it opens one at
``initialize`` (its id tagged ``<route>.`` when the app has a route), finds a
request's own (404 for an unknown id, or one opened with other credentials), ends
one at DELETE, and ends those idle longer than ``session_idle`` (their clients left
without a DELETE), looked at as requests come. It keeps at most ``max_sessions``,
shared fairly among the callers present: an ``initialize`` beyond them ends an idle
session of the caller's own, or one holding no tasks of a caller above its share
(its client is told 404 at its next request and starts a new one, as the spec has
it), or is refused 503 (:meth:`SessionStore.make_room`). With ``stateless=True``
every request gets a connection of its own, which asks the client nothing. Every
modern-era request shares one connection with no session id, so that a call parked
by one request is there for the retry that answers it.

This is the app's state, kept apart from what a request must show
(:mod:`objmcp.serving.http_checks`) and from the routing and the answers
(:mod:`objmcp.serving.asgi`); the app has one store (``McpApp.store``).
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import secrets
import time
from collections.abc import Mapping

import anyio.abc

from ..protocol import jsonrpc as rpc
from ..protocol.jsonrpc import RequestId
from ..protocol.revisions import HANDSHAKE_VERSIONS
from ..protocol.session import Action
from .http_checks import Refusal
from .http_fields import parse_event_id
from .runner import Runner
from .settings import Channel, Settings
from .streams import COMPLETE_LIMIT, DELIVERED_KEPT, Stream

__all__ = ["DEFAULT_MAX_SESSIONS", "HttpSession", "SessionStore"]

_OWN = Channel()  # a session of its own
_STATELESS = Channel(
    cannot_ask="This server cannot send the client requests here (stateless HTTP has no way "
    "back to the client)",
    lasting=False,
    in_session=False,
    keeps_tasks=False,  # no task outlives the request
)
"""A stateless request's connection: its own, gone with its answer."""

DEFAULT_MAX_SESSIONS = 1000
"""Handshake-era sessions one app keeps open at once."""

logger = logging.getLogger("objmcp")


class HttpSession:
    """A session served over HTTP: each message goes to the POST it belongs to, or to the
    session's GET stream, or nowhere when neither is open."""

    def __init__(
        self, settings: Settings, caller_key: str | None = None, channel: Channel = _OWN
    ) -> None:
        # 2025-11-25 tasks' questions go out at once while the GET stream is open
        reached = dataclasses.replace(channel, reachable=self._reachable)
        self.runner = Runner(settings, self._send, reached)
        """The runner: the session, and the calls it starts."""
        self.caller_key = caller_key
        """The :attr:`~objmcp.Caller.key` of the caller that opened the session (None: no
        credentials were asked)."""
        self.session_id = channel.session_id
        """Handshake era: the ``Mcp-Session-Id`` (None: the connection of one request)."""
        self.last_seen = time.monotonic()
        """When a request last reached the session, or last ended."""
        self._exchanges: dict[RequestId, Stream] = {}
        self._immediate: Stream | None = None
        self.stream: Stream | None = None
        """The GET stream, once one was opened."""
        self.streams: dict[int, Stream] = {}
        """The streams a client may resume, by number."""
        self._numbers = itertools.count(1)
        self.runner.bind()

    @property
    def priming(self) -> bool:
        """Whether a request's SSE stream opens with an event that carries only an id
        and the reconnection delay (and may be closed for the client to poll)."""
        revision = self.runner.session.revision
        return self.session_id is not None and revision is not None and revision.sse_priming

    def resumable(self, stream: Stream) -> Stream:
        """Number ``stream`` and keep it for resumption (the session's streams only)."""
        if self.session_id is None:
            return stream
        stream.number = next(self._numbers)
        self.streams[stream.number] = stream
        delivered = [number for number, kept in self.streams.items() if kept.delivered]
        for number in delivered[: max(0, len(delivered) - DELIVERED_KEPT)]:
            del self.streams[number]
        complete = [number for number, kept in self.streams.items() if kept.complete]
        for number in complete[: max(0, len(complete) - COMPLETE_LIMIT)]:
            logger.warning("a session forgets stream %d, never read to its end", number)
            del self.streams[number]
        return stream

    @property
    def idle(self) -> bool:
        """Whether nothing goes on in the session: no call running, no POST waiting for
        its answers, no stream being read."""
        return not self._exchanges and not self.runner.calls_left() and not self.being_read

    @property
    def holds_tasks(self) -> bool:
        """Whether the session keeps tasks its client may still ask for: running, or
        ended and not yet expired (their results are fetched again until then)."""
        session = self.runner.session
        with self.runner.lock:
            session.tasks.expire(session.clock())
            return len(session.tasks) > 0

    @property
    def being_read(self) -> bool:
        """Whether a connection is writing one of the session's streams now."""
        streams = [*self.streams.values(), self.stream]
        return any(stream is not None and stream.reading for stream in streams)

    def forget(self, stream: Stream) -> None:
        """No client can resume ``stream`` (answered with JSON, or replaced)."""
        if stream.number is not None and self.streams.get(stream.number) is stream:
            del self.streams[stream.number]

    def expects(self, exchange: Stream) -> None:
        """The answers to the requests of ``exchange`` go to it (an id still in flight
        keeps its own POST: this one gets only the refusal)."""
        for request_id in exchange.pending:
            self._exchanges.setdefault(request_id, exchange)

    def take(self, actions: list[Action], exchange: Stream, group: anyio.abc.TaskGroup) -> None:
        """Carry out what the session said of a POST: its answers go to ``exchange`` (even
        those that could not name a request), its calls start in ``group``."""
        self.expects(exchange)
        self._immediate = exchange
        try:
            self.runner.perform(actions, group)
        finally:
            self._immediate = None

    def cancelled(self, message: object) -> None:
        """If ``message`` cancels a request of an exchange of this connection, that
        exchange expects no answer for it any more."""
        if not isinstance(message, dict) or message.get("method") != "notifications/cancelled":
            return
        params = message.get("params")
        target = params.get("requestId") if isinstance(params, dict) else None
        if isinstance(target, (str, int)) and target in self._exchanges:
            self._exchanges[target].drop(target)

    def release(self, exchange: Stream) -> None:
        """The POST of ``exchange`` is over: what still comes for it is dropped."""
        for request_id in exchange.ids:
            if self._exchanges.get(request_id) is exchange:
                del self._exchanges[request_id]

    def _reachable(self) -> bool:
        """Whether a message related to no request reaches the client now (the GET
        stream is open)."""
        return self.stream is not None and not self.stream.closed

    def _send(self, message: object, related: RequestId | None) -> None:
        immediate = self._immediate
        if immediate is not None and (related is None or related in immediate.pending):
            exchange: Stream | None = immediate  # said at once: of the POST being read
        else:
            exchange = self._exchanges.get(related) if related is not None else None
            exchange = exchange or immediate
        if exchange is not None:
            exchange.put(message)
        elif self.stream is not None and not self.stream.closed:
            self.stream.put(message)
        else:
            logger.debug("no stream open for %s; dropped", _describe(message))


class SessionStore:
    """The open sessions of an app, by id, and the one connection of the modern era."""

    def __init__(
        self,
        settings: Settings,
        *,
        stateless: bool,
        route: str | None,
        session_idle: float | None,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
    ) -> None:
        if max_sessions < 1:
            raise ValueError("max_sessions must be 1 or more")
        self.settings = settings
        self.stateless = stateless
        self.route = route
        """The tag every session id starts with (``<route>.``), for a proxy in front of
        several servers to send a session's requests to the one that holds it."""
        self.sessions: dict[str, HttpSession] = {}
        """The open handshake-era sessions, by id."""
        self.session_idle = session_idle
        """Seconds a session lives with no request and no stream being read (None: until
        it is deleted); looked at as requests come."""
        self.max_sessions = max_sessions
        """Sessions open at once, shared fairly among the callers present; at
        ``initialize`` beyond it, an idle session ends or the request is refused 503
        (:meth:`make_room`)."""
        self._next_sweep = time.monotonic()
        self._modern: HttpSession | None = None

    def runners(self) -> list[Runner]:
        """The runners of every connection open: the modern era's and each session's."""
        found = [session.runner for session in self.sessions.values()]
        return found if self._modern is None else [self._modern.runner, *found]

    def modern_connection(self) -> HttpSession:
        """The one connection of every modern-era request: a call parked by one request
        is there for the retry, whichever request brings it."""
        if self._modern is None:
            # task ids say their process
            channel = Channel(in_session=False, task_route=self.route, publishes_tasks=True)
            self._modern = HttpSession(self.settings, channel=channel)
            self.settings.hub.join(self._modern.runner)
        return self._modern

    def handshake_session(
        self, headers: Mapping[str, str], caller_key: str | None, message: object
    ) -> HttpSession:
        """The session a handshake-era request belongs to: a new one for ``initialize``
        (with ``stateless``, a connection of the request's own); 400 or 404 for a
        request that names no open session of its caller (``caller_key``)."""
        version = headers.get("mcp-protocol-version")
        if version is not None and version not in HANDSHAKE_VERSIONS:
            supported = ", ".join(HANDSHAKE_VERSIONS)
            failure = rpc.error_response(
                None,
                rpc.INVALID_REQUEST,
                f"Bad Request: MCP-Protocol-Version {version!r} is not one of {supported}",
            )
            raise Refusal(400, failure)
        opening = isinstance(message, dict) and message.get("method") == "initialize"
        if self.stateless:
            connection = HttpSession(self.settings, caller_key, _STATELESS)
            if not opening:
                connection.runner.session.assume(version or "2025-03-26")
            return connection
        session_id = headers.get("mcp-session-id")
        if opening and session_id is None:
            self.make_room(caller_key)
            session_id = secrets.token_urlsafe(24)
            if self.route is not None:
                session_id = f"{self.route}.{session_id}"
            channel = Channel(session_id=session_id, publishes_tasks=True)
            connection = HttpSession(self.settings, caller_key, channel)
            self.sessions[session_id] = connection
            self.settings.hub.join(connection.runner)
            return connection
        if session_id is None:
            failure = rpc.error_response(
                None, rpc.INVALID_REQUEST, "Bad Request: no Mcp-Session-Id (send initialize first)"
            )
            raise Refusal(400, failure)
        return self.session_for(session_id, caller_key)

    def make_room(self, caller_key: str | None) -> None:
        """Room for one more session of the caller ``caller_key`` (None: no credentials
        were asked, and every client is the same caller), when ``max_sessions`` are open.

        Each caller present (one with a session open, and this one) has a fair
        share of the sessions: ``max(1, max_sessions // callers)``. In this order:

        1. the caller's own least recently used idle session ends (one that holds no
           tasks before one that does: its own results are the caller's to lose);
        2. else, if the caller holds less than its share, the least recently used idle
           session of a caller above its share ends, if one holds no tasks;
        3. else the request is refused 503, with ``Retry-After``.

        So no caller loses a session to another while it keeps within its share, nor
        ever a session holding tasks (:attr:`HttpSession.holds_tasks`). Without
        credentials every client is the one caller: the least recently used idle
        session ends (one holding no tasks first), or, with none idle, 503.
        """
        if len(self.sessions) < self.max_sessions:
            return
        held: dict[str | None, list[str]] = {caller_key: []}
        for session_id, connection in self.sessions.items():
            held.setdefault(connection.caller_key, []).append(session_id)
        share = max(1, self.max_sessions // len(held))
        own = [session_id for session_id in held[caller_key] if self.sessions[session_id].idle]
        if own:
            ending = min(own, key=self._least_needed)
        elif len(held[caller_key]) < share:
            others = [
                session_id
                for session_ids in held.values()
                if len(session_ids) > share
                for session_id in session_ids
                if self.sessions[session_id].idle and not self.sessions[session_id].holds_tasks
            ]
            if not others:
                raise self._full(
                    "each busy, holding tasks, or within its caller's share; try again later"
                )
            ending = min(others, key=self._least_needed)
        elif len(held) == 1:
            raise self._full("and busy; try again later")
        else:
            raise self._full(
                f"and this caller's {len(held[caller_key])}, its share among {len(held)} callers, "
                "are busy; end one (DELETE) or try again later"
            )
        logger.info("session %s ended for a new one (max_sessions %d)", ending, self.max_sessions)
        self.end(self.sessions.pop(ending))

    def _least_needed(self, session_id: str) -> tuple[bool, float]:
        """Which idle session ends first: one holding no tasks, then the least recently used."""
        connection = self.sessions[session_id]
        return connection.holds_tasks, connection.last_seen

    def _full(self, why: str) -> Refusal:
        """The 503 of an ``initialize`` that found no session to end."""
        return Refusal(
            503,
            f"Service Unavailable: {self.max_sessions} sessions are open (max_sessions), {why}",
            [(b"retry-after", b"5")],
        )

    def session_for(self, session_id: str, caller_key: str | None) -> HttpSession:
        """The open session ``session_id`` of the caller ``caller_key``; 404 for any other."""
        found = self.sessions.get(session_id)
        if found is None or found.caller_key != caller_key:
            raise Refusal(404, rpc.error_response(None, rpc.INVALID_REQUEST, "Session not found"))
        found.last_seen = time.monotonic()
        return found

    def expire_idle(self) -> None:
        """End the sessions idle longer than ``session_idle`` (their clients left without
        a DELETE); looked at no more than every few seconds."""
        now = time.monotonic()
        if self.session_idle is None or now < self._next_sweep:
            return
        self._next_sweep = now + min(self.session_idle / 4, 30.0)
        for session_id, connection in list(self.sessions.items()):
            if now - connection.last_seen > self.session_idle and not connection.being_read:
                logger.info(
                    "session %s idle for %.0f s; ended", session_id, now - connection.last_seen
                )
                self.end(self.sessions.pop(session_id))

    def resumed(self, connection: HttpSession, last: str) -> tuple[Stream, int]:
        """The stream ``Last-Event-ID: last`` names, and where to go on from."""
        found = parse_event_id(last)
        if found is None:
            raise Refusal(
                400, f"Bad Request: Last-Event-ID {last!r} is not <stream>-<position> in digits"
            )
        stream = connection.streams.get(found[0])
        if stream is None or found[1] > stream.end:
            raise Refusal(
                400,
                f"Bad Request: no stream to resume from Last-Event-ID {last!r} "
                "(it ended, or was never here)",
            )
        return stream, found[1]

    def end(self, connection: HttpSession) -> None:
        """A session is over: its calls and waits end, its streams too; it hears of no
        change. Its object (``per="session"``) is closed by ``tools.close_ended()``, or
        by the end of the last call using it."""
        self.settings.hub.leave(connection.runner)
        self.settings.tools.end_session(connection.runner)
        connection.runner.pending.release()
        connection.runner.cancel_calls()
        connection.runner.session.tasks.close()  # its ended tasks count no more
        for stream in [*connection.streams.values(), connection.stream]:
            if stream is not None:
                stream.close()

    def end_all(self) -> None:
        """Every session is over (the app shuts down)."""
        for connection in self.sessions.values():
            self.end(connection)
        self.sessions.clear()


def _describe(message: object) -> str:
    if isinstance(message, dict):
        return str(message.get("method") or f"the answer to {message.get('id')!r}")
    return "a batch answer"
