"""Tools a search brought up, listed for one session: progressive discovery's second half.

In search mode ``tools/list`` gives the meta-tools; the tools a session's searches
find (or its descriptions name) join that session's list, so that a client that
refreshes its list on ``notifications/tools/list_changed`` gets first-class tools with
their full schemas. :class:`Surfaced` keeps them, at most ``bound``, the least
recently found or called dropped first.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["DEFAULT_SURFACED", "Surfaced"]

DEFAULT_SURFACED = 32
"""How many found tools a session lists at most, besides the meta-tools."""


class Surfaced:
    """The tools found for one session, least recently used first."""

    def __init__(self, bound: int = DEFAULT_SURFACED) -> None:
        if bound < 0:
            raise ValueError(f"max_surfaced cannot be negative, not {bound}")
        self.bound = bound
        self._names: dict[str, None] = {}

    @property
    def names(self) -> list[str]:
        """The tools listed, in the order they were first found."""
        return list(self._names)

    def add(self, names: Iterable[str]) -> bool:
        """Make ``names`` the most recently used (the first of them last dropped); returns
        whether the set of tools listed changed."""
        before = set(self._names)
        for name in reversed(list(dict.fromkeys(names))):
            self._names.pop(name, None)
            self._names[name] = None
        while len(self._names) > self.bound:
            del self._names[next(iter(self._names))]
        return set(self._names) != before

    def touch(self, name: str) -> None:
        """A listed tool was called: it is the most recently used."""
        if name in self._names:
            self._names.pop(name)
            self._names[name] = None

    def keep(self, known: Iterable[str]) -> None:
        """Forget the tools no longer published."""
        kept = set(known)
        self._names = {name: None for name in self._names if name in kept}
