"""The tasks bench's tools served over stdio by the official ``mcp`` SDK 2.x high-level
server (``bench/tasks.py``). The SDK's server has no tasks: its figures are those of the
plain call, and of as many plain calls held open as objmcp holds tasks."""

import anyio
from mcp.server.mcpserver import MCPServer

server = MCPServer("bench-tasks")
released: list[anyio.Event] = []


@server.tool()
async def work(ms: float) -> int:
    """Sleep ``ms`` milliseconds; returns ``ms`` rounded."""
    await anyio.sleep(ms / 1000)
    return round(ms)


@server.tool()
async def hold(n: int) -> int:
    """Wait until ``release`` is called; returns ``n``."""
    if not released:
        released.append(anyio.Event())
    await released[0].wait()
    return n


@server.tool()
async def release() -> str:
    """Let every ``hold`` waiting now end."""
    if released:
        released.pop().set()
    return "released"


if __name__ == "__main__":
    server.run("stdio")
