"""``objmcp call TARGET TOOL key=value ...``: one call through a real server process.

A small blocking client on pipes, newline-delimited JSON, no SDK: it starts
``python -m objmcp run TARGET`` (its stderr is the user's), does the handshake
at :data:`PROTOCOL_VERSION` declaring the elicitation capability, finds the
tool in ``tools/list``, reads the ``key=value`` words against its input schema
(a value for a string parameter is taken as written, any other is read as JSON,
else as text), calls it, and prints the result's text. Questions the tool asks
(``elicitation/create``) are put to the user on the terminal when stdin is one
(:mod:`objmcp.cli.ask`), and declined otherwise. Exit status: 0, 1 for an error
result, 2 when the call could not be made.
"""

from __future__ import annotations

import contextlib
import difflib
import itertools
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from .._exceptions import TargetError

__all__ = ["PROTOCOL_VERSION", "ServerGone", "ServerProcess", "call_tool", "parse_arguments"]

PROTOCOL_VERSION = "2025-11-25"
"""The newest handshake revision: the one ``objmcp call`` asks for."""

Asker = Callable[[dict[str, Any]], dict[str, Any]]


class ServerGone(Exception):
    """The server process closed its output (it exited) before answering."""


class ServerProcess:
    """A server subprocess spoken to through its stdin and stdout, one JSON message a line."""

    def __init__(self, command: Sequence[str], asker: Asker) -> None:
        self.process = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None
        )
        self.asker = asker
        self._ids = itertools.count(1)

    def send(self, message: dict[str, Any]) -> None:
        """Write one message; raises :class:`ServerGone` when the server is gone."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message).encode() + b"\n")
            self.process.stdin.flush()
        except OSError:
            raise ServerGone from None

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Send a notification."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a request and return its result, answering the server's own requests
        meanwhile; raises :class:`ServerGone`, or ``RuntimeError`` for a JSON-RPC error."""
        request_id = next(self._ids)
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            message = self._receive()
            if "method" in message:
                if "id" in message:
                    self._answer(message)
                continue
            if message.get("id") != request_id:
                continue
            if "error" in message:
                error = message["error"]
                text = error.get("message") if isinstance(error, dict) else error
                data = error.get("data") if isinstance(error, dict) else None
                raise RuntimeError(f"{text}" + (f" ({json.dumps(data)})" if data else ""))
            result = message.get("result")
            return result if isinstance(result, dict) else {}

    def _receive(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise ServerGone
            try:
                message = json.loads(line)
            except ValueError:
                sys.stderr.write(f"objmcp call: not JSON from the server: {line[:200]!r}\n")
                continue
            if isinstance(message, dict):
                return message

    def _answer(self, message: dict[str, Any]) -> None:
        method = message["method"]
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        if method == "elicitation/create":
            params = message.get("params")
            reply["result"] = self.asker(params if isinstance(params, dict) else {})
        elif method == "ping":
            reply["result"] = {}
        else:
            reply["error"] = {"code": -32601, "message": f"objmcp call does not answer {method}"}
        self.send(reply)

    def close(self, timeout: float = 10.0) -> int:
        """Close the server's input and wait for it to end (killing it after ``timeout``)."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


def call_tool(
    spec: str,
    tool: str,
    words: Sequence[str],
    server_args: Sequence[str],
    as_json: bool,
    out: TextIO | None = None,
) -> int:
    """Call ``tool`` of the TARGET ``spec`` through a server process; print the result."""
    out = sys.stdout if out is None else out
    for word in words:
        if "=" not in word or word.startswith("="):
            raise TargetError(f"{word!r} is not key=value: write each argument as name=value")
    asker = _terminal_asker() if sys.stdin.isatty() else _decline
    command = [sys.executable, "-m", "objmcp", "run", spec, *server_args]
    server = ServerProcess(command, asker)
    try:
        result = _session(server, tool, words)
    except ServerGone:
        status = server.close()
        sys.stderr.write(f"objmcp call: the server ended before answering (exit status {status})\n")
        return status or 2
    except (RuntimeError, ValueError) as error:
        server.close()
        sys.stderr.write(f"objmcp call: {error}\n")
        return 2
    except BaseException:
        server.process.kill()
        server.close()
        raise
    server.close()
    if as_json:
        out.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    else:
        for item in result.get("content", []):
            if isinstance(item, dict) and item.get("type") == "text":
                text = str(item.get("text", ""))
                out.write(text + ("" if text.endswith("\n") or not text else "\n"))
            else:
                out.write(json.dumps(item, ensure_ascii=False) + "\n")
    out.flush()
    return 1 if result.get("isError") else 0


def _session(server: ServerProcess, tool: str, words: Sequence[str]) -> dict[str, Any]:
    from .. import __version__

    server.request(
        "initialize",
        {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {"elicitation": {"form": {}}},
            "clientInfo": {"name": "objmcp-call", "version": __version__},
        },
    )
    server.notify("notifications/initialized")
    tools: dict[str, dict[str, Any]] = {}
    cursor: str | None = None
    while True:
        listed = server.request("tools/list", {"cursor": cursor} if cursor else {})
        tools.update({entry["name"]: entry for entry in listed.get("tools", [])})
        cursor = listed.get("nextCursor")
        if not cursor:
            break
    if tool not in tools:
        close = difflib.get_close_matches(tool, list(tools), n=3)
        hint = f" Did you mean {' or '.join(close)}?" if close else ""
        raise ValueError(f"no tool {tool!r}.{hint} Tools: {', '.join(tools) or '(none)'}")
    arguments = parse_arguments(words, tools[tool].get("inputSchema", {}))
    return server.request("tools/call", {"name": tool, "arguments": arguments})


# --- arguments --------------------------------------------------------------------------------


def parse_arguments(words: Sequence[str], schema: dict[str, Any]) -> dict[str, Any]:
    """``key=value`` words as a tool's arguments: a value for a parameter that takes only
    strings is taken as written; any other is read as JSON, else taken as text."""
    properties = schema.get("properties", {})
    defs = schema.get("$defs", {})
    extra = schema.get("additionalProperties")
    arguments: dict[str, Any] = {}
    for word in words:
        key, _, text = word.partition("=")
        if key in arguments:
            raise ValueError(f"{key} is given twice")
        prop = properties.get(key, extra if isinstance(extra, dict) else {})
        if _json_types(prop, defs) == {"string"}:
            arguments[key] = text
        else:
            try:
                arguments[key] = json.loads(text)
            except ValueError:
                arguments[key] = text
    return arguments


_ANY = frozenset({"string", "number", "integer", "boolean", "object", "array"})


def _json_types(schema: object, defs: dict[str, Any], depth: int = 0) -> set[str]:
    """The JSON types (``null`` left out) a schema accepts, as far as it says."""
    if not isinstance(schema, dict) or depth > 20:
        return set(_ANY)
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return _json_types(defs.get(name, {}), defs, depth + 1)
    values = (
        schema["enum"] if "enum" in schema else [schema["const"]] if "const" in schema else None
    )
    if isinstance(values, list):
        return {_json_type(value) for value in values} - {"null"}
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list):
        found: set[str] = set()
        for option in options:
            found |= _json_types(option, defs, depth + 1)
        return found
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind} - {"null"}
    if isinstance(kind, list):
        return {str(k) for k in kind} - {"null"}
    return set(_ANY)


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


# --- questions --------------------------------------------------------------------------------


def _decline(params: dict[str, Any]) -> dict[str, Any]:
    message = params.get("message", "")
    sys.stderr.write(f"objmcp call: declined a question (stdin is not a terminal): {message}\n")
    return {"action": "decline"}


def _terminal_asker() -> Asker:
    from .ask import ask

    def asker(params: dict[str, Any]) -> dict[str, Any]:
        return ask(params, sys.stdin, sys.stderr)

    return asker
