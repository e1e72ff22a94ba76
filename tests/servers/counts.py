"""A library's own number classes, registered with the :mod:`numbers` ABCs as sympy's
``Integer`` and ``Float`` and numpy's scalars are (issue 37: sympy's ``convolution(...,
cycle=3)``, whose ``cycle`` its docstring types ``Integer``): a parameter of one takes a JSON
number, made into the class, or passed as it is where the class refuses it."""

from __future__ import annotations

import numbers


class Whole:
    """A whole number of the library's own."""

    def __init__(self, value):  # type: ignore[no-untyped-def]
        if int(value) != value:
            raise ValueError(f"{value} is not whole")
        self.value = int(value)

    def __int__(self) -> int:
        return self.value

    def __index__(self) -> int:
        return self.value


class Measure:
    """A real number of the library's own."""

    def __init__(self, value):  # type: ignore[no-untyped-def]
        self.value = float(value)

    def __float__(self) -> float:
        return self.value


class Tally:
    """A whole number that counts up from nothing: made from no number, so a plain number
    is what a caller gives for one."""

    def __init__(self) -> None:
        self.count = 0


numbers.Integral.register(Whole)
numbers.Real.register(Measure)
numbers.Integral.register(Tally)


def _kind(value: object) -> str:
    return type(value).__name__


class Counts:
    """Arithmetic on the library's own numbers."""

    def repeat(self, word: str, times: Whole) -> str:
        """The word ``times`` times over (a ``Whole``, or a plain int)."""
        return word * int(times)  # type: ignore[call-overload]

    def scaled(self, amount: Measure, factor=None):  # type: ignore[no-untyped-def]
        """The amount times a factor, and the kinds of both.

        Parameters
        ----------
        amount : Measure
            What to scale.
        factor : Measure, optional
            By how much (1 when not given).
        """
        by = 1.0 if factor is None else float(factor)
        return {"value": float(amount) * by, "kinds": [_kind(amount), _kind(factor)]}

    def cycled(self, items: list[int], cycle=0):  # type: ignore[no-untyped-def]
        """The items, wrapped around to ``cycle`` places and summed where they meet.

        Parameters
        ----------
        items : list of int
            The items.
        cycle : Whole
            The length to wrap at; 0 for none.
        """
        if not cycle:
            return items
        wrapped = [0] * int(cycle)
        for index, item in enumerate(items):
            wrapped[index % int(cycle)] += item
        return wrapped

    def started(self, start: Tally) -> str:
        """What the start was given as."""
        return _kind(start)
