"""A shelf of notes served with resources, templates and prompts (and one tool).

Run as a server: ``python tests/servers/shelf.py``.
"""

from __future__ import annotations

import enum
import sys
from typing import Literal

import objmcp


class Tone(enum.Enum):
    """How a summary sounds."""

    FORMAL = "formal"
    FRIENDLY = "friendly"
    FUNNY = "funny"


class Shelf:
    """Notes, by number."""

    def __init__(self) -> None:
        self.notes = {1: "Buy milk", 2: "Call Ada", 3: "Café ☕ at noon"}

    def add(self, text: str) -> int:
        """Add a note; returns its number."""
        number = max(self.notes) + 1
        self.notes[number] = text
        return number

    @objmcp.resource("notes://all", mime_type="application/json")
    def everything(self) -> dict[int, str]:
        """Every note, by number."""
        return self.notes

    @objmcp.resource("notes://{number}", title="One note")
    def note(self, number: int) -> str:
        """One note's text."""
        if number not in self.notes:
            raise KeyError(f"no note {number}")
        return self.notes[number]

    @objmcp.resource("pictures://dot.png")
    def dot(self) -> bytes:
        """A tiny picture, as bytes."""
        return b"\x89PNG\r\n\x1a\n" + b"\x00" * 8

    @objmcp.prompt(title="Summarize notes", complete={"focus": lambda typed: ["milk", "Ada"]})
    def summarize(self, tone: Tone, focus: str = "", count: int = 3) -> list[object]:
        """Ask for a summary of the notes.

        Args:
            tone: How it should sound.
            focus: What to dwell on.
            count: How many notes.
        """
        chosen = list(self.notes.values())[:count]
        return [
            f"Summarize these notes in a {tone.value} tone: {chosen}",
            {"role": "assistant", "content": "Happy to."},
            f"Focus on: {focus or 'anything'}",
        ]

    @objmcp.prompt
    def greet(self, who: Literal["world", "team", "you"]) -> str:
        """Say hello."""
        return f"Say hello to the {who}."


if __name__ == "__main__":
    objmcp.start("shelf", Shelf(), framing=sys.argv[1] if len(sys.argv) > 1 else "auto")  # type: ignore[arg-type]
