"""The calls of ``rpds-py`` (rank 68, tuning).

Written from rpds-py's documentation (its README, the project's docs: ``HashTrieMap`` is a
persistent mapping, ``insert``, ``remove``/``discard`` and ``update`` give a new map and leave
the old one unchanged; ``fromkeys`` and ``convert`` build one), each answer computed by calling
rpds itself. The served ``HashTrieMap()`` is empty and stays so (it is persistent): every call
answers from the empty map. A map in JSON's terms is its object.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``convert`` (a
mapping made a map), ``items`` and ``keys`` (views as lists), the first three not called;
``remove`` of the empty map has no answer but its error and ``values`` takes nothing.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _empty() -> Any:
    return importlib.import_module("rpds").HashTrieMap()


TARGETS: tuple[Target, ...] = (
    Target(
        "rpds:HashTrieMap",
        (
            Call(
                "insert",
                {"key": "spam", "value": 37},
                lambda: dict(_empty().insert("spam", 37)),
            ),
            Call(
                "update",
                {"maps": [{"foo": "bar", "baz": "quux"}]},
                lambda: dict(_empty().update({"foo": "bar", "baz": "quux"})),
            ),
            Call(
                "fromkeys",
                {"keys": ["a", "b", "c"], "val": 0},
                lambda: dict(_empty().fromkeys(["a", "b", "c"], 0)),
            ),
            Call("get", {"key": "spam", "default": 0}, lambda: _empty().get("spam", 0)),
            Call("discard", {"key": "foo"}, lambda: dict(_empty().discard("foo"))),
            Call(
                "convert",
                {"value": {"a": 1, "b": [2, 3]}},
                lambda: dict(_empty().convert({"a": 1, "b": [2, 3]})),
            ),
            Call("items", {}, lambda: [list(item) for item in _empty().items()]),
            Call("keys", {}, lambda: list(_empty().keys())),
        ),
    ),
)
