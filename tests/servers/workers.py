"""Tools that say which process answered, for servers of several processes."""

from __future__ import annotations

import os

import objmcp


class Workers:
    """Which worker process is this?"""

    def pid(self) -> int:
        """The process id of the worker that answered."""
        return os.getpid()

    def ask_where(self, elicit: objmcp.Elicit) -> str:
        """Ask a question naming this process; answer naming the one that answers."""
        answer = elicit(f"Sure? (asked by {os.getpid()})", bool)
        return f"{answer.action}:{answer.value!r} (answered by {os.getpid()})"
