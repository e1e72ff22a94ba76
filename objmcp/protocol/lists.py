"""The lists: what ``tools/list`` and the other list methods hold, and their pages.

Four methods list what is published: ``tools/list``, ``resources/list``,
``resources/templates/list`` and ``prompts/list`` (:data:`LISTS` maps the last
three to the key their items go under). The lists of resources and prompts are
answered in every revision, even by a server that declares neither feature: the
SDKs' clients ask regardless, and an empty list is what the SDKs' servers say.

A tool's entry is its definition, cut to the fields the client's revision has.
Making them takes a pass over every tool, so :class:`ToolList` keeps each
revision's entries until what is published changes (the toolbox's ``generation``).

Any list may come in pages (``page_size``). A cursor is opaque to the client, and
here it is simply the method and the offset of the next page, base64-encoded:
:func:`page` cuts a page from the request's ``cursor``, and refuses (-32602) a
cursor that was not made for this method or that points past the list's end.
Nothing is kept between pages: a list that changes between two of them goes on
from the same offset. ``base64`` is imported by the functions that use it: only a
paged list needs it.
"""

from __future__ import annotations

from typing import Any

from ..model.calling.caller import Caller
from ..model.calling.tool import Tool
from ..model.calling.toolbox import Toolbox
from ..model.describe.specs import mcp_tool
from . import jsonrpc as rpc
from .jsonrpc import ProtocolError
from .revisions import Revision
from .tasks.core import task_support

__all__ = [
    "LISTS",
    "ToolList",
    "check_listing",
    "listing",
    "page",
    "reachable",
    "scoped",
    "searching_entries",
    "tool_entry",
]

LISTS = {
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
}
"""The list methods of the features, by the key of their items: answered in every
revision, an empty list when the server has none (its capability not declared)."""


def check_listing(page_size: int | None) -> None:
    """Raise ValueError for a page size no list could have."""
    if page_size is not None and page_size < 1:
        raise ValueError(f"page_size must be at least 1, not {page_size}")


class ToolList:
    """The entries of ``tools/list``, made once per revision and generation."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, int], list[dict[str, Any]]] = {}

    def entries(self, toolbox: Toolbox, revision: Revision) -> list[dict[str, Any]]:
        """Every tool's entry, with the fields ``revision`` has (the caller must not
        change them: the next list is the same list)."""
        key = (revision.version, toolbox.generation)
        tools = self._cache.get(key)
        if tools is None:
            tools = [tool_entry(tool, revision) for tool in toolbox.values()]
            kept = self._cache.items()
            self._cache = {k: v for k, v in kept if k[1] == key[1]}
            self._cache[key] = tools
        return tools


def scoped(toolbox: Toolbox) -> bool:
    """Whether a tool asks for scopes (then each caller has a list of its own)."""
    return any(tool.scopes for tool in toolbox.values())


def reachable(
    entries: list[dict[str, Any]], toolbox: Toolbox, caller: Caller
) -> list[dict[str, Any]]:
    """The entries of the tools ``caller``'s scopes reach (a tool that asks for none is
    reached by every caller)."""

    def reached(name: str) -> bool:
        return name not in toolbox or caller.allows(toolbox[name].scopes)

    return [entry for entry in entries if reached(entry["name"])]


def searching_entries(
    toolbox: Toolbox, surfaced: list[str], revision: Revision
) -> list[dict[str, Any]]:
    """In search mode, the entries of ``tools/list``: the meta-tools, then the tools this
    session's searches brought up (``surfaced``)."""
    tools = [*toolbox.discovery.meta_tools.values(), *(toolbox[name] for name in surfaced)]
    return [tool_entry(tool, revision) for tool in tools]


def tool_entry(tool: Tool, revision: Revision) -> dict[str, Any]:
    """A tool's entry in ``tools/list``, with the fields ``revision`` has: in 2025-11-25,
    its ``execution.taskSupport`` (the core tasks) too."""
    fields = revision.tool_fields
    entry = {name: value for name, value in mcp_tool(tool).items() if name in fields}
    if revision.core_tasks:
        entry["execution"] = {"taskSupport": task_support(tool.task)}
    return entry


def listing(toolbox: Toolbox, method: str, revision: Revision) -> list[dict[str, Any]]:
    """The items of one of :data:`LISTS`: the resources, the templates or the prompts,
    their ``_meta`` left out where ``revision`` has none."""
    resources = toolbox.resources.values()
    if method == "resources/list":
        items = [resource.listing() for resource in resources if not resource.is_template]
    elif method == "resources/templates/list":
        items = [resource.listing() for resource in resources if resource.is_template]
    else:
        items = [prompt.listing() for prompt in toolbox.prompts.values()]
    if not revision.listed_meta:
        for item in items:
            item.pop("_meta", None)
    return items


def page(
    method: str, key: str, items: list[Any], params: dict[str, Any], page_size: int | None
) -> dict[str, Any]:
    """One page of a list, from the request's ``cursor``: ``{key: [...]}`` and a
    ``nextCursor`` when more follow (one page when ``page_size`` is None)."""
    start = 0
    cursor = params.get("cursor")
    if cursor is not None:
        start = _read_cursor(cursor, method, len(items))
    if page_size is None:
        return {key: items[start:]}
    end = start + page_size
    found: dict[str, Any] = {key: items[start:end]}
    if end < len(items):
        found["nextCursor"] = _make_cursor(method, end)
    return found


def _make_cursor(method: str, offset: int) -> str:
    import base64  # only a paged list needs it

    return base64.urlsafe_b64encode(f"{method}|{offset}".encode()).decode().rstrip("=")


def _read_cursor(cursor: object, method: str, length: int) -> int:
    """The offset a cursor of ours stands for; -32602 for anything else."""
    refusal = ProtocolError(
        rpc.INVALID_PARAMS, f"Invalid params: {cursor!r} is not a cursor of {method}"
    )
    if not isinstance(cursor, str):
        raise refusal
    import base64

    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        named, _, number = text.partition("|")
        offset = int(number)
    except (ValueError, UnicodeDecodeError):
        raise refusal from None
    if named != method or not 0 <= offset <= length or number != str(offset):
        raise refusal
    return offset
