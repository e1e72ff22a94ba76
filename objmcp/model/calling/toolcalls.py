"""A toolbox's tool called: from sync code in the calling thread, from async code on the loop.

:meth:`Toolbox.call <objmcp.Toolbox.call>` runs a sync tool in the calling thread and
settles what it gives back in an event loop of its own; :meth:`Toolbox.acall
<objmcp.Toolbox.acall>` runs a sync tool in a worker thread and an async one on the loop,
on the session's or caller's own object with ``per=`` (:mod:`objmcp.model.calling.owned`).
Both go through :mod:`objmcp.model.calling.pipeline`, the hooks seeing the call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import anyio

from ..asking.here import AskedHere, SampledHere
from ..values.content import ResultLimits, ToolResult, error_result
from .hooks import CallInfo, Hook
from .inject import Elicit, Progress, Sample
from .owned import OwnObjects
from .per import ObjectUnavailable
from .pipeline import call_in_thread, call_on_loop, run_on_loop, settled_on_loop
from .threads import ThreadRunner
from .tool import Tool

__all__ = ["call_from_loop", "call_in_this_thread", "checked_hooks", "injections"]


def checked_hooks(hooks: Sequence[Hook]) -> tuple[Hook, ...]:
    """``hooks``, each one checked to be a :class:`~objmcp.Hook` (a TypeError if not)."""
    checked = tuple(hooks)
    for hook in checked:
        if not isinstance(hook, Hook):
            raise TypeError(f"a hook is an objmcp.Hook, not {hook!r}")
    return checked


def injections(
    elicit: Callable[..., object] | None,
    progress: Callable[..., object] | None,
    sample: Callable[..., object] | None,
    injected: Mapping[object, object] | None,
    awaited: bool = False,
) -> Mapping[object, object] | None:
    """What the injected parameters of a call get, by marker: ``injected``, and the
    ``elicit``, ``progress`` and ``sample`` callables given (``injected`` wins); the
    questions ``elicit`` answers and the completions ``sample`` gives are read as a
    client's answers (:class:`AskedHere`, :class:`SampledHere`), to await when
    ``awaited`` (the tool is async)."""
    if elicit is None and progress is None and sample is None:
        return injected
    pairs: tuple[tuple[object, object], ...] = (
        (Elicit, None if elicit is None else AskedHere(elicit, awaited)),
        (Progress, progress),
        (Sample, None if sample is None else SampledHere(sample, awaited)),
    )
    given = {marker: value for marker, value in pairs if value is not None}
    return {**given, **(injected or {})} if given else injected


def call_in_this_thread(
    tool: Tool,
    name: str,
    arguments: object,
    injected: Mapping[object, object] | None,
    hooks: Sequence[Hook],
    limits: ResultLimits,
    info: CallInfo | None,
) -> ToolResult:
    """Call sync ``tool`` (called ``name``) in the calling thread, through ``hooks``
    (seeing ``info``, made here when not given); what it gives back to await is settled
    in an event loop of its own."""
    if hooks:
        info = info or CallInfo(name, arguments)

    def settle_elsewhere(pending: object) -> ToolResult:
        return anyio.run(settled_on_loop, pending, tool, limits)

    return call_in_thread(tool, arguments, injected, limits, hooks, info, settle_elsewhere)


async def call_from_loop(
    tool: Tool,
    name: str,
    arguments: object,
    injected: Mapping[object, object] | None,
    hooks: Sequence[Hook],
    limits: ResultLimits,
    info: CallInfo | None,
    threads: ThreadRunner,
    owned: OwnObjects | None,
) -> ToolResult:
    """Call ``tool`` (called ``name``) from the event loop, through ``hooks`` (seeing
    ``info``, made here when not given): a sync one in a worker thread of ``threads``, an
    async one here; on the object of the call when ``owned`` rebinds it."""
    own = owned is not None and owned.rebinds(tool)
    if not hooks and not own:  # the common call, in as few awaits as it takes
        return await run_on_loop(tool, arguments, injected, limits, threads)
    if hooks:
        info = info or CallInfo(name, arguments)
    if own:
        assert owned is not None
        return await call_on_loop(
            hooks, info, lambda: _on_own_object(tool, arguments, injected, limits, threads, owned)
        )
    return await call_on_loop(
        hooks, info, lambda: run_on_loop(tool, arguments, injected, limits, threads)
    )


async def _on_own_object(
    tool: Tool,
    arguments: object,
    injected: Mapping[object, object] | None,
    limits: ResultLimits,
    threads: ThreadRunner,
    owned: OwnObjects,
) -> ToolResult:
    """Run ``tool`` on the object of the call (one that cannot be had is an error result)."""
    try:
        async with owned.lease(tool, injected) as (own, state):
            return await run_on_loop(own, arguments, injected, limits, threads, state)
    except ObjectUnavailable as error:
        return error_result(error, tool.name)
