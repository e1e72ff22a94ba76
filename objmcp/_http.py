"""A target served over Streamable HTTP: :func:`asgi_app` makes the server and the ASGI
application around it (:class:`~objmcp.serving.asgi.McpApp`)."""

from __future__ import annotations

from typing import Any

from ._server import Server
from .serving.asgi import McpApp

__all__ = ["HTTP_OPTIONS", "asgi_app"]


def asgi_app(name: str, target: object, **options: Any) -> McpApp[Server]:
    """Serve ``target`` over Streamable HTTP: an ASGI application for any ASGI server
    (uvicorn, hypercorn, granian), mountable in Starlette or FastAPI.

    ``options`` are :class:`~objmcp.Server`'s, and: ``path`` (``"/mcp"``),
    ``stateless`` (handshake-era clients without sessions, and without questions to
    them), ``allowed_hosts`` (``Host`` names served, ``"name"`` or ``"name:port"``;
    localhost only unless given, ``["*"]`` for any), ``allowed_origins`` (browser
    origins allowed; local ones unless given), ``token`` (a bearer token every
    request must carry) or ``verify`` (a function, sync or async, that says whether
    a token is good, for OAuth resource servers: True, the id of the user it names, or
    its claims, a mapping; sessions and request states are then bound to the user; see
    :class:`~objmcp.Caller`), ``resource_metadata`` (the URL of
    the protected-resource metadata a 401 points to), ``poll_after`` (seconds a
    2025-11-25 client's request stream stays open before the client is left to poll
    for the rest; None, the default: until it is answered), ``retry_ms`` (the
    reconnection delay told to clients, 500), ``route`` (a tag every session id starts
    with, ``<route>.``, for a proxy in front of several servers: see the README),
    ``authorization_servers`` (the OAuth authorization servers that issue its tokens:
    the app then serves its protected-resource metadata, RFC 9728, at
    ``/.well-known/oauth-protected-resource[/mcp]``, and a 401 points to it),
    ``resource`` and ``scopes`` (that metadata's resource URL and scopes),
    ``session_idle`` (seconds a handshake-era session lives with no request and no
    stream being read, 3600; then it ends, its calls stopped, and its client gets 404
    and starts a new one; None: until the client deletes it), ``no_auth`` (serve
    clients beyond this machine with no ``token`` or ``verify``: without it, and
    without either, a request from an address that is not loopback is refused 403),
    ``max_sessions`` (handshake-era sessions open at once, 1,000, shared fairly among
    the callers present, at least one each: an ``initialize`` beyond it ends the
    caller's own least recently used session with nothing going on, else, for a caller
    within its share, such a session of a caller above its share that holds no tasks;
    else it is refused 503 with ``Retry-After``), ``max_body`` (bytes of a POST's
    body, 16 MiB) and ``max_values`` (JSON values in it, array items and object members,
    2,000,000, counted before it is parsed): beyond either, 413; ``max_values`` bounds an
    argument sent as JSON text too (the server's own option of that name). The built-in
    check of JWT access tokens (needs ``objmcp[auth]``) instead of ``token`` or ``verify``:
    ``jwks_url`` (the authorization server's key set, fetched and cached) or ``jwt_key`` (a
    PEM public key or a JWK), ``issuer`` (the ``iss`` expected) and ``audience`` (the
    ``aud``: this endpoint's own URL; ``resource`` when not given); ``scopes`` are then also
    the scopes every token must grant (403 otherwise).

    Its clients share the server's process: a tool that changes a process-wide setting is
    withheld unless named (``shared_process``, True here; see :class:`~objmcp.Server`).

    The app's ``server`` is the :class:`~objmcp.Server` it serves: ``app.server.add(...)``
    and ``app.server.remove(...)`` change the tools, resources and prompts while serving
    (from any thread), and every client listening (a handshake-era session's GET stream,
    a 2026-07-28 ``subscriptions/listen``) hears the list changed.
    """
    http = {key: options.pop(key) for key in HTTP_OPTIONS if key in options}
    options.setdefault("shared_process", True)  # every client shares the process
    if "max_values" in http:
        options["max_values"] = http["max_values"]
    return McpApp(Server(name, target, **options), **http)


HTTP_OPTIONS = (
    "path",
    "stateless",
    "allowed_hosts",
    "allowed_origins",
    "token",
    "verify",
    "resource_metadata",
    "poll_after",
    "retry_ms",
    "route",
    "session_idle",
    "authorization_servers",
    "resource",
    "scopes",
    "no_auth",
    "max_sessions",
    "max_body",
    "max_values",
    "jwks_url",
    "jwt_key",
    "issuer",
    "audience",
)
"""The options of :func:`asgi_app` that are the HTTP app's, not the server's."""
