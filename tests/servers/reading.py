"""Resources and prompts that are long, many or slow (issue 36): what the URI bound,
``--max-items``, ``--max-result`` and the worker threads must keep from wedging the
server."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import objmcp

WAIT = 20.0
"""Seconds a slow read waits to be released: a server whose loop it blocks is wedged
that long, and then answers out of order."""

_reading = {"resource": threading.Event(), "prompt": threading.Event()}
_released = {"resource": threading.Event(), "prompt": threading.Event()}


def _slow(kind: str) -> Iterator[str]:
    """Two items, the second given only once the test releases it."""
    yield "first"
    _reading[kind].set()
    _released[kind].wait(WAIT)
    yield "second"


class Reading:
    """Resources and prompts to read, and tools to steer the slow ones."""

    async def ping(self) -> str:
        """An answer at once, from the event loop (not the stdio reader's fast lane)."""
        return "pong"

    def wait_reading(self, kind: str) -> bool:
        """True once the slow resource's or prompt's items are being read."""
        return _reading[kind].wait(WAIT)

    def release(self, kind: str) -> str:
        """Let the slow resource or prompt give its last item."""
        _released[kind].set()
        return "released"

    @objmcp.resource("files://{stem}-{suffix}")
    def file(self, stem: str, suffix: str) -> str:
        """Two variables in one path segment."""
        return f"{stem}|{suffix}"

    @objmcp.resource("numbers://many")
    def many_numbers(self) -> Iterator[int]:
        """200,000 numbers, from an iterator."""
        return iter(range(200_000))

    @objmcp.resource("numbers://listed")
    def listed_numbers(self) -> list[int]:
        """200,000 numbers in a list: over a megabyte of JSON."""
        return list(range(200_000))

    @objmcp.resource("numbers://slow")
    def slow_numbers(self) -> Iterator[str]:
        """A generator that waits to be released before its last item."""
        return _slow("resource")

    @objmcp.prompt
    def many_lines(self) -> Iterator[str]:
        """200,000 user messages, from an iterator."""
        return (f"line {number}" for number in range(200_000))

    @objmcp.prompt
    def long_text(self) -> str:
        """One message of 2,000,000 characters."""
        return "x" * 2_000_000

    @objmcp.prompt
    def slow_lines(self) -> Iterator[str]:
        """A generator of messages that waits to be released before its last."""
        return _slow("prompt")
