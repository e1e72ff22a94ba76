"""See objmcp work with no LLM: a real MCP client session against the notes example.

The official ``mcp`` SDK client starts ``examples/notes.py`` as a subprocess,
lists its tools and calls some, through the real protocol over stdio.
Run: ``python examples/demo.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

HERE = Path(__file__).resolve().parent


async def main() -> None:
    """Start the notes server, list its tools, call a few, print what comes back."""
    server = StdioServerParameters(
        command=sys.executable,
        args=[str(HERE / "notes.py")],
        env={"PYTHONPATH": str(HERE.parent)},
    )
    async with Client(server) as client:
        info = client.server_info
        print(f"connected to {info.name if info else '?'} over MCP {client.protocol_version}")
        for tool in (await client.list_tools()).tools:
            params = ", ".join(tool.input_schema.get("properties", {}))
            print(f"  tool {tool.name}({params}): {tool.description}")
        calls: list[tuple[str, dict[str, Any]]] = [
            ("add", {"title": "milk", "body": "two litres", "tags": ["shopping"]}),
            ("add", {"title": "call Ada", "tags": ["people"]}),
            ("find", {"text": "shop"}),
            ("add", {"title": "milk"}),
            ("find", {"text": "x", "limit": "ten"}),
        ]
        for name, arguments in calls:
            result = await client.call_tool(name, arguments)
            text = " ".join(getattr(item, "text", "") for item in result.content)
            status = "error" if result.is_error else "ok"
            print(f"-> {name} {json.dumps(arguments)}\n   {status}: {text}")


if __name__ == "__main__":
    anyio.run(main)
