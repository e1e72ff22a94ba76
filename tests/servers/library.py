"""A folder of documents served as resource templates, the way a server that opens
files does: ``docs://{name}`` (one file of the folder) and ``tree://{+path}`` (a path
under it, slashes allowed); and a tool that sleeps for a float.

Run as a server: ``python tests/servers/library.py FOLDER [FRAMING]``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import objmcp


class Library:
    """The documents of one folder."""

    def __init__(self, folder: str) -> None:
        self.folder = Path(folder)

    @objmcp.resource("docs://{name}")
    def doc(self, name: str) -> str:
        """One document of the folder."""
        return (self.folder / name).read_text()

    @objmcp.resource("tree://{+path}")
    def tree(self, path: str) -> str:
        """A document anywhere under the folder."""
        return (self.folder / path).read_text()

    async def nap(self, seconds: float) -> str:
        """Sleep on the event loop, then answer."""
        await asyncio.sleep(seconds)
        return f"napped {seconds}"


if __name__ == "__main__":
    framing = sys.argv[2] if len(sys.argv) > 2 else "auto"
    objmcp.start("library", Library(sys.argv[1]), framing=framing)  # type: ignore[arg-type]
