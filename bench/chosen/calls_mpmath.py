"""The calls of ``mpmath`` (rank 263, tuning, second walk).

Written from mpmath's documentation (mpmath.org/doc/current: "Basic usage" for ``mpf``;
"Mathematical functions": ``sqrt`` under "Powers and logarithms", ``gamma`` and ``binomial``
under "Factorials and gamma functions", ``zeta`` under "Zeta functions and L-series",
``polyroots`` under "Polynomials"; "Matrices" for ``det``; "Number identification" for
``identify``, with its docstring's example ``identify(0.22222222222222222)``), each answer
computed by calling mpmath itself at its default precision (53 bits, 15 digits; no call changes
``mp.dps``). An ``mpf`` is a ``numbers.Real`` that a float holds exactly at that precision, so
its answer is the JSON number (``float``) of the same value; a list of them as a list of
numbers. A matrix is sent as a list of rows, as a model sends it.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _mpmath() -> Any:
    return importlib.import_module("mpmath")


def _number(function: str, *arguments: Any) -> float:
    return float(getattr(_mpmath(), function)(*arguments))


TARGETS: tuple[Target, ...] = (
    Target(
        "mpmath",
        (
            Call("sqrt", {"x": 2}, lambda: _number("sqrt", 2)),
            Call("gamma", {"x": 5.5}, lambda: _number("gamma", 5.5)),
            Call("binomial", {"n": 10, "k": 3}, lambda: _number("binomial", 10, 3)),
            Call("zeta", {"s": 2}, lambda: _number("zeta", 2)),
            Call(
                "polyroots",
                {"coeffs": [1, -3, 2]},
                lambda: [float(root) for root in _mpmath().polyroots([1, -3, 2])],
            ),
            Call("det", {"A": [[1, 2], [3, 4]]}, lambda: _number("det", [[1, 2], [3, 4]])),
            Call(
                "identify",
                {"x": 0.22222222222222222},
                lambda: _mpmath().identify(0.22222222222222222),
            ),
            Call("mpf", {"val": "1.25"}, lambda: _number("mpf", "1.25")),
        ),
    ),
)
