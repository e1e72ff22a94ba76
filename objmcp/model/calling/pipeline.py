"""One tool call, start to end, written once: the hooks before, the run, the outcome
settled, the hooks after.

Every caller of a tool goes through here: :meth:`Toolbox.call <objmcp.Toolbox.call>`
(sync code), :meth:`Toolbox.acall <objmcp.Toolbox.acall>` (the event loop, which the
stream connection and HTTP use) and the stdio fast lane (a reader thread). What differs
between them is policy, passed in: where an awaitable a sync tool gave back is settled
(``settle_elsewhere``), what follows the tool's return in its own thread (``ran``), and
what the run is wrapped in (an object leased for the call). The hooks, the run of a sync
tool and the settling of an outcome are called from this module alone
(``tests/package/test_pipeline.py`` reads the package to hold that).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence

import anyio

from ..values.content import ResultLimits, ToolResult, error_result
from ..values.jsoncount import small
from .hooks import CallInfo, Hook, after, before
from .inject import InputNeeded
from .outcome import run_sync_tool, settle
from .threads import Place, ThreadRunner
from .tool import Tool

__all__ = ["call_in_thread", "call_on_loop", "run_on_loop", "settled_on_loop"]


def call_in_thread(
    tool: Tool,
    arguments: object,
    injected: Mapping[object, object] | None,
    limits: ResultLimits,
    hooks: Sequence[Hook],
    info: CallInfo | None,
    settle_elsewhere: Callable[[object], ToolResult],
    ran: Callable[[], None] | None = None,
) -> ToolResult:
    """Call sync ``tool`` in the calling thread, through ``hooks`` (seeing ``info``).

    An awaitable it gives back is handed to ``settle_elsewhere`` (an event loop of its
    own, or the server's); ``ran`` is called in this thread as soon as the tool returns.
    """
    if hooks and info is not None:
        refused = before(hooks, info)
        if refused is not None:
            return after(hooks, info, refused)
    outcome = run_sync_tool(tool, arguments, injected, limits)
    if ran is not None:
        ran()
    if not isinstance(outcome, ToolResult):
        outcome = settle_elsewhere(outcome)
    return after(hooks, info, outcome) if hooks and info is not None else outcome


async def settled_on_loop(pending: object, tool: Tool, limits: ResultLimits) -> ToolResult:
    """What a sync tool gave back that must be awaited, settled on the running loop."""
    return await settle(pending, tool, limits)


async def call_on_loop(
    hooks: Sequence[Hook],
    info: CallInfo | None,
    run: Callable[[], Awaitable[ToolResult]],
) -> ToolResult:
    """Await ``run`` (the call's run: :func:`run_on_loop`, within whatever the call holds)
    through ``hooks`` (seeing ``info``)."""
    if not hooks or info is None:
        return await run()
    result = before(hooks, info)
    if result is None:
        result = await run()
    return after(hooks, info, result)


async def run_on_loop(
    tool: Tool,
    arguments: object,
    injected: Mapping[object, object] | None,
    limits: ResultLimits,
    threads: ThreadRunner,
    state: Place | None = None,
) -> ToolResult:
    """Run ``tool`` from the event loop: an async one here (its arguments checked in a
    worker thread when they are big), a sync one in a worker thread of ``threads``
    (``state`` its place there)."""
    if tool.is_async:
        max_values = limits.max_values

        def bound() -> tuple[list[object], dict[str, object]]:
            return tool.bind(arguments, injected, max_values)

        try:
            if small(arguments):
                positional, keywords = bound()
            else:  # checked and converted in a worker thread: the loop serves others
                positional, keywords = await threads.run(bound)
        except (InputNeeded, anyio.get_cancelled_exc_class()):
            raise
        except BaseException as error:
            return error_result(error, tool.name)
        try:
            pending: object = tool.function(*positional, **keywords)
        except InputNeeded:
            raise
        except BaseException as error:  # no await since: nothing here is a cancellation
            return error_result(error, tool.name)
        return await settle(pending, tool, limits)
    outcome = await threads.run(lambda: run_sync_tool(tool, arguments, injected, limits), state)
    if isinstance(outcome, ToolResult):
        return outcome
    return await settle(outcome, tool, limits)
