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

    def held_by(self, owner: str | None) -> int:
        """The places ``owner`` holds."""
        return self._held[owner]

    def share(self, owner: str | None) -> int:
        """How many places ``owner`` may hold now: the pool divided by the callers holding
        places, ``owner`` counted, and one at least."""
        holders = len(self._held) + (owner not in self._held)
        return max(1, self.limit // holders)

    def room(self, owner: str | None) -> bool:
        """Whether ``owner`` may take one more place now."""
        if self.limit < 1:
            return False
        mine = self._held[owner]
        if mine == 0:
            return True
        return mine < self.share(owner) and self._total < self.limit

    def take(self, owner: str | None) -> None:
        """``owner`` takes a place (whether it had :meth:`room` is the caller's to check)."""
        self._held[owner] += 1
        self._total += 1

    def give(self, owner: str | None) -> None:
        """``owner`` gives a place back."""
        left = self._held[owner] - 1
        if left > 0:
            self._held[owner] = left
        else:
            del self._held[owner]
        self._total -= 1
