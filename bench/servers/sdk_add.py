"""The bench tools served over stdio by the official ``mcp`` SDK 2.x high-level server:
``add`` for the round trips, ``length`` and ``blob`` for the 10 MB payloads."""

from mcp.server.mcpserver import MCPServer

server = MCPServer("bench")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def length(text: str) -> int:
    """The number of characters in ``text``."""
    return len(text)


@server.tool()
def blob(size: int) -> str:
    """A string of ``size`` characters."""
    return "x" * size


if __name__ == "__main__":
    server.run("stdio")
