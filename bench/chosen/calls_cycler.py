"""The calls of ``cycler`` (rank 211, tuning, second walk).

Written from cycler's documentation (the "Composable cycles" page, matplotlib.org/cycler: "The
public API of cycler consists of a class ``Cycler``, a factory function ``cycler()``, and a
concatenation function ``concat()``"; ``cycler(color=['r', 'g', 'b'])``, the
``cycler(label, itr)`` form of its docstring, and ``concat``'s page), each answer computed by
calling cycler itself. A ``Cycler`` has no JSON form: it is said as its text, which the docs show
as its display (``cycler('color', ['r', 'g', 'b'])``; ``str`` and ``repr`` agree).

The target is the walk's, the module ``cycler``. ``cycler`` takes ``*args, **kwargs``: the
calls send them by their own names, ``args`` (the documented ``(label, itr)`` pair) and
``kwargs`` (the keyword form, several keys zipped). ``concat`` takes two ``Cycler`` s; a model
sends each as what a cycler is, its list of dicts, which ``Cycler``'s constructor takes as
``left``; the ``Cycler`` class is called so too.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

COLORS = ["r", "g", "b"]
STYLES = ["-", "--", "-."]
NUMBERS = [{"a": 0}, {"a": 1}, {"a": 2}]
LETTERS = [{"a": "x"}, {"a": "y"}]
TWO_COLORS = [{"color": "r"}, {"color": "g"}]


def _cycler() -> Any:
    return importlib.import_module("cycler")


TARGETS: tuple[Target, ...] = (
    Target(
        "cycler",
        (
            Call(
                "cycler",
                {"args": ["color", COLORS]},
                lambda: str(_cycler().cycler("color", COLORS)),
            ),
            Call(
                "cycler",
                {"kwargs": {"color": COLORS, "linestyle": STYLES}},
                lambda: str(_cycler().cycler(color=COLORS, linestyle=STYLES)),
            ),
            Call(
                "cycler",
                {"args": ["lw", [1, 2.5, 4]]},
                lambda: str(_cycler().cycler("lw", [1, 2.5, 4])),
            ),
            Call(
                "concat",
                {"left": NUMBERS, "right": LETTERS},
                lambda: str(_cycler().concat(_cycler().Cycler(NUMBERS), _cycler().Cycler(LETTERS))),
            ),
            Call(
                "Cycler",
                {"left": TWO_COLORS},
                lambda: str(_cycler().Cycler(TWO_COLORS)),
            ),
        ),
    ),
)
