"""Endless and huge results (issue 22): what ``objmcp run --max-items/--max-result`` and
``--call-timeout`` must keep from wedging the server."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import AsyncIterator, Iterator

_produced = [0]  # items the slow generators gave, all together
_lock = threading.Lock()


def _slow(pause: float) -> Iterator[int]:
    """An endless generator that sleeps before each item, and counts what it gave."""
    for number in itertools.count():
        time.sleep(pause)
        with _lock:
            _produced[0] += 1
        yield number


class Endless:
    """Tools whose results never end, or are very big."""

    def ping(self) -> str:
        """An answer at once."""
        return "pong"

    def count(self) -> Iterator[int]:
        """0, 1, 2, ... for ever."""
        return itertools.count()

    def padded(self) -> Iterator[object]:
        """more_itertools.padded of a short list: endless Nones after it."""
        import more_itertools

        return more_itertools.padded([1, 2, 3])

    def nested(self) -> list[Iterator[int]]:
        """A list of three endless iterators."""
        return [itertools.count(), itertools.count(100), itertools.count(200)]

    def huge(self, characters: int) -> str:
        """A text of ``characters`` x's."""
        return "x" * characters

    def huge_list(self, items: int) -> list[str]:
        """A list of ``items`` texts of 1,000 characters."""
        return ["y" * 1000] * items

    def slow(self, pause: float) -> Iterator[int]:
        """An endless generator, ``pause`` seconds an item."""
        return _slow(pause)

    async def slow_async(self, pause: float) -> Iterator[int]:
        """The same, returned by an async method (its items are read off the event loop)."""
        return _slow(pause)

    async def count_async(self) -> AsyncIterator[int]:
        """An endless async generator."""
        for number in itertools.count():
            yield number

    def produced(self) -> int:
        """How many items the slow generators gave so far."""
        with _lock:
            return _produced[0]
