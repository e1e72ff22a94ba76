"""A resource read and a prompt got: the method run as a tool's is, its value made
contents or messages.

The method's injected parameters are given; a sync method runs in a worker thread and
what it returned is converted there too, an async one runs on the event loop and an
iterator it returns is read in a worker thread (:mod:`objmcp.model.calling.outcome`);
what comes out is bounded as a tool's result is. With ``per=``, the method runs on the
session's or caller's own object (:mod:`objmcp.model.calling.owned`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ..finding.prompts import Prompt, render_messages
from ..finding.resources import Resource, read_contents
from ..values.content import ResultLimits
from ..values.jsonable import Budget
from .injecting import injected_value
from .outcome import awaited, off_loop
from .owned import OwnObjects
from .threads import Place, ThreadRunner

__all__ = ["prompt_result", "resource_contents"]

T = TypeVar("T")


@dataclass(frozen=True)
class _Pending:
    """What a sync method of a resource or a prompt returned that must be awaited on the
    event loop (an awaitable, an async generator)."""

    value: object


async def resource_contents(
    resource: Resource,
    uri: str,
    values: dict[str, str],
    injected: Mapping[object, object] | None,
    limits: ResultLimits,
    threads: ThreadRunner,
    owned: OwnObjects | None,
) -> list[dict[str, Any]]:
    """The ``contents`` of ``resource`` read at ``uri``, whose variables have ``values``."""

    def contents(value: object, budget: Budget | None) -> list[dict[str, Any]]:
        return read_contents(resource, uri, value, limits, budget)

    arguments = resource.arguments(values)
    return await _run(resource, arguments, injected, contents, limits, threads, owned)


async def prompt_result(
    prompt: Prompt,
    arguments: object,
    injected: Mapping[object, object] | None,
    limits: ResultLimits,
    threads: ThreadRunner,
    owned: OwnObjects | None,
) -> dict[str, Any]:
    """The result of ``prompts/get`` of ``prompt`` with ``arguments``: its messages (and
    description)."""

    def messages(value: object, budget: Budget | None) -> list[dict[str, Any]]:
        return render_messages(value, limits, budget)

    converted = prompt.convert(arguments)
    rendered = await _run(prompt, converted, injected, messages, limits, threads, owned)
    result: dict[str, Any] = {}
    if prompt.description:
        result["description"] = prompt.description
    result["messages"] = rendered
    return result


async def _run(
    published: Resource | Prompt,
    arguments: dict[str, object],
    injected: Mapping[object, object] | None,
    convert: Callable[[object, Budget | None], T],
    limits: ResultLimits,
    threads: ThreadRunner,
    owned: OwnObjects | None,
) -> T:
    """Call the method of a resource or a prompt, its injected parameters given (on the
    session's or caller's own object, with ``per=``), and ``convert`` what it returned."""
    if owned is None or not owned.rebinds(published):
        return await _run_on(published, arguments, injected, convert, limits, threads)
    async with owned.lease(published, injected) as (own, state):
        return await _run_on(own, arguments, injected, convert, limits, threads, state)


async def _run_on(
    published: Resource | Prompt,
    arguments: dict[str, object],
    injected: Mapping[object, object] | None,
    convert: Callable[[object, Budget | None], T],
    limits: ResultLimits,
    threads: ThreadRunner,
    state: Place | None = None,
) -> T:
    """As a tool is run: a sync method and the conversion of its value in a worker
    thread; an async one here, and an iterator it returns read in a worker thread."""
    for parameter, marker in published.injected.items():
        arguments[parameter] = injected_value(marker, injected, published.name)
    function = published.function
    if published.is_async:
        pending = function(**arguments)
    else:

        def run_and_convert() -> T | _Pending:
            value = function(**arguments)
            if inspect.isawaitable(value) or inspect.isasyncgen(value):
                return _Pending(value)
            return convert(value, None)

        outcome = await threads.run(run_and_convert, state)
        if not isinstance(outcome, _Pending):
            return outcome
        pending = outcome.value
    value, budget = await awaited(pending, limits)
    if isinstance(value, Iterator):
        iterator = value
        return await off_loop(lambda: convert(iterator, None))
    return convert(value, budget)
