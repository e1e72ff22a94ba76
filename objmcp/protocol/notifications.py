"""What the server tells the client unasked: notifications, and on which stream.

A running call may report its progress (``notifications/progress``, when its
request carried a ``progressToken``) and log (``notifications/message``, at the
level the client asked for: with ``logging/setLevel`` for the whole connection in
the handshake era, in each request's ``_meta`` in the modern one). Both belong to
their call: they go out with its request's id, so that HTTP sends them on that
request's stream, and not at all once the call is over.

What is published may change while the client is connected: it hears of it
(``notifications/*/list_changed``, ``notifications/resources/updated``) if it asked
to, as :class:`~objmcp.protocol.subscriptions.Subscriptions` keeps; a notification
for a modern-era listen stream goes out on that stream. When the server stops, each
open listen stream is ended: its result, then ``notifications/cancelled``.

These are plain functions of what they need (the call, the subscriptions); the
session calls them from its methods of the same names.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ..model.calling import inject
from ..model.calling.toolbox import Changes
from . import jsonrpc as rpc
from .actions import Action, CacheHint, Send, ServerInfo
from .calls import Call
from .jsonrpc import Message, RequestId
from .modern import complete
from .revisions import MODERN_VERSIONS, REVISIONS
from .subscriptions import SUBSCRIPTION_ID_KEY, ListKind, Subscriptions

__all__ = ["LOG_LEVELS", "closing", "list_changed", "log", "progress", "resource_updated"]

LOG_LEVELS = tuple(inject.LOG_LEVELS)
"""The syslog levels of ``notifications/message``, least severe first."""


def progress(
    call: Call | None, done: float, total: float | None, message: str | None
) -> list[Action]:
    """The progress notification of ``call`` (None: it is over), if its client asked
    for progress (a ``progressToken``)."""
    if call is None or call.progress_token is None:
        return []
    params: dict[str, Any] = {"progressToken": call.progress_token, "progress": done}
    if total is not None:
        params["total"] = total
    if message is not None and call.revision.progress_message:
        params["message"] = message
    progress = {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}
    return [Send(progress, call.request_id)]


def log(
    call: Call | None, connection_level: str | None, level: str, logger_name: str, data: object
) -> list[Action]:
    """The log record of ``call`` (None: of no call), if the client asked for records of
    ``level``: with the modern request's own level, else with ``connection_level``
    (``logging/setLevel``; None: no record)."""
    if call is not None and call.revision.era == "modern":
        threshold = call.log_level
    else:
        threshold = connection_level
    if threshold is None or LOG_LEVELS.index(level) < LOG_LEVELS.index(threshold):
        return []
    params = {"level": level, "logger": logger_name, "data": data}
    record = {"jsonrpc": "2.0", "method": "notifications/message", "params": params}
    return [Send(record, call.request_id if call is not None else None)]


def list_changed(
    subscriptions: Subscriptions, changes: Changes, declared: Collection[str]
) -> list[Action]:
    """The ``list_changed`` notifications that ``changes`` are due: to a handshake client
    for the lists it was ``declared``, and to the listen streams that asked."""
    kinds: list[ListKind] = []
    if changes.tools:
        kinds.append("tools")
    if changes.resources:
        kinds.append("resources")
    if changes.prompts:
        kinds.append("prompts")
    return [
        Send(message, _stream_of(message))
        for kind in kinds
        for message in subscriptions.list_changed(kind, kind in declared)
    ]


def resource_updated(subscriptions: Subscriptions, uri: str) -> list[Action]:
    """The notifications the subscribers of the resource ``uri`` are due."""
    updates = subscriptions.resource_updated(uri)
    return [Send(message, _stream_of(message)) for message in updates]


def closing(
    subscriptions: Subscriptions, info: ServerInfo, hints: Mapping[str, CacheHint]
) -> list[Action]:
    """End the open listen streams gracefully: their result, then
    ``notifications/cancelled`` as stdio asks."""
    actions: list[Action] = []
    for request_id in list(subscriptions.listens):
        subscriptions.listens.pop(request_id)
        revision = REVISIONS[MODERN_VERSIONS[-1]]
        result = complete({}, revision, info, hints, cache=None)
        result["_meta"] = {**result.get("_meta", {}), SUBSCRIPTION_ID_KEY: request_id}
        actions.append(Send(rpc.result_response(request_id, result), request_id))
        params = {"requestId": request_id, "reason": "The server is shutting down"}
        cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}
        actions.append(Send(cancel, request_id))
    return actions


def _stream_of(message: Message) -> RequestId | None:
    """The listen stream a notification goes on (None: the connection's own)."""
    meta = message.get("params", {}).get("_meta", {})
    found = meta.get(SUBSCRIPTION_ID_KEY) if isinstance(meta, dict) else None
    return found if rpc.is_request_id(found) else None
