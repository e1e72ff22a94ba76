"""What an HTTP request must show before any session sees it.

Every request to the app passes the same gate, in this order: its ``Host`` and
``Origin`` against allow-lists (DNS rebinding: a page in a browser must not reach a
local server through a name it controls), read strictly
(:mod:`objmcp.serving.http_fields`: a malformed one is not served), then its bearer
token, when one is required (a fixed ``token=``, compared in constant time, or ``verify=``, the
application's own judgement, for OAuth resource servers). A request without a good
token is answered 401 with a ``WWW-Authenticate`` challenge that points, when the
app knows its authorization servers, to its protected-resource metadata (RFC 9728).
An app that asks no token serves this machine only (a client whose address is not
loopback is refused 403), unless told ``no_auth``.

A POST is then checked for its shape: ``Accept`` and ``Content-Type``, a body no
larger than ``max_body`` (and the server's frame limit) holding no more than
``max_values`` JSON values, counted before it is parsed, and, in the modern era,
headers that say what the body says (``MCP-Protocol-Version``, ``Mcp-Method``, ``Mcp-Name``; -32020
otherwise); a handshake-era body under a modern header is answered as that revision
answers it.

A check that fails raises :class:`Refusal`, the answer to give: nothing here writes
a response or touches a session. That is the seam: these are questions of HTTP and
of trust, answered from the request alone, where the app's routing
(:mod:`objmcp.serving.asgi`) and its sessions (:mod:`objmcp.serving.http_sessions`)
are questions of state. :class:`Gate` holds the settings the checks need; the app
has one (``McpApp.gate``).
"""

from __future__ import annotations

import base64
import binascii
import functools
import hmac
import inspect
import ipaddress
import re
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..model.calling.caller import Caller, caller_key
from ..model.values.jsoncount import values_over
from ..protocol import jsonrpc as rpc
from ..protocol.modern import NAMED_PARAM, PROTOCOL_VERSION_KEY, meta_of
from ..protocol.revisions import MODERN_VERSIONS
from .http_fields import parse_authority

__all__ = [
    "LOCAL_HOSTS",
    "Admitted",
    "Gate",
    "Receive",
    "Refusal",
    "Scope",
    "TokenRefused",
    "Verdict",
    "Verifier",
    "caller_of",
    "check_accept",
    "check_content_type",
    "check_handshake_body",
    "check_modern_headers",
    "check_values",
    "decode_header",
    "header_map",
    "insufficient",
    "is_loopback",
    "read_body",
    "route_path",
]

Scope = Mapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Verdict = bool | str | Mapping[str, Any] | None
Verifier = Callable[[str], "Verdict | Awaitable[Verdict]"]
"""Checks a bearer token: True (or False), the id of the user it names (a string; an
empty one refuses), or its claims (a mapping; an empty one refuses): sessions and
request states are then bound to the subject it names, if any."""


@dataclass(frozen=True)
class Admitted:
    """A request whose token is good: who is calling (``caller``). Its sessions, request
    states, tasks and per-caller objects are bound to the caller's
    :attr:`~objmcp.Caller.key`: ``user:<subject>``, else a digest of the token (never
    None here)."""

    caller: Caller


LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
_METADATA_PATH = "/.well-known/oauth-protected-resource"


class Refusal(Exception):
    """An answer given before any session sees the request."""

    def __init__(
        self, status: int, body: object = None, headers: list[tuple[bytes, bytes]] | None = None
    ) -> None:
        super().__init__(status)
        self.status = status
        self.body = body
        self.headers = headers or []


class TokenRefused(Exception):
    """Raised by a ``verify=`` to refuse a token and say why: the 401's
    ``error_description``."""


class Gate:
    """Who may reach the endpoint: the hosts and origins it serves, the token it asks
    for, and where a client without one learns how to get one."""

    def __init__(
        self,
        *,
        path: str,
        allowed_hosts: Collection[str] | None,
        allowed_origins: Collection[str] | None,
        token: str | None,
        verify: Verifier | None,
        resource_metadata: str | None,
        authorization_servers: Collection[str],
        resource: str | None,
        scopes: Collection[str],
        no_auth: bool = False,
        required: Collection[str] = (),
    ) -> None:
        self.path = path
        self.allowed_hosts = tuple(allowed_hosts) if allowed_hosts is not None else LOCAL_HOSTS
        self._served: dict[str, bool] = {}  # Host headers seen: whether each is served here
        self.allowed_origins = tuple(allowed_origins) if allowed_origins is not None else ()
        self._token = token.encode() if token is not None else None
        self._verify = verify
        self.resource_metadata = resource_metadata
        self.authorization_servers = tuple(authorization_servers)
        """Where clients get tokens for this endpoint: given, the app serves its OAuth
        protected-resource metadata (RFC 9728) and a 401 points to it."""
        self.resource = resource
        """The endpoint's canonical URL in that metadata (None: the URL it is reached at)."""
        self.scopes = tuple(scopes)
        """The scopes the metadata lists (none: not listed)."""
        self.no_auth = no_auth
        """Serve clients beyond this machine with no token (else they are refused)."""
        self.required = tuple(required)
        """The scopes every caller's token must grant (else 403, ``insufficient_scope``)."""

    def check_reach(self, scope: Scope) -> None:
        """403 for a client beyond this machine when no token is asked for, unless the
        app was told to serve such clients (``no_auth``)."""
        if self._token is not None or self._verify is not None or self.no_auth:
            return
        client = scope.get("client")
        if client is None or is_loopback(str(client[0])):
            return  # a Unix socket, or this machine (a proxy on it included)
        raise Refusal(
            403,
            f"Forbidden: this server asks no token, so it serves only this machine, not "
            f"{client[0]}: start it with token= or verify= (--token), or no_auth=True "
            "(--no-auth) to serve anyone who reaches it",
        )

    def check_origin(self, headers: Mapping[str, str]) -> None:
        """421 for a ``Host`` not served here (or malformed), 403 for an ``Origin`` not
        allowed."""
        host = headers.get("host", "")
        served = self._served.get(host)
        if served is None:
            authority = parse_authority(host)
            named = {host, authority.host, "*"} if authority is not None else set()
            served = bool(named & set(self.allowed_hosts))
            if len(self._served) >= _HOSTS_KEPT:
                self._served.clear()
            self._served[host] = served
        if not served:
            raise Refusal(421, f"Misdirected Request: host {host!r} is not served here")
        origin = headers.get("origin")
        if origin is None or "*" in self.allowed_origins or origin in self.allowed_origins:
            return
        if not self.allowed_origins and _is_local_origin(origin):
            return
        raise Refusal(403, f"Forbidden: origin {origin!r} is not allowed")

    async def authenticate(self, headers: Mapping[str, str], scope: Scope) -> Admitted | None:
        """Check the bearer token, when one is required; returns who is calling (None
        when no token is asked for)."""
        if self._token is None and self._verify is None:
            return None
        scheme, _, given = headers.get("authorization", "").partition(" ")
        given = given.strip()
        if scheme.lower() != "bearer" or not given:
            raise self._unauthorized(None, scope, headers)
        caller: Caller | None = Caller()
        if self._token is not None:
            if not hmac.compare_digest(given.encode(), self._token):
                caller = None
        else:
            assert self._verify is not None
            try:
                verdict = self._verify(given)
                said = await verdict if inspect.isawaitable(verdict) else verdict
            except TokenRefused as refused:
                raise self._unauthorized("invalid_token", scope, headers, str(refused)) from None
            caller = caller_of(said)
        if caller is None:
            raise self._unauthorized("invalid_token", scope, headers)
        if not caller.allows(self.required):
            raise insufficient(self.required, self.metadata_url(scope, headers))
        key = caller_key(caller.subject, given)
        assert key is not None  # a token was given
        return Admitted(replace(caller, key=key))

    def _unauthorized(
        self,
        error: str | None,
        scope: Scope,
        headers: Mapping[str, str],
        description: str | None = None,
    ) -> Refusal:
        challenge = "Bearer"
        parts = []
        if error is not None:
            parts.append(f'error="{error}"')
        if description is not None:
            parts.append(f'error_description="{_quotable(description)}"')
        metadata = self.metadata_url(scope, headers)
        if metadata is not None:
            parts.append(f'resource_metadata="{metadata}"')
        if parts:
            challenge += " " + ", ".join(parts)
        if error is None:
            said = "Unauthorized: a bearer token is required"
        else:  # one was sent: say it was refused, and why where the check said
            said = "Unauthorized: the bearer token was refused" + (
                f" ({description})" if description else ""
            )
        return Refusal(401, said, [(b"www-authenticate", challenge.encode())])

    def metadata_url(self, scope: Scope, headers: Mapping[str, str]) -> str | None:
        """Where a challenge points for the protected-resource metadata (None: nowhere)."""
        if self.resource_metadata is not None or not self.authorization_servers:
            return self.resource_metadata
        origin = _origin_of(scope, headers)
        root = scope.get("root_path", "")
        # mounted: where this app answers, not the host's root it does not own
        return f"{origin}{root}{_METADATA_PATH}{self.path}"

    def metadata_paths(self, scope: Scope) -> tuple[str, ...]:
        """Where the protected-resource metadata is served (RFC 9728: the well-known
        path, alone or followed by the resource's path)."""
        root = scope.get("root_path", "")
        return (_METADATA_PATH, _METADATA_PATH + self.path, _METADATA_PATH + root + self.path)

    def resource_described(self, scope: Scope, headers: Mapping[str, str]) -> dict[str, Any]:
        """The OAuth 2.0 protected-resource metadata (RFC 9728) of the endpoint."""
        origin = _origin_of(scope, headers)
        resource = self.resource or f"{origin}{scope.get('root_path', '')}{self.path}"
        described = {
            "resource": resource,
            "authorization_servers": list(self.authorization_servers),
            "bearer_methods_supported": ["header"],
        }
        if self.scopes:
            described["scopes_supported"] = list(self.scopes)
        return described


def insufficient(scopes: Collection[str], resource_metadata: str | None) -> Refusal:
    """The 403 that asks for ``scopes`` (the spec's step-up challenge: the client adds
    them to those it asked for, and gets a new token)."""
    named = " ".join(scopes)
    challenge = f'Bearer error="insufficient_scope", scope="{named}"'
    if resource_metadata is not None:
        challenge += f', resource_metadata="{resource_metadata}"'
    return Refusal(
        403,
        f"Forbidden: this needs the scopes {named}",
        [(b"www-authenticate", challenge.encode())],
    )


def _quotable(text: str) -> str:
    """``text`` as an RFC 6750 quoted string may hold it (printable ASCII, no ``"`` or ``\\``)."""
    return "".join(c if " " <= c <= "~" and c not in '"\\' else "'" for c in text)


def caller_of(verdict: object) -> Caller | None:
    """The caller a ``verify=`` verdict names (None: the token is refused)."""
    if isinstance(verdict, Mapping):
        return Caller.from_claims(verdict) if verdict else None
    if isinstance(verdict, str):
        return Caller(subject=verdict) if verdict else None
    return Caller() if verdict else None


# --- the request ------------------------------------------------------------------------------


_HOSTS_KEPT = 256
"""``Host`` values a gate remembers the verdict on (all forgotten when more come)."""


def header_map(scope: Scope) -> dict[str, str]:
    """The request's headers by lowercase name (repeated ones joined with commas)."""
    found: dict[str, str] = {}
    for key, value in scope.get("headers", []):
        name = key.decode("latin-1").lower()
        text = value.decode("latin-1")
        found[name] = f"{found[name]}, {text}" if name in found else text
    return found


def _origin_of(scope: Scope, headers: Mapping[str, str]) -> str:
    """``scheme://host`` as the client addressed the server."""
    return f"{scope.get('scheme', 'http')}://{headers.get('host', 'localhost')}"


def route_path(scope: Scope) -> str:
    """The request's path below where the app is mounted (``root_path``)."""
    path: str = scope.get("path", "")
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


@functools.lru_cache(maxsize=1024)  # asked of every request's client address
def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address to bind, or a client's) is this machine only:
    ``localhost``, 127.0.0.0/8 or ``::1`` (bracketed or not, IPv4-mapped too)."""
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host.removeprefix("[").removesuffix("]"))
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def _is_local_origin(origin: str) -> bool:
    """Whether ``origin`` (``scheme://host[:port]``) names a local host."""
    scheme, separator, rest = origin.partition("://")
    if not separator or not re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", scheme, re.ASCII):
        return False
    authority = parse_authority(rest)
    return authority is not None and authority.host in LOCAL_HOSTS


def check_accept(accept: str | None, post: bool) -> None:
    """406 unless ``accept`` takes what the answer may be: JSON or SSE to a POST (both
    listed), SSE to a GET."""
    if not _accepts(accept, post):
        listed = "application/json and text/event-stream" if post else "text/event-stream"
        raise Refusal(406, f"Not Acceptable: the Accept header must list {listed}")


@functools.lru_cache(maxsize=256)  # clients send the same few, request after request
def _accepts(accept: str | None, post: bool) -> bool:
    kinds = {part.split(";")[0].strip().lower() for part in (accept or "*/*").split(",")}
    needed = ("application/json", "text/event-stream") if post else ("text/event-stream",)
    return all(kinds & {kind, kind.split("/")[0] + "/*", "*/*"} for kind in needed)


def check_content_type(headers: Mapping[str, str]) -> None:
    """A POST's body is JSON: 415 otherwise."""
    content_type = headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise Refusal(415, "Unsupported Media Type: send application/json")


async def read_body(receive: Receive, limit: int, option: str = "max_body") -> bytes:
    """A POST's body, read as it comes: 413 (naming ``option``) as soon as it is over
    ``limit`` bytes, 400 when the client leaves before it is whole."""
    chunks: list[bytes] = []
    size = 0
    while True:
        event = await receive()
        if event["type"] == "http.disconnect":
            raise Refusal(400, "the client left before its request was read")
        chunk = event.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise Refusal(
                413, f"Payload Too Large: a body of at most {limit} bytes is read ({option})"
            )
        chunks.append(chunk)
        if not event.get("more_body", False):
            return b"".join(chunks)


def check_values(body: bytes, limit: int) -> None:
    """A body of too many JSON values (each a Python object once parsed) is refused
    unparsed: 413."""
    found = values_over(body, limit)
    if found is not None:
        raise Refusal(
            413,
            f"Payload Too Large: the body holds {found} JSON values, over the server's "
            f"max_values of {limit}",
        )


# --- the era, and headers that must agree with the body ---------------------------------------


def check_modern_headers(headers: Mapping[str, str], message: dict[str, Any]) -> None:
    """The 2026-07-28 headers must say what the body says: -32020 (HTTP 400) otherwise."""
    request_id = message.get("id") if rpc.is_request_id(message.get("id")) else None
    params = message.get("params")
    params = params if isinstance(params, dict) else {}
    version = meta_of(params).get(PROTOCOL_VERSION_KEY)
    if version is None:
        return  # server/discover without _meta: the session says what is missing

    def mismatch(detail: str) -> Refusal:
        return Refusal(
            400, rpc.error_response(request_id, rpc.HEADER_MISMATCH, f"Header mismatch: {detail}")
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
    key = NAMED_PARAM.get(str(method))
    if key is not None:
        named = decode_header(headers.get("mcp-name"))
        if named != params.get(key):
            raise mismatch(f"Mcp-Name header {named!r} is not the {key} {params.get(key)!r}")


def check_handshake_body(headers: Mapping[str, str], message: object) -> None:
    """A request whose header names a modern revision but whose body does not: what
    that revision answers (no ``initialize``; ``_meta`` required)."""
    if headers.get("mcp-protocol-version") not in MODERN_VERSIONS:
        return
    found = message.get("id") if isinstance(message, dict) else None
    request_id = found if rpc.is_request_id(found) else None
    version = headers["mcp-protocol-version"]
    if isinstance(message, dict) and message.get("method") == "initialize":
        detail = f"Method not found: initialize does not exist in {version}"
        raise Refusal(404, rpc.error_response(request_id, rpc.METHOD_NOT_FOUND, detail))
    detail = (
        f"Invalid params: a {version} request names its revision and the client's "
        f"capabilities in params._meta ({PROTOCOL_VERSION_KEY}, ...)"
    )
    raise Refusal(400, rpc.error_response(request_id, rpc.INVALID_PARAMS, detail))


def decode_header(value: str | None) -> str | None:
    """A header value, its ``=?base64?...?=`` form decoded."""
    if value is None or not (value.startswith("=?base64?") and value.endswith("?=")):
        return value
    try:
        return base64.b64decode(value[9:-2], validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return value
