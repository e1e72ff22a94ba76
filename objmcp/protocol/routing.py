"""Where a message from the client goes: a notification (a cancellation), ``initialize``,
``ping``, and every other request to its handler, by its era: ``tools/call`` first, then
the tasks' methods, then the method table (:data:`~objmcp.protocol.methods.METHODS`)
behind the capability each needs.

Plain functions of the :class:`~objmcp.protocol.session.Session` reading the message.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from . import handshake, starting
from . import jsonrpc as rpc
from .actions import Action, CancelCall
from .calls import Batch
from .jsonrpc import Message, ProtocolError, RequestId
from .methods import METHODS, Request, method_not_found
from .modern import is_modern_request, modern_revision
from .revisions import MODERN_VERSIONS, Revision
from .sessionlike import SessionLike
from .tasks import core as core_tasks
from .tasks import extension_methods as task_methods
from .tasks.extension import TASKS

__all__ = ["dispatch", "initialize", "notification", "request"]

logger = logging.getLogger("objmcp")


def notification(
    session: SessionLike, method: str, params: dict[str, Any], actions: list[Action]
) -> None:
    """A notification from the client: a cancellation stops its request's call."""
    if method == "notifications/cancelled":
        target = params.get("requestId")
        call_id = None
        if isinstance(target, (str, int)) and rpc.is_request_id(target):
            call_id = session.calls.let_go(target)
            session.core.waiting.pop(target, None)  # a tasks/result given up
            if session.subscriptions.listens.pop(target, None) is not None:
                logger.debug("the client closed its listen stream %r", target)
        if call_id is not None:
            call = session.end_call(call_id)
            if call is not None and call.batch is not None:
                actions.extend(call.batch.finish(call_id))
            actions.append(CancelCall(call_id))
    elif method == "notifications/initialized":
        logger.debug("client says it is initialized")
    else:
        logger.debug("ignoring notification %s", method)


def request(
    session: SessionLike,
    request_id: RequestId,
    method: str,
    params: dict[str, Any],
    actions: list[Action],
    batch: Batch | None,
) -> Message | None:
    """A request: of the modern era by its ``_meta``, else of the connection's handshake
    (``initialize`` first); its response, or None when a call will answer it."""
    if is_modern_request(method, params):
        revision, capabilities = modern_revision(params.get("_meta"))
        if method in revision.removed_methods:
            raise method_not_found(method, revision)
        return dispatch(session, request_id, method, params, revision, capabilities, actions, batch)
    if method == "initialize":
        return rpc.result_response(request_id, initialize(session, params))
    if method == "ping":
        return rpc.result_response(request_id, {})
    if session.revision is None:
        raise ProtocolError(
            rpc.INVALID_REQUEST,
            f"Invalid Request: the server is not initialized; send initialize before {method} "
            f"(or name a revision in _meta: {', '.join(MODERN_VERSIONS)})",
        )
    return dispatch(
        session,
        request_id,
        method,
        params,
        session.revision,
        session.client_capabilities,
        actions,
        batch,
    )


def initialize(session: SessionLike, params: dict[str, Any]) -> dict[str, Any]:
    """``initialize``: the revision negotiated and what the server declares in it."""
    revision, session.client_capabilities = handshake.negotiate(params)
    session.client_name = starting.client_name(params.get("clientInfo"))
    declared = session.capabilities(revision)
    session.revision, session.declared = revision, declared
    return handshake.initialize_result(revision, declared, session.info)


def dispatch(
    session: SessionLike,
    request_id: RequestId,
    method: str,
    params: dict[str, Any],
    revision: Revision,
    capabilities: Mapping[str, Any],
    actions: list[Action],
    batch: Batch | None,
) -> Message | None:
    """Answer or start a request of the era decided: ``tools/call`` first, then the
    method's entry in ``METHODS``, behind the capability gate it names."""
    if method == "tools/call":
        return starting.call_tool(
            session, request_id, params, revision, capabilities, actions, batch
        )
    if method in task_methods.METHODS and TASKS in session.extensions_of(revision):
        return task_methods.handle(
            session, request_id, method, params, revision, capabilities, actions
        )
    if method in core_tasks.METHODS and session.has_core_tasks(revision):
        return core_tasks.handle(session, request_id, method, params, actions)
    entry = METHODS.get(method)
    if entry is None:
        raise method_not_found(method, revision)
    handler, gate = entry
    if gate is not None and not session.declares(revision, gate):
        raise method_not_found(method, revision)  # a feature the server did not declare
    request = Request(request_id, method, params, revision, capabilities, actions, batch)
    return handler(session, request)
