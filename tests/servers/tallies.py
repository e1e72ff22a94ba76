"""Tools written the way data libraries write theirs (issue 37): numpydoc types that say
"Array-like or scalar-like" of values that may be strings, and results holding the
library's own scalar objects, which say they are numbers by Python's protocols only
(``__index__``, ``__float__``) and print as that number, or a mapping's keys."""

from __future__ import annotations


class Whole:
    """A library's integer scalar: no ``int``, an integer by ``__index__``."""

    def __init__(self, value: int) -> None:
        self._value = value

    def __index__(self) -> int:
        return self._value

    def __str__(self) -> str:
        return str(self._value)


class Real:
    """A library's floating scalar: no ``float``, a number by ``__float__``."""

    def __init__(self, value: float) -> None:
        self._value = value

    def __float__(self) -> float:
        return self._value

    def __str__(self) -> str:
        return repr(self._value)


class Style:
    """A library's formatter object: a class of its own that JSON cannot carry."""

    def __init__(self, brackets: str) -> None:
        self.brackets = brackets


class Tallies:
    """Counting and membership over arrays of any values, the way data libraries type them."""

    def is_in(self, values, value_set):  # type: ignore[no-untyped-def]
        """Whether each value is one of a set of values.

        Parameters
        ----------
        values : Array-like or scalar-like
            The values to look up.
        value_set : Array
            The values to look for.
        """
        items = values if isinstance(values, list) else [values]
        return [item in value_set for item in items]

    def value_counts(self, array):  # type: ignore[no-untyped-def]
        """How many times each distinct value occurs.

        Parameters
        ----------
        array : array_like
            The values to count.
        """
        return {str(value): Whole(array.count(value)) for value in dict.fromkeys(array)}

    def distinct(self, array):  # type: ignore[no-untyped-def]
        """The distinct values, in the order they first occur (a mapping's keys).

        Parameters
        ----------
        array : array_like
            The values.
        """
        return dict.fromkeys(array).keys()

    def mean(self, array):  # type: ignore[no-untyped-def]
        """The mean of numbers and the extremes, as the library's scalars.

        Parameters
        ----------
        array : array_like, real-valued
            The numbers.
        """
        return {
            "min": Whole(min(array)),
            "max": Whole(max(array)),
            "mean": Real(sum(array) / len(array)),
        }

    def repeat(self, text, times=None):  # type: ignore[no-untyped-def]
        """A text repeated, its parameters' types and texts on one line as tqdm writes them.

        Parameters
        ----------
        text  : str. The text to repeat.
        times  : int, optional. How many times to repeat it
            (default: twice).
        """
        return text * (2 if times is None else times)

    def bracketed(self, text: str, style: Style | str = "[]") -> str:
        """A text in brackets, given as a ``Style`` object or, from JSON, as a string."""
        brackets = style.brackets if isinstance(style, Style) else style
        return f"{brackets[0]}{text}{brackets[-1]}"
