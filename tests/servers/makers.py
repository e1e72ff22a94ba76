"""A module served whole whose classes make values, with an ``__all__`` that leaves out some
of what it defines (issue 37). For tests/model/test_module_classes.py.

Served: what ``__all__`` lists (``shout``, ``Point``, ``Colour``, and ``dedent``, which it
imports), and, as PEP 8 reads a module, the public functions and classes it defines itself
(``whisper``, ``Money``, ``Tag``). Left out: ``join`` (imported, not listed), ``_helper``
(private), ``Opaque`` (its instances have no form to answer with), ``Shape`` (abstract),
``Drawable`` (a protocol), ``Refused`` (an exception), ``Hook`` (JSON cannot carry a
function); ``Journal`` (holds something open, to be closed) is withheld unless named.
"""

from __future__ import annotations

import abc
import dataclasses
import enum
from collections.abc import Callable
from os.path import join
from textwrap import dedent
from typing import Protocol

__all__ = ["Colour", "Point", "dedent", "shout"]

assert join  # imported for what it shows: a name a module imports is not its interface


def shout(word: str) -> str:
    """``word`` in capitals."""
    return word.upper()


def whisper(word: str) -> str:
    """``word`` in small letters (defined here, though ``__all__`` leaves it out)."""
    return word.lower()


def _helper() -> None:
    """Private: never served."""


@dataclasses.dataclass
class Point:
    """A point of the plane."""

    x: float
    y: float


class Colour(enum.IntEnum):
    """A colour, by its number."""

    RED = 1
    GREEN = 2


class Money:
    """An amount in a currency, written as ``12 EUR``."""

    def __init__(self, amount: int, currency: str = "EUR") -> None:
        self._amount, self._currency = amount, currency

    def __repr__(self) -> str:
        return f"{self._amount} {self._currency}"


class Tag:
    """A label, with its name as a public attribute."""

    def __init__(self, name: str) -> None:
        self.name = name


class Opaque:
    """Nothing to show: no text of its own, no public attribute."""

    def __init__(self, seed: int) -> None:
        self._seed = seed


class Shape(abc.ABC):
    """Abstract: only its subclasses are made."""

    def __init__(self, name: str) -> None:
        self.name = name

    @abc.abstractmethod
    def area(self) -> float:
        """Its area."""


class Drawable(Protocol):
    """A protocol: a type for checkers, not a class to make."""

    name: str

    def draw(self) -> str:
        """Draw it."""
        ...


class Refused(Exception):
    """An exception: raised, not made."""


class Hook:
    """Made from a function, which JSON cannot carry."""

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback


class Journal:
    """Holds a journal open until it is closed (here, only in name)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def close(self) -> None:
        """Close it."""
