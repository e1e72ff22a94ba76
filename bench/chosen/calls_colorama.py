"""The calls of ``colorama`` (rank 81, held-out).

Written from colorama's documentation (the README's "Usage" section: ANSI sequences, clearing
the screen and the line, the window title, ``code_to_chars``), each answer computed by calling
``colorama.ansi`` itself: the escape sequences as their text.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _ansi() -> Any:
    return importlib.import_module("colorama.ansi")


TARGETS: tuple[Target, ...] = (
    Target(
        "colorama.ansi",
        (
            Call("code_to_chars", {"code": 31}, lambda: _ansi().code_to_chars(31)),
            Call("clear_screen", {"mode": 2}, lambda: _ansi().clear_screen(2)),
            Call("clear_line", {"mode": 0}, lambda: _ansi().clear_line(0)),
            Call("set_title", {"title": "Build log"}, lambda: _ansi().set_title("Build log")),
        ),
    ),
)
