"""The line on stderr that says what a server serves, and how, as serving starts.

Written by ``objmcp run`` and by :func:`objmcp.start` alike (stdout is the protocol's).
"""

from __future__ import annotations

import collections

from .model.calling.toolbox import Toolbox

__all__ = ["counted", "discovery", "serving_line", "summary"]


def serving_line(name: str, where: str, toolbox: Toolbox, jobs: bool) -> str:
    """``objmcp: serving NAME WHERE: what it serves``, one line with its newline: the tools
    (:func:`summary`), the discovery mode's choice, the objects per session or caller, and
    the job tools when jobs are on."""
    from .protocol.tasks.jobs import JobTools

    more = ""
    if toolbox.objects is not None:
        kept = toolbox.objects.max_objects
        more = f"; one object per {toolbox.per}, made by {toolbox.objects.factory.cls.__qualname__}"
        more += f" (at most {kept} kept)"
    if jobs:
        more += f"; jobs on: {', '.join(JobTools(1).names(toolbox))} listed too"
    return f"objmcp: serving {name} {where}: {summary(toolbox)}{discovery(toolbox)}{more}\n"


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``"1 tool"``, ``"2 tools"``: ``count`` and ``noun``, plural (``noun + "s"`` unless
    given) when ``count`` is not one."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def summary(toolbox: Toolbox) -> str:
    """What a toolbox serves, in a few words for the start-up line: how many tools (and
    from which modules the most come, when more than one), resources and prompts."""
    counts = collections.Counter(
        getattr(tool.function, "__module__", None) or "?" for tool in toolbox.values()
    )
    said = counted(len(toolbox), "tool")
    if len(counts) > 1:
        biggest = ", ".join(f"{module} {count}" for module, count in counts.most_common(3))
        said += f" (most from {biggest})"
    for kind, found in (("resource", toolbox.resources), ("prompt", toolbox.prompts)):
        if found:
            said += f", {counted(len(found), kind)}"
    return said


def discovery(toolbox: Toolbox) -> str:
    """The discovery mode's choice, for the start-up line: nothing when it is off."""
    mode, count = toolbox.discovery_mode, len(toolbox)
    if mode == "off":
        return ""
    tools = counted(count, "tool")
    if not toolbox.searching:
        return f"; discovery auto: all listed ({tools}, at most {toolbox.discovery_threshold})"
    why = mode if mode in ("search", "code") else f"auto, {tools} > {toolbox.discovery_threshold}"
    return f"; discovery {why}: tools/list gives {', '.join(toolbox.discovery.meta_tools)}"
