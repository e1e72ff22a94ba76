"""The meta-tools' names, and how many tools one description names.

Search mode's are ``search_tools``, ``describe_tools`` and ``call_tool``; code mode's
``search_tools``, ``describe_tools`` and ``execute``. A name a real tool has already is
prefixed ``objmcp_`` (as often as it takes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..._exceptions import ToolError
from ..calling.tool import Tool, make_tool
from ..finding.publish import ToolOptions

__all__ = ["MAX_NAMES", "check_names", "free_names", "meta_tools"]

MAX_NAMES = 100
"""The most names one description gives (as many as one search finds)."""
_SEARCH_NAMES = ("search_tools", "describe_tools", "call_tool")
_CODE_NAMES = ("search_tools", "describe_tools", "execute")


def free_names(taken: Mapping[str, object], code: bool = False) -> tuple[str, str, str]:
    """The meta-tools' names (code mode's with ``code``), none of them one of ``taken``."""
    search, describe, third = (
        _free(base, taken) for base in (_CODE_NAMES if code else _SEARCH_NAMES)
    )
    return search, describe, third


def check_names(names: Sequence[object]) -> None:
    """Raise :class:`ToolError` for more names than one description gives."""
    if len(names) > MAX_NAMES:
        raise ToolError(
            f"{len(names):,} names given, over the {MAX_NAMES} described at once: "
            "ask for the ones you need, a few at a time"
        )


def meta_tools(
    made: Mapping[str, tuple[Callable[..., object], str, bool | None]],
) -> dict[str, Tool]:
    """The meta-tools, by name, from each one's function, description and whether it only
    reads (its ``readOnlyHint``); their results unstructured."""
    return {
        name: make_tool(
            name,
            function,
            ToolOptions(description=description, read_only=reads, structured=False),
        )
        for name, (function, description, reads) in made.items()
    }


def _free(base: str, taken: Mapping[str, object]) -> str:
    name = base
    while name in taken:
        name = f"objmcp_{name}"
    return name
