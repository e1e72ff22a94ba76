"""The modern era (2026-07-28): a request that carries its revision in ``_meta``.

A modern client does no handshake. Every request names its revision and the
client's capabilities in ``params._meta`` (under :data:`PROTOCOL_VERSION_KEY` and
:data:`CLIENT_CAPABILITIES_KEY`), and is answered from that alone: the session
keeps nothing of one request for the next. :func:`modern_revision` reads the
``_meta`` and refuses what is missing or unknown, with the codes the revision
gives.

Every modern result says that it is complete (``resultType``) and who answered
(the server's info in its ``_meta``; ``server/discover``'s holds the server's own
``meta`` too); a cacheable one says for how long and for
whom (``ttlMs``, ``cacheScope``). :func:`complete` adds these to a result, after
what the :class:`~objmcp.protocol.revisions.Revision` row says; for a handshake
revision it adds nothing, so that every result of either era goes through it.
``server/discover``, the modern era's stand-in for ``initialize``, is answered by
:func:`discover`.

The questions of the modern era (``input_required`` and the sealed request state)
are in :mod:`objmcp.protocol.questions`; its listen streams in
:mod:`objmcp.protocol.subscriptions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import jsonrpc as rpc
from .actions import CacheHint, ServerInfo
from .jsonrpc import ProtocolError
from .revisions import MODERN_VERSIONS, REVISIONS, Revision

__all__ = [
    "CLIENT_CAPABILITIES_KEY",
    "CLIENT_INFO_KEY",
    "DEFAULT_HINT",
    "LOG_LEVEL_KEY",
    "PROTOCOL_VERSION_KEY",
    "SERVER_INFO_KEY",
    "NAMED_PARAM",
    "complete",
    "discover",
    "is_modern",
    "is_modern_request",
    "meta_of",
    "modern_revision",
    "server_meta",
]

PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"

NAMED_PARAM = {
    "tools/call": "name",
    "prompts/get": "name",
    "resources/read": "uri",
    "tasks/get": "taskId",
    "tasks/update": "taskId",
    "tasks/cancel": "taskId",
}
"""Methods whose request names what it is for, by this parameter (over HTTP, the
``Mcp-Name`` header repeats it; the tasks extension's name their task)."""

DEFAULT_HINT: CacheHint = (0, "private")
"""Every cacheable result is stale at once and private unless the server says otherwise."""


def is_modern(message: object) -> bool:
    """The era rule, for every transport: a request is modern when it is
    ``server/discover``, or when it is not ``initialize`` and its ``params._meta`` names
    its revision (under :data:`PROTOCOL_VERSION_KEY`). A batch, or anything but a
    message, is not."""
    return isinstance(message, dict) and is_modern_request(
        message.get("method"), message.get("params")
    )


def is_modern_request(method: object, params: object) -> bool:
    """:func:`is_modern` for a request already taken apart."""
    if method == "server/discover":
        return True
    if method == "initialize":
        return False
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta


def meta_of(params: dict[str, Any]) -> dict[str, Any]:
    """The request's ``_meta`` (an empty one when it has none, or not an object)."""
    meta = params.get("_meta")
    return meta if isinstance(meta, dict) else {}


def modern_revision(meta: object) -> tuple[Revision, Mapping[str, Any]]:
    """The revision a modern request names in its ``_meta``, and the client's
    capabilities it carries; -32602, or -32022 for a revision objmcp does not speak."""
    if not isinstance(meta, dict):
        raise ProtocolError(
            rpc.INVALID_PARAMS,
            f"Invalid params: a request without initialize needs params._meta with "
            f"{PROTOCOL_VERSION_KEY} and {CLIENT_CAPABILITIES_KEY}",
        )
    version = meta.get(PROTOCOL_VERSION_KEY)
    if not isinstance(version, str):
        raise ProtocolError(
            rpc.INVALID_PARAMS, f"Invalid params: _meta needs {PROTOCOL_VERSION_KEY} as a string"
        )
    revision = REVISIONS.get(version)
    if revision is None or revision.era != "modern":
        raise ProtocolError(
            rpc.UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
            {"supported": list(MODERN_VERSIONS), "requested": version},
        )
    capabilities = meta.get(CLIENT_CAPABILITIES_KEY)
    if not isinstance(capabilities, dict):
        raise ProtocolError(
            rpc.INVALID_PARAMS, f"Invalid params: _meta needs {CLIENT_CAPABILITIES_KEY} (an object)"
        )
    return revision, capabilities


def complete(
    result: dict[str, Any],
    revision: Revision,
    info: ServerInfo,
    hints: Mapping[str, CacheHint],
    cache: str | None,
    hint: CacheHint | None = None,
) -> dict[str, Any]:
    """Add what ``revision`` puts on every result (``cache`` names the method whose
    caching hints a cacheable result carries, looked up in ``hints``; ``hint``, when
    given, is its own)."""
    if revision.result_type:
        result = {"resultType": "complete", **result}
        result["_meta"] = {SERVER_INFO_KEY: info.implementation(revision)}
    if cache is not None and revision.cache_hints:
        ttl, scope = hint or hints.get(cache, DEFAULT_HINT)
        result["ttlMs"] = ttl
        result["cacheScope"] = scope
    return result


def discover(
    revision: Revision,
    capabilities: dict[str, Any],
    info: ServerInfo,
    hints: Mapping[str, CacheHint],
) -> dict[str, Any]:
    """The result of ``server/discover``: the revisions, the capabilities, the
    instructions, cacheable like a list."""
    result: dict[str, Any] = {
        "supportedVersions": list(MODERN_VERSIONS),
        "capabilities": capabilities,
    }
    if info.instructions:
        result["instructions"] = info.instructions
    result = complete(result, revision, info, hints, cache="server/discover")
    if info.meta:
        result["_meta"] = {**info.meta, **result.get("_meta", {})}
    return result


def server_meta(meta: Mapping[str, Any]) -> dict[str, Any]:
    """The server's own ``_meta`` (``initialize``, ``server/discover``), checked: the key
    of the server's info is objmcp's; ValueError for it."""
    if SERVER_INFO_KEY in meta:
        raise ValueError(
            f"meta cannot hold {SERVER_INFO_KEY}: objmcp fills it from the server's name, "
            "version, title, description and website_url"
        )
    return dict(meta)
