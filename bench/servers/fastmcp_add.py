"""The bench tools served over stdio by FastMCP (4.x): ``add`` for the round trips,
``length`` and ``blob`` for the 10 MB payloads.

Everything is left at FastMCP's defaults except the start-up banner, which is turned
off (it only decorates stderr)."""

from fastmcp import FastMCP

server = FastMCP("bench")


@server.tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool
def length(text: str) -> int:
    """The number of characters in ``text``."""
    return len(text)


@server.tool
def blob(size: int) -> str:
    """A string of ``size`` characters."""
    return "x" * size


if __name__ == "__main__":
    server.run("stdio", show_banner=False)
