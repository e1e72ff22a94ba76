"""A page's shown output held to what its example printed: each line the page shows is one
the example printed, in the same order (lines may be left out between them). In a shown line
``…`` (or ``...``) stands for any text, and a line of only that for lines left out; blank
lines and trailing spaces do not count. Where the example left processes running in the
background, which write when they will, the order is not held: each shown line must be one
of the lines printed, a line each."""

from __future__ import annotations

import re

__all__ = ["ELIDED", "missing_from"]

ELIDED = re.compile(r"…|\.\.\.")
"""What stands for text a shown line leaves out."""


def missing_from(shown: str, printed: str, *, ordered: bool = True) -> str | None:
    """The first line of ``shown`` that ``printed`` lacks (in order after the lines before
    it, when ``ordered``), or None when every shown line is there."""
    lines = [line.rstrip() for line in printed.splitlines() if line.strip()]
    unused = list(range(len(lines)))
    for raw in shown.splitlines():
        line = raw.rstrip()
        if not ELIDED.sub("", line).strip():
            continue
        pattern = re.compile(".*?".join(re.escape(part) for part in ELIDED.split(line)))
        found = next((at for at in unused if pattern.fullmatch(lines[at])), None)
        if found is None:
            return line
        unused = [at for at in unused if at > found] if ordered else unused
        if not ordered:
            unused.remove(found)
    return None
