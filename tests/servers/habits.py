"""A module served whole, with three habits of libraries nobody wrote for objmcp: functions
that print their answer and return None, results that are decimals and fractions, and a
class used as a function (its instances are iterators). For tests/serving/test_habits.py.
"""

from __future__ import annotations

import asyncio
import threading
from decimal import Decimal
from fractions import Fraction

RELEASED = threading.Event()


def shout(word: str) -> None:
    """Print ``word`` in capitals, and return nothing."""
    print(word.upper())


def shout_and_say(word: str) -> str:
    """Print some noise, and return ``word``: the return value is the answer."""
    print("noise")
    return word


def shout_beside_a_helper(word: str) -> None:
    """Print ``word`` while a thread of the call's own prints something else."""
    helper = threading.Thread(target=print, args=("from the helper thread",))
    helper.start()
    helper.join()
    print(word)


def hold(word: str) -> None:
    """Print ``word``, wait until :func:`release` runs (another call), print it again."""
    print(word)
    RELEASED.wait(60)
    print(word)


async def release(word: str) -> None:
    """Print ``word`` (an async tool, on the event loop) and let :func:`hold` go on."""
    await asyncio.sleep(0)
    print(word, end="")
    RELEASED.set()


def measures() -> list[object]:
    """Decimals and fractions: numbers where a double is exactly their text, else text."""
    return [
        Decimal("0.1"),
        Decimal("2.5"),
        Decimal("3.14159265358979323846264338327950288"),
        Fraction(3, 4),
        Fraction(1, 3),
    ]


class countdown:  # noqa: N801 (a class used as a function, named as one, as itertools' are)
    """Count down from ``start`` to 1."""

    def __init__(self, start: int) -> None:
        self.left = start

    def __iter__(self) -> countdown:
        return self

    def __next__(self) -> int:
        if self.left <= 0:
            raise StopIteration
        self.left -= 1
        return self.left + 1


class Ledger:
    """A service whose instances iterate over their entries but have methods of their own:
    not a class used as a function, so not a tool."""

    def __init__(self) -> None:
        self.entries: list[str] = []

    def __iter__(self) -> Ledger:
        return self

    def __next__(self) -> str:
        raise StopIteration

    def add(self, entry: str) -> None:
        """Add an entry."""
        self.entries.append(entry)
