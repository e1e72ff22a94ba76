"""The ids of 2026-07-28 requests over HTTP, which share one connection.

Every modern POST is handled by one connection, so a request's id is replaced by one of
the server's (``objmcp-http-N``) that no two requests share. A client cancels a request by
the id it chose (``notifications/cancelled``); :class:`Aliases` finds the server's id of
that caller's own request, so one client can never cancel another's, whether it names a
server id it guessed or an id another client also chose.
"""

from __future__ import annotations

import itertools
import typing
from typing import Any

from ..protocol.jsonrpc import RequestId, is_request_id

__all__ = ["Aliases"]

_CANCELLED = "notifications/cancelled"


class Aliases:
    """The server's ids of the modern requests in flight, by caller and client id."""

    def __init__(self) -> None:
        self._numbers = itertools.count(1)
        self._held: dict[tuple[str | None, RequestId], list[str]] = {}

    def take(self, caller_key: str | None, request_id: RequestId) -> str:
        """A new server id for the request ``request_id`` of the caller ``caller_key``
        (None with no authentication)."""
        alias = f"objmcp-http-{next(self._numbers)}"
        self._held.setdefault((caller_key, request_id), []).append(alias)
        return alias

    def drop(self, caller_key: str | None, request_id: RequestId, alias: str) -> None:
        """The request ``request_id`` of the caller ``caller_key`` is over: ``alias`` no
        longer names it."""
        held = self._held.get((caller_key, request_id))
        if held is not None and alias in held:
            held.remove(alias)
            if not held:
                del self._held[(caller_key, request_id)]

    def cancellation(self, caller_key: str | None, message: Any) -> Any | None:
        """``message`` as the connection should see it: a cancellation of the caller
        ``caller_key``'s own request names the server's id; one that names no request of
        this caller alone (another's, a server id, an id two of its requests share) is
        None, dropped. Anything else is returned as it is."""
        if not isinstance(message, dict) or message.get("method") != _CANCELLED:
            return message
        params = message.get("params")
        if not isinstance(params, dict):
            return None
        target = params.get("requestId")
        if not is_request_id(target):
            return None
        held = self._held.get((caller_key, typing.cast(RequestId, target)))
        if held is None or len(held) != 1:
            return None
        return {**message, "params": {**params, "requestId": held[0]}}
