"""A ledger kept in an in-memory SQLite database: an object bound to the thread that made it.

``sqlite3`` refuses a connection used on another thread than the one that opened it, so this
serves well only with ``concurrency="serial"`` and the ledger made on the serial thread: as a
class (``objmcp run ledger.py:Ledger --concurrency serial``, or running this file), or by a
factory (``ledger.py:open_ledger()``).
"""

from __future__ import annotations

import sqlite3
import threading

import objmcp


class Ledger:
    """Entries of money in and out, summed by SQL."""

    def __init__(self) -> None:
        self.connection = sqlite3.connect(":memory:")
        self.connection.execute("create table entries (item text not null, amount real not null)")
        self.made_on = threading.current_thread().name

    def record(self, item: str, amount: float) -> int:
        """Record ``amount`` for ``item``; answer how many entries there are now."""
        with self.connection:
            self.connection.execute("insert into entries values (?, ?)", (item, amount))
        (count,) = self.connection.execute("select count(*) from entries").fetchone()
        return int(count)

    def balance(self) -> float:
        """The sum of every entry's amount."""
        query = "select coalesce(sum(amount), 0) from entries"
        (total,) = self.connection.execute(query).fetchone()
        return float(total)

    def by_item(self) -> dict[str, float]:
        """Each item's total, by item."""
        rows = self.connection.execute("select item, sum(amount) from entries group by item")
        return {item: float(total) for item, total in rows}

    def where_made(self) -> str:
        """The name of the thread that opened the database."""
        return self.made_on

    def close(self) -> None:
        """Close the database (sqlite3 raises when that is not done on its thread)."""
        self.connection.close()


def open_ledger() -> Ledger:
    """A factory: a new, empty ledger."""
    return Ledger()


if __name__ == "__main__":
    objmcp.start("ledger", Ledger, limits=objmcp.Limits(concurrency="serial"))
