"""What ended tasks keep, bounded in all: every session's stores of a server together.

A task's result stays after its end for the client to fetch (``task_ttl``); many
tasks, or large results, would hold memory for that long. :class:`KeptTasks` bounds the
ended tasks of every :class:`~objmcp.protocol.tasks.extension.TaskStore` of a server: how many
(``max_tasks``) and how many characters they keep (``max_task_results``). A task
forgotten early answers as an expired one does.
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["DEFAULT_MAX_TASK_RESULTS", "Ended", "KeptTasks", "Store", "size_of"]


class Ended(Protocol):
    """An ended task, as the bounds see it (:class:`~objmcp.protocol.tasks.extension.Task`)."""

    caller_key: str | None
    size: int
    """About the characters it keeps."""
    expires: float | None


class Store(Protocol):
    """Where an ended task is kept (:class:`~objmcp.protocol.tasks.extension.TaskStore`)."""

    def forget(self, task: Any) -> None:
        """Forget the ended ``task`` now."""
        ...


DEFAULT_MAX_TASK_RESULTS = 64 * 1024 * 1024
"""Characters of the results ended tasks keep at once, in all (``max_task_results``): four
results of ``max_result``'s 16 Mi; beyond it the oldest ended tasks are forgotten."""


class KeptTasks:
    """The ended tasks every store of a server keeps, oldest first: at most ``count`` of
    them and ``size`` characters of what they keep, in all.

    When a task ends past either bound, ended tasks are forgotten, oldest first, until
    both hold: first those of the callers over their share (each bound divided by the
    callers keeping ended tasks; one task at least), so that a caller within its share
    never loses one to another caller (unless more callers keep tasks than ``count``);
    then, if none is over, the oldest of all. A running task is never counted here, nor
    forgotten. Used under the lock of the session whose task ends (on one event loop).
    """

    def __init__(self, count: int, size: int = DEFAULT_MAX_TASK_RESULTS) -> None:
        if count < 0 or size < 0:
            raise ValueError("max_tasks and max_task_results cannot be negative")
        self.count, self.size = count, size
        self._kept: dict[Ended, Store] = {}  # oldest first
        self._tallies: dict[str | None, list[int]] = {}  # caller key -> [tasks, characters]
        self._total = 0

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def total(self) -> int:
        """The characters the kept tasks keep."""
        return self._total

    def keep(self, store: Store, task: Ended, now: float) -> None:
        """``store``'s task ``task`` ended: keep it, forgetting what expired and, past the
        bounds, the oldest ended tasks of the callers over their share."""
        while self._kept:
            old = next(iter(self._kept))
            if old.expires is None or old.expires > now:
                break
            self._kept.pop(old).forget(old)
            self._untally(old)
        self._kept[task] = store
        tally = self._tallies.setdefault(task.caller_key, [0, 0])
        tally[0] += 1
        tally[1] += task.size
        self._total += task.size
        while self._kept and (len(self._kept) > self.count or self._total > self.size):
            victim = self._victim()
            self._kept.pop(victim).forget(victim)
            self._untally(victim)

    def drop(self, task: Ended) -> None:
        """Its store forgot ``task`` (it expired, or the session ended)."""
        if self._kept.pop(task, None) is not None:
            self._untally(task)

    def _victim(self) -> Ended:
        holders = len(self._tallies)
        count_share, size_share = max(1, self.count // holders), self.size // holders
        over = {
            caller_key
            for caller_key, (count, size) in self._tallies.items()
            if count > count_share or size > size_share
        }
        for task in self._kept:
            if task.caller_key in over:
                return task
        return next(iter(self._kept))

    def _untally(self, task: Ended) -> None:
        tally = self._tallies[task.caller_key]
        tally[0] -= 1
        tally[1] -= task.size
        self._total -= task.size
        if tally[0] == 0:
            del self._tallies[task.caller_key]


_SHARED = 1024
"""Strings longer than this are counted once however often they are met."""


def size_of(value: object) -> int:
    """About the characters ``value`` holds: its strings' lengths, keys included, and a
    few for every other value (a walk of its values, not of its text). A long string met
    twice is one string in memory (a text result and its ``structuredContent``): counted
    once."""
    size = 0
    pending = [value]
    seen: set[int] = set()
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if len(item) > _SHARED:
                if id(item) in seen:
                    continue
                seen.add(id(item))
            size += len(item) + 2
        elif isinstance(item, dict):
            size += 2 + sum(len(key) + 3 for key in item if isinstance(key, str))
            pending.extend(item.values())
        elif isinstance(item, (list, tuple)):
            size += 2
            pending.extend(item)
        else:
            size += 8
    return size
