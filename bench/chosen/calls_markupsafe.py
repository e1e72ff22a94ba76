"""The calls of ``markupsafe`` (rank 40, tuning).

Written from MarkupSafe's documentation (the "MarkupSafe" page: ``escape``, ``escape_silent``,
``soft_str``; ``escape`` takes any object, converted to a string then escaped), each answer
computed by calling MarkupSafe itself: a ``Markup`` (a ``str`` subclass) as its text.

More calls (issue 37), taken by the rule of the README's "More tuning calls": the module's
functions are all called; of its classes, ``EscapeFormatter`` takes a function (no JSON form),
so the calls are to the constructor ``Markup`` (a markup string made from any object), as its
text.
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
            Call("Markup", {"object": "<em>Hello</em>"}, lambda: _call("Markup", "<em>Hello</em>")),
            Call("Markup", {"object": 3.5}, lambda: _call("Markup", 3.5)),
            Call("Markup", {"object": 42}, lambda: _call("Markup", 42)),
        ),
    ),
)
