"""Instances the zoo serves that ``objmcp run`` cannot make from a bare name."""

from __future__ import annotations

import sqlite3


def memory_database() -> sqlite3.Connection:
    """A new SQLite database in memory: a thread-bound object (``--concurrency serial``)."""
    return sqlite3.connect(":memory:")
