"""Which parameters objmcp fills in itself, and what each one gets.

A parameter asks for a marker of :mod:`objmcp.model.calling.inject` by its annotation
(``objmcp.Caller | None`` too) or, with neither annotation nor default, by its name
(:func:`injected_kind`); :func:`injected_value` gives it what the caller gave for that
marker, else its default (:data:`DEFAULTS`): a :class:`ToolLog` under the tool's name, a
:class:`~objmcp.Context` of them all, a progress that reports nothing, a flag never set, or
an asker that says nothing can answer here.
"""

from __future__ import annotations

import inspect
import logging
import types
import typing
from collections.abc import Mapping
from typing import Any

from ..._exceptions import ElicitationUnavailable, InteractionUnavailable
from .caller import Caller
from .inject import (
    DONE,
    LOG_LEVELS,
    LOG_MARK,
    REQUEST_CAPABILITIES,
    REQUEST_EXTENSIONS,
    REQUEST_META,
    Cancelled,
    Context,
    Done,
    Elicit,
    Injected,
    Log,
    LogLevel,
    Progress,
    ResourceUpdated,
    Roots,
    Sample,
)

__all__ = [
    "DEFAULTS",
    "INJECTED_NAMES",
    "ToolLog",
    "injected_kind",
    "injected_parameters",
    "injected_value",
]


def _no_progress(done: float, total: float | None = None, message: str | None = None) -> Done:
    return DONE


def _nobody_listens(uri: str) -> Done:
    if not isinstance(uri, str):
        raise TypeError(f"resource_updated takes the resource's URI, not {uri!r}")
    return DONE


INJECTED_NAMES: Mapping[str, object] = {
    "elicit": Elicit,
    "progress": Progress,
    "cancelled": Cancelled,
    "log": Log,
    "sample": Sample,
}
"""Parameter names recognised without an annotation, and the marker each stands for."""

_MARKERS = (*INJECTED_NAMES.values(), Roots, ResourceUpdated, Context, Caller, Injected)


class _NeverCancelled:
    """The flag of a call that nobody can cancel."""

    def is_set(self) -> bool:
        return False


class _Unavailable:
    """What asks the client for something when there is no client to ask."""

    def __init__(self, error: type[InteractionUnavailable], message: str) -> None:
        self.error = error
        self.message = message

    def __call__(self, *args: object, **kwargs: object) -> Any:
        raise self.error(self.message)

    url = __call__
    many = __call__
    question = __call__

    def complete(self, elicitation_id: str | None) -> Done:
        return DONE


class ToolLog:
    """The :class:`Log` of one tool: records go to Python's ``logging`` under its name
    (and from there to the client, when a server forwards them)."""

    def __init__(self, name: str) -> None:
        self._logger = logging.getLogger(name)

    def __call__(self, message: object, level: LogLevel = "info") -> Done:
        number = LOG_LEVELS.get(level)
        if number is None:
            raise ValueError(f"level must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
        self._logger.log(number, message, extra={LOG_MARK: True})
        return DONE

    def debug(self, message: object) -> Done:
        return self(message, "debug")

    def info(self, message: object) -> Done:
        return self(message, "info")

    def notice(self, message: object) -> Done:
        return self(message, "notice")

    def warning(self, message: object) -> Done:
        return self(message, "warning")

    def error(self, message: object) -> Done:
        return self(message, "error")

    def critical(self, message: object) -> Done:
        return self(message, "critical")


DEFAULTS: Mapping[object, object] = {
    Caller: None,
    Progress: _no_progress,
    ResourceUpdated: _nobody_listens,
    Cancelled: _NeverCancelled(),
    Elicit: _Unavailable(
        ElicitationUnavailable,
        "This tool asked the user a question, but nothing can answer it here: the MCP "
        "client does not support elicitation, or Toolbox.call was given no elicit= callable",
    ),
    Sample: _Unavailable(
        InteractionUnavailable,
        "This tool asked the client's model for a completion, but nothing can answer it "
        "here: the MCP client does not support sampling, or Toolbox.call was given no "
        "sample= callable",
    ),
    Roots: _Unavailable(
        InteractionUnavailable,
        "This tool asked the client for its roots, but nothing can answer it here: the MCP "
        "client does not support roots, or Toolbox.call was given no Roots callable",
    ),
}
"""What an injected parameter gets when the caller gives nothing for it."""


def injected_value(marker: object, given: Mapping[object, object] | None, tool: str) -> object:
    """What the parameter asking for ``marker`` gets, from what the caller ``given``."""
    given = given or {}
    if marker is Injected:
        return given
    if marker in given:
        return given[marker]
    if marker is Log:
        return ToolLog(tool)
    if marker is Context:

        def value(kind: object) -> Any:
            return injected_value(kind, given, tool)

        return Context(
            tool,
            elicit=value(Elicit),
            progress=value(Progress),
            cancelled=value(Cancelled),
            log=value(Log),
            sample=value(Sample),
            list_roots=value(Roots),
            resource_updated=value(ResourceUpdated),
            caller=typing.cast("Caller | None", value(Caller)),
            meta=typing.cast("Mapping[str, Any]", given.get(REQUEST_META, {})),
            extensions=typing.cast(
                "Mapping[str, Mapping[str, Any]]", given.get(REQUEST_EXTENSIONS, {})
            ),
            client_capabilities=typing.cast(
                "Mapping[str, Any]", given.get(REQUEST_CAPABILITIES, {})
            ),
        )
    return DEFAULTS[marker]


def injected_parameters(
    signature: inspect.Signature, hints: Mapping[str, object]
) -> dict[str, object]:
    """The parameters of a signature that ask for a marker, and the marker of each (an
    annotation left a string, unresolved, counts as none)."""
    found: dict[str, object] = {}
    for parameter in signature.parameters.values():
        hint = hints.get(parameter.name, parameter.annotation)
        if isinstance(hint, str):
            hint = inspect.Parameter.empty
        marker = injected_kind(parameter, hint)
        if marker is not None:
            found[parameter.name] = marker
    return found


def injected_kind(parameter: inspect.Parameter, hint: object) -> object | None:
    """The marker a parameter asks for, or None when it is an ordinary parameter."""
    if any(hint is marker for marker in _MARKERS):
        return hint
    union = typing.get_origin(hint) in (typing.Union, types.UnionType)
    if union and set(typing.get_args(hint)) == {Caller, type(None)}:
        return Caller  # caller: objmcp.Caller | None
    if hint is inspect.Parameter.empty and parameter.default is parameter.empty:
        return INJECTED_NAMES.get(parameter.name)
    return None
