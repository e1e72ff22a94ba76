"""Who is calling: the record every bearer-token check yields, handed to the tools.

A transport that checks credentials (HTTP with ``token=``, ``verify=`` or a JWT
verifier) makes one :class:`Caller` per request; a method receives it by an injected
parameter (``caller: objmcp.Caller``), and :class:`~objmcp.Context` carries it too.
With no such check (stdio, HTTP without a token) there is no caller: None.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["Caller", "caller_from", "caller_key", "caller_record"]


@dataclass(frozen=True)
class Caller:
    """Who sent a request, as its credentials say.

    ``subject`` is the user (a JWT's ``sub``, or the id ``verify=`` returned; None for a
    fixed token, which names nobody), ``client_id`` the OAuth client that got the token
    (``client_id`` or ``azp``), ``scopes`` what the token grants, ``claims`` all the
    token said (empty when it said nothing but that it is good).

    ``key`` is what keeps this caller's things (sessions, request states, tasks,
    ``per="caller"`` objects) apart from every other caller's: :func:`caller_key` of its
    subject and token (None when no credentials were checked)."""

    subject: str | None = None
    client_id: str | None = None
    scopes: frozenset[str] = frozenset()
    claims: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    key: str | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.key is None:
            object.__setattr__(self, "key", caller_key(self.subject))

    @classmethod
    def from_claims(cls, claims: Mapping[str, Any]) -> Caller:
        """The caller an access token's claims name: ``sub``, ``client_id`` (or ``azp``),
        and ``scope`` (a space-separated string) or ``scp`` (a list or a string)."""
        subject = claims.get("sub")
        client = claims.get("client_id", claims.get("azp"))
        return cls(
            subject=str(subject) if subject not in (None, "") else None,
            client_id=str(client) if client not in (None, "") else None,
            scopes=scopes_of(claims),
            claims=MappingProxyType(dict(claims)),
        )

    def allows(self, scopes: Collection[str]) -> bool:
        """Whether the caller holds every one of ``scopes``."""
        return self.scopes.issuperset(scopes)


def caller_key(subject: str | None, token: str | None = None) -> str | None:
    """What keeps a caller's things apart from another's: ``user:<subject>`` when the
    credentials name a user (a refreshed token of the same user keeps what it had), else
    a digest of the bearer ``token`` (the token itself is never kept); None with neither."""
    if subject is not None:
        return f"user:{subject}"
    if token is not None:
        import hashlib  # only here: `import objmcp` loads no hashing (tests/package)

        return hashlib.sha256(token.encode()).hexdigest()
    return None


def scopes_of(claims: Mapping[str, Any]) -> frozenset[str]:
    """The scopes a token's claims grant (``scope``, else ``scp``)."""
    found = claims.get("scope", claims.get("scp"))
    if isinstance(found, str):
        return frozenset(found.split())
    if isinstance(found, (list, tuple)):
        return frozenset(str(item) for item in found)
    return frozenset()


def caller_record(caller: Caller | None) -> dict[str, Any] | None:
    """``caller`` as JSON, for another process that calls on its behalf (a queue's worker,
    a boxed server): :func:`caller_from` reads it back."""
    if caller is None:
        return None
    return {
        "subject": caller.subject,
        "client_id": caller.client_id,
        "scopes": sorted(caller.scopes),
        "claims": dict(caller.claims),
        "key": caller.key,
    }


def caller_from(record: object) -> Caller | None:
    """The caller :func:`caller_record` wrote."""
    if not isinstance(record, dict):
        return None
    return Caller(
        subject=record.get("subject"),
        client_id=record.get("client_id"),
        scopes=frozenset(record.get("scopes") or ()),
        claims=MappingProxyType(dict(record.get("claims") or {})),
        key=record.get("key"),
    )
