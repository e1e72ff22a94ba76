"""Jobs: the tasks of a client that has none, as three tools any model can call (opt-in).

With ``jobs=True``, a tool call still running when a task would be made (after
``task_after``), from a client that knows no tasks, is answered with a plain text
result naming a job id, and the call runs on as a task of the session's
:class:`~objmcp.protocol.tasks.extension.TaskStore` (the same bounds and lifetimes as
tasks, each its caller's). Three tools come back for it, listed beside the object's own
whenever jobs are on (a client that caches its list, or a model whose tools are fixed
for the conversation, knows them before the first job):

- ``job_status(job_id)``: running, ended, failed or cancelled, and the latest
  progress message; it does not wait;
- ``job_result(job_id)``: waits up to ``wait`` seconds for the job to end, then gives
  the call's own result (its content, structured content and ``isError`` as the call
  ended), or says it is still running;
- ``job_cancel(job_id)``: stops the call; the job keeps no result.

A name the object's own tools have is prefixed ``objmcp_`` (as for the search
meta-tools), and the texts always say the names in use. This module holds the
tools' definitions and what they say; :mod:`objmcp.protocol.tasks.job_methods` answers them.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from ...model.calling.tool import Tool, make_tool
from ...model.calling.toolbox import Toolbox
from ...model.finding.publish import ToolOptions
from ..lists import tool_entry
from ..revisions import Revision
from .extension import TASKS

__all__ = ["BASE_NAMES", "JobTools", "knows_tasks"]

BASE_NAMES = ("job_status", "job_result", "job_cancel")
"""The job tools' names, when the object's own tools leave them free."""


def knows_tasks(capabilities: Mapping[str, Any], extensions: Mapping[str, Any]) -> bool:
    """Whether a request's client has tasks of its own, and so never gets jobs: it
    negotiated the 2026-07-28 tasks extension (``extensions``), or declared the
    2025-11-25 client capability ``tasks``."""
    return TASKS in extensions or isinstance(capabilities.get("tasks"), dict)


def job_status(job_id: str) -> str:
    """See how a job is going.

    Args:
        job_id: The job's id, as the answer that started the job gave it.
    """
    raise AssertionError("the session answers the job tools itself")


def job_result(job_id: str) -> str:
    """Get a job's result.

    Args:
        job_id: The job's id, as the answer that started the job gave it.
    """
    raise AssertionError("the session answers the job tools itself")


def job_cancel(job_id: str) -> str:
    """Stop a job.

    Args:
        job_id: The job's id, as the answer that started the job gave it.
    """
    raise AssertionError("the session answers the job tools itself")


class JobTools:
    """The job tools of a server, named around its object's own tools; ``wait`` is how
    many seconds ``job_result`` waits for a job to end."""

    def __init__(self, wait: float) -> None:
        if wait <= 0:
            raise ValueError(f"the job tools' wait must be positive, not {wait!r}")
        self.wait = wait
        self._lock = threading.Lock()
        self._made: tuple[int, dict[str, Tool]] | None = None

    def names(self, toolbox: Toolbox) -> tuple[str, str, str]:
        """The names of the status, result and cancel tools, in that order."""
        status, result, cancel = self.tools(toolbox)
        return status, result, cancel

    def tools(self, toolbox: Toolbox) -> Mapping[str, Tool]:
        """The three tools, by name (made again when the toolbox's tools change)."""
        made = self._made
        if made is None or made[0] != toolbox.generation:
            with self._lock:
                made = (toolbox.generation, self._make(toolbox))
                self._made = made
        return made[1]

    def entries(self, toolbox: Toolbox, revision: Revision) -> list[dict[str, Any]]:
        """The tools' entries in ``tools/list``, with the fields ``revision`` has."""
        return [tool_entry(tool, revision) for tool in self.tools(toolbox).values()]

    def listed(
        self, entries: list[dict[str, Any]], toolbox: Toolbox, revision: Revision
    ) -> list[dict[str, Any]]:
        """``tools/list``'s ``entries`` with jobs on: the job tools added, and no
        ``outputSchema`` on a tool that may become a job (all but ``task="never"``),
        for a job's text has no structured content, and a client checks a result
        against its tool's output schema (its results still carry their
        ``structuredContent``)."""

        def may_be_a_job(entry: dict[str, Any]) -> bool:
            name = entry["name"]
            return "outputSchema" in entry and name in toolbox and toolbox[name].task != "never"

        kept = [
            {key: value for key, value in entry.items() if key != "outputSchema"}
            if may_be_a_job(entry)
            else entry
            for entry in entries
        ]
        return [*kept, *self.entries(toolbox, revision)]

    def resolve(self, toolbox: Toolbox, name: str, arguments: object) -> tuple[str, object]:
        """In search mode, a ``call_tool`` of a job tool stands for that tool's call."""
        if not toolbox.searching or name != toolbox.discovery.names()[2]:
            return name, arguments
        if not isinstance(arguments, dict) or not set(arguments) <= {"name", "arguments"}:
            return name, arguments
        inner = arguments.get("name")
        if isinstance(inner, str) and inner in self.tools(toolbox):
            return inner, arguments.get("arguments")
        return name, arguments

    def started(self, toolbox: Toolbox, job_id: str) -> str:
        """The answer of a call that became the job ``job_id``."""
        status, result, cancel = self.names(toolbox)
        return (
            f"The call is still running, as job {job_id}. Its result is not lost: call "
            f'{result} with job_id "{job_id}" to wait for it (each call waits up to '
            f"{self.wait:g} s, then says whether it is still running), {status} to see how "
            f"it is going, {cancel} to stop it."
        )

    def _make(self, toolbox: Toolbox) -> dict[str, Tool]:
        status, result, cancel = (_free(base, toolbox) for base in BASE_NAMES)
        what = (
            "A job is a tool call that ran long: its answer said 'still running, as job "
            "<id>' and the call goes on in the background."
        )
        texts = {
            status: (
                f"See how a job is going. {what} Says whether it is running, has ended, "
                "failed or was cancelled, and its latest progress message; does not wait. "
                f"Get its result with {result}."
            ),
            result: (
                f"Get the result of a job. {what} Waits up to {self.wait:g} s for the job "
                "to end, then gives the call's own result, exactly as the call would have "
                "(or its error); if it is still running then, says so: call again to wait "
                "more."
            ),
            cancel: (
                f"Stop a job. {what} The call is stopped and the job keeps no result; a "
                "job that has ended already stays as it is."
            ),
        }
        functions = {status: job_status, result: job_result, cancel: job_cancel}
        titles = {status: "Job status", result: "Job result", cancel: "Cancel a job"}
        return {
            name: make_tool(
                name,
                function,
                ToolOptions(
                    title=titles[name],
                    description=texts[name],
                    read_only=name != cancel,
                    destructive=False if name == cancel else None,
                    idempotent=True if name == cancel else None,
                    open_world=False,
                    structured=False,
                    task="never",  # 2025-11-25: taskSupport forbidden; never a job itself
                ),
            )
            for name, function in functions.items()
        }


def _free(base: str, toolbox: Toolbox) -> str:
    name = base
    while name in toolbox:
        name = f"objmcp_{name}"
    return name
