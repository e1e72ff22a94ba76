"""A server whose dates, UUIDs, decimals and paths are imported after objmcp
(test_imports.py): objmcp finds those classes when they are used, not when it is
imported, so they must work however late they come."""

import sys

import objmcp

STANDARD = ("datetime", "uuid", "decimal", "pathlib")
BEFORE = [name for name in STANDARD if name in sys.modules]

import datetime  # noqa: E402
import decimal  # noqa: E402
import pathlib  # noqa: E402
import uuid  # noqa: E402


class Late:
    """Standard value types in both directions."""

    def loaded_before(self) -> list[str]:
        """The standard modules of these types that were loaded before the object was."""
        return BEFORE

    def shift(self, day: datetime.date, days: int) -> datetime.date:
        """The day ``days`` after ``day``."""
        return day + datetime.timedelta(days=days)

    def later(self, when: datetime.datetime, minutes: int) -> datetime.datetime:
        """The moment ``minutes`` after ``when``."""
        return when + datetime.timedelta(minutes=minutes)

    def noon(self, at: datetime.time) -> bool:
        """Whether ``at`` is after noon."""
        return at >= datetime.time(12)

    def version(self, ident: uuid.UUID) -> int | None:
        """The UUID's version, and the UUID is a real one."""
        return ident.version

    def half(self, amount: decimal.Decimal) -> decimal.Decimal:
        """Half of ``amount``, exactly."""
        return amount / 2

    def parent(self, path: pathlib.Path) -> pathlib.PurePosixPath:
        """The folder of ``path``."""
        return pathlib.PurePosixPath(path.parent)


if __name__ == "__main__":
    objmcp.start("late", Late())
