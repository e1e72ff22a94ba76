"""The calls of ``orjson`` (rank 194, tuning).

Written from orjson's documentation (its README: ``dumps`` with and without ``option`` flags,
``loads``), each answer computed by calling orjson itself, in JSON's terms (the ``bytes``
``dumps`` gives as their UTF-8 text). An ``option`` is the integer the README's flags are
(``OPT_INDENT_2 | OPT_SORT_KEYS``), as a model sends it.

More calls (issue 37), taken by the rule of the README's "More tuning calls": its classes are
exceptions and ``Fragment`` (whose text is its address), so the rule takes three more calls of
the README's ``dumps`` (``OPT_SORT_KEYS``; ``OPT_INDENT_2 | OPT_APPEND_NEWLINE``) and ``loads``.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

RECORD = {"name": "Ada", "tags": ["math", "code"], "born": 1815, "active": True}


def _orjson() -> Any:
    return importlib.import_module("orjson")


def _dumps(value: Any, option: int | None = None) -> str:
    text: bytes = _orjson().dumps(value, option=option)
    return text.decode("utf-8")


def _flags(*names: str) -> int:
    value = 0
    for name in names:
        value |= getattr(_orjson(), name)
    return value


TARGETS: tuple[Target, ...] = (
    Target(
        "orjson",
        (
            Call("dumps", {"obj": RECORD}, lambda: _dumps(RECORD)),
            Call(
                "dumps",
                {"obj": {"b": 1, "a": [1, 2.5, None]}, "option": 33},
                lambda: _dumps(
                    {"b": 1, "a": [1, 2.5, None]}, _flags("OPT_INDENT_2", "OPT_SORT_KEYS")
                ),
            ),
            Call(
                "loads",
                {"obj": '{"id": 7, "values": [1.5, 2, null], "ok": false}'},
                lambda: _orjson().loads('{"id": 7, "values": [1.5, 2, null], "ok": false}'),
            ),
            Call(
                "dumps",
                {"obj": [1, "two", 3.0, None], "option": 1024},
                lambda: _dumps([1, "two", 3.0, None], _flags("OPT_APPEND_NEWLINE")),
            ),
            Call(
                "dumps",
                {"obj": {"b": [3, 2, 1], "a": {"z": 1, "y": 2}}, "option": 32},
                lambda: _dumps({"b": [3, 2, 1], "a": {"z": 1, "y": 2}}, _flags("OPT_SORT_KEYS")),
            ),
            Call(
                "dumps",
                {"obj": {"ok": True, "n": [1.5, -2]}, "option": 1025},
                lambda: _dumps(
                    {"ok": True, "n": [1.5, -2]}, _flags("OPT_INDENT_2", "OPT_APPEND_NEWLINE")
                ),
            ),
            Call(
                "loads",
                {"obj": '[1, 2.5, {"k": null, "s": "\\u00e9"}]'},
                lambda: _orjson().loads('[1, 2.5, {"k": null, "s": "\\u00e9"}]'),
            ),
        ),
    ),
)
