"""Real numbers that are not ``float``, sent so that nothing of them is lost.

A ``numbers.Real`` of another kind (``decimal.Decimal``, ``fractions.Fraction``,
``mpmath.mpf``, ``sympy.Float`` and ``sympy.Rational``, numpy's scalars) is a JSON number
when that number is exactly the value, and its full text otherwise:

- an integral kind (``numpy.int64``, ``sympy.Integer``) is its ``int``;
- an exact decimal or rational kind (``Decimal``, any ``numbers.Rational``) within a
  double's range is its ``int`` when it is whole, else the shortest JSON number that
  means it: a double that is exactly the value (``Fraction(3, 4)`` is ``0.75``), or whose
  digits are (``Decimal("0.1")`` is ``0.1``); else its exact text (``Decimal``'s ``str``,
  a fraction's ``"n/d"``);
- a binary floating kind (``mpf``, ``sympy.Float``, ``numpy.longdouble``) is a JSON number
  when a double holds it exactly (``float(x) == x``), else its own text (``str``, which
  these kinds write at their precision).

An object of no numeric kind that still says it is a number by Python's protocols
(:func:`said_number`: ``__index__``, or ``__float__``) and whose own text is that number
(a library's scalar: ``str`` gives ``"1"``, ``__index__`` gives ``1``) is that JSON number.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from ..describe import hints as t

__all__ = ["NotFinite", "is_real", "real_form", "said_number"]


class NotFinite(TypeError):
    """A real number that is NaN or infinite: no JSON number holds it. ``number`` is the
    float it is (NaN or an infinity), or None when its kind will not say which."""

    def __init__(self, value: object, number: float | None) -> None:
        super().__init__(f"{value!r} is not a JSON number")
        self.number = number


def is_real(value: object) -> bool:
    """Whether ``value`` is a real number :func:`real_form` sends: a ``numbers.Real`` or a
    ``Decimal`` (which is no ``numbers.Real``)."""
    decimal = t.loaded_module("decimal")
    return isinstance(value, numbers.Real) or (
        decimal is not None and isinstance(value, decimal.Decimal)
    )


def real_form(value: object, *, by_digits: bool = False) -> int | float | str:
    """The JSON form of a real number of a kind other than ``float``; raises
    :class:`NotFinite` for NaN and the infinities. ``by_digits``: a ``Decimal`` or a
    rational is a JSON number only when the number's digits are its value (an argument is
    read back by its digits: ``Fraction(1, 2**24)``, exact as a double, is sent as text)."""
    if isinstance(value, numbers.Integral):
        return int(value)
    decimal = t.loaded_module("decimal")
    exact_kind = isinstance(value, numbers.Rational) or (
        decimal is not None and isinstance(value, decimal.Decimal)
    )
    said: float | None = None  # the float the value says it is, when it says one
    try:
        near = said = float(value)  # type: ignore[arg-type]
    except (OverflowError, ValueError, TypeError):
        near = math.nan
    if exact_kind:
        if decimal is not None and isinstance(value, decimal.Decimal) and not value.is_finite():
            raise NotFinite(value, math.nan if value.is_nan() else said)
        if math.isfinite(near):
            if _integral(value):
                whole: Any = value
                return int(whole)
            if (near == value and not by_digits) or _text_is(value, repr(near)):
                return near
        if isinstance(value, numbers.Rational):
            return f"{value.numerator}/{value.denominator}"
        return str(value)
    if math.isfinite(near) and near == value:
        return near
    if not _finite(value, near):
        raise NotFinite(value, said)
    return str(value)


def said_number(value: object) -> int | float | None:
    """The number an object of no numeric kind says it is, when nothing of it is lost:
    its ``__index__`` (Python's "losslessly an integer") or its finite ``__float__``,
    provided its own text (``str``) writes that very number, digit for digit; None
    otherwise (no such protocol, a text that says more, or a protocol that fails)."""
    kind: Any = type(value)
    try:
        if hasattr(kind, "__index__"):
            whole = int(kind.__index__(value))
            return whole if str(value).strip() == str(whole) else None
        if hasattr(kind, "__float__"):
            near = float(kind.__float__(value))
            return near if math.isfinite(near) and _same_digits(str(value), near) else None
    except Exception:  # a protocol that fails, or a text that is no number: no number said
        return None
    return None


def _same_digits(text: str, near: float) -> bool:
    """Whether the decimal ``text`` says the number the double ``near`` writes, digit for
    digit (``"0.50"`` is ``0.5``; ``"1.2345678901234567890"``, which a double rounds, is
    not its ``1.2345678901234567``)."""
    import decimal  # only a number that writes more than a double needs it

    return decimal.Decimal(text.strip()) == decimal.Decimal(repr(near))


def _integral(value: object) -> bool:
    """Whether a rational or a ``Decimal`` is a whole number."""
    if isinstance(value, numbers.Rational):
        return value.denominator == 1
    number: Any = value
    return bool(number == number.to_integral_value())


def _text_is(value: object, text: str) -> bool:
    """Whether the decimal ``text`` (a double's, so short) is exactly ``value``, a
    ``Decimal`` or a rational: compared in the value's own kind, whatever its size."""
    if isinstance(value, numbers.Rational):
        import fractions  # only a rational result needs it

        return fractions.Fraction(text) == value
    decimal = t.loaded_module("decimal")
    return bool(decimal.Decimal(text) == value)


def _finite(value: object, near: float) -> bool:
    """Whether ``value``, whose nearest double is ``near``, is neither NaN nor infinite
    (a double overflows where ``mpf("1e400")`` does not)."""
    if not math.isinf(near):
        return not math.isnan(near)
    number: Any = value
    try:
        return bool(number * 2 != number)  # only an infinity is its own double
    except Exception:  # a kind whose arithmetic fails: its text is sent
        return True
