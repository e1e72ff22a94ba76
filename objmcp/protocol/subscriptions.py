"""Who hears of changes: resource subscriptions and listen streams, no I/O.

Handshake era: ``resources/subscribe`` and ``resources/unsubscribe`` name the URIs a
client wants ``notifications/resources/updated`` for, and every initialized client
hears ``notifications/*/list_changed``.

Modern era (2026-07-28): a ``subscriptions/listen`` request opens a stream that
stays in flight until the client cancels it or the server closes it. The server
first acknowledges the part of the stream's filter it honors, then sends only what
was asked for, each notification stamped with the stream's id. A stream may also ask
for ``notifications/tasks`` of the caller's own tasks (the tasks extension's
``taskIds``): only those of the caller that opened it are honored, and only its
caller hears of them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Literal

from ..model.finding.uritemplates import MAX_URI_LENGTH, uri_too_long
from . import jsonrpc as rpc
from .jsonrpc import Message, ProtocolError, RequestId

__all__ = [
    "LIST_KINDS",
    "MAX_SUBSCRIBED_CHARACTERS",
    "SUBSCRIPTION_ID_KEY",
    "ListKind",
    "Listen",
    "Subscriptions",
    "task_ids_in",
]

SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId"

MAX_SUBSCRIBED_CHARACTERS = 32 * MAX_URI_LENGTH
"""The most characters of URIs one listen stream's filter may name (each is matched
against the templates on the event loop, a few milliseconds for the longest, so that one
request cannot hold it for long; a client with more opens several streams), and that a
handshake connection's ``resources/subscribe`` may keep, all together."""

ListKind = Literal["tools", "resources", "prompts"]
"""A list whose changes a client may hear of."""
LIST_KINDS: tuple[ListKind, ...] = ("tools", "resources", "prompts")

_FLAGS: dict[ListKind, str] = {
    "tools": "toolsListChanged",
    "resources": "resourcesListChanged",
    "prompts": "promptsListChanged",
}
_URIS = "resourceSubscriptions"
_TASK_IDS = "taskIds"


@dataclass(eq=False)
class Listen:
    """One open ``subscriptions/listen`` stream, and what it honors."""

    request_id: RequestId
    lists: frozenset[ListKind]
    uris: frozenset[str]
    task_ids: frozenset[str] = frozenset()
    """The tasks whose status changes it hears of (the tasks extension)."""
    caller_key: str | None = None
    """The key of the caller that opened it: the one caller whose tasks it hears of."""

    def honored(self) -> dict[str, Any]:
        """The ``SubscriptionFilter`` of the acknowledgement."""
        honored: dict[str, Any] = {
            flag: True for kind, flag in _FLAGS.items() if kind in self.lists
        }
        if self.uris:
            honored[_URIS] = sorted(self.uris)
        if self.task_ids:
            honored[_TASK_IDS] = sorted(self.task_ids)
        return honored


class Subscriptions:
    """The subscriptions of one connection, in both eras."""

    def __init__(self) -> None:
        self.uris: set[str] = set()
        """Handshake era: the URIs of ``resources/subscribe``."""
        self._uri_characters = 0  # of self.uris, all together
        self.listens: dict[RequestId, Listen] = {}
        """Modern era: the open streams, by the id of the request that opened them."""

    def subscribe(self, uri: str) -> None:
        """Handshake era: hear of changes to ``uri``; -32602 when the connection's
        subscriptions would hold more than :data:`MAX_SUBSCRIBED_CHARACTERS`."""
        if uri in self.uris:
            return
        if self._uri_characters + len(uri) > MAX_SUBSCRIBED_CHARACTERS:
            raise ProtocolError(
                rpc.INVALID_PARAMS,
                f"Invalid params: this connection's subscriptions hold "
                f"{self._uri_characters:,} characters of URIs, and the server keeps at most "
                f"{MAX_SUBSCRIBED_CHARACTERS:,}: unsubscribe from some first",
            )
        self.uris.add(uri)
        self._uri_characters += len(uri)

    def unsubscribe(self, uri: str) -> None:
        """Handshake era: no longer hear of changes to ``uri``."""
        if uri in self.uris:
            self.uris.discard(uri)
            self._uri_characters -= len(uri)

    def listen(
        self,
        request_id: RequestId,
        requested: object,
        lists: Collection[ListKind],
        known: Callable[[str], bool],
        owned: Callable[[str], bool] | None = None,
        caller_key: str | None = None,
    ) -> Message:
        """Open a stream of the caller ``caller_key`` for the filter ``requested``,
        honoring the ``lists`` the server has, the URIs it ``known``s and the task ids
        that caller ``owned`` (None: the server has no tasks here, and ``taskIds`` is
        ignored); returns the acknowledgement to send."""
        if not isinstance(requested, dict):
            raise ProtocolError(
                rpc.INVALID_PARAMS, 'Invalid params: subscriptions/listen needs "notifications"'
            )
        asked: set[ListKind] = set()
        for kind, flag in _FLAGS.items():
            value = requested.get(flag, False)
            if not isinstance(value, bool):
                raise ProtocolError(
                    rpc.INVALID_PARAMS, f"Invalid params: {flag} must be a boolean, not {value!r}"
                )
            if value:
                asked.add(kind)
        uris = requested.get(_URIS, [])
        if not isinstance(uris, list) or not all(isinstance(uri, str) for uri in uris):
            raise ProtocolError(
                rpc.INVALID_PARAMS, f"Invalid params: {_URIS} must be a list of URI strings"
            )
        for uri in uris:
            too_long = uri_too_long(uri)
            if too_long is not None:
                raise ProtocolError(rpc.INVALID_PARAMS, f"Invalid params: in {_URIS}, {too_long}")
        total = sum(len(uri) for uri in uris)
        if total > MAX_SUBSCRIBED_CHARACTERS:
            raise ProtocolError(
                rpc.INVALID_PARAMS,
                f"Invalid params: {_URIS} holds {total:,} characters of URIs, over the "
                f"server's limit of {MAX_SUBSCRIBED_CHARACTERS:,} for one stream: open "
                "several streams",
            )
        task_ids = task_ids_in(requested) if owned is not None else []
        stream = Listen(
            request_id,
            frozenset(asked & set(lists)),
            frozenset(uri for uri in uris if known(uri)),
            frozenset(task_id for task_id in task_ids if owned is not None and owned(task_id)),
            caller_key,
        )
        self.listens[request_id] = stream
        params = {"_meta": {SUBSCRIPTION_ID_KEY: request_id}, "notifications": stream.honored()}
        return _notification("notifications/subscriptions/acknowledged", params)

    def list_changed(self, kind: ListKind, handshake: bool) -> list[Message]:
        """The notifications that the list ``kind`` changed: one for a ``handshake``
        client, one per stream that asked."""
        method = f"notifications/{kind}/list_changed"
        sent = [_notification(method, {})] if handshake else []
        for stream in self.listens.values():
            if kind in stream.lists:
                sent.append(_notification(method, _stamped(stream, {})))
        return sent

    def resource_updated(self, uri: str) -> list[Message]:
        """The notifications that the resource ``uri`` changed, to whoever subscribed."""
        method = "notifications/resources/updated"
        sent = [_notification(method, {"uri": uri})] if uri in self.uris else []
        for stream in self.listens.values():
            if uri in stream.uris:
                sent.append(_notification(method, _stamped(stream, {"uri": uri})))
        return sent

    def task_status(
        self, task_id: str, caller_key: str | None, task: dict[str, Any]
    ) -> list[Message]:
        """The ``notifications/tasks`` (``task``, a ``DetailedTask``) due to the streams
        of the task's caller ``caller_key`` that asked for ``task_id``."""
        return [
            _notification("notifications/tasks", _stamped(stream, task))
            for stream in self.listens.values()
            if task_id in stream.task_ids and stream.caller_key == caller_key
        ]


def task_ids_in(requested: dict[str, Any]) -> list[str]:
    """The ``taskIds`` a listen filter asks for (checked: a list of strings)."""
    task_ids = requested.get(_TASK_IDS, [])
    if not isinstance(task_ids, list) or not all(isinstance(item, str) for item in task_ids):
        raise ProtocolError(
            rpc.INVALID_PARAMS, f"Invalid params: {_TASK_IDS} must be a list of task id strings"
        )
    return task_ids


def _stamped(stream: Listen, params: dict[str, Any]) -> dict[str, Any]:
    return {"_meta": {SUBSCRIPTION_ID_KEY: stream.request_id}, **params}


def _notification(method: str, params: dict[str, Any]) -> Message:
    message: Message = {"jsonrpc": "2.0", "method": method}
    if params:
        message["params"] = params
    return message
