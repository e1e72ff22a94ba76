"""The code blocks of a Markdown page: fenced blocks (```` ``` ```` or ``~~~``, indented or not,
inside lists and admonitions too), each with its language, its title (``title="notes.py"``)
and its text, dedented by its fence's indentation."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Block", "blocks_of"]

_OPENING = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*)$")
_TITLE = re.compile(r"""title=(?P<quote>["'])(?P<title>.*?)(?P=quote)""")


@dataclass(frozen=True)
class Block:
    """One fenced block: its ``language`` (its info string's first word, "" for none), its
    ``title``, its ``text`` and the number of its opening line (1-based)."""

    language: str
    title: str | None
    text: str
    line: int


def blocks_of(markdown: str) -> list[Block]:
    """The fenced blocks of ``markdown``, in order. A block left open runs to the end."""
    found: list[Block] = []
    lines = markdown.split("\n")
    index = 0
    while index < len(lines):
        opening = _OPENING.match(lines[index])
        if opening is None:
            index += 1
            continue
        indent, fence, info = opening["indent"], opening["fence"], opening["info"].strip()
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        body: list[str] = []
        start = index
        index += 1
        while index < len(lines) and not closing.match(lines[index]):
            line = lines[index]
            body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            index += 1
        index += 1
        language = info.split()[0].lstrip(".{") if info else ""
        titled = _TITLE.search(info)
        found.append(
            Block(language, titled["title"] if titled else None, "\n".join(body), start + 1)
        )
    return found
