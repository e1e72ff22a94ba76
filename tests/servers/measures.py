"""Numbers JSON cannot write: tools whose answers are NaN or an infinity (a float, a list
of them, a dataclass field, an exact decimal), and tools that take a float and an
integer back. Served by ``objmcp run tests/servers/measures.py:Measures``."""

from __future__ import annotations

import dataclasses
import decimal
import math


@dataclasses.dataclass
class Interval:
    """The smallest and largest of some numbers (an empty interval runs from +inf to -inf)."""

    low: float
    high: float


class Measures:
    """Measures that answer NaN or an infinity where the numbers call for one."""

    def reciprocal(self, x: float) -> float:
        """One over ``x``: an infinity of ``x``'s sign at zero."""
        if x == 0:
            return math.copysign(math.inf, x)
        return 1 / x

    def mean(self, values: list[float]) -> float:
        """The mean of ``values``: NaN when there are none."""
        return math.fsum(values) / len(values) if values else math.nan

    def ratios(self, values: list[float], by: float) -> list[float]:
        """Each of ``values`` over ``by`` (0/0 is NaN, x/0 an infinity)."""
        return [_ratio(value, by) for value in values]

    def interval(self, values: list[float]) -> Interval:
        """The smallest and largest of ``values``."""
        return Interval(min(values, default=math.inf), max(values, default=-math.inf))

    def exact(self, text: str) -> decimal.Decimal:
        """``text`` read as an exact decimal ("Infinity" and "NaN" too)."""
        return decimal.Decimal(text)

    def same(self, x: float) -> float:
        """``x`` itself."""
        return x

    def sign(self, x: float) -> int:
        """-1, 0 or 1 as ``x`` is below, at or above zero (0 for NaN)."""
        return (x > 0) - (x < 0)

    def count(self, n: int) -> list[int]:
        """The whole numbers below ``n``."""
        return list(range(n))


def _ratio(value: float, by: float) -> float:
    if by:
        return value / by
    if value == 0 or math.isnan(value):
        return math.nan
    return math.copysign(math.inf, value) * math.copysign(1, by)
