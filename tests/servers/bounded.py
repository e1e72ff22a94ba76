"""A server for the argument bounds of issue 36 (test_argument_bounds.py): an async tool
whose records are converted by code that waits for another call, and tools that take
lists, which clients may send as JSON text."""

from __future__ import annotations

import threading
from dataclasses import dataclass

PINGED = threading.Event()
"""Set by ``ping``: a record named ``wait`` is converted only after it (or after
``PATIENCE``), so a conversion on the event loop would hold ``ping`` back."""
PATIENCE = 10.0


@dataclass
class Record:
    """A named thing."""

    name: str

    def __post_init__(self) -> None:
        if self.name == "wait":
            PINGED.wait(PATIENCE)


class Bounded:
    """Tools whose arguments are large."""

    async def count(self, records: list[Record]) -> str:
        """How many records there are, and whether ``ping`` came before they were read."""
        return f"{len(records)} records, pinged first: {PINGED.is_set()}"

    async def ping(self) -> str:
        """Answer at once."""
        PINGED.set()
        return "pong"

    def total(self, numbers: list[int]) -> int:
        """The sum of ``numbers``."""
        return sum(numbers)

    def cells(self, rows: list[list[str]]) -> int:
        """How many strings ``rows`` holds."""
        return sum(len(row) for row in rows)

    def pair(self, left: list[int], right: list[int]) -> int:
        """How many numbers the two lists hold."""
        return len(left) + len(right)

    async def atotal(self, numbers: list[int]) -> int:
        """The sum of ``numbers``, from an async tool."""
        return sum(numbers)
