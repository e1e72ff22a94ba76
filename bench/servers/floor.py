"""The floor: the least an MCP stdio server answering the bench tools can do.

A bare loop with no framework: read one line from stdin, ``json.loads`` it,
answer ``initialize`` / ``ping`` / ``tools/list`` / ``tools/call`` (for
``add``, ``length`` and ``blob``) with ``json.dumps``, flush. No validation
beyond what is needed to answer correctly. Its answers have the same shape
as the frameworks' (text content and ``structuredContent``), so the same
bytes go over the pipe. Any real server costs at least this much per
message, so it is the baseline the other servers are compared with. Only the
standard library: ``json`` is its serialiser, slower on a 10 MB string than
the Rust one (pydantic-core) under the SDK and FastMCP.
"""

import json
import os
import sys
from collections.abc import Iterator
from typing import Any

SUPPORTED = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")


def tool(name: str, description: str, inputs: dict[str, str], output: str) -> dict[str, Any]:
    """The ``tools/list`` entry of a tool with these JSON types of inputs and output."""
    return {
        "name": name,
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": {key: {"type": kind} for key, kind in inputs.items()},
            "required": list(inputs),
        },
        "outputSchema": {
            "type": "object",
            "properties": {"result": {"type": output}},
            "required": ["result"],
        },
    }


TOOLS: list[dict[str, Any]] = [
    tool("add", "Add two integers.", {"a": "integer", "b": "integer"}, "integer"),
    tool("length", "The number of characters in text.", {"text": "string"}, "integer"),
    tool("blob", "A string of size characters.", {"size": "integer"}, "string"),
]


def call(name: str, args: dict[str, Any]) -> Any:
    """The value of tool ``name`` for ``args``."""
    if name == "add":
        return args["a"] + args["b"]
    if name == "length":
        return len(args["text"])
    if name == "blob":
        return "x" * args["size"]
    raise KeyError(name)


def answer(msg: dict[str, Any]) -> dict[str, Any] | None:
    """Return the JSON-RPC reply for one message, or None for a notification."""
    if "id" not in msg:
        return None
    method = msg.get("method")
    params = msg.get("params") or {}
    result: dict[str, Any]
    if method == "tools/call":
        value = call(params["name"], params.get("arguments") or {})
        result = {
            "content": [{"type": "text", "text": str(value)}],
            "structuredContent": {"result": value},
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
        result = {"tools": TOOLS}
    elif method == "ping":
        result = {}
    else:
        return {
            "jsonrpc": "2.0",
            "id": msg["id"],
            "error": {"code": -32601, "message": f"Method not found: {method}"},
        }
    return {"jsonrpc": "2.0", "id": msg["id"], "result": result}


def lines(fd: int) -> Iterator[bytes]:
    """The lines read from ``fd`` until end of input, each without its newline.

    Reads of 64 KiB (a pipe's capacity) into one buffer, each byte searched once for a
    newline, so a line of many megabytes costs no more than its bytes.
    """
    buffer = bytearray()
    searched = 0
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        buffer += chunk
        start = 0
        end = buffer.find(b"\n", searched)
        while end >= 0:
            yield bytes(buffer[start:end])
            start = end + 1
            end = buffer.find(b"\n", start)
        del buffer[:start]
        searched = len(buffer)


def main() -> None:
    """Serve newline-delimited JSON-RPC on stdin/stdout until EOF.

    Bytes in and out (no text layer), compact JSON, and each answer written without
    being copied to append its newline: the least work per message, big or small.
    """
    out = sys.stdout.buffer
    for line in lines(sys.stdin.buffer.fileno()):
        if not line.strip():
            continue
        reply = answer(json.loads(line))
        if reply is not None:
            out.write(json.dumps(reply, separators=(",", ":")).encode())
            out.write(b"\n")
            out.flush()


if __name__ == "__main__":
    main()
