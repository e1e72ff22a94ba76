"""Parameters and results of standard kinds a library declares in its own way (issue 37):
subclasses of the standard classes, a union of date kinds with no ``datetime`` in it (as
babel's ``date | time | float | None``), results declared ``bytes``, and bytes parameters."""

from __future__ import annotations

import datetime
import decimal
import fractions
import uuid


class Stamp(datetime.datetime):
    """A date-time of a library's own class."""


class Day(datetime.date):
    """A date of a library's own class."""


class Amount(decimal.Decimal):
    """A decimal of a library's own class."""


class Ratio(fractions.Fraction):
    """A fraction of a library's own class."""


class Key(uuid.UUID):
    """A UUID of a library's own class."""


class Name(str):
    """A string of a library's own class."""


class Count(int):
    """An integer of a library's own class."""


class Port(int):
    """A port number: an integer its class checks."""

    def __new__(cls, number: int) -> Port:
        if not 0 < number < 65536:
            raise ValueError(f"{number} is no port number (1 to 65535)")
        return super().__new__(cls, number)


class Kinds:
    """Tools whose parameters and results are standard kinds in a library's own dress."""

    def classes(
        self,
        stamp: Stamp,
        day: Day,
        amount: Amount,
        ratio: Ratio,
        key: Key,
        name: Name,
        count: Count,
    ) -> dict[str, str]:
        """The class and value each argument came as."""
        given = {"stamp": stamp, "day": day, "amount": amount, "ratio": ratio, "key": key}
        given |= {"name": name, "count": count}
        return {where: f"{type(value).__name__} {value}" for where, value in given.items()}

    def connect(self, port: Port) -> str:
        """The port a connection would use."""
        return f"{type(port).__name__} {port}"

    def instant(self, moment: datetime.date | datetime.time | float | None = None) -> str:
        """The class and value of an instant given as a date, a time or a timestamp."""
        return f"{type(moment).__name__} {moment}"

    def raw(self, hex_digits: str) -> bytes:
        """The bytes the hexadecimal digits spell."""
        return bytes.fromhex(hex_digits)

    def raw_or_none(self, hex_digits: str | None = None) -> bytes | None:
        """The bytes the hexadecimal digits spell, if any are given."""
        return None if hex_digits is None else bytes.fromhex(hex_digits)

    def raws(self, named: dict[str, str]) -> dict[str, bytes]:
        """The bytes each name's hexadecimal digits spell."""
        return {name: bytes.fromhex(digits) for name, digits in named.items()}

    def spell(
        self, data: bytes, pieces: list[bytearray] | None = None, either: str | bytes = ""
    ) -> dict[str, object]:
        """The hexadecimal digits of ``data`` and of each piece, and ``either``'s class and
        value."""
        spelled = [piece.hex() for piece in pieces or []]
        return {
            "data": data.hex(),
            "pieces": spelled,
            "either": f"{type(either).__name__} {either!r}",
        }

    def ping(self) -> str:
        """An answer at once."""
        return "pong"
