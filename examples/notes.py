"""A tiny notebook, served as an MCP server: ``python examples/notes.py``."""

from __future__ import annotations

from dataclasses import dataclass, field

import objmcp


@dataclass
class Note:
    """One note."""

    title: str
    body: str = ""
    tags: list[str] = field(default_factory=list)


class Notes:
    """A tiny notebook."""

    def __init__(self) -> None:
        self._notes: dict[str, Note] = {}

    def add(self, title: str, body: str = "", tags: list[str] | None = None) -> Note:
        """Add a note.

        Args:
            title: Short title, unique.
            body: The text.
            tags: Labels to file it under.
        """
        if title in self._notes:
            raise objmcp.ToolError(f"A note titled {title!r} exists already")
        note = Note(title, body, tags or [])
        self._notes[title] = note
        return note

    def find(self, text: str, limit: int = 10) -> list[Note]:
        """Find notes whose title, body or tags contain some text.

        Args:
            text: What to look for (case does not matter).
            limit: At most this many notes.
        """
        needle = text.lower()
        found = [
            note
            for note in self._notes.values()
            if needle in note.title.lower()
            or needle in note.body.lower()
            or any(needle in tag.lower() for tag in note.tags)
        ]
        return found[:limit]

    def remove(self, title: str) -> bool:
        """Remove a note; says whether there was one.

        Args:
            title: The note's title.
        """
        return self._notes.pop(title, None) is not None


if __name__ == "__main__":
    objmcp.start("notes", Notes(), instructions="Keep short notes; find them by text or tag.")
