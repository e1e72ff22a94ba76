"""What the requests of :mod:`objmcp.testing`'s client carry, by era.

The ``_meta`` every modern-era request carries (the revision, the client's
capabilities and info, its log level), ``tools/call``'s params with their progress
token, a task's params and the ``_meta`` that declares the tasks extension, and a
task's answers as ``tasks/update`` sends them. Plain functions of what the client
declared, no I/O: the client that sends them is ``objmcp._testclient``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import __version__
from ._testanswers import READERS
from .model.calling.inject import ElicitResult, SampleResult
from .protocol.revisions import Era
from .protocol.session import (
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LOG_LEVEL_KEY,
    PROTOCOL_VERSION_KEY,
)
from .protocol.tasks.extension import TASKS

__all__ = ["CLIENT_INFO", "call_params", "modern_meta", "raw_answer", "task_params", "tasks_meta"]

CLIENT_INFO = {"name": "objmcp.testing", "version": __version__}
"""The client's ``clientInfo``."""


def modern_meta(
    revision: str, capabilities: Mapping[str, Any], log_level: str | None
) -> dict[str, Any]:
    """The ``_meta`` of every modern-era request."""
    meta = {
        PROTOCOL_VERSION_KEY: revision,
        CLIENT_CAPABILITIES_KEY: capabilities,
        CLIENT_INFO_KEY: CLIENT_INFO,
    }
    if log_level is not None:
        meta[LOG_LEVEL_KEY] = log_level
    return meta


def tasks_meta(capabilities: Mapping[str, Any]) -> dict[str, Any]:
    """The ``_meta`` that declares the tasks extension, whatever else is declared."""
    extensions = {**(capabilities.get("extensions") or {}), TASKS: {}}
    return {CLIENT_CAPABILITIES_KEY: {**capabilities, "extensions": extensions}}


def task_params(era: Era, capabilities: Mapping[str, Any], task_id: str) -> dict[str, Any]:
    """The params of a request about the task ``task_id`` (``tasks/get``, ...)."""
    if era == "handshake":
        return {"taskId": task_id}
    return {"taskId": task_id, "_meta": tasks_meta(capabilities)}


def call_params(
    tool: str, token: str, arguments: Mapping[str, Any] | None, keywords: Mapping[str, Any]
) -> dict[str, Any]:
    """``tools/call``'s params, with a progress token."""
    return {
        "name": tool,
        "arguments": {**(arguments or {}), **keywords},
        "_meta": {"progressToken": token},
    }


def raw_answer(answer: object) -> object:
    """An answer to a task's question as sent: an ElicitResult or SampleResult read as
    the functions' answers are, anything else as it is."""
    if isinstance(answer, ElicitResult):
        return READERS["elicitation/create"](answer)
    if isinstance(answer, SampleResult):
        return READERS["sampling/createMessage"](answer)
    return answer
