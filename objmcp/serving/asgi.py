"""Streamable HTTP: the server as a plain ASGI application, no web framework.

One endpoint (``/mcp`` unless told otherwise) serves both eras:

- **Modern era** (2026-07-28): every POST stands alone. Its headers must agree with
  its body (``MCP-Protocol-Version`` with ``_meta``, ``Mcp-Method``, ``Mcp-Name``, and
  a tool's ``Mcp-Param-*``; -32020 otherwise), errors carry the HTTP status the
  revision gives them, a notification is answered 202, closing the response cancels
  the request, and a ``subscriptions/listen`` request is a stream that stays open.
- **Handshake era** (2025-03-26 to 2025-11-25): ``initialize`` opens a session
  (``Mcp-Session-Id``); a POST is answered with JSON or an SSE stream carrying the
  call's progress, log records and questions to the client before its answer; the
  client's answers come back in POSTs of their own; GET opens the stream of what
  belongs to no request; DELETE ends the session. ``stateless=True`` serves such
  clients without sessions (and without questions to them). A session's streams are
  resumable: their events carry ids, and a GET with ``Last-Event-ID`` gets the rest of
  a stream whose connection was lost (the calls went on meanwhile).

A request id still in flight in a session, reused by another POST, is refused in
that POST, and the first POST still gets its answer; a batch the revision refuses
whole is answered, in its POST, by that one error.

Calls run inside the request that started them: a call that waits for the user
waits inside its POST. A modern call that asks is answered ``input_required`` and
waits, parked, inside the request that started it (which has answered already),
for the retry to bring the answer; every modern request goes to one shared session,
under ids of the server's making, so the retry finds it (or, in another process,
replays it).

This module is the app's routing and its answers: which method does what, and how
a POST is answered (202, JSON, or an SSE stream, written here). What a request must
show before that (``Host`` and ``Origin``, the bearer token, headers that agree with
the body) is :mod:`objmcp.serving.http_checks`; the sessions it opens, finds and
ends are :mod:`objmcp.serving.http_sessions`; what an SSE stream carries, and the
one connection writing it, :mod:`objmcp.serving.streams`. :class:`McpApp` has one
:class:`~objmcp.serving.http_checks.Gate` (``gate``) and one
:class:`~objmcp.serving.http_sessions.SessionStore` (``store``), and routes between
them.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Mapping
from typing import Any, Generic, Protocol, TypeVar

import anyio
import anyio.abc

from ..model.calling.caller import Caller
from ..model.values.jsontext import ParseFailure, parse_message
from ..model.values.printed import printed_kept
from ..protocol import jsonrpc as rpc
from ..protocol.envelope import unreadable
from ..protocol.jsonrpc import RequestId
from ..protocol.modern import is_modern
from ..protocol.session import ServerInfo
from .core_sharing import core_from_store
from .http_aliases import Aliases
from .http_checks import (
    LOCAL_HOSTS,
    Gate,
    Receive,
    Refusal,
    Scope,
    Verifier,
    check_accept,
    check_content_type,
    check_handshake_body,
    check_modern_headers,
    check_values,
    header_map,
    read_body,
    route_path,
)
from .http_options import Auth, Http
from .http_params import check_param_headers
from .http_replies import SSE_HEADERS, ASGISend, Replies, respond, send_event, watch
from .http_scopes import check_scopes
from .http_sessions import SessionStore
from .logs import LogToClient
from .settings import Settings
from .streams import Reader, Stream
from .task_sharing import from_store, note_listened, share_tasks
from .tracing import with_trace_headers

__all__ = ["LOCAL_HOSTS", "Host", "McpApp"]

_HTTP, _AUTH = Http(), Auth()


class Host(Protocol):
    """What the app needs of the server it serves (:class:`objmcp.Server` is one)."""

    info: ServerInfo

    def settings(self) -> Settings:
        """What its connections run by."""
        ...

    def serve_shared(self) -> object:
        """From now on, callers share its process: withhold what only one caller may
        be handed (:meth:`objmcp.Toolbox.serve_shared`)."""
        ...


ServedT = TypeVar("ServedT", bound=Host)


class McpApp(Generic[ServedT]):
    """The ASGI application of :func:`asgi_app`: mount it, or run it with any ASGI server.

    It serves :attr:`server` (an :class:`objmcp.Server`, from :func:`asgi_app`)."""

    def __init__(self, server: ServedT, *, http: Http = _HTTP, auth: Auth = _AUTH) -> None:
        if not isinstance(http, Http) or not isinstance(auth, Auth):
            raise TypeError("http takes an objmcp.Http(...) and auth an objmcp.Auth(...)")
        verify = auth.verify
        if auth.jwt:
            verify = _jwt_check(
                auth.jwks_url, auth.jwt_key, auth.issuer, auth.audience or auth.resource
            )
        self.http = http
        """The endpoint's options."""
        self.auth = auth
        """Who may call it."""
        self.gate = Gate(
            path=http.path,
            allowed_hosts=(*LOCAL_HOSTS, *http.allowed_hosts),
            allowed_origins=http.allowed_origins,
            token=auth.token,
            verify=verify,
            resource_metadata=auth.resource_metadata,
            authorization_servers=auth.authorization_servers,
            resource=auth.resource if auth.resource is not None or not auth.jwt else auth.audience,
            scopes=auth.scopes,
            no_auth=auth.no_auth,
            required=auth.scopes if auth.jwt else (),
        )
        """What a request must show first (host, origin, token)."""
        self.store = SessionStore(
            server.settings(),
            stateless=http.stateless,
            route=http.route,
            session_idle=http.session_idle,
            max_sessions=http.max_sessions,
        )
        """The sessions open, and the connection modern-era requests share."""
        self.settings = self.store.settings
        """What the app's connections run by."""
        self.max_values = self.settings.tools.limits.max_values
        """JSON values in a POST's body (beyond: 413, the body not parsed): the server's
        ``max_values``."""
        self.replies = Replies(http)
        """How its requests are answered (JSON, or SSE streams)."""
        self.name = server.info.name
        """The served server's name."""
        server.serve_shared()  # every client of the app shares the server's process
        self._server = server
        self._logging: LogToClient | None = None
        self._printed = contextlib.ExitStack()
        self._printed_kept = False
        self._aliases = Aliases()

    def __repr__(self) -> str:
        return f"McpApp({self.name!r}, path={self.http.path!r})"

    @property
    def server(self) -> ServedT:
        """The server this app serves (:func:`asgi_app`'s :class:`objmcp.Server`): its
        :meth:`~objmcp.Server.add` and :meth:`~objmcp.Server.remove` change what is
        served while serving, and the clients listening hear the lists changed."""
        return self._server

    async def __call__(self, scope: Scope, receive: Receive, send: ASGISend) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        headers = header_map(scope)
        path = route_path(scope)
        try:
            if self.gate.authorization_servers and path in self.gate.metadata_paths(scope):
                self.gate.check_origin(headers)
                await self._describe_resource(scope, headers, send)
                return
            if path != self.http.path:
                raise Refusal(404, "Not Found: the MCP endpoint is " + self.http.path)
            self.gate.check_origin(headers)
            admitted = await self.gate.authenticate(headers, scope)
            caller = admitted.caller if admitted is not None else None
            caller_key = caller.key if caller is not None else None
            self.gate.check_reach(scope)
            self.store.expire_idle()
            self._forward_logs()
            method = scope.get("method")
            if method == "POST":
                await self._post(scope, headers, caller, receive, send)
            elif method == "GET":
                await self._get(headers, caller_key, receive, send)
            elif method == "DELETE":
                await self._delete(headers, caller_key, send)
            else:
                raise Refusal(405, None, [(b"allow", b"GET, POST, DELETE")])
        except Refusal as refusal:
            await respond(send, refusal.status, refusal.body, refusal.headers)
        finally:
            # the objects of sessions this request ended, or found expired (per="session")
            if self.settings.tools.objects is not None:
                with anyio.CancelScope(shield=True):
                    await self.settings.tools.close_ended()

    async def _describe_resource(
        self, scope: Scope, headers: Mapping[str, str], send: ASGISend
    ) -> None:
        """The OAuth 2.0 protected-resource metadata (RFC 9728) of the endpoint."""
        if scope.get("method") != "GET":
            raise Refusal(405, None, [(b"allow", b"GET")])
        await respond(send, 200, self.gate.resource_described(scope, headers))

    def _forward_logs(self) -> None:
        """Send the object's log records to the clients of their calls, and keep what a
        call prints for its answer (installed once)."""
        if self._logging is None:
            self._logging = LogToClient(None, self.settings.tools, self.settings.loggers)
            root = logging.getLogger()
            if not root.handlers:
                root.setLevel(logging.DEBUG)  # the client may ask for any level; the handler sorts
            root.addHandler(self._logging)
        if not self._printed_kept:  # what a call prints is its answer when it gives none
            self._printed.enter_context(printed_kept())
            self._printed_kept = True

    # --- methods --------------------------------------------------------------------------

    async def _post(
        self,
        scope: Scope,
        headers: Mapping[str, str],
        caller: Caller | None,
        receive: Receive,
        send: ASGISend,
    ) -> None:
        check_accept(headers.get("accept"), post=True)
        check_content_type(headers)
        max_frame = self.store.settings.max_frame
        if self.http.max_body <= max_frame:
            body = await read_body(receive, self.http.max_body)
        else:
            body = await read_body(receive, max_frame, "max_frame")
        check_values(body, self.max_values)
        try:
            message = parse_message(body)
        except ParseFailure as error:
            raise Refusal(400, unreadable(error)) from None
        modern = is_modern(message)
        if modern:
            check_modern_headers(headers, message)
            check_param_headers(self.settings.tools, scope.get("headers", []), message)
        else:
            check_handshake_body(headers, message)
        metadata = self.gate.metadata_url(scope, headers)
        check_scopes(self.settings.tools, message, caller, metadata)
        caller_key = caller.key if caller is not None else None
        aliases: dict[RequestId, RequestId] = {}
        if modern:
            connection = self.store.modern_connection()
            shared = self.settings.shared
            found = (
                None
                if shared is None
                else await from_store(
                    shared, connection.runner, message, caller_key, self.settings.queue
                )
            )
            if shared is not None:  # a listen stream may name tasks another process holds
                await note_listened(shared, connection.runner, message, caller_key)
            if found is not None:  # a task another process holds, as the store has it
                await respond(send, 200, found, [])
                return
            message = self._aliases.cancellation(caller_key, message)
            if message is None:  # it names no request of this caller's: nothing to cancel
                await respond(send, 202, None, [])
                return
            if "id" in message and rpc.is_request_id(message["id"]):
                alias = self._aliases.take(caller_key, message["id"])
                aliases[alias] = message["id"]
                message = {**message, "id": alias}
        else:
            connection = self.store.handshake_session(headers, caller_key, message)
            shared = self.settings.shared
            if shared is not None:  # a task of this caller another session holds
                queue = self.settings.queue
                found = await core_from_store(shared, connection.runner, message, caller_key, queue)
                if found is not None:
                    await respond(send, 200, found, [])
                    return
        exchange = Stream(_request_ids(message), aliases, batch=isinstance(message, list))
        if exchange.pending and not modern:
            connection.resumable(exchange)
        source: bytes | None = body  # vouches for the limits: an alias id changes none
        if "traceparent" in headers and self.store.settings.tracer is not None:
            message = with_trace_headers(message, headers)
            source = None
        made = connection.runner.session.tasks.made
        actions = connection.runner.handle(message, caller, source=source, client_ids=aliases)
        if self.settings.shared is not None and connection.runner.session.tasks.made != made:
            # a task this request made (a 2025-11-25 one) is in the store before its answer
            await connection.runner.publish_first(self.settings.shared)
        connection.cancelled(message)
        # a plain call runs in this task, answered when it ends (a handshake-era one too, but
        # where its stream would be let go early for the client to poll: poll_after)
        lane = modern or self.http.poll_after is None
        here = connection.runner.runs_here(actions) if lane else None
        try:
            if here is not None:
                connection.expects(exchange)
                await connection.runner.run_here(here)
                await self.replies.answered(connection, exchange, modern, send)
                return
            async with anyio.create_task_group() as calls:
                connection.take(actions, exchange, calls)
                await self.replies.answer(connection, exchange, modern, receive, send, calls)
        finally:
            connection.release(exchange)
            connection.last_seen = time.monotonic()
            for server_id, client_id in aliases.items():
                self._aliases.drop(caller_key, client_id, str(server_id))

    async def _get(
        self,
        headers: Mapping[str, str],
        caller_key: str | None,
        receive: Receive,
        send: ASGISend,
    ) -> None:
        """The session's stream of what belongs to no request, or (``Last-Event-ID``) the
        rest of a stream whose connection was lost."""
        session_id = headers.get("mcp-session-id")
        if self.store.stateless or session_id is None:
            raise Refusal(405, None, [(b"allow", b"POST")])  # GET needs a session
        check_accept(headers.get("accept"), post=False)
        found = self.store.session_for(session_id, caller_key)
        last = headers.get("last-event-id")
        if last is not None:
            stream, position = self.store.resumed(found, last)
            hold = self.http.poll_after if found.priming and not stream.standing else None
        else:
            if found.stream is not None and found.stream.reading:
                raise Refusal(409, "Conflict: this session's GET stream is already open")
            if found.stream is not None:
                found.forget(found.stream)  # a new stream: the old one is not resumed
            stream = found.stream = found.resumable(Stream(standing=True))
            position, hold = 0, None
        reader = Reader(stream, hold)
        try:
            await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
            if last is None and found.priming:
                await send_event(send, None, stream.event_id(0), retry=self.http.retry_ms)
            elif last is None:
                opened = b": stream open\n\n"
                await send({"type": "http.response.body", "body": opened, "more_body": True})
            async with anyio.create_task_group() as watching:
                watching.start_soon(watch, receive, reader.leave)
                await self.replies.write(stream, reader, send, position)
                watching.cancel_scope.cancel()
        finally:
            reader.close()
            found.last_seen = time.monotonic()

    async def _delete(
        self, headers: Mapping[str, str], caller_key: str | None, send: ASGISend
    ) -> None:
        session_id = headers.get("mcp-session-id")
        if self.store.stateless or session_id is None:
            raise Refusal(405, None, [(b"allow", b"POST")])  # DELETE needs a session
        self.store.session_for(session_id, caller_key)
        self.store.end(self.store.sessions.pop(session_id))
        with anyio.CancelScope(shield=True):  # its object is closed before the answer
            await self.settings.tools.close_ended()
        await respond(send, 200, None)

    async def _lifespan(self, receive: Receive, send: ASGISend) -> None:
        shared = self.settings.shared
        async with anyio.create_task_group() as background:
            while True:
                event = await receive()
                if event["type"] == "lifespan.startup":
                    if shared is not None:  # tasks published for the other processes
                        background.start_soon(share_tasks, shared, self.store.runners)
                    await send({"type": "lifespan.startup.complete"})
                elif event["type"] == "lifespan.shutdown":
                    background.cancel_scope.cancel()  # the publishing, not the closing below
                    break
        await self.aclose()
        if self.settings.queue is not None:
            await self.settings.queue.aclose()
        if shared is not None:
            await shared.aclose()
        await send({"type": "lifespan.shutdown.complete"})

    async def aclose(self) -> None:
        """End every session and close the served object (the ASGI server's shutdown
        does this; call it when embedding without one)."""
        self.store.end_all()
        await self.store.settings.tools.aclose()
        if self._logging is not None:
            logging.getLogger().removeHandler(self._logging)
            self._logging = None
        self._printed.close()
        self._printed_kept = False


def _jwt_check(
    jwks_url: str | None,
    key: str | bytes | Mapping[str, Any] | None,
    issuer: str | None,
    audience: str | None,
) -> Verifier:
    """The built-in JWT check (needs ``objmcp[auth]``)."""
    try:
        from .jwt_check import JwtCheck
    except ImportError:
        raise ImportError(
            "checking JWTs (jwks_url=, jwt_key=) needs PyJWT: pip install 'objmcp[auth]'"
        ) from None
    if issuer is None or audience is None:
        raise ValueError(
            "a JWT check needs issuer= and audience= (or resource=): the endpoint's own URL"
        )
    return JwtCheck(issuer=issuer, audience=audience, jwks_url=jwks_url, key=key)


# --- the answers ------------------------------------------------------------------------------


def _request_ids(message: object) -> list[RequestId]:
    items = message if isinstance(message, list) else [message]
    return [
        item["id"]
        for item in items
        if isinstance(item, dict) and "method" in item and rpc.is_request_id(item.get("id"))
    ]
