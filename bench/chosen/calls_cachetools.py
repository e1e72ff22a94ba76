"""The calls of ``cachetools`` (rank 108, held-out).

Written from cachetools' documentation (its one page: the cache classes, whose
``getsizeof(value)`` "returns the size of a cache element's value", 1 unless overridden; "Key
functions": ``cachetools.keys.hashkey(*args, **kwargs)`` and ``methodkey``), each answer
computed by calling cachetools itself; a key (a tuple) as its list.

The walk's target ``cachetools:LRUCache`` needs its ``maxsize`` to be made, so objmcp serves
only its static ``getsizeof``; the cache's mapping methods, the documented use, are out of a
model's reach there. ``cachetools.keys`` is a target beyond the walk's, the library's
functions a caller calls with values.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]


def _m(name: str) -> Any:
    return importlib.import_module(name)


TARGETS: tuple[Target, ...] = (
    Target(
        "cachetools:LRUCache",
        (
            Call(
                "getsizeof",
                {"value": "hello"},
                lambda: _m("cachetools").LRUCache.getsizeof("hello"),
            ),
            Call(
                "getsizeof",
                {"value": [1, 2, 3]},
                lambda: _m("cachetools").LRUCache.getsizeof([1, 2, 3]),
            ),
        ),
    ),
    Target(
        "cachetools.keys",
        (
            Call(
                "hashkey",
                {"args": ["user", 42]},
                lambda: expected_json(tuple(_m("cachetools.keys").hashkey("user", 42))),
            ),
            Call(
                "methodkey",
                {"self": None, "args": [1, 2.5]},
                lambda: expected_json(tuple(_m("cachetools.keys").methodkey(None, 1, 2.5))),
            ),
        ),
    ),
)
