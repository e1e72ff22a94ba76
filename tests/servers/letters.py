"""Functions typed by abstract iterables, which a string is too (issue 37: more_itertools'
``all_unique('ABCB')``): a model may send a string where the items may be strings, and the
function gets the string itself."""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Reversible, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Ordered(Protocol):
    """What ``sorted`` needs of an item: a ``<``."""

    def __lt__(self, other: object, /) -> bool: ...


Ord = TypeVar("Ord", bound=Ordered)


class Letters:
    """Questions about sequences of items, letters included."""

    def distinct(self, iterable: Iterable[T]) -> bool:
        """Whether no item comes twice."""
        items = list(iterable)
        return len(set(items)) == len(items)

    def ends(self, sequence: Sequence[str]) -> list[str]:
        """The first and the last item."""
        return [sequence[0], sequence[-1]]

    def backwards(self, items: Reversible[Hashable]) -> list[Hashable]:
        """The items last first."""
        return list(reversed(items))

    def shared(self, *groups: Collection[T]) -> list[T]:
        """The items every group has, in the first group's order."""
        first, *rest = groups
        return [item for item in first if all(item in group for group in rest)]

    def ordered(self, items: Iterable[Ord]) -> list[Ord]:
        """The items in order."""
        return sorted(items)

    def total(self, numbers: Iterable[int]) -> int:
        """The sum of whole numbers (a string is no iterable of them)."""
        return sum(numbers)

    def kept(self, items: list[str]) -> list[str]:
        """The items as they are (a string is no list)."""
        return list(items)

    def counted(self, items):  # type: ignore[no-untyped-def]
        """How many items there are.

        Parameters
        ----------
        items : iterable
            The items.
        """
        return len(list(items))
