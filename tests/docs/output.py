"""A page's shown output held to what its example printed: each line the page shows is one
the example printed, in the same order (lines may be left out between them). In a shown line
``…`` (or ``...``) stands for any text, and a line of only that for lines left out; blank
lines and trailing spaces do not count."""

from __future__ import annotations

import re

__all__ = ["ELIDED", "missing_from"]

ELIDED = re.compile(r"…|\.\.\.")
"""What stands for text a shown line leaves out."""


def missing_from(shown: str, printed: str) -> str | None:
    """The first line of ``shown`` that ``printed`` lacks (in order after the lines before
    it), or None when every shown line is there."""
    lines = [line.rstrip() for line in printed.splitlines() if line.strip()]
    at = 0
    for raw in shown.splitlines():
        line = raw.rstrip()
        if not ELIDED.sub("", line).strip():
            continue
        pattern = re.compile(".*?".join(re.escape(part) for part in ELIDED.split(line)))
        while at < len(lines) and not pattern.fullmatch(lines[at]):
            at += 1
        if at == len(lines):
            return line
        at += 1
    return None
