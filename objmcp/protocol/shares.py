"""A pool of places shared fairly by its callers (tasks running, parked calls).

Over HTTP in 2026-07-28, every caller's requests go to one session, so one caller could
take every place of a pool (``max_tasks``, ``max_parked``) and leave the others none.
A :class:`Shares` gives each caller a share instead:

1. A caller's share is the pool divided by the callers holding places, itself counted,
   and one at least: ``max(1, limit // holders)``.
2. A caller may take a place while it holds fewer than its share and the pool has one
   free; a caller who holds none may always take one, even from a full pool. A caller
   who filled the pool while alone thus cannot shut out the next one, and the pool is
   overdrawn by one place a caller at most (each such place still counted by the
   bounds around it: ``max_calls``, ``max_waiting_total``).
3. Nothing is taken back: a caller over its share (it came first) keeps what it holds
   and takes no more until it is under it again.

With one caller (stdio, a handshake session) this is a plain bound of ``limit``. A pool of
``limit`` 0 gives no place to anyone.
"""

from __future__ import annotations

import collections

__all__ = ["Shares"]


class Shares:
    """``limit`` places, each held by a caller (None: the one caller of stdio)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._held: collections.Counter[str | None] = collections.Counter()
        self._total = 0

    def __len__(self) -> int:
        return self._total

    def held_by(self, caller_key: str | None) -> int:
        """The places the caller ``caller_key`` holds."""
        return self._held[caller_key]

    def share(self, caller_key: str | None) -> int:
        """How many places the caller ``caller_key`` may hold now: the pool divided by the
        callers holding places, itself counted, and one at least."""
        holders = len(self._held) + (caller_key not in self._held)
        return max(1, self.limit // holders)

    def room(self, caller_key: str | None) -> bool:
        """Whether the caller ``caller_key`` may take one more place now."""
        if self.limit < 1:
            return False
        mine = self._held[caller_key]
        if mine == 0:
            return True
        return mine < self.share(caller_key) and self._total < self.limit

    def take(self, caller_key: str | None) -> None:
        """The caller ``caller_key`` takes a place (whether it had :meth:`room` is for the
        code calling to check)."""
        self._held[caller_key] += 1
        self._total += 1

    def give(self, caller_key: str | None) -> None:
        """The caller ``caller_key`` gives a place back."""
        left = self._held[caller_key] - 1
        if left > 0:
            self._held[caller_key] = left
        else:
            del self._held[caller_key]
        self._total -= 1
