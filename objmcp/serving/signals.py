"""SIGTERM as the end of input.

MCP's stdio shutdown is: close the server's stdin, then (if it has not exited) SIGTERM,
then SIGKILL. A process killed by SIGTERM runs no ``finally`` and closes nothing, so while
a server serves the process's stdin, SIGTERM is taken as the input's end: reading stops,
calls in flight get the server's grace, the frame being written is finished, and the
served object is closed, as when the client closes stdin.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import AsyncIterator, Callable

import anyio
import anyio.abc

__all__ = ["sigterm_ends_input"]

logger = logging.getLogger("objmcp")


@contextlib.asynccontextmanager
async def sigterm_ends_input(end: Callable[[], None]) -> AsyncIterator[None]:
    """While active, SIGTERM calls ``end`` (on the event loop) instead of killing the
    process; later ones are ignored. Only in the main thread of a POSIX process (Python
    delivers signals there alone); elsewhere nothing changes. The handler before is put
    back on exit."""
    sigterm = getattr(signal, "SIGTERM", None)
    if sigterm is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(sigterm)
    with contextlib.ExitStack() as stack:
        if previous is not None:  # put back once the receiver is gone (last in, first out)
            stack.callback(signal.signal, sigterm, previous)
        try:
            received = stack.enter_context(anyio.open_signal_receiver(sigterm))
        except NotImplementedError:  # an event loop without signal handling (Windows)
            received = None
        if received is None:
            yield
            return
        async with anyio.create_task_group() as watch:
            watch.start_soon(_watch, received, end)
            try:
                yield
            finally:
                watch.cancel_scope.cancel()


async def _watch(received: AsyncIterator[int], end: Callable[[], None]) -> None:
    ended = False
    async for _ in received:
        if not ended:
            logger.warning("SIGTERM: ending as at end of input")
            ended = True
            end()
