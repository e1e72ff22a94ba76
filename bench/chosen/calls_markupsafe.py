"""The calls of ``markupsafe`` (rank 40, tuning).

Written from MarkupSafe's documentation (the "MarkupSafe" page: ``escape``, ``escape_silent``,
``soft_str``; ``escape`` takes any object, converted to a string then escaped), each answer
computed by calling MarkupSafe itself: a ``Markup`` (a ``str`` subclass) as its text.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

SCRIPT = "<script>alert('hi & bye')</script>"


def _call(function: str, value: Any) -> str:
    return str(getattr(importlib.import_module("markupsafe"), function)(value))


TARGETS: tuple[Target, ...] = (
    Target(
        "markupsafe",
        (
            Call("escape", {"s": SCRIPT}, lambda: _call("escape", SCRIPT)),
            Call("escape", {"s": 42}, lambda: _call("escape", 42)),
            Call("escape_silent", {"s": None}, lambda: _call("escape_silent", None)),
            Call("soft_str", {"s": 3.5}, lambda: _call("soft_str", 3.5)),
            Call(
                "escape_silent",
                {"s": 'Tom & "Jerry"'},
                lambda: _call("escape_silent", 'Tom & "Jerry"'),
            ),
        ),
    ),
)
