"""What a call gives back: the :class:`ToolResult`, made from a return value or an exception.

The text rules: ``str`` as is; ``None`` is ``""``; ``bool`` is ``true``/``false``;
numbers are their JSON text; containers, dataclasses, NamedTuples, TypedDicts
and pydantic models are compact JSON (UTF-8, not ASCII-escaped); ``bytes`` are
base64; anything else is ``str(value)``. A value with no JSON form (NaN, a
cycle) is an error result that says so.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from ._convert import NotJsonable, to_jsonable
from ._exceptions import ArgumentError, ToolError

__all__ = ["ToolResult", "error_result", "value_result"]

logger = logging.getLogger("objmcp")


@dataclass(frozen=True)
class ToolResult:
    """The outcome of one tool call, in no protocol's terms.

    ``text`` is what the model reads; ``value`` is the JSON form of what the
    method returned (``None`` for errors); ``is_error`` says the call failed.
    """

    text: str
    value: object = None
    is_error: bool = False


def dumps(value: object) -> str:
    """Compact JSON, UTF-8 characters kept, NaN refused."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def value_result(value: object) -> ToolResult:
    """The result of a call that returned ``value``."""
    if isinstance(value, str):
        return ToolResult(value, value)
    try:
        jsonable = to_jsonable(value)
        text = (
            jsonable if isinstance(jsonable, str) else "" if jsonable is None else dumps(jsonable)
        )
    except (NotJsonable, ValueError, RecursionError) as error:
        message = f"The tool's result has no JSON form: {error}"
        return ToolResult(message, None, True)
    return ToolResult(text, jsonable)


def error_result(error: BaseException, tool: str) -> ToolResult:
    """The result of a call that raised ``error``; unexpected errors are logged with traceback."""
    if isinstance(error, (ToolError, ArgumentError)):
        return ToolResult(str(error), None, True)
    logger.error("tool %r raised %s", tool, type(error).__name__, exc_info=error)
    message = str(error)
    name = type(error).__qualname__
    return ToolResult(f"{name}: {message}" if message else name, None, True)
