"""Streamable HTTP: the server as a plain ASGI application, no web framework.

One endpoint (``/mcp`` unless told otherwise) serves both eras:

- **Modern era** (2026-07-28): every POST stands alone. Its headers must agree with
  its body (``MCP-Protocol-Version`` with ``_meta``, ``Mcp-Method``, ``Mcp-Name``;
  -32020 otherwise), errors carry the HTTP status the revision gives them, a
  notification is answered 202, closing the response cancels the request, and a
  ``subscriptions/listen`` request is a stream that stays open.
- **Handshake era** (2025-03-26 to 2025-11-25): ``initialize`` opens a session
  (``Mcp-Session-Id``); a POST is answered with JSON or an SSE stream carrying the
  call's progress, log records and questions to the client before its answer; the
  client's answers come back in POSTs of their own; GET opens the stream of what
  belongs to no request; DELETE ends the session. ``stateless=True`` serves such
  clients without sessions (and without questions to them). A session's streams are
  resumable: their events carry ids, and a GET with ``Last-Event-ID`` gets the rest of
  a stream whose connection was lost (the calls went on meanwhile).

Every request is checked first: ``Host`` and ``Origin`` against allow-lists (DNS
rebinding), then the bearer token when one is required.

Calls run inside the request that started them: a call that waits for the user
waits inside its POST. A modern call that asks is answered ``input_required`` and
waits, parked, inside the request that started it (which has answered already),
for the retry to bring the answer; every modern request goes to one shared session,
under ids of the server's making, so the retry finds it (or, in another process,
replays it).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import inspect
import itertools
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Any

import anyio
import anyio.abc
import anyio.lowlevel

from ..model.jsontext import ParseFailure, encode_message, parse_message
from ..protocol import jsonrpc as rpc
from ..protocol.jsonrpc import RequestId
from ..protocol.limits import check_seconds
from ..protocol.revisions import HANDSHAKE_VERSIONS, MODERN_VERSIONS
from ..protocol.session import Action
from .connection import Connection, Host
from .logs import LogToClient
from .streams import COMPLETE_LIMIT, DELIVERED_KEPT, Reader, Stream

__all__ = ["LOCAL_HOSTS", "McpApp"]

logger = logging.getLogger("objmcp")

Scope = Mapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
ASGISend = Callable[[dict[str, Any]], Awaitable[None]]
Verifier = Callable[[str], "bool | Awaitable[bool]"]

PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
HEADER_MISMATCH = -32020
"""The error of a request whose headers do not say what its body says (2026-07-28)."""
_ROUTE = re.compile(r"[A-Za-z0-9_-]+")
_METADATA_PATH = "/.well-known/oauth-protected-resource"
_STATUS = {
    rpc.METHOD_NOT_FOUND: 404,
    rpc.INVALID_REQUEST: 400,
    rpc.INVALID_PARAMS: 400,
    rpc.PARSE_ERROR: 400,
    rpc.UNSUPPORTED_PROTOCOL_VERSION: 400,
    HEADER_MISMATCH: 400,
}
"""Modern era: the HTTP status of an error answer (200 for the others)."""
_NAMED = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
"""Methods whose ``Mcp-Name`` header repeats a parameter."""
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
_SSE_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"x-accel-buffering", b"no"),
]


class _Refusal(Exception):
    """An answer given before any session sees the request."""

    def __init__(
        self, status: int, body: object = None, headers: list[tuple[bytes, bytes]] | None = None
    ) -> None:
        super().__init__(status)
        self.status = status
        self.body = body
        self.headers = headers or []


class HttpConnection(Connection):
    """A session served over HTTP: each message goes to the POST it belongs to, or to the
    session's GET stream, or nowhere when neither is open."""

    def __init__(self, server: Host, owner: str | None = None) -> None:
        super().__init__(server)
        self.owner = owner
        """A digest of the credentials that opened the session (None: none were asked)."""
        self.session_id: str | None = None
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
        self.bind()

    @property
    def priming(self) -> bool:
        """Whether a request's SSE stream opens with an event that carries only an id
        and the reconnection delay (and may be closed for the client to poll)."""
        revision = self.session.revision
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
    def being_read(self) -> bool:
        """Whether a connection is writing one of the session's streams now."""
        streams = [*self.streams.values(), self.stream]
        return any(stream is not None and stream.reading for stream in streams)

    def forget(self, stream: Stream) -> None:
        """No client can resume ``stream`` (answered with JSON, or replaced)."""
        if stream.number is not None and self.streams.get(stream.number) is stream:
            del self.streams[stream.number]

    def take(self, actions: list[Action], exchange: Stream, group: anyio.abc.TaskGroup) -> None:
        """Carry out what the session said of a POST: its answers go to ``exchange`` (even
        those that could not name a request), its calls start in ``group``."""
        for request_id in exchange.pending:
            self._exchanges[request_id] = exchange
        self._immediate = exchange
        try:
            self._perform(actions, group)
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
        for request_id, held in list(self._exchanges.items()):
            if held is exchange:
                del self._exchanges[request_id]

    def _send(self, message: object, related: RequestId | None) -> None:
        exchange = self._exchanges.get(related) if related is not None else None
        if exchange is None and (related is None or self._immediate is not None):
            exchange = self._immediate
        if exchange is not None:
            exchange.put(message)
        elif self.stream is not None and not self.stream.closed:
            self.stream.put(message)
        else:
            logger.debug("no stream open for %s; dropped", _describe(message))


class McpApp:
    """The ASGI application of :func:`asgi_app`: mount it, or run it with any ASGI server."""

    def __init__(
        self,
        server: Host,
        *,
        path: str = "/mcp",
        stateless: bool = False,
        allowed_hosts: Collection[str] | None = None,
        allowed_origins: Collection[str] | None = None,
        token: str | None = None,
        verify: Verifier | None = None,
        resource_metadata: str | None = None,
        poll_after: float | None = None,
        retry_ms: int = 500,
        route: str | None = None,
        authorization_servers: Collection[str] = (),
        resource: str | None = None,
        scopes: Collection[str] = (),
        session_idle: float | None = 3600.0,
    ) -> None:
        if token is not None and verify is not None:
            raise ValueError("give token= or verify=, not both")
        if route is not None and not _ROUTE.fullmatch(route):
            raise ValueError(f"route= must be letters, digits, '_' or '-', not {route!r}")
        if token is not None and not token:
            raise ValueError("token= cannot be empty")
        self.server = server
        self.path = path
        self.stateless = stateless
        self.allowed_hosts = tuple(allowed_hosts) if allowed_hosts is not None else LOCAL_HOSTS
        self.allowed_origins = tuple(allowed_origins) if allowed_origins is not None else ()
        self._token = token.encode() if token is not None else None
        self._verify = verify
        self.resource_metadata = resource_metadata
        self.poll_after = poll_after
        """Seconds a 2025-11-25 client's request stream is held open before the server
        closes the connection and the client polls (None: until it is answered)."""
        self.retry_ms = retry_ms
        """The reconnection delay SSE streams tell clients."""
        self.authorization_servers = tuple(authorization_servers)
        """Where clients get tokens for this endpoint: given, the app serves its OAuth
        protected-resource metadata (RFC 9728) and a 401 points to it."""
        self.resource = resource
        """The endpoint's canonical URL in that metadata (None: the URL it is reached at)."""
        self.scopes = tuple(scopes)
        """The scopes the metadata lists (none: not listed)."""
        self.route = route
        """The tag every session id starts with (``<route>.``), for a proxy in front of
        several servers to send a session's requests to the one that holds it."""
        self.sessions: dict[str, HttpConnection] = {}
        """The open handshake-era sessions, by id."""
        check_seconds(session_idle=session_idle)
        self.session_idle = session_idle
        """Seconds a session lives with no request and no stream being read (None: until
        it is deleted); looked at as requests come."""
        self._next_sweep = time.monotonic()
        self._logging: LogToClient | None = None
        self._modern: HttpConnection | None = None
        self._aliases = itertools.count(1)

    def __repr__(self) -> str:
        return f"McpApp({self.server.info.name!r}, path={self.path!r})"

    async def __call__(self, scope: Scope, receive: Receive, send: ASGISend) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        headers = _headers(scope)
        path = _route_path(scope)
        try:
            if self.authorization_servers and path in self._metadata_paths(scope):
                self._check_origin(headers)
                await self._describe_resource(scope, headers, send)
                return
            if path != self.path:
                raise _Refusal(404, "Not Found: the MCP endpoint is " + self.path)
            self._check_origin(headers)
            owner = await self._authenticate(headers, scope)
            self._expire_idle_sessions()
            self._forward_logs()
            method = scope.get("method")
            if method == "POST":
                await self._post(headers, owner, receive, send)
            elif method == "GET":
                await self._get(headers, owner, receive, send)
            elif method == "DELETE":
                await self._delete(headers, owner, send)
            else:
                raise _Refusal(405, None, [(b"allow", b"GET, POST, DELETE")])
        except _Refusal as refusal:
            await _respond(send, refusal.status, refusal.body, refusal.headers)

    # --- checks ---------------------------------------------------------------------------

    def _check_origin(self, headers: Mapping[str, str]) -> None:
        host = headers.get("host", "")
        served = {host, _hostname(host), "*"}
        if not served & set(self.allowed_hosts):
            raise _Refusal(421, f"Misdirected Request: host {host!r} is not served here")
        origin = headers.get("origin")
        if origin is None or "*" in self.allowed_origins or origin in self.allowed_origins:
            return
        if not self.allowed_origins and _hostname(origin.partition("://")[2]) in LOCAL_HOSTS:
            return
        raise _Refusal(403, f"Forbidden: origin {origin!r} is not allowed")

    async def _authenticate(self, headers: Mapping[str, str], scope: Scope) -> str | None:
        """Check the bearer token, when one is required; returns a digest of it."""
        if self._token is None and self._verify is None:
            return None
        scheme, _, given = headers.get("authorization", "").partition(" ")
        given = given.strip()
        if scheme.lower() != "bearer" or not given:
            raise self._unauthorized(None, scope, headers)
        if self._token is not None:
            good = hmac.compare_digest(given.encode(), self._token)
        else:
            assert self._verify is not None
            verdict = self._verify(given)
            good = bool(await verdict if inspect.isawaitable(verdict) else verdict)
        if not good:
            raise self._unauthorized("invalid_token", scope, headers)
        return hashlib.sha256(given.encode()).hexdigest()

    def _unauthorized(
        self, error: str | None, scope: Scope, headers: Mapping[str, str]
    ) -> _Refusal:
        challenge = "Bearer"
        parts = []
        if error is not None:
            parts.append(f'error="{error}"')
        metadata = self.resource_metadata
        if metadata is None and self.authorization_servers:
            origin = _origin_of(scope, headers)
            root = scope.get("root_path", "")
            # mounted: where this app answers, not the host's root it does not own
            metadata = f"{origin}{root}{_METADATA_PATH}{self.path}"
        if metadata is not None:
            parts.append(f'resource_metadata="{metadata}"')
        if parts:
            challenge += " " + ", ".join(parts)
        return _Refusal(
            401,
            "Unauthorized: a bearer token is required",
            [(b"www-authenticate", challenge.encode())],
        )

    def _metadata_paths(self, scope: Scope) -> tuple[str, ...]:
        """Where the protected-resource metadata is served (RFC 9728: the well-known
        path, alone or followed by the resource's path)."""
        root = scope.get("root_path", "")
        return (_METADATA_PATH, _METADATA_PATH + self.path, _METADATA_PATH + root + self.path)

    async def _describe_resource(
        self, scope: Scope, headers: Mapping[str, str], send: ASGISend
    ) -> None:
        """The OAuth 2.0 protected-resource metadata (RFC 9728) of the endpoint."""
        if scope.get("method") != "GET":
            raise _Refusal(405, None, [(b"allow", b"GET")])
        origin = _origin_of(scope, headers)
        resource = self.resource or f"{origin}{scope.get('root_path', '')}{self.path}"
        described = {
            "resource": resource,
            "authorization_servers": list(self.authorization_servers),
            "bearer_methods_supported": ["header"],
        }
        if self.scopes:
            described["scopes_supported"] = list(self.scopes)
        await _respond(send, 200, described)

    def _forward_logs(self) -> None:
        """Send the object's log records to the clients of their calls (installed once)."""
        if self._logging is None:
            self._logging = LogToClient(None)
            root = logging.getLogger()
            if not root.handlers:
                root.setLevel(logging.DEBUG)  # the client may ask for any level; the handler sorts
            root.addHandler(self._logging)

    # --- methods --------------------------------------------------------------------------

    async def _post(
        self, headers: Mapping[str, str], owner: str | None, receive: Receive, send: ASGISend
    ) -> None:
        _check_accept(headers.get("accept"), post=True)
        content_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type != "application/json":
            raise _Refusal(415, "Unsupported Media Type: send application/json")
        body = await _read_body(receive, self.server.max_frame)
        try:
            message = parse_message(body)
        except ParseFailure as error:
            failure = rpc.error_response(None, rpc.PARSE_ERROR, f"Parse error: {error}")
            raise _Refusal(400, failure) from None
        modern = _is_modern(message)
        aliases: dict[RequestId, RequestId] = {}
        if modern:
            _check_modern_headers(headers, message)
            connection = self._modern_connection()
            if "id" in message and rpc.is_request_id(message["id"]):
                alias = f"objmcp-http-{next(self._aliases)}"
                aliases[alias] = message["id"]
                message = {**message, "id": alias}
        else:
            _check_handshake_body(headers, message)
            connection = self._handshake_session(headers, owner, message)
        exchange = Stream(_request_ids(message), aliases)
        if exchange.pending and not modern:
            connection.resumable(exchange)
        actions = connection.handle(message, owner)
        connection.cancelled(message)
        try:
            async with anyio.create_task_group() as calls:
                connection.take(actions, exchange, calls)
                await self._answer(connection, exchange, modern, receive, send, calls)
        finally:
            connection.release(exchange)
            connection.last_seen = time.monotonic()

    def _modern_connection(self) -> HttpConnection:
        """The one connection of every modern-era request: a call parked by one request
        is there for the retry, whichever request brings it."""
        if self._modern is None:
            self._modern = HttpConnection(self.server)
            self.server.connections.add(self._modern)
        return self._modern

    def _handshake_session(
        self, headers: Mapping[str, str], owner: str | None, message: object
    ) -> HttpConnection:
        version = headers.get("mcp-protocol-version")
        if version is not None and version not in HANDSHAKE_VERSIONS:
            supported = ", ".join(HANDSHAKE_VERSIONS)
            failure = rpc.error_response(
                None,
                rpc.INVALID_REQUEST,
                f"Bad Request: MCP-Protocol-Version {version!r} is not one of {supported}",
            )
            raise _Refusal(400, failure)
        opening = isinstance(message, dict) and message.get("method") == "initialize"
        if self.stateless:
            connection = HttpConnection(self.server, owner)
            connection.asks = False
            if not opening:
                connection.session.assume(version or "2025-03-26")
            return connection
        session_id = headers.get("mcp-session-id")
        if opening and session_id is None:
            connection = HttpConnection(self.server, owner)
            connection.session_id = secrets.token_urlsafe(24)
            if self.route is not None:
                connection.session_id = f"{self.route}.{connection.session_id}"
            self.sessions[connection.session_id] = connection
            self.server.connections.add(connection)
            return connection
        if session_id is None:
            failure = rpc.error_response(
                None, rpc.INVALID_REQUEST, "Bad Request: no Mcp-Session-Id (send initialize first)"
            )
            raise _Refusal(400, failure)
        return self._session_for(session_id, owner)

    def _session_for(self, session_id: str, owner: str | None) -> HttpConnection:
        """The open session ``session_id`` of the caller ``owner``; 404 for any other."""
        found = self.sessions.get(session_id)
        if found is None or found.owner != owner:
            raise _Refusal(404, rpc.error_response(None, rpc.INVALID_REQUEST, "Session not found"))
        found.last_seen = time.monotonic()
        return found

    def _expire_idle_sessions(self) -> None:
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
                self._end(self.sessions.pop(session_id))

    async def _answer(
        self,
        connection: HttpConnection,
        exchange: Stream,
        modern: bool,
        receive: Receive,
        send: ASGISend,
        calls: anyio.abc.TaskGroup,
    ) -> None:
        """Answer a POST: 202 when it held no request, JSON when its answers are all there
        (or come without anything before them), else an SSE stream until they are.

        A client that leaves cancels its requests, unless it may resume their stream
        (a handshake session's): then they go on, and what they send waits for it."""
        extra = []
        if connection.session_id is not None:
            extra.append((b"mcp-session-id", connection.session_id.encode()))
        if not exchange.pending:  # no request, or answers already given
            ready = [message for _, message in exchange.since(0)]
            if not ready:
                await _respond(send, 202, None, extra)
            else:
                only = ready[0] if len(ready) == 1 else ready
                # The status table is the modern era's: a handshake-era request's answer
                # is 200 whatever its error (a 404 there says "session gone"), while an
                # error of no request (a message that is not one) keeps its status.
                status = _status_of(only) if modern or not exchange.requested else 200
                await _respond(send, status, only, extra)
            return
        priming = connection.priming
        reader = Reader(exchange, self.poll_after if priming else None)
        try:
            async with anyio.create_task_group() as watching:
                watching.start_soon(_watch, receive, reader.leave)
                await reader.wait(lambda: exchange.end > 0 or exchange.complete)
                if exchange.end == 1 and exchange.complete and not reader.stopped:
                    ((_, only),) = exchange.since(0)
                    await _respond(send, _status_of(only) if modern else 200, only, extra)
                    connection.forget(exchange)
                elif not reader.left:
                    headers = _SSE_HEADERS + extra
                    await send({"type": "http.response.start", "status": 200, "headers": headers})
                    if priming:
                        await _send_event(send, None, exchange.event_id(0), retry=self.retry_ms)
                    await self._write(exchange, reader, send, 0)
                watching.cancel_scope.cancel()
        finally:
            reader.close()
        if reader.left and exchange.pending and exchange.number is None:
            self._gone(connection, exchange, calls)

    async def _write(
        self,
        stream: Stream,
        reader: Reader,
        send: ASGISend,
        position: int,
    ) -> None:
        """Write ``stream`` from ``position`` on SSE until it is complete or ``reader``
        must stop; then end the response."""

        def ready() -> bool:
            return stream.end > position or stream.complete

        while await reader.wait(ready):
            for at, message in stream.since(position):
                if reader.stopped:
                    break
                await _send_event(send, message, stream.event_id(at + 1))
                position = at + 1
            stream.written(position)
            if stream.complete and position >= stream.end:
                break
        if reader.held:
            retry = _retry(self.retry_ms)
            await send({"type": "http.response.body", "body": retry, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    def _gone(
        self, connection: HttpConnection, exchange: Stream, calls: anyio.abc.TaskGroup
    ) -> None:
        """The client closed the POST's stream: its requests are cancelled."""
        for request_id in list(exchange.pending):
            cancel = {
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": request_id},
            }
            connection._perform(connection.handle(cancel))
        calls.cancel_scope.cancel()

    async def _get(
        self, headers: Mapping[str, str], owner: str | None, receive: Receive, send: ASGISend
    ) -> None:
        """The session's stream of what belongs to no request, or (``Last-Event-ID``) the
        rest of a stream whose connection was lost."""
        session_id = headers.get("mcp-session-id")
        if self.stateless or session_id is None:
            raise _Refusal(405, None, [(b"allow", b"POST")])  # GET needs a session
        _check_accept(headers.get("accept"), post=False)
        found = self._session_for(session_id, owner)
        last = headers.get("last-event-id")
        if last is not None:
            stream, position = self._resumed(found, last)
            hold = self.poll_after if found.priming and not stream.standing else None
        else:
            if found.stream is not None and found.stream.reading:
                raise _Refusal(409, "Conflict: this session's GET stream is already open")
            if found.stream is not None:
                found.forget(found.stream)  # a new stream: the old one is not resumed
            stream = found.stream = found.resumable(Stream(standing=True))
            position, hold = 0, None
        reader = Reader(stream, hold)
        try:
            await send({"type": "http.response.start", "status": 200, "headers": _SSE_HEADERS})
            if last is None and found.priming:
                await _send_event(send, None, stream.event_id(0), retry=self.retry_ms)
            elif last is None:
                opened = b": stream open\n\n"
                await send({"type": "http.response.body", "body": opened, "more_body": True})
            async with anyio.create_task_group() as watching:
                watching.start_soon(_watch, receive, reader.leave)
                await self._write(stream, reader, send, position)
                watching.cancel_scope.cancel()
        finally:
            reader.close()
            found.last_seen = time.monotonic()

    def _resumed(self, connection: HttpConnection, last: str) -> tuple[Stream, int]:
        """The stream ``Last-Event-ID: last`` names, and where to go on from."""
        number, _, position = last.partition("-")
        stream = None
        if number.isdigit() and position.isdigit():
            stream = connection.streams.get(int(number))
        if stream is None or int(position) > stream.end:
            raise _Refusal(
                400,
                f"Bad Request: no stream to resume from Last-Event-ID {last!r} "
                "(it ended, or was never here)",
            )
        return stream, int(position)

    async def _delete(self, headers: Mapping[str, str], owner: str | None, send: ASGISend) -> None:
        session_id = headers.get("mcp-session-id")
        if self.stateless or session_id is None:
            raise _Refusal(405, None, [(b"allow", b"POST")])  # DELETE needs a session
        self._session_for(session_id, owner)
        self._end(self.sessions.pop(session_id))
        await _respond(send, 200, None)

    def _end(self, connection: HttpConnection) -> None:
        """A session is over: its calls and waits end, its streams too; it hears of no
        change."""
        self.server.connections.discard(connection)
        connection._release()
        connection.cancel_calls()
        for stream in [*connection.streams.values(), connection.stream]:
            if stream is not None:
                stream.close()

    async def _lifespan(self, receive: Receive, send: ASGISend) -> None:
        while True:
            event = await receive()
            if event["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif event["type"] == "lifespan.shutdown":
                await self.aclose()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def aclose(self) -> None:
        """End every session and close the served object (the ASGI server's shutdown
        does this; call it when embedding without one)."""
        for connection in self.sessions.values():
            self._end(connection)
        self.sessions.clear()
        await self.server.tools.aclose()
        if self._logging is not None:
            logging.getLogger().removeHandler(self._logging)
            self._logging = None


# --- the wire ---------------------------------------------------------------------------------


def _headers(scope: Scope) -> dict[str, str]:
    found: dict[str, str] = {}
    for key, value in scope.get("headers", []):
        name = key.decode("latin-1").lower()
        text = value.decode("latin-1")
        found[name] = f"{found[name]}, {text}" if name in found else text
    return found


def _origin_of(scope: Scope, headers: Mapping[str, str]) -> str:
    """``scheme://host`` as the client addressed the server."""
    return f"{scope.get('scheme', 'http')}://{headers.get('host', 'localhost')}"


def _route_path(scope: Scope) -> str:
    """The request's path below where the app is mounted (``root_path``)."""
    path: str = scope.get("path", "")
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


def _hostname(host: str) -> str:
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _check_accept(accept: str | None, post: bool) -> None:
    kinds = {part.split(";")[0].strip().lower() for part in (accept or "*/*").split(",")}
    needed = ["application/json", "text/event-stream"] if post else ["text/event-stream"]
    for kind in needed:
        family = kind.split("/")[0] + "/*"
        if not kinds & {kind, family, "*/*"}:
            listed = " and ".join(needed)
            raise _Refusal(406, f"Not Acceptable: the Accept header must list {listed}")


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        event = await receive()
        if event["type"] == "http.disconnect":
            raise _Refusal(400, "the client left before its request was read")
        chunk = event.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _Refusal(413, f"Payload Too Large: at most {limit} bytes")
        chunks.append(chunk)
        if not event.get("more_body", False):
            return b"".join(chunks)


def _is_modern(message: object) -> bool:
    if not isinstance(message, dict) or message.get("method") == "initialize":
        return False
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta


def _check_modern_headers(headers: Mapping[str, str], message: dict[str, Any]) -> None:
    """The 2026-07-28 headers must say what the body says: -32020 (HTTP 400) otherwise."""
    request_id = message.get("id") if rpc.is_request_id(message.get("id")) else None
    params = message.get("params") or {}
    version = params["_meta"][PROTOCOL_VERSION_KEY]

    def mismatch(detail: str) -> _Refusal:
        return _Refusal(
            400, rpc.error_response(request_id, HEADER_MISMATCH, f"Header mismatch: {detail}")
        )

    given = headers.get("mcp-protocol-version")
    if given != version:
        raise mismatch(
            f"MCP-Protocol-Version header {given!r} is not the _meta version {version!r}"
        )
    if "id" not in message:
        return  # notifications: the revision asks nothing more of their headers
    method = message.get("method")
    if headers.get("mcp-method") != method:
        raise mismatch(
            f"Mcp-Method header {headers.get('mcp-method')!r} is not the method {method!r}"
        )
    key = _NAMED.get(str(method))
    if key is not None:
        named = _decode_header(headers.get("mcp-name"))
        if named != params.get(key):
            raise mismatch(f"Mcp-Name header {named!r} is not the {key} {params.get(key)!r}")


def _check_handshake_body(headers: Mapping[str, str], message: object) -> None:
    """A request whose header names a modern revision but whose body does not: what
    that revision answers (no ``initialize``; ``_meta`` required)."""
    if headers.get("mcp-protocol-version") not in MODERN_VERSIONS:
        return
    found = message.get("id") if isinstance(message, dict) else None
    request_id = found if rpc.is_request_id(found) else None
    version = headers["mcp-protocol-version"]
    if isinstance(message, dict) and message.get("method") == "initialize":
        detail = f"Method not found: initialize does not exist in {version}"
        raise _Refusal(404, rpc.error_response(request_id, rpc.METHOD_NOT_FOUND, detail))
    detail = (
        f"Invalid params: a {version} request names its revision and the client's "
        f"capabilities in params._meta ({PROTOCOL_VERSION_KEY}, ...)"
    )
    raise _Refusal(400, rpc.error_response(request_id, rpc.INVALID_PARAMS, detail))


def _decode_header(value: str | None) -> str | None:
    """A header value, its ``=?base64?...?=`` form decoded."""
    if value is None or not (value.startswith("=?base64?") and value.endswith("?=")):
        return value
    try:
        return base64.b64decode(value[9:-2], validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return value


def _request_ids(message: object) -> list[RequestId]:
    items = message if isinstance(message, list) else [message]
    return [
        item["id"]
        for item in items
        if isinstance(item, dict) and "method" in item and rpc.is_request_id(item.get("id"))
    ]


def _status_of(message: object) -> int:
    if isinstance(message, dict) and isinstance(message.get("error"), dict):
        return _STATUS.get(message["error"].get("code"), 200)
    return 200


async def _watch(receive: Receive, gone: Callable[[], object]) -> None:
    """Call ``gone`` when the client goes away."""
    while (await receive())["type"] != "http.disconnect":
        pass
    gone()


async def _send_event(
    send: ASGISend, message: object | None, event_id: str | None, retry: int | None = None
) -> None:
    """Write one SSE event: ``message`` (None: no data, an event that only carries its id
    and the reconnection delay)."""
    lines = [] if event_id is None else [b"id: " + event_id.encode()]
    if retry is not None:
        lines.append(b"retry: %d" % retry)
    if message is None:
        lines.append(b"data: ")
    else:
        lines += [b"event: message", b"data: " + encode_message(message)]
    body = b"\n".join(lines) + b"\n\n"
    await send({"type": "http.response.body", "body": body, "more_body": True})


def _retry(milliseconds: int) -> bytes:
    return b"retry: %d\n\n" % milliseconds


def _describe(message: object) -> str:
    if isinstance(message, dict):
        return str(message.get("method") or f"the answer to {message.get('id')!r}")
    return "a batch answer"


async def _respond(
    send: ASGISend, status: int, body: object, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    extra = list(headers or [])
    if body is None:
        data = b""
    elif isinstance(body, str):
        data = body.encode()
        extra.append((b"content-type", b"text/plain; charset=utf-8"))
    else:
        data = encode_message(body)
        extra.append((b"content-type", b"application/json"))
    extra.append((b"content-length", str(len(data)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": extra})
    await send({"type": "http.response.body", "body": data})
