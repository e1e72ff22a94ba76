"""Helpers for the tests that speak HTTP to ``objmcp run --http``: the server process, raw
requests of both eras, SSE events, a 2025-11-25 session's headers.

Shared by the serving layer's HTTP tests (``tests/serving/``) and the real peers that need a
server over HTTP (``tests/peers/``); importable as ``http_helpers`` because ``tests/`` (the
folder of the root ``conftest.py``) is on ``sys.path``."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
from conftest import PYTHON, ZOO, server_env

__all__ = [
    "ACCEPT",
    "LAB",
    "MODERN_META",
    "PYTHON",
    "WORKERS",
    "HttpServer",
    "ask_where",
    "call",
    "events",
    "free_port",
    "initialize_message",
    "modern",
    "modern_headers",
    "open_session",
    "post",
    "read_event",
    "text_of",
]

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class HttpServer:
    """``objmcp run --http`` in a subprocess (the zoo, or ``command`` with ``{port}``
    filled in), until the test ends."""

    def __init__(
        self,
        *options: str,
        command: list[str] | None = None,
        target: str = f"{ZOO}:Zoo",
        env: dict[str, str] | None = None,
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        if command is None:
            run = [PYTHON, "-m", "objmcp", "run", "--http", "--port", str(self.port)]
            command = [*run, *options, target]
        self.process = subprocess.Popen(
            [part.format(port=self.port) for part in command],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**server_env(), "OBJMCP_TOKEN": "", **(env or {})},
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.process.communicate()
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        self.process.kill()
        raise AssertionError("the HTTP server did not start")

    def stop(self) -> tuple[str, str]:
        self.process.terminate()
        out, err = self.process.communicate(timeout=20)
        return out.decode(), err.decode()


def text_of(result: Any) -> str:
    return "".join(block.text for block in result.content)


def texts(message: Any) -> list[str]:
    """The text blocks of a tools/call answer (which must not be an error)."""
    result = message["result"]
    assert result["isError"] is False, result
    return [block["text"] for block in result["content"]]


def post(url: str, message: object, **headers: str) -> httpx.Response:
    sent = {"accept": "application/json, text/event-stream", **headers}
    return httpx.post(url, json=message, headers=sent, timeout=20)


def events(response: httpx.Response) -> list[Any]:
    """The JSON-RPC messages of an SSE body."""
    assert response.headers["content-type"].startswith("text/event-stream")
    return [
        json.loads(line[len("data: ") :])
        for line in response.text.splitlines()
        if line.startswith("data: ") and line != "data: "  # not the priming event
    ]


def modern(method: str, request_id: int | None = 1, **params: Any) -> dict[str, Any]:
    message: dict[str, Any] = {
        "jsonrpc": "2.0",
        "method": method,
        "params": {"_meta": MODERN_META, **params},
    }
    if request_id is not None:
        message["id"] = request_id
    return message


def modern_headers(method: str, name: str | None = None) -> dict[str, str]:
    headers = {"mcp-protocol-version": "2026-07-28", "mcp-method": method}
    if name is not None:
        headers["mcp-name"] = name
    return headers


def initialize_message(capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities or {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }


LAB = ZOO.parent / "lab.py"


WORKERS = ZOO.parent / "workers.py"


def ask_where(request_id: int, **params: Any) -> dict[str, Any]:
    call = modern("tools/call", request_id, name="ask_where", **params)
    call["params"]["_meta"] = {
        **MODERN_META,
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
    }
    return call


ACCEPT = {"accept": "application/json, text/event-stream"}


def open_session(
    url: str, capabilities: dict[str, Any] | None = None, **extra: str
) -> dict[str, str]:
    """A 2025-11-25 session: the headers its requests carry (``extra`` too, such as a
    bearer token's, sent with the ``initialize`` as with every request after it)."""
    opened = post(url, initialize_message(capabilities), **extra)
    assert opened.status_code == 200, opened.text
    headers = {
        **extra,
        "mcp-session-id": opened.headers["mcp-session-id"],
        "mcp-protocol-version": "2025-11-25",
    }
    told = post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, **headers)
    assert told.status_code == 202
    return headers


def read_event(lines: Iterator[str]) -> dict[str, str]:
    """The fields of the next SSE event (``data`` as sent)."""
    fields: dict[str, str] = {}
    for line in lines:
        if not line:
            if fields:
                return fields
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(": ")
        fields[name] = value
    raise AssertionError(f"the stream ended; last fields {fields}")


def call(request_id: int, tool: str, **arguments: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }
