"""Every MCP revision objmcp speaks, and what differs between them, in one table.

Two eras: the handshake revisions start a connection with ``initialize``; the
modern ones have no handshake and every request names its revision in
``_meta``. Each :class:`Revision` row says which fields and behaviours its
revision has; the session looks them up here instead of comparing dates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "HANDSHAKE_VERSIONS",
    "MODERN_VERSIONS",
    "REVISIONS",
    "Revision",
    "negotiate_handshake",
]

Era = Literal["handshake", "modern"]
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(eq=False)
class Revision:
    """What one revision of MCP has."""

    version: str
    era: Era
    """``handshake`` (``initialize`` first) or ``modern`` (revision named per request)."""
    batches: bool
    """JSON-RPC batches must be accepted (2025-03-26 only)."""
    server_info_fields: frozenset[str]
    """Fields of ``Implementation`` (``serverInfo``)."""
    tool_fields: frozenset[str]
    """Fields of ``Tool`` in ``tools/list``."""
    result_type: bool
    """Every result carries ``resultType`` and ``_meta`` with the server's info."""
    cache_hints: bool
    """List results and ``server/discover`` carry ``ttlMs`` and ``cacheScope``."""
    elicitation: bool = False
    """The server may ask the user (``elicitation/create``, from 2025-06-18)."""
    elicitation_defaults: Literal["boolean", "all"] = "all"
    """Which properties of a requested schema may carry a ``default``."""
    url_elicitation: bool = False
    """The server may send the user to a URL (``mode: "url"``, from 2025-11-25)."""
    elicitation_ids: bool = False
    """A URL question has an ``elicitationId`` and ``notifications/elicitation/complete``
    says when it is done (2025-11-25 only)."""
    sse_priming: bool = False
    """Streamable HTTP: a request's SSE stream opens with an event of an id and no data,
    and the server may close the connection for the client to poll (2025-11-25 only)."""
    progress_message: bool = True
    """``notifications/progress`` may carry a ``message`` (from 2025-03-26)."""
    removed_methods: frozenset[str] = frozenset()
    """Methods of earlier revisions this one answers with -32601."""
    completions: bool = True
    """Servers declare the ``completions`` capability (from 2025-03-26; before, the
    method existed without one)."""
    content_types: frozenset[str] = frozenset(
        {"text", "image", "audio", "resource", "resource_link"}
    )
    """The kinds of content block a result may hold."""
    listed_meta: bool = False
    """``Resource``, ``ResourceTemplate`` and ``Prompt`` carry a ``_meta`` in their lists
    (from 2025-06-18)."""
    extensions: bool = False
    """Servers declare ``capabilities.extensions`` (SEP-2133, which shows it in a 2025-06-18
    ``initialize``; a field of ``ServerCapabilities`` in 2026-07-28's schema)."""
    tasks_extension: bool = False
    """The tasks extension (``io.modelcontextprotocol/tasks``, SEP-2663) is defined: its
    ``resultType: "task"`` and ``tasks/get``, ``tasks/update``, ``tasks/cancel``
    (2026-07-28)."""
    core_tasks: bool = False
    """The experimental core tasks (2025-11-25 only): the ``tasks`` capability, a tool's
    ``execution.taskSupport``, ``params.task`` on ``tools/call`` answered with a
    ``CreateTaskResult``, and ``tasks/get``, ``tasks/result``, ``tasks/list``,
    ``tasks/cancel``, ``notifications/tasks/status``."""
    resource_not_found: int = -32002
    """The error code of a read of a URI no resource has: -32002 (the handshake
    revisions' examples), -32602 (invalid params) in 2026-07-28, which says so."""


_BASE_INFO = frozenset({"name", "version"})
_BASE_TOOL = frozenset({"name", "description", "inputSchema"})
_MODERN_REMOVED = frozenset(
    {"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"}
)

_TOOL_2025_06 = _BASE_TOOL | {"annotations", "title", "outputSchema", "_meta"}
_INFO_2025_11 = _BASE_INFO | {"title", "icons", "description", "websiteUrl"}
_HANDSHAKE: dict[str, Any] = {"era": "handshake", "result_type": False, "cache_hints": False}

REVISIONS: dict[str, Revision] = {
    r.version: r
    for r in (
        Revision(
            "2024-11-05",
            batches=False,
            server_info_fields=_BASE_INFO,
            tool_fields=_BASE_TOOL,
            progress_message=False,
            completions=False,
            content_types=frozenset({"text", "image", "resource"}),
            **_HANDSHAKE,
        ),
        Revision(
            "2025-03-26",
            batches=True,
            server_info_fields=_BASE_INFO,
            tool_fields=_BASE_TOOL | {"annotations"},
            content_types=frozenset({"text", "image", "audio", "resource"}),
            **_HANDSHAKE,
        ),
        Revision(
            "2025-06-18",
            batches=False,
            server_info_fields=_BASE_INFO | {"title"},
            tool_fields=_TOOL_2025_06,
            elicitation=True,
            elicitation_defaults="boolean",
            listed_meta=True,
            extensions=True,
            **_HANDSHAKE,
        ),
        Revision(
            "2025-11-25",
            batches=False,
            server_info_fields=_INFO_2025_11,
            tool_fields=_TOOL_2025_06 | {"icons", "execution"},
            elicitation=True,
            url_elicitation=True,
            elicitation_ids=True,
            sse_priming=True,
            listed_meta=True,
            extensions=True,
            core_tasks=True,
            **_HANDSHAKE,
        ),
        Revision(
            "2026-07-28",
            era="modern",
            batches=False,
            server_info_fields=_INFO_2025_11,
            tool_fields=_TOOL_2025_06 | {"icons"},
            elicitation=True,
            url_elicitation=True,
            result_type=True,
            cache_hints=True,
            removed_methods=_MODERN_REMOVED,
            listed_meta=True,
            extensions=True,
            tasks_extension=True,
            resource_not_found=-32602,
        ),
    )
}

HANDSHAKE_VERSIONS: tuple[str, ...] = tuple(v for v, r in REVISIONS.items() if r.era == "handshake")
MODERN_VERSIONS: tuple[str, ...] = tuple(v for v, r in REVISIONS.items() if r.era == "modern")


def negotiate_handshake(requested: str) -> Revision | None:
    """The handshake revision to answer ``initialize`` with, after the Logtalk design.

    The client's version when supported; otherwise the newest supported
    handshake version older than it (versions compare as dates); None when
    every supported version is newer, or the version is not a date.
    """
    if requested in REVISIONS and REVISIONS[requested].era == "handshake":
        return REVISIONS[requested]
    if not _DATE.fullmatch(requested):
        return None
    import datetime  # only an unknown version needs it

    try:
        asked = datetime.date.fromisoformat(requested)
    except ValueError:
        return None
    older = [v for v in HANDSHAKE_VERSIONS if datetime.date.fromisoformat(v) < asked]
    return REVISIONS[max(older)] if older else None
