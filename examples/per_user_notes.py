"""Each user's own notes, in a SQLite file of theirs: one object per caller (``per=``).

``python examples/per_user_notes.py`` serves them over HTTP on 127.0.0.1:8000, where the
bearer token ``alice-token`` is alice's and ``bob-token`` bob's (a real server checks
OAuth tokens: ``verify=`` or the JWT options). Each user gets a ``UserNotes`` of their
own, made at their first call, shared by all their sessions, and closed after an hour
unused; ``concurrency="serial"`` makes, calls and closes every connection on one thread,
as ``sqlite3`` wants. On stdio there is one user, the local one:
``objmcp run examples/per_user_notes.py:UserNotes --per caller --concurrency serial``.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

import objmcp


class UserNotes:
    """One user's notes."""

    def __init__(self, caller: objmcp.Caller | None = None) -> None:
        user = caller.subject if caller is not None and caller.subject else "local"
        folder = Path(os.environ.get("NOTES_DIR", "."))
        self.db = sqlite3.connect(folder / f"notes-{re.sub(r'[^A-Za-z0-9_-]', '_', user)}.db")
        self.db.execute("CREATE TABLE IF NOT EXISTS notes (text TEXT NOT NULL)")

    def add(self, text: str) -> int:
        """Add a note; returns how many notes there are."""
        with self.db:
            self.db.execute("INSERT INTO notes VALUES (?)", (text,))
        return len(self.list())

    def list(self) -> list[str]:
        """Every note, oldest first."""
        return [row[0] for row in self.db.execute("SELECT text FROM notes ORDER BY rowid")]

    @objmcp.hidden
    def close(self) -> None:
        """Close the user's database (objmcp calls it when the object is done with)."""
        self.db.close()


TOKENS = {"alice-token": "alice", "bob-token": "bob"}

if __name__ == "__main__":
    import uvicorn

    app = objmcp.asgi_app(
        "notes",
        UserNotes,
        objects=objmcp.Objects(per="caller"),
        limits=objmcp.Limits(concurrency="serial"),
        auth=objmcp.Auth(verify=TOKENS.get),
    )
    uvicorn.run(app, host="127.0.0.1", port=8000)
