"""JSON-RPC 2.0 message shapes and error codes, as MCP uses them.

A :class:`ProtocolError` is raised inside the session where a request must be
refused; it becomes exactly one error response, built here.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "HEADER_MISMATCH",
    "HTTP_STATUS",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "MISSING_CLIENT_CAPABILITY",
    "PARSE_ERROR",
    "SERVER_BUSY",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "ProtocolError",
    "RequestId",
    "error_response",
    "http_status",
    "is_request_id",
    "missing_capability",
    "result_response",
]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
UNSUPPORTED_PROTOCOL_VERSION = -32022
HEADER_MISMATCH = -32020
"""A request whose HTTP headers do not say what its body says (2026-07-28)."""
MISSING_CLIENT_CAPABILITY = -32021
"""A request that needs a client capability its client did not declare (2026-07-28's
``MissingRequiredClientCapabilityError``, with ``data.requiredCapabilities``)."""
SERVER_BUSY = -32000
"""A request refused because the connection has as many running as it may (a server error
in JSON-RPC's range for implementations; MCP defines none for this)."""

RequestId = str | int
Message = dict[str, Any]

HTTP_STATUS = {
    METHOD_NOT_FOUND: 404,
    INVALID_REQUEST: 400,
    INVALID_PARAMS: 400,
    PARSE_ERROR: 400,
    UNSUPPORTED_PROTOCOL_VERSION: 400,
    HEADER_MISMATCH: 400,
    MISSING_CLIENT_CAPABILITY: 400,
}
"""The HTTP status an error answer carries over Streamable HTTP in the modern era (200 for
the codes not here); the handshake era answers every request's error with 200."""


class ProtocolError(Exception):
    """A request the session refuses, with the JSON-RPC error it is answered by."""

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def response(self, request_id: RequestId | None) -> Message:
        """The error response to the request with ``request_id``."""
        return error_response(request_id, self.code, self.message, self.data)

    @property
    def http_status(self) -> int:
        """The HTTP status its answer carries in the modern era (see :data:`HTTP_STATUS`)."""
        return HTTP_STATUS.get(self.code, 200)


def missing_capability(required: dict[str, Any], reason: str) -> ProtocolError:
    """The -32021 error of a request whose client did not declare ``required`` (a
    ``ClientCapabilities`` object: ``{"sampling": {}}``), saying ``reason``."""
    return ProtocolError(MISSING_CLIENT_CAPABILITY, reason, {"requiredCapabilities": required})


def http_status(answer: object) -> int:
    """The HTTP status of an answer (a response or a batch) in the modern era: an error's
    own (see :data:`HTTP_STATUS`), 200 for anything else."""
    if isinstance(answer, dict) and isinstance(answer.get("error"), dict):
        return HTTP_STATUS.get(answer["error"].get("code"), 200)
    return 200


def is_request_id(value: object) -> bool:
    """MCP ids are strings or integers (JSON-RPC's null and fractions are refused)."""
    kind = type(value)
    if kind is str or kind is int:
        return True
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def result_response(request_id: RequestId, result: dict[str, Any]) -> Message:
    """A success response."""
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def error_response(
    request_id: RequestId | None, code: int, message: str, data: object = None
) -> Message:
    """An error response; ``data`` is left out when None."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}
