"""What a call prints, kept as its answer when it returns nothing else.

A function that prints its answer and returns ``None`` would answer nothing while
serving (stdout is the protocol's; what is printed goes to stderr). While a server serves
(:func:`printed_kept`, entered by the serving layer), ``sys.stdout`` is a
:class:`PrintedText` in front of the stream it was: what a call writes to it from its own
thread, or its own task for an async call, is kept for the call (:func:`keep_print`);
everything else goes on to that stream as before. A ``contextvars`` variable says whose
text is written: a worker thread runs the call in a context of its own, an async call's
task has its own, and a thread the call starts has a fresh one (so its prints go on to
stderr). Writes to file descriptor 1 from C code and ``sys.stdout.buffer`` are not
kept.

Code that keeps ``sys.stdout`` when it is imported (a default ``out=sys.stdout``, a
module's ``_out = sys.stdout``, ``from sys import stdout``) writes to the stream it kept,
not to what ``sys.stdout`` is while serving: :func:`stand_in_front` puts the
:class:`PrintedText` in place for good before such code is imported (the command line does,
before it imports a TARGET), so that the stream it keeps is the one a call is heard on.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
import threading
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = [
    "Keeping",
    "Printed",
    "PrintedText",
    "keep_print",
    "pass_on",
    "printed_kept",
    "stand_in_front",
    "stop_keeping",
]


class Printed:
    """The text one call wrote to ``sys.stdout``, in order: at most ``limit`` characters
    are kept, and ``size`` counts them all."""

    def __init__(self, limit: int) -> None:
        self.parts: list[str] = []
        self.limit = limit
        self.size = 0

    @property
    def text(self) -> str:
        """All of it, as one string."""
        return "".join(self.parts)


_current: contextvars.ContextVar[Printed | None] = contextvars.ContextVar(
    "objmcp_printed", default=None
)


class PrintedText:
    """``sys.stdout`` while serving: a call's own writes are kept for it, the rest are
    written on to ``stream`` (stdout as it was; None, as with ``pythonw``, drops them as
    ``print`` would). Everything but writing is ``stream``'s."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Keep ``text`` for the call writing it, or write it on to the stream."""
        printed = _current.get()
        if printed is None:
            return len(text) if self.stream is None else self.stream.write(text)
        if not isinstance(text, str):  # what print itself would refuse
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        printed.size += len(text)
        if printed.size <= printed.limit:
            printed.parts.append(text)
        return len(text)

    def writelines(self, lines: Any) -> None:
        """Write each of ``lines``."""
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Flush the stream (a call's own text needs none)."""
        if _current.get() is None and self.stream is not None:
            self.stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class _Installed:
    """How many :func:`printed_kept` blocks run (the proxy is in place while any does), and
    the proxy :func:`stand_in_front` put in place for good."""

    count = 0
    lock = threading.Lock()
    lasting: PrintedText | None = None


def stand_in_front() -> None:
    """Put a :class:`PrintedText` in front of ``sys.stdout`` now, for the rest of the
    process, so that code imported after keeps it: what a call writes to it while serving
    is kept for the call; every other write goes on to the stream as before."""
    with _Installed.lock:
        front = sys.stdout
        if not isinstance(front, PrintedText):
            front = sys.stdout = PrintedText(front)
        _Installed.lasting = front


@contextlib.contextmanager
def printed_kept() -> Iterator[None]:
    """While the block runs, what calls print is kept for them (:func:`keep_print`):
    ``sys.stdout`` is a :class:`PrintedText` in front of what it was. Nested and
    concurrent uses share one; the last to end puts the stream back, unless someone
    replaced ``sys.stdout`` since or :func:`stand_in_front` put it there for good."""
    with _Installed.lock:
        if _Installed.count == 0 and not isinstance(sys.stdout, PrintedText):
            sys.stdout = PrintedText(sys.stdout)
        _Installed.count += 1
    try:
        yield
    finally:
        with _Installed.lock:
            _Installed.count -= 1
            front = sys.stdout
            lasting = front is _Installed.lasting
            if _Installed.count == 0 and isinstance(front, PrintedText) and not lasting:
                sys.stdout = front.stream


Keeping = tuple[Printed, contextvars.Token[Printed | None]]
"""What :func:`keep_print` started: the text kept, and how to stop."""


def keep_print(limit: int) -> Keeping | None:
    """Keep what this thread (or this task) prints from now on, apart, until
    :func:`stop_keeping`, up to ``limit`` characters; None when nothing is kept (not
    serving)."""
    if not _Installed.count:
        return None
    printed = Printed(limit)
    return printed, _current.set(printed)


def stop_keeping(keeping: Keeping | None) -> Printed | None:
    """Stop keeping what is printed (in the thread or task that started); what was kept."""
    if keeping is None:
        return None
    printed, token = keeping
    _current.reset(token)
    return printed


def pass_on(printed: Printed | None) -> None:
    """Write what a call printed, and which was not its answer, on to the stream (stderr
    while serving on stdio), as it would have been written had nothing kept it."""
    if printed is None or not printed.parts:
        return
    front = sys.stdout
    stream = front.stream if isinstance(front, PrintedText) else front
    if stream is None:
        return
    with contextlib.suppress(Exception):
        stream.write(printed.text)
        stream.flush()
