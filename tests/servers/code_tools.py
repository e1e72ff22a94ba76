"""A ledger served in code mode (issue 44): a tool with an effect (``record``), one that asks
the user (``confirm``), and one that says what was recorded; the calls of ``execute``'s
code reach them as ``ledger.record(...)``."""

from __future__ import annotations

import objmcp


class Ledger:
    """Items recorded, one by one."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def record(self, item: str) -> int:
        """Record ``item``; how many items are recorded now."""
        self.items.append(item)
        return len(self.items)

    def confirm(self, question: str, elicit: objmcp.Elicit) -> bool:
        """Ask the user ``question``; whether they said yes."""
        answer = elicit(question, bool)
        return bool(answer.accepted and answer.value)

    def recorded(self) -> list[str]:
        """The items recorded, in order."""
        return list(self.items)
