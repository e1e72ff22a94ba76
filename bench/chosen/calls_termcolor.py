"""The calls of ``termcolor`` (rank 297, third walk).

Written from termcolor's documentation (its README on PyPI, the package's long description:
"Example" with ``colored`` and ``cprint``, the RGB tuples, "Text properties" and the
``no_color``/``force_color`` of "Overrides"; ``colored``'s docstring's examples), each answer
computed by calling termcolor itself: ``colored`` gives text with ANSI escapes, ``cprint``
prints it and returns ``None``, so its answer is the printed text. Every call that colours
passes ``force_color`` (the README's override), since otherwise the answer depends on whether
the process's standard output is a terminal; an RGB colour is the list of three integers a
model sends for the README's tuple.
"""

from __future__ import annotations

import contextlib
import importlib
import io
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _termcolor() -> Any:
    return importlib.import_module("termcolor")


def _printed(*arguments: Any, **options: Any) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        _termcolor().cprint(*arguments, **options)
    return printed.getvalue()


TARGETS: tuple[Target, ...] = (
    Target(
        "termcolor",
        (
            Call(
                "colored",
                {
                    "text": "Hello, World!",
                    "color": "red",
                    "attrs": ["reverse", "blink"],
                    "force_color": True,
                },
                lambda: _termcolor().colored(
                    "Hello, World!", "red", attrs=["reverse", "blink"], force_color=True
                ),
            ),
            Call(
                "colored",
                {
                    "text": "Both foreground and background can use tuples",
                    "color": [100, 150, 250],
                    "on_color": [50, 60, 70],
                    "force_color": True,
                },
                lambda: _termcolor().colored(
                    "Both foreground and background can use tuples",
                    (100, 150, 250),
                    (50, 60, 70),
                    force_color=True,
                ),
            ),
            Call(
                "cprint",
                {
                    "text": "Hello, World!",
                    "color": "green",
                    "on_color": "on_red",
                    "force_color": True,
                },
                lambda: _printed("Hello, World!", "green", "on_red", force_color=True),
            ),
            Call(
                "cprint",
                {"text": 7, "color": "magenta", "end": " ", "force_color": True},
                lambda: _printed(7, "magenta", end=" ", force_color=True),
            ),
            Call(
                "colored",
                {"text": "Attention!", "color": "red", "attrs": ["bold"], "no_color": True},
                lambda: _termcolor().colored("Attention!", "red", attrs=["bold"], no_color=True),
            ),
        ),
    ),
)
