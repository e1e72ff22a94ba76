"""The envelope of one JSON-RPC message: what kind it is, before any state is consulted.

:func:`read_envelope` tells a request from a notification from a response to one of
the server's questions, and refuses what is none of them with the error it is
answered by (-32600, with the id when there is one to answer): not an object, no
``"jsonrpc": "2.0"``, no method, a method or params of the wrong type, an id that is
not a string or an integer, or a message over the limits (``too_large`` says why it
is, when it is). A response over the limits becomes an error response to the
question it answers; a notification over them, or with params that are no object, is
dropped. The session does the rest: ids in flight, eras, methods.

:func:`unreadable` answers a frame that could not be read at all: -32700, or, for a
request whose numbers are out of a float's range (``1e400``, read as infinity by
Python), -32602 to that request by its id.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Literal

from ..model.values.jsontext import NumberOutOfRange, ParseFailure
from . import jsonrpc as rpc
from .jsonrpc import Message, RequestId

__all__ = ["Envelope", "read_envelope", "unreadable"]

logger = logging.getLogger("objmcp")


@dataclass(slots=True, eq=False)
class Envelope:
    """One message, read: a ``"request"`` (with its id), a ``"notification"``, or a
    ``"response"`` to a question of the server's (``message`` is then the response)."""

    kind: Literal["request", "notification", "response"]
    message: dict[str, Any]
    method: str = ""
    params: dict[str, Any] | None = None
    request_id: RequestId = 0


def read_envelope(message: object, too_large: str | None) -> Envelope | Message | None:
    """What ``message`` is (``too_large``: why it is over the limits, if it is): an
    :class:`Envelope`, the error response that refuses it, or None when it is dropped."""
    if not isinstance(message, dict):
        return _refused(None, "a message must be a JSON object")
    has_id = "id" in message
    request_id = message.get("id")
    answerable_id = request_id if rpc.is_request_id(request_id) else None
    if message.get("jsonrpc") != "2.0":
        return _refused(answerable_id, '"jsonrpc" must be "2.0"')
    method = message.get("method")
    if method is None:
        if has_id and ("result" in message or "error" in message):
            if too_large is not None:  # the question it answers fails
                error = {"code": rpc.INVALID_REQUEST, "message": f"Too large: {too_large}"}
                message = {"jsonrpc": "2.0", "id": request_id, "error": error}
            return Envelope("response", message)
        return _refused(answerable_id, 'no "method"')
    if not isinstance(method, str):
        return _refused(answerable_id, '"method" must be a string')
    if too_large is not None:
        if not has_id:
            logger.warning("dropped a notification over a limit: %s", too_large)
            return None
        return _refused(answerable_id, too_large)
    params = message.get("params", {})
    if not has_id:
        if isinstance(params, dict):
            return Envelope("notification", message, method, params)
        logger.debug("ignoring notification %s: its params are not an object", method)
        return None
    if not isinstance(params, dict):
        return _refused(answerable_id, '"params" must be an object')
    if answerable_id is None:  # not a string or an integer
        return _refused(None, "an id must be a string or an integer")
    return Envelope("request", message, method, params, answerable_id)


def _refused(request_id: RequestId | None, why: str) -> Message:
    return rpc.error_response(request_id, rpc.INVALID_REQUEST, f"Invalid Request: {why}")


def unreadable(failure: ParseFailure) -> Message:
    """The answer to a frame that could not be read: -32700 with id null, or -32602 to
    the request whose numbers are out of a float's range (``1e400``), by its id."""
    if not isinstance(failure, NumberOutOfRange):
        return rpc.error_response(None, rpc.PARSE_ERROR, f"Parse error: {failure}")
    message = failure.message
    found = message.get("id") if isinstance(message, dict) and "method" in message else None
    request_id = found if rpc.is_request_id(found) else None
    return rpc.error_response(request_id, rpc.INVALID_PARAMS, f"Invalid params: {failure}")
