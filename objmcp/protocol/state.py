"""The sealed request state of the modern era's ``input_required`` rounds.

The state travels through the client, so it is attacker-controlled input: it is
sealed with HMAC-SHA256 and bound to the tool, the arguments and an expiry. It is
integrity, not secrecy: it holds what the client sent (the arguments and the answers),
and what the call left for its retry (``kept``), which must be what its caller may see
(code mode's suspended code: what that code could have printed). The answers are kept by
the key of the question they answer (the ``inputRequests`` key), with the keys of the
round the state asks, so that a retry can only answer what was asked. The key comes from
the ``state_key`` option or the ``OBJMCP_STATE_KEY`` environment variable, so that several
processes can read each other's states; otherwise it is random for this process.

``hashlib``, ``hmac``, ``base64`` and ``zlib`` are imported by the functions that use them:
only a modern-era call needs them, and ``import objmcp`` stays light.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["RequestState", "StateError", "StateSeal", "arguments_digest"]

KEY_VARIABLE = "OBJMCP_STATE_KEY"


class StateError(ValueError):
    """A request state that cannot be used: forged, for another call, or expired."""


@dataclass(eq=False)
class RequestState:
    """What a call has gathered so far: the answers to its questions by key, the keys
    the round asks (``asked``), the rounds so far, where the suspended call waits
    (``park``), if it does, and what it left for its retry (``kept``: opaque bytes, so
    that a retry that reaches another process goes on where the call stopped)."""

    tool: str
    digest: str
    answers: Mapping[str, Any]
    expires: float
    park: str | None = None
    asked: tuple[str, ...] = ()
    rounds: int = 0
    kept: bytes | None = None


def arguments_digest(arguments: object) -> str:
    """A digest of a call's arguments, the same for the same JSON."""
    import hashlib

    text = json.dumps(arguments, sort_keys=True, separators=(",", ":"))  # ASCII: any string
    return hashlib.sha256(text.encode()).hexdigest()


class StateSeal:
    """Seals and opens request states with one key."""

    def __init__(self, key: str | bytes | None = None) -> None:
        key = key if key is not None else os.environ.get(KEY_VARIABLE)
        if key is None:
            key = os.urandom(32)
        self._key = key.encode() if isinstance(key, str) else key
        if len(self._key) < 16:
            raise ValueError(
                f"A request-state key needs at least 16 bytes (state_key= or {KEY_VARIABLE})"
            )

    @property
    def key(self) -> bytes:
        """The key states are sealed with (the deployment's state key)."""
        return self._key

    def seal(self, state: RequestState) -> str:
        """The state as an opaque string for the client to echo."""
        import hashlib
        import hmac

        kept = None if state.kept is None else _b64(_zlib().compress(state.kept))
        body = json.dumps(
            {
                "t": state.tool,
                "d": state.digest,
                "a": dict(state.answers),
                "e": state.expires,
                "p": state.park,
                "q": list(state.asked),
                "r": state.rounds,
                "k": kept,
            },
            separators=(",", ":"),
        ).encode()
        mac = hmac.new(self._key, body, hashlib.sha256).digest()
        return f"{_b64(body)}.{_b64(mac)}"

    def open(self, sealed: object, tool: str, arguments: object, now: float) -> RequestState:
        """The state in ``sealed``, checked; raises :class:`StateError` saying what is wrong."""
        import hashlib
        import hmac

        if not isinstance(sealed, str) or sealed.count(".") != 1:
            raise StateError("requestState is not one of this server's states")
        body_text, mac_text = sealed.split(".")
        try:
            body, mac = _unb64(body_text), _unb64(mac_text)
        except ValueError:
            raise StateError("requestState is not one of this server's states") from None
        if not hmac.compare_digest(mac, hmac.new(self._key, body, hashlib.sha256).digest()):
            raise StateError("requestState was not sealed by this server (forged or altered)")
        try:
            state = _read(json.loads(body))
        except (ValueError, KeyError, TypeError, _zlib().error):
            raise StateError("requestState is sealed but not readable by this version") from None
        if state.tool != tool or state.digest != arguments_digest(arguments):
            raise StateError(
                "requestState belongs to another call (its tool, arguments or caller differ)"
            )
        if now > state.expires:
            raise StateError("requestState has expired: call the tool again from the start")
        return state


def _read(fields: Any) -> RequestState:
    """The state a sealed body holds; raises ValueError, KeyError or TypeError when it is
    not one this version wrote."""
    answers, asked, rounds = fields["a"], fields["q"], fields["r"]
    if not (isinstance(answers, dict) and isinstance(asked, list)):
        raise TypeError("answers must be an object and asked a list")
    if not all(isinstance(answer, dict) for answer in answers.values()):
        raise TypeError("answers must be objects")
    if not all(isinstance(key, str) for key in asked):
        raise TypeError("asked must list keys")
    if type(rounds) is not int or rounds < 0:
        raise TypeError("rounds must be a count")
    state = RequestState(
        fields["t"], fields["d"], answers, float(fields["e"]), fields["p"], tuple(asked), rounds
    )
    if not (isinstance(state.tool, str) and isinstance(state.digest, str)):
        raise TypeError("tool and digest must be strings")
    if not (state.park is None or isinstance(state.park, str)):
        raise TypeError("park must be a string")
    kept = fields.get("k")
    if kept is not None:
        if not isinstance(kept, str):
            raise TypeError("kept must be a string")
        state.kept = _zlib().decompress(_unb64(kept))
    return state


def _zlib() -> Any:
    import zlib  # only a call that leaves something for its retry needs it

    return zlib


def _b64(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    import base64

    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as error:
        raise ValueError(str(error)) from None
