"""The floor: the least an MCP stdio server answering ``add`` can do.

A bare loop with no framework: read one line from stdin, ``json.loads`` it,
answer ``initialize`` / ``ping`` / ``tools/list`` / ``tools/call`` (for
``add``) with ``json.dumps``, flush. No validation beyond what is needed to
answer correctly. Any real server costs at least this much per message, so
it is the baseline the other servers are compared with.
"""

import json
import sys
from typing import Any

SUPPORTED = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")

ADD_TOOL: dict[str, Any] = {
    "name": "add",
    "description": "Add two integers.",
    "inputSchema": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    },
    "outputSchema": {
        "type": "object",
        "properties": {"result": {"type": "integer"}},
        "required": ["result"],
    },
}


def answer(msg: dict[str, Any]) -> dict[str, Any] | None:
    """Return the JSON-RPC reply for one message, or None for a notification."""
    if "id" not in msg:
        return None
    method = msg.get("method")
    params = msg.get("params") or {}
    result: dict[str, Any]
    if method == "tools/call" and params.get("name") == "add":
        args = params.get("arguments") or {}
        total = args["a"] + args["b"]
        result = {
            "content": [{"type": "text", "text": str(total)}],
            "structuredContent": {"result": total},
            "isError": False,
        }
    elif method == "initialize":
        asked = params.get("protocolVersion")
        result = {
            "protocolVersion": asked if asked in SUPPORTED else SUPPORTED[-1],
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "bench", "version": "0"},
        }
    elif method == "tools/list":
        result = {"tools": [ADD_TOOL]}
    elif method == "ping":
        result = {}
    else:
        return {
            "jsonrpc": "2.0",
            "id": msg["id"],
            "error": {"code": -32601, "message": f"Method not found: {method}"},
        }
    return {"jsonrpc": "2.0", "id": msg["id"], "result": result}


def main() -> None:
    """Serve newline-delimited JSON-RPC on stdin/stdout until EOF."""
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = answer(json.loads(line))
        if reply is not None:
            out.write(json.dumps(reply) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
