"""A page's shown output held to what its example printed: each line the page shows is one the
example printed, in the same order (lines may be left out between them). In a shown line ``…``
stands for any text (``...`` is itself: programs print it), and a line of only ``…`` or ``...``
for lines left out; blank lines and trailing spaces do not count. Where the example left
processes running in the background, which write when they will, the order is not held: each
shown line must be one of the lines printed, a line each."""

from __future__ import annotations

import re

__all__ = ["ELIDED", "LEFT_OUT", "missing_from"]

ELIDED = "…"
"""What stands for text a shown line leaves out."""
LEFT_OUT = frozenset({"…", "..."})
"""A shown line that stands for lines left out."""


def missing_from(shown: str, printed: str, *, ordered: bool = True) -> str | None:
    """The first line of ``shown`` that ``printed`` lacks (in order after the lines before
    it, when ``ordered``), or None when every shown line is there."""
    lines = [line.rstrip() for line in printed.splitlines() if line.strip()]
    unused = list(range(len(lines)))
    for raw in shown.splitlines():
        line = raw.rstrip()
        if not line.strip() or line.strip() in LEFT_OUT:
            continue
        pattern = re.compile(".*?".join(re.escape(part) for part in line.split(ELIDED)))
        found = next((at for at in unused if pattern.fullmatch(lines[at])), None)
        if found is None:
            return line
        unused = [at for at in unused if at > found] if ordered else unused
        if not ordered:
            unused.remove(found)
    return None
