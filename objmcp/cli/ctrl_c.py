"""Ctrl-C while ``objmcp run --http`` serves: the same end as on stdio, status 130.

uvicorn shuts down gracefully on SIGINT, raises the signal again for the handler it found,
then ``uvicorn.run`` swallows the :class:`KeyboardInterrupt` and returns: the process ended
with status 0, or 130 when Ctrl-C came before uvicorn listened.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

__all__ = ["ctrl_c_raises"]


@contextlib.contextmanager
def ctrl_c_raises() -> Iterator[None]:
    """A SIGINT inside raises :class:`KeyboardInterrupt`, again when the block ends if
    the block swallowed it (with Python's own handler in place, in the main thread; else
    nothing changes)."""
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    received: list[int] = []

    def interrupt(signum: int, frame: FrameType | None) -> None:
        received.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if received:
        raise KeyboardInterrupt
