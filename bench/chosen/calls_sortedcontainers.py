"""The calls of ``sortedcontainers`` (rank 160, held-out).

Written from sortedcontainers' documentation (the introduction's "Sorted List" walk-through and
the ``SortedList`` API reference: ``update``, ``add``, ``bisect_left``, ``irange``, ``islice``,
``index``, ``count``), each answer computed by calling ``SortedList`` itself, in JSON's terms
(an iterator as its list). The target is one ``SortedList`` made with no arguments: the calls
fill it, then ask it; ``_filled`` replays the filling for each answer.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

VALUES = [5, 1, 3, 2]


def _filled() -> Any:
    """A ``SortedList`` after the calls that fill it: ``update`` then ``add``."""
    sorted_list = importlib.import_module("sortedcontainers").SortedList()
    sorted_list.update(VALUES)
    sorted_list.add(4)
    return sorted_list


TARGETS: tuple[Target, ...] = (
    Target(
        "sortedcontainers:SortedList",
        (
            Call("update", {"iterable": VALUES}, lambda: UNCHECKED),
            Call("add", {"value": 4}, lambda: UNCHECKED),
            Call("bisect_left", {"value": 3}, lambda: _filled().bisect_left(3)),
            Call(
                "irange",
                {"minimum": 2, "maximum": 4},
                lambda: list(_filled().irange(2, 4)),
            ),
            Call(
                "islice",
                {"start": 1, "stop": 3},
                lambda: list(_filled().islice(1, 3)),
            ),
            Call("index", {"value": 5}, lambda: _filled().index(5)),
            Call("count", {"value": 3}, lambda: _filled().count(3)),
        ),
    ),
)
