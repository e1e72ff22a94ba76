"""A tool call's outcome made a :class:`~objmcp.ToolResult`, at this one boundary.

Every outcome of a call, a value or an exception, becomes a result here:
:func:`run_sync_tool` calls a sync tool and makes its result in the calling
(worker) thread, :func:`settle` awaits what a tool gave back on the event loop,
and :func:`tool_result` makes the result of a value (structured where the tool
declares an output schema). :class:`~objmcp.Toolbox` calls a tool through them,
and so does the serving layer's fast lane, with no layer in between.

Results are bounded by :class:`~objmcp.model.values.content.ResultLimits`. A sync tool's result
is converted in its worker thread, as part of the call (a ``call_timeout`` stops
waiting for it there); an async tool's on the event loop, except an iterator it
returns, which may run any code for each item: that is read and converted in a
worker thread, which a ``call_timeout`` (or a cancellation) stops waiting for.
:func:`awaited` and :func:`off_loop` are those two steps alone, for the reads of
resources and the prompts, which make contents and messages rather than a result.
"""

from __future__ import annotations

import inspect
import threading
import typing
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import TypeVar

import anyio
import anyio.lowlevel
import anyio.to_thread

from ..describe.hints import BINARY
from ..values.content import (
    DEFAULT_LIMITS,
    ResultLimits,
    ToolResult,
    error_result,
    plain_text,
    too_big,
    value_result,
)
from ..values.jsonable import Budget, to_jsonable
from ..values.printed import Printed, keep_print, pass_on, stop_keeping
from .inject import InputNeeded
from .tool import Tool

__all__ = ["awaited", "off_loop", "run_sync_tool", "settle", "tool_result"]

T = TypeVar("T")


def run_sync_tool(
    tool: Tool,
    arguments: object,
    injected: Mapping[object, object] | None,
    limits: ResultLimits = DEFAULT_LIMITS,
) -> ToolResult | object:
    """Call a sync tool and make its result within ``limits``, all in the calling
    (worker) thread.

    Returns the :class:`ToolResult`, or an awaitable (or async iterator) the
    tool returned, which must be settled on the event loop. What the call printed (while
    serving) is its answer when it returned nothing else (:mod:`objmcp.model.values.printed`).
    """
    keeping = keep_print(limits.max_result)
    try:
        outcome = _run_sync_tool(tool, arguments, injected, limits)
    except BaseException:
        pass_on(stop_keeping(keeping))
        raise
    printed = stop_keeping(keeping)
    return outcome if printed is None else _with_printed(tool, outcome, printed, limits)


def _run_sync_tool(
    tool: Tool,
    arguments: object,
    injected: Mapping[object, object] | None,
    limits: ResultLimits,
) -> ToolResult | object:
    try:
        positional, keywords = tool.bind(arguments, injected, limits.max_values)
        value = tool.function(*positional, **keywords)
        if type(value) in _PLAIN:
            return tool_result(tool, value, limits)
        if inspect.isawaitable(value) or inspect.isasyncgen(value):
            return value
        return tool_result(tool, value, limits)
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


async def settle(pending: object, tool: Tool, limits: ResultLimits = DEFAULT_LIMITS) -> ToolResult:
    """Await what an async tool (or a sync one) gave back, and make its result within
    ``limits``; what it printed meanwhile is its answer when it returned nothing else."""
    keeping = keep_print(limits.max_result)
    try:
        result = await _settle(pending, tool, limits)
    except BaseException:
        pass_on(stop_keeping(keeping))
        raise
    printed = stop_keeping(keeping)
    if printed is None:
        return result
    return typing.cast(ToolResult, _with_printed(tool, result, printed, limits))


_NOTHING = plain_text(None)
"""The text of a call that returned None."""


def _with_printed(
    tool: Tool, outcome: ToolResult | object, printed: Printed, limits: ResultLimits
) -> ToolResult | object:
    """``outcome`` of a call of ``tool`` that printed ``printed``: the printed text is the
    answer of a call that gave none (returned None, with no output schema to fill; an
    error result when longer than ``max_result``); else it is written on to the stream,
    as if nothing had kept it."""
    if (
        printed.size
        and isinstance(outcome, ToolResult)
        and outcome.value is None
        and not outcome.is_error
        and outcome.text == _NOTHING
        and outcome.content is None
        and tool.output_schema is None
    ):
        if printed.size > limits.max_result:
            return too_big(printed.size, limits, "The tool's printed text")
        text = printed.text
        return ToolResult(text, text)
    pass_on(printed)
    return outcome


async def _settle(pending: object, tool: Tool, limits: ResultLimits) -> ToolResult:
    name = tool.name
    try:
        value, budget = await awaited(pending, limits)
        if isinstance(value, Iterator):  # its items are code run: not on the event loop
            iterator = value
            return await off_loop(lambda: tool_result(tool, iterator, limits))
    except InputNeeded:
        raise
    except anyio.get_cancelled_exc_class() as error:
        # Re-raised when this call really is cancelled; otherwise the tool raised it itself.
        await anyio.lowlevel.checkpoint_if_cancelled()
        return error_result(error, name)
    except BaseException as error:
        return error_result(error, name)
    return tool_result(tool, value, limits, budget)


async def awaited(pending: object, limits: ResultLimits) -> tuple[object, Budget | None]:
    """What an async method gave back, awaited: an async generator's items are read, as
    far as ``limits.max_items`` allows, and the budget left is given with them (None when
    there was no such generator). An iterator is given back unread (see :func:`off_loop`)."""
    value = pending
    budget = None
    if inspect.isasyncgen(value):
        budget = Budget(limits.max_items)
        value = await _take(value, budget)
    while inspect.isawaitable(value):
        value = await value
    return value, budget


async def off_loop(convert: Callable[[], T]) -> T:
    """``convert`` run in a worker thread: reading an iterator runs code of the object's
    for each item. A cancellation (a ``call_timeout``) stops waiting for it."""
    return await anyio.to_thread.run_sync(convert, abandon_on_cancel=True)


async def _take(generator: AsyncIterator[object], budget: Budget) -> list[object]:
    """The items of an async generator the budget allows (one more read to tell a cut)."""
    items: list[object] = []
    async for item in generator:
        if not budget.left:
            budget.cut = True
            break
        items.append(item)
        budget.left -= 1
    return items


def tool_result(
    tool: Tool, value: object, limits: ResultLimits = DEFAULT_LIMITS, budget: Budget | None = None
) -> ToolResult:
    """The result of a call of ``tool`` that returned ``value``, within ``limits``, with
    its structured content when the tool has an output schema; never raises.

    An iterator ``value`` is read here, as far as ``limits.max_items`` allows
    (``budget``: what is left of it after some items were read already). A
    :class:`ToolResult` the tool made itself is its result as it is."""
    if type(value) is ToolResult:  # made by the tool itself: sent as it is
        return value
    text = plain_text(value)
    if text is None:
        if isinstance(value, Iterator):
            budget = Budget(limits.max_items)
            try:
                value = budget.take(value)
            except Exception as error:  # the iterator's own failure, as the tool's
                return error_result(error, tool.name)
        result = value_result(value, limits, budget)
        if result.is_error or tool.output_schema is None:
            return result
        text, value, content = result.text, result.value, result.content
    elif len(text) > limits.max_result:
        return too_big(len(text), limits)
    elif tool.output_schema is None:
        return ToolResult(text, value)
    else:
        content = None
    sent = value
    if isinstance(value, BINARY):
        sent = to_jsonable(value)  # bytes alone: the form structuredContent holds them in
    try:
        structured = tool.structure(sent)
    except ValueError as error:
        return ToolResult(
            f"The tool's result does not fit its declared return type: {error}", None, True
        )
    return ToolResult(text, value, False, structured, content)
