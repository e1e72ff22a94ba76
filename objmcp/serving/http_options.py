"""The HTTP app's options, in typed, frozen records checked when made: :class:`Http` (the
endpoint, its sessions and bodies) and :class:`Auth` (who may call it)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from ..protocol.limits import check_limits, check_seconds
from .http_checks import Verifier
from .http_sessions import DEFAULT_MAX_SESSIONS
from .option_fields import Flag, option

__all__ = ["DEFAULT_MAX_BODY", "HTTP_RECORDS", "Auth", "Http", "pem_file"]

DEFAULT_MAX_BODY = 16 * 1024 * 1024
"""Bytes of one POST's body (above the 10 MB arguments promised)."""

_ROUTE = re.compile(r"[A-Za-z0-9_-]+")


def pem_file(path: str) -> str:
    """The PEM key in the file ``path`` (``--jwt-key FILE``)."""
    try:
        with open(path, encoding="ascii") as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the key in {path}: {error}") from None


def _strings(value: Collection[str], name: str) -> tuple[str, ...]:
    """``value``, a list of strings, as a tuple (TypeError for anything else)."""
    if isinstance(value, str) or not all(isinstance(item, str) for item in value):
        raise TypeError(f"{name} takes a list of strings, not {value!r}")
    return tuple(value)


def _set(record: object, name: str, value: object) -> None:
    object.__setattr__(record, name, value)


@dataclass(frozen=True, kw_only=True)
class Http:
    """The HTTP endpoint.

    ``path``: where it answers (``"/mcp"``). ``stateless``: handshake-era clients get no
    sessions (and no questions can be put to them). ``allowed_hosts``: ``Host`` names served
    besides the local ones, ``"name"`` or ``"name:port"`` (``["*"]`` for any);
    ``allowed_origins``: the browser origins allowed (local ones unless given). ``poll_after``:
    seconds a 2025-11-25 client's request stream stays open before the client is left to poll
    for the rest (None: until it is answered). ``retry_ms``: the reconnection delay told to
    clients. ``route``: a tag every session id starts with, ``<route>.``, for a proxy in front
    of several servers. ``session_idle``: seconds a handshake-era session lives with no request
    and no stream being read; then it ends, its calls stopped, and its client gets 404 and
    starts a new one (None: until the client deletes it). ``max_sessions``: handshake-era
    sessions open at once, shared fairly among the callers present, at least one each: an
    ``initialize`` beyond it ends the caller's own least recently used session with nothing
    going on, else, for a caller within its share, such a session of a caller above its share
    that holds no tasks; else it is refused 503 with ``Retry-After``. ``max_body``: bytes of a
    POST's body (beyond, 413; the values in it are bounded by the server's
    :attr:`objmcp.Limits.max_values`).
    """

    path: str = "/mcp"
    stateless: bool = option(
        False, Flag("--stateless", "handshake-era clients without sessions", switch=True)
    )
    allowed_hosts: Collection[str] = option(
        (),
        Flag(
            "--allow-host",
            "a Host name served besides localhost (repeat; '*' for any)",
            metavar="HOST",
            repeat=True,
        ),
    )
    allowed_origins: Collection[str] | None = option(
        None,
        Flag(
            "--allow-origin",
            "a browser origin allowed (repeat; local origins unless given)",
            metavar="ORIGIN",
            repeat=True,
        ),
    )
    poll_after: float | None = option(
        None,
        Flag(
            "--poll-after",
            "close a 2025-11-25 client's request stream after SECONDS; it resumes it",
            float,
            "SECONDS",
        ),
    )
    retry_ms: int = 500
    route: str | None = option(
        None,
        Flag(
            "--route",
            "start every session id and task id with TAG. (a proxy in front routes their "
            "requests to this server by it)",
            metavar="TAG",
        ),
    )
    session_idle: float | None = option(
        3600.0,
        Flag(
            "--session-idle",
            "end a session after SECONDS with no request and no stream read",
            float,
            "SECONDS",
        ),
    )
    max_sessions: int = option(
        DEFAULT_MAX_SESSIONS,
        Flag(
            "--max-sessions",
            "sessions open at once, shared fairly among the callers (tokens) present; beyond, "
            "the caller's own least recently used idle one ends, else one of a caller above "
            "its share holding no tasks, else 503",
            int,
            "N",
        ),
    )
    max_body: int = option(
        DEFAULT_MAX_BODY, Flag("--max-body", "bytes of a POST's body", int, "BYTES")
    )

    def __post_init__(self) -> None:
        if not isinstance(self.path, str) or not self.path.startswith("/"):
            raise ValueError(f"path must start with '/', not {self.path!r}")
        _set(self, "allowed_hosts", _strings(self.allowed_hosts, "allowed_hosts"))
        if self.allowed_origins is not None:
            _set(self, "allowed_origins", _strings(self.allowed_origins, "allowed_origins"))
        check_seconds(poll_after=self.poll_after, session_idle=self.session_idle)
        check_limits(retry_ms=self.retry_ms, max_sessions=self.max_sessions, max_body=self.max_body)
        if self.route is not None and not _ROUTE.fullmatch(self.route):
            raise ValueError(f"route must be letters, digits, '_' or '-', not {self.route!r}")


@dataclass(frozen=True, kw_only=True)
class Auth:
    """Who may call the HTTP endpoint.

    ``token``: a bearer token every request must carry. ``verify``: instead, a function,
    sync or async, that says whether a token is good, for OAuth resource servers: True, the
    id of the user it names, or its claims, a mapping; sessions and request states are then
    bound to the user (see :class:`~objmcp.Caller`). Or the built-in check of JWT access
    tokens (needs ``objmcp[auth]``): ``jwks_url`` (the authorization server's key set,
    fetched and cached) or ``jwt_key`` (a PEM public key or a JWK), ``issuer`` (the ``iss``
    expected) and ``audience`` (the ``aud``: this endpoint's own URL; ``resource`` when not
    given); ``scopes`` are then also the scopes every token must grant (403 otherwise).
    ``authorization_servers``: the OAuth authorization servers that issue its tokens: the
    app then serves its protected-resource metadata, RFC 9728, at
    ``/.well-known/oauth-protected-resource[/mcp]``, and a 401 points to it; ``resource``
    and ``scopes`` are that metadata's resource URL and scopes; ``resource_metadata``: the
    URL of protected-resource metadata served elsewhere, for a 401 to point to.
    ``no_auth``: serve clients beyond this machine with no token or check (without it, a
    request from an address that is not loopback is then refused 403).
    """

    token: str | None = option(
        None,
        Flag("--token", "a bearer token every request must carry (default: $OBJMCP_TOKEN)"),
        secret=True,
    )
    verify: Verifier | None = None
    jwks_url: str | None = option(
        None,
        Flag(
            "--jwks-url",
            "check OAuth access tokens as JWTs signed by the keys at URL (needs objmcp[auth]; "
            "with --issuer and --audience)",
            metavar="URL",
        ),
    )
    jwt_key: str | bytes | Mapping[str, Any] | None = option(
        None,
        Flag(
            "--jwt-key",
            "check JWTs signed by the PEM public key in FILE instead of --jwks-url",
            pem_file,
            "FILE",
        ),
    )
    issuer: str | None = option(None, Flag("--issuer", "the iss a JWT must name", metavar="URL"))
    audience: str | None = option(
        None,
        Flag(
            "--audience",
            "the aud a JWT must name: this endpoint's own URL (a token for another is refused)",
            metavar="URL",
        ),
    )
    scopes: Collection[str] = option(
        (),
        Flag(
            "--scope",
            "a scope every JWT must grant (repeat; 403 otherwise), listed in the metadata",
            metavar="SCOPE",
            repeat=True,
        ),
    )
    authorization_servers: Collection[str] = option(
        (),
        Flag(
            "--authorization-server",
            "an OAuth authorization server that issues tokens for this endpoint (repeat): "
            "serves its protected-resource metadata",
            metavar="URL",
            repeat=True,
        ),
    )
    resource: str | None = None
    resource_metadata: str | None = None
    no_auth: bool = option(
        False,
        Flag(
            "--no-auth",
            "serve a --host beyond loopback with no token (refused otherwise)",
            switch=True,
        ),
    )

    def __post_init__(self) -> None:
        if self.jwt:
            if self.token is not None or self.verify is not None:
                raise ValueError("give token=, verify= or a JWT check (jwks_url=, jwt_key=)")
        elif self.issuer is not None or self.audience is not None:
            raise ValueError("issuer= and audience= go with jwks_url= or jwt_key=")
        if self.token is not None and self.verify is not None:
            raise ValueError("give token= or verify=, not both")
        if self.token is not None and (not isinstance(self.token, str) or not self.token):
            raise ValueError("token= must be a string, not empty")
        _set(self, "scopes", _strings(self.scopes, "scopes"))
        _set(
            self,
            "authorization_servers",
            _strings(self.authorization_servers, "authorization_servers"),
        )

    @property
    def jwt(self) -> bool:
        """Whether tokens are checked as JWTs by objmcp itself."""
        return self.jwks_url is not None or self.jwt_key is not None

    @property
    def checks(self) -> bool:
        """Whether a request must show a token (any kind of check)."""
        return self.token is not None or self.verify is not None or self.jwt


HTTP_RECORDS: dict[str, type] = {"http": Http, "auth": Auth}
"""The records of :class:`~objmcp.McpApp` with command-line flags, by keyword."""
