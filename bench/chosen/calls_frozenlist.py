"""The calls of ``frozenlist`` (rank 65, held-out).

Written from frozenlist's documentation (its README / API page: ``FrozenList(items=None)``, a
mutable sequence until ``freeze()``; ``append``, ``extend``, ``insert``, ``index``, ``count``,
the ``frozen`` property), each answer computed by calling frozenlist itself. The calls are made
in order on one served instance: the changing ones give ``None`` (``UNCHECKED``), the later
ones read it.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]


def _filled() -> Any:
    """The instance after the changing calls below."""
    items = importlib.import_module("frozenlist").FrozenList()
    items.extend([3, 1, 2])
    items.append(2)
    items.insert(0, 7)
    items.freeze()
    return items


TARGETS: tuple[Target, ...] = (
    Target(
        "frozenlist:FrozenList",
        (
            Call("extend", {"values": [3, 1, 2]}, lambda: UNCHECKED),
            Call("append", {"value": 2}, lambda: UNCHECKED),
            Call("insert", {"pos": 0, "item": 7}, lambda: UNCHECKED),
            Call("freeze", {}, lambda: UNCHECKED),
            Call("index", {"value": 2}, lambda: _filled().index(2)),
            Call("count", {"value": 2}, lambda: _filled().count(2)),
        ),
    ),
)
