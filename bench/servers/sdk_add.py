"""One ``add`` tool served over stdio by the official ``mcp`` SDK 2.x high-level server."""

from mcp.server.mcpserver import MCPServer

server = MCPServer("bench")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


if __name__ == "__main__":
    server.run("stdio")
