"""A tool call's outcome made a :class:`~objmcp.ToolResult`, at this one boundary.

Every outcome of a call, a value or an exception, becomes a result here:
:func:`run_sync_tool` calls a sync tool and makes its result in the calling
(worker) thread, :func:`settle` awaits what a tool gave back on the event loop,
and :func:`tool_result` makes the result of a value (structured where the tool
declares an output schema). :class:`~objmcp.Toolbox` calls a tool through them,
and so does the serving layer's fast lane, with no layer in between.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Iterator, Mapping

import anyio
import anyio.lowlevel

from .content import ToolResult, error_result, plain_text, value_result
from .inject import InputNeeded
from .tool import Tool

__all__ = ["run_sync_tool", "settle", "tool_result"]


def run_sync_tool(
    tool: Tool, arguments: object, injected: Mapping[object, object] | None
) -> ToolResult | object:
    """Call a sync tool and make its result, all in the calling (worker) thread.

    Returns the :class:`ToolResult`, or an awaitable (or async iterator) the
    tool returned, which must be settled on the event loop.
    """
    try:
        positional, keywords = tool.bind(arguments, injected)
        value = tool.function(*positional, **keywords)
        if type(value) in _PLAIN:
            return tool_result(tool, value)
        if inspect.isawaitable(value) or inspect.isasyncgen(value):
            return value
        if isinstance(value, Iterator):
            value = list(value)
        return tool_result(tool, value)
    except InputNeeded:
        raise
    except BaseException as error:  # a tool's SystemExit is its failure, not the server's
        if isinstance(error, KeyboardInterrupt) and _in_main_thread():
            raise  # the user pressed Ctrl-C during Toolbox.call
        return error_result(error, tool.name)


_PLAIN = frozenset({str, int, float, bool, type(None), dict, list})
"""Types of return values that are neither awaitable nor an iterator to read out."""


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


async def settle(pending: object, tool: Tool) -> ToolResult:
    """Await what an async tool (or a sync one) gave back, and make its result."""
    name = tool.name
    try:
        value = pending
        if inspect.isasyncgen(value):
            value = [item async for item in value]
        while inspect.isawaitable(value):
            value = await value
        if isinstance(value, Iterator):
            value = list(value)
    except InputNeeded:
        raise
    except anyio.get_cancelled_exc_class() as error:
        # Re-raised when this call really is cancelled; otherwise the tool raised it itself.
        await anyio.lowlevel.checkpoint_if_cancelled()
        return error_result(error, name)
    except BaseException as error:
        return error_result(error, name)
    return tool_result(tool, value)


def tool_result(tool: Tool, value: object) -> ToolResult:
    """The result of a call of ``tool`` that returned ``value``, with its structured
    content when the tool has an output schema; never raises."""
    text = plain_text(value)
    if text is None:
        result = value_result(value)
        if result.is_error or tool.output_schema is None:
            return result
        text, value, content = result.text, result.value, result.content
    elif tool.output_schema is None:
        return ToolResult(text, value)
    else:
        content = None
    try:
        structured = tool.structure(value)
    except ValueError as error:
        return ToolResult(
            f"The tool's result does not fit its declared return type: {error}", None, True
        )
    return ToolResult(text, value, False, structured, content)
