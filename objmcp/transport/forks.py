"""The protocol's file descriptors, kept from a process forked while serving.

``os.fork()`` copies every descriptor: a child forked by a tool would read the client's
requests and write answers of its own on the protocol's pipes, and hold them open after
the server ends. In a child forked while descriptors are kept (:func:`kept_from_children`),
each of them points at ``os.devnull`` from its first instruction on: reading it gives end
of file, writing to it goes nowhere. The process's own file descriptors 0 and 1 are left
as they are (while serving, the stdio guards already point them elsewhere).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

__all__ = ["end_child", "forked_while_serving", "kept_from_children"]

_kept: list[int] = []  # the descriptors kept now (one entry for each keeper)


class _Process:
    forked = False  # this process is a child forked while descriptors were kept


@contextlib.contextmanager
def kept_from_children(*fds: int) -> Iterator[None]:
    """While active, a child forked by this process gets ``os.devnull`` in place of
    ``fds``, and :func:`forked_while_serving` is true in it."""
    _kept.extend(fds)
    try:
        yield
    finally:
        for fd in fds:
            _kept.remove(fd)


def forked_while_serving() -> bool:
    """Whether this process is a child forked while descriptors were kept from it."""
    return _Process.forked


def end_child() -> None:
    """End a child forked while serving that came back into the server: it is not one.
    Python's buffered output is flushed; nothing else runs (no ``atexit``, no ``finally``)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


def _in_child() -> None:
    if not _kept:
        return
    _Process.forked = True
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
    except OSError:
        return
    for fd in set(_kept):
        with contextlib.suppress(OSError):
            os.dup2(devnull, fd, inheritable=False)
    os.close(devnull)
    _kept.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_in_child)
