"""The handshake era (2024-11-05 to 2025-11-25): ``initialize`` first, then requests.

A handshake client opens with ``initialize``, naming the revision it speaks and
its capabilities. The server answers with the revision it settles on (the
client's own when objmcp speaks it, else the newest older one, after
:func:`~objmcp.protocol.revisions.negotiate_handshake`), the capabilities it
declares and who it is. Both sides keep what was settled for the rest of the
connection: the session holds the revision, the client's capabilities and its own
declaration, and answers every later request of the era from them.

This module holds what the handshake settles, as plain functions of the request:
:func:`negotiate` reads ``initialize``, :func:`initialize_result` answers it,
:func:`assumed` stands in for it when a transport serves a client that sends none
(stateless HTTP), and :func:`batch_refusal` says whether the revision takes
JSON-RPC batches (2025-03-26 alone does). What the server declares is decided in
:mod:`objmcp.protocol.features`, for both eras.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import jsonrpc as rpc
from .actions import ServerInfo
from .jsonrpc import ProtocolError
from .revisions import HANDSHAKE_VERSIONS, REVISIONS, Revision, negotiate_handshake

__all__ = ["assumed", "batch_refusal", "initialize_result", "negotiate"]


def negotiate(params: dict[str, Any]) -> tuple[Revision, Mapping[str, Any]]:
    """The revision ``initialize`` settles on, and the client's capabilities; -32602
    for a request without a version, or with one older than every revision objmcp has."""
    requested = params.get("protocolVersion")
    data: dict[str, Any] = {"supported": list(HANDSHAKE_VERSIONS)}
    if not isinstance(requested, str):
        raise ProtocolError(rpc.INVALID_PARAMS, 'initialize needs a string "protocolVersion"', data)
    revision = negotiate_handshake(requested)
    if revision is None:
        data["requested"] = requested
        raise ProtocolError(rpc.INVALID_PARAMS, "Unsupported protocol version", data)
    capabilities = params.get("capabilities")
    return revision, capabilities if isinstance(capabilities, dict) else {}


def initialize_result(
    revision: Revision, declared: dict[str, Any], info: ServerInfo
) -> dict[str, Any]:
    """The result of ``initialize``: the revision, the capabilities, who the server is."""
    result: dict[str, Any] = {
        "protocolVersion": revision.version,
        "capabilities": declared,
        "serverInfo": info.implementation(revision),
    }
    if info.instructions:
        result["instructions"] = info.instructions
    if info.meta:
        result["_meta"] = dict(info.meta)
    return result


def assumed(version: str) -> Revision:
    """The handshake revision ``version``, served as if ``initialize`` had chosen it;
    ValueError for an unknown one."""
    revision = REVISIONS.get(version)
    if revision is None or revision.era != "handshake":
        raise ValueError(f"{version!r} is not a handshake revision")
    return revision


def batch_refusal(revision: Revision | None) -> str | None:
    """Why a JSON-RPC batch is refused under ``revision`` (None: not initialized), or
    None when it is taken."""
    if revision is not None and revision.batches:
        return None
    where = f"in revision {revision.version}" if revision else "before initialize"
    allowed = ", ".join(v for v, r in REVISIONS.items() if r.batches)
    return f"Invalid Request: JSON-RPC batches are not allowed {where} (only in {allowed})"
