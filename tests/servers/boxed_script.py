"""A program that serves itself boxed from Python (``objmcp.start(..., sandbox=...)``, issue
43): ``python boxed_script.py READABLE`` runs again, from the top, in a box where READABLE
is the one folder of the host's it may read beside its own and Python's."""

from __future__ import annotations

import os
import pathlib
import sys

import objmcp


class Script:
    """Reads files, and says what it sees of its process."""

    def read(self, path: str) -> str:
        """The text of the file ``path``."""
        return pathlib.Path(path).read_text()

    def boxed(self) -> bool:
        """Whether this process runs in the box."""
        return "OBJMCP_BOX" in os.environ


if __name__ == "__main__":
    objmcp.start("boxed-script", Script(), sandbox=objmcp.Sandbox(readable=[sys.argv[1]]))
