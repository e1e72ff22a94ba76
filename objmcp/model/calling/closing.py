"""How a served object is closed: ``aclose()``, ``close()``, ``__aexit__`` or ``__exit__``.

The first of these the object's class has is called: an async one on the event loop, a
sync one where the sync calls ran (:class:`~objmcp.model.calling.threads.ThreadRunner`),
so that an object bound to its thread is closed in that thread.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable

from .threads import ThreadRunner

__all__ = ["close_logged", "close_object"]

logger = logging.getLogger("objmcp")


async def close_object(owner: object, threads: ThreadRunner) -> None:
    """Close ``owner`` by the first of ``aclose()``, ``close()``, ``__aexit__`` and
    ``__exit__`` its class has (none: nothing is done), sync ones run in ``threads``;
    what closing raises is raised."""
    kind = type(owner)
    for name in ("aclose", "close"):
        if callable(getattr(kind, name, None)):
            method: Callable[[], object] = getattr(owner, name)
            if inspect.iscoroutinefunction(method):
                await method()
            else:
                outcome = await threads.run(method)
                if inspect.isawaitable(outcome):
                    await outcome
            return
    if callable(getattr(kind, "__aexit__", None)):
        await owner.__aexit__(None, None, None)  # type: ignore[attr-defined]
    elif callable(getattr(kind, "__exit__", None)):
        exit_method = owner.__exit__  # type: ignore[attr-defined]
        await threads.run(lambda: exit_method(None, None, None))


async def close_logged(owner: object, threads: ThreadRunner) -> None:
    """:func:`close_object`, an error logged rather than raised."""
    try:
        await close_object(owner, threads)
    except Exception:
        logger.exception("closing %s failed", type(owner).__qualname__)
