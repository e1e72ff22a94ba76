"""Benchmark objmcp's Streamable HTTP app against the official MCP SDK's, over 127.0.0.1.

Each server serves the same single tool, ``add(a: int, b: int) -> int``, at ``/mcp``,
run by uvicorn in a subprocess of its own (the same options for all: 127.0.0.1, one
worker, ``log_level="warning"``):

* ``objmcp``: ``objmcp.asgi_app("bench", Adder())``;
* ``sdk``: ``MCPServer("bench").streamable_http_app(stateless_http=False,
  json_response=False)`` (the SDK's defaults: handshake-era answers come as SSE);
* ``sdk-json``: the same with ``json_response=True``;
* ``floor``: a bare ASGI callable (``FloorApp``) that reads the body, parses it with the
  standard library's ``json``, and answers the JSON-RPC result: what any MCP server over
  HTTP must at least do, the floor objmcp's app is measured against (issue 41).

One raw HTTP/1.1 driver (plain sockets, keep-alive, its own small response parser for
``Content-Length`` and chunked bodies, JSON and SSE answers) is used identically for
every server, in both eras of the protocol:

* handshake era (2025-11-25): ``initialize`` and ``notifications/initialized`` open a
  session (``Mcp-Session-Id``), whose calls carry that header; the SDK runs stateful;
* modern era (2026-07-28): every call is a POST of its own, with ``_meta`` and the
  ``MCP-Protocol-Version`` / ``Mcp-Method`` / ``Mcp-Name`` headers, no session.

It measures, per era: the sequential ``tools/call`` round trip (one connection, one call
at a time; median and p90, pooled over rounds), the throughput of ``--concurrency``
clients (a connection and, in the handshake era, a session each) calling as fast as they
are answered for ``--duration`` seconds (calls/s, median over rounds), the p99 round trip
under that load, and the server's CPU time per call during it (from ``/proc``, so it does
not depend on how busy the driver is); and the server's peak RSS at the end. Before any
timing each server must answer ``add(1, 2)`` with ``"3"`` in both eras (the modern answer
with ``resultType: "complete"``); every timed answer is checked too (status 200, the
text of ``add(a, b)`` for the arguments sent, no error), so a broken server fails
instead of looking fast. Rounds interleave the servers (in a rotating order) so that
machine drift hits all alike.

Usage::

    .venv/bin/python bench/run_http.py [--quick] [--json out.json] [--servers objmcp,sdk]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from figures import (
    ROOT,
    compile_sources,
    environment,
    library_version,
    metric_rows,
    percentile,
    ratio,
    server_env,
    table,
)

HOST = "127.0.0.1"
PATH = "/mcp"
HANDSHAKE_VERSION = "2025-11-25"
MODERN_VERSION = "2026-07-28"
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
    "io.modelcontextprotocol/clientCapabilities": {},
}
ERAS = ("handshake", "modern")
ERA_LABELS = {"handshake": f"handshake {HANDSHAKE_VERSION}", "modern": f"modern {MODERN_VERSION}"}


@dataclass(frozen=True)
class ServerSpec:
    """One server under test."""

    key: str
    label: str
    description: str


SERVERS: tuple[ServerSpec, ...] = (
    ServerSpec("objmcp", "objmcp", 'objmcp.asgi_app("bench", Adder())'),
    ServerSpec(
        "sdk",
        "mcp SDK",
        "MCPServer.streamable_http_app(stateless_http=False, json_response=False)",
    ),
    ServerSpec(
        "sdk-json",
        "mcp SDK json",
        "MCPServer.streamable_http_app(stateless_http=False, json_response=True)",
    ),
    ServerSpec("floor", "bare ASGI", "FloorApp(): read the body, json.loads, answer"),
)


class BenchError(Exception):
    """A server misbehaved: it died, went silent, or answered wrongly."""


# --- the servers (this same file, run with --serve KEY --port N) -------------------------------


class Adder:
    """A plain object whose one public method becomes objmcp's ``add`` tool."""

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b


class FloorApp:
    """The floor: a bare ASGI app that reads a POST's body, parses it with ``json`` and
    answers the JSON-RPC result, with no checks, no sessions kept and no framework."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            event = await receive()
            body += event.get("body", b"")
            if not event.get("more_body"):
                break
        if scope["method"] == "DELETE":
            await self._answer(send, 204, b"")
            return
        message = json.loads(body)
        method = message.get("method")
        if "id" not in message:
            await self._answer(send, 202, b"")
            return
        headers: tuple[tuple[bytes, bytes], ...] = ()
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "floor", "version": "0"},
            }
            headers = ((b"mcp-session-id", b"floor"),)
        else:
            arguments = message["params"]["arguments"]
            total = Adder().add(arguments["a"], arguments["b"])
            result = {
                "content": [{"type": "text", "text": str(total)}],
                "isError": False,
                "resultType": "complete",
            }
        answer = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        await self._answer(send, 200, json.dumps(answer).encode(), headers)

    @staticmethod
    async def _answer(
        send: Any, status: int, body: bytes, headers: tuple[tuple[bytes, bytes], ...] = ()
    ) -> None:
        kind = [(b"content-type", b"application/json")] if body else []
        length = [(b"content-length", str(len(body)).encode())]
        await send(
            {"type": "http.response.start", "status": status, "headers": [*kind, *length, *headers]}
        )
        await send({"type": "http.response.body", "body": body})


def build_app(key: str) -> Any:
    """Return the ASGI application of server ``key``."""
    if key == "objmcp":
        import objmcp

        return objmcp.asgi_app("bench", Adder())
    if key == "floor":
        return FloorApp()
    if key not in {"sdk", "sdk-json"}:
        raise ValueError(f"no server {key!r}")
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("bench")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    return server.streamable_http_app(stateless_http=False, json_response=key == "sdk-json")


def serve(key: str, port: int) -> None:
    """Serve ``key`` on 127.0.0.1:``port`` with uvicorn until terminated."""
    import uvicorn

    uvicorn.run(build_app(key), host=HOST, port=port, log_level="warning", workers=1)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """One server in a subprocess of its own."""

    def __init__(self, spec: ServerSpec, timeout: float) -> None:
        self.spec = spec
        self.timeout = timeout
        self.port = free_port()
        # Closed in stop(); a file, not a pipe, so a chatty server never blocks on it.
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        command = [sys.executable, __file__, "--serve", spec.key, "--port", str(self.port)]
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=self._stderr,
            stderr=self._stderr,
            env=server_env(),
            cwd=ROOT,
        )

    def wait_ready(self) -> None:
        """Wait until the server accepts connections."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise BenchError(self.died("exited while starting"))
            with socket.socket() as probe:
                if probe.connect_ex((HOST, self.port)) == 0:
                    return
            time.sleep(0.05)
        raise BenchError(self.died(f"not listening after {self.timeout:g}s"))

    def cpu_seconds(self) -> float | None:
        """User + system CPU time the server has used so far (Linux only)."""
        try:
            stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        except OSError:
            return None
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_kib(self) -> int | None:
        """The server's peak resident set size (``VmHWM``, Linux only)."""
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
        except OSError:
            return None
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        return None

    def stderr_text(self) -> str:
        """Everything the server has written so far."""
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    def died(self, what: str) -> str:
        """Describe a failure, with the exit status and the tail of the server's output."""
        code = self.proc.poll()
        status = "still running" if code is None else f"exit code {code}"
        tail = [line.strip() for line in self.stderr_text().splitlines() if line.strip()][-3:]
        return f"{what} ({status})" + (f"; output: {' | '.join(tail)}" if tail else "")

    def stop(self) -> str:
        """Stop the server (terminate, kill after a grace period); return its output."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        text = self.stderr_text()
        self._stderr.close()
        return text


# --- the wire -----------------------------------------------------------------------------------


@dataclass
class Response:
    """One HTTP response, its body de-chunked."""

    status: int
    headers: dict[str, str]
    body: bytes


class ResponseParser:
    """Incremental HTTP/1.1 response parser: ``feed`` bytes, ``next`` takes a whole response."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def feed(self, data: bytes) -> None:
        """Add bytes read from the connection."""
        self.buffer += data

    def next(self) -> Response | None:
        """The next complete response, or None until more bytes have come."""
        buffer = self.buffer
        end = buffer.find(b"\r\n\r\n")
        if end < 0:
            return None
        lines = bytes(buffer[:end]).decode("latin-1").split("\r\n")
        try:
            status = int(lines[0].split(" ", 2)[1])
        except (IndexError, ValueError):
            raise BenchError(f"not an HTTP status line: {lines[0]!r}") from None
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            headers[name] = (
                f"{headers[name]}, {value.strip()}" if name in headers else value.strip()
            )
        start = end + 4
        if status < 200 or status in {204, 304}:
            body, consumed = b"", start
        elif "chunked" in headers.get("transfer-encoding", "").lower():
            found = _dechunk(buffer, start)
            if found is None:
                return None
            body, consumed = found
        elif "content-length" in headers:
            size = int(headers["content-length"])
            if len(buffer) < start + size:
                return None
            body, consumed = bytes(buffer[start : start + size]), start + size
        else:
            raise BenchError(f"a response with neither Content-Length nor chunks: {headers!r}")
        del buffer[:consumed]
        if status < 200:
            return self.next()  # an interim response: the real one follows
        return Response(status, headers, body)


def _dechunk(buffer: bytearray, position: int) -> tuple[bytes, int] | None:
    """The chunked body starting at ``position`` and where it ends, or None if incomplete."""
    chunks: list[bytes] = []
    while True:
        line_end = buffer.find(b"\r\n", position)
        if line_end < 0:
            return None
        size = int(bytes(buffer[position:line_end]).split(b";")[0], 16)
        if size == 0:
            trailer_end = buffer.find(b"\r\n\r\n", line_end)
            if trailer_end < 0:
                return None
            return b"".join(chunks), trailer_end + 4
        data_start = line_end + 2
        if len(buffer) < data_start + size + 2:
            return None
        chunks.append(bytes(buffer[data_start : data_start + size]))
        position = data_start + size + 2


class Wire:
    """The bytes of the requests the driver sends to one server."""

    def __init__(self, port: int) -> None:
        self.head = (
            f"POST {PATH} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
            "Accept: application/json, text/event-stream\r\n"
            "Content-Type: application/json\r\n"
        )
        self.delete_head = f"DELETE {PATH} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"

    def post(self, message: dict[str, Any], headers: dict[str, str]) -> bytes:
        """A POST of ``message`` with ``headers`` added."""
        body = json.dumps(message, separators=(",", ":")).encode()
        extra = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        return f"{self.head}{extra}Content-Length: {len(body)}\r\n\r\n".encode() + body

    def initialize(self) -> bytes:
        """The handshake: ``initialize``."""
        params = {
            "protocolVersion": HANDSHAKE_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "bench-http", "version": "0"},
        }
        return self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}, {})

    def initialized(self, session: str) -> bytes:
        """The handshake's end: ``notifications/initialized``."""
        message = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        return self.post(message, session_headers(session))

    def call(self, session: str | None, request_id: int, a: int, b: int) -> bytes:
        """``tools/call add(a, b)``: in ``session`` (handshake era), or modern if None."""
        params: dict[str, Any] = {"name": "add", "arguments": {"a": a, "b": b}}
        if session is None:
            params["_meta"] = MODERN_META
            headers = {
                "MCP-Protocol-Version": MODERN_VERSION,
                "Mcp-Method": "tools/call",
                "Mcp-Name": "add",
            }
        else:
            headers = session_headers(session)
        message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
        return self.post(message, headers)

    def delete(self, session: str) -> bytes:
        """End ``session``."""
        extra = "".join(f"{name}: {value}\r\n" for name, value in session_headers(session).items())
        return f"{self.delete_head}{extra}Content-Length: 0\r\n\r\n".encode()


def session_headers(session: str) -> dict[str, str]:
    """The headers of a request in a handshake-era session."""
    return {"Mcp-Session-Id": session, "MCP-Protocol-Version": HANDSHAKE_VERSION}


def messages_of(response: Response) -> list[dict[str, Any]]:
    """The JSON-RPC messages of a response: a JSON body, or the events of an SSE one."""
    kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
    try:
        if kind == "application/json":
            found = json.loads(response.body)
            items = found if isinstance(found, list) else [found]
        elif kind == "text/event-stream":
            items, data = [], []
            for line in [*response.body.decode().splitlines(), ""]:
                if line.startswith("data:"):
                    data.append(line[5:].removeprefix(" "))
                elif not line and data:
                    items.append(json.loads("\n".join(data)))
                    data = []
        else:
            raise BenchError(f"unexpected content type {kind!r}: {response.body[:200]!r}")
    except ValueError as exc:
        raise BenchError(f"a body that is not JSON: {response.body[:200]!r}") from exc
    if not all(isinstance(item, dict) for item in items):
        raise BenchError(f"a message that is not an object: {response.body[:200]!r}")
    return items


def answer_of(response: Response, request_id: int) -> dict[str, Any]:
    """The answer to ``request_id`` in a 200 response (notifications before it allowed)."""
    if response.status != 200:
        raise BenchError(f"HTTP {response.status}: {response.body[:300]!r}")
    answer: dict[str, Any] | None = None
    for message in messages_of(response):
        if "method" in message and "id" not in message:
            continue  # a notification (progress, a log record): allowed, ignored
        if "method" in message or message.get("id") != request_id or answer is not None:
            raise BenchError(f"unexpected message for request {request_id}: {message!r}")
        answer = message
    if answer is None:
        raise BenchError(f"no answer to request {request_id}: {response.body[:300]!r}")
    return answer


def check_call(response: Response, request_id: int, expected: int, modern: bool) -> None:
    """Raise BenchError unless ``response`` answers ``request_id`` with ``add`` = ``expected``."""
    answer = answer_of(response, request_id)
    if "error" in answer:
        raise BenchError(f"tools/call answered with an error: {answer['error']!r}")
    result = answer.get("result")
    if not isinstance(result, dict) or result.get("isError"):
        raise BenchError(f"tools/call did not succeed: {answer!r}")
    if modern and result.get("resultType", "complete") != "complete":
        raise BenchError(f"modern tools/call not complete: {result!r}")
    texts = [
        item.get("text")
        for item in result.get("content") or []
        if isinstance(item, dict) and item.get("type") == "text"
    ]
    if texts != [str(expected)]:
        raise BenchError(f"add expected text {str(expected)!r}, got {result!r}")


def arguments(i: int) -> tuple[int, int]:
    """The arguments of the ``i``-th timed call (varied, so no answer can be canned)."""
    return i % 1000, (i * 7) % 1009


class SyncClient:
    """One keep-alive connection, one request at a time (blocking socket)."""

    def __init__(self, port: int, timeout: float) -> None:
        self.sock = socket.create_connection((HOST, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.parser = ResponseParser()

    def exchange(self, request: bytes) -> Response:
        """Send one request, return its response."""
        self.sock.sendall(request)
        while True:
            response = self.parser.next()
            if response is not None:
                return response
            try:
                chunk = self.sock.recv(1 << 16)
            except TimeoutError:
                raise BenchError("no response within the timeout") from None
            if not chunk:
                raise BenchError("the server closed the connection")
            self.parser.feed(chunk)

    def close(self) -> None:
        """Close the connection."""
        self.sock.close()


class AsyncClient:
    """One keep-alive connection driven by asyncio, one request at a time."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.parser = ResponseParser()

    @classmethod
    async def connect(cls, port: int) -> AsyncClient:
        """Open a connection to 127.0.0.1:``port``."""
        reader, writer = await asyncio.open_connection(HOST, port)
        return cls(reader, writer)

    async def exchange(self, request: bytes) -> Response:
        """Send one request, return its response."""
        self.writer.write(request)
        while True:
            response = self.parser.next()
            if response is not None:
                return response
            chunk = await self.reader.read(1 << 16)
            if not chunk:
                raise BenchError("the server closed the connection")
            self.parser.feed(chunk)

    async def close(self) -> None:
        """Close the connection."""
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


def open_session(client: SyncClient, wire: Wire) -> str:
    """Open a handshake-era session; return its id."""
    opened = client.exchange(wire.initialize())
    answer = answer_of(opened, 0)
    version = (answer.get("result") or {}).get("protocolVersion")
    if version != HANDSHAKE_VERSION:
        raise BenchError(f"initialize answered {answer!r}")
    session = opened.headers.get("mcp-session-id")
    if not session:
        raise BenchError("initialize opened no session (no Mcp-Session-Id)")
    told = client.exchange(wire.initialized(session))
    if told.status != 202:
        raise BenchError(f"notifications/initialized: HTTP {told.status} {told.body[:200]!r}")
    return session


def close_session(client: SyncClient, wire: Wire, session: str) -> None:
    """End a handshake-era session with DELETE."""
    ended = client.exchange(wire.delete(session))
    if ended.status not in {200, 202, 204}:
        raise BenchError(f"DELETE of a session: HTTP {ended.status} {ended.body[:200]!r}")


def verify(server: ServerProcess) -> None:
    """Check, before any timing, that ``add(1, 2)`` is ``"3"`` in both eras."""
    wire = Wire(server.port)
    client = SyncClient(server.port, server.timeout)
    try:
        session = open_session(client, wire)
        check_call(client.exchange(wire.call(session, 1, 1, 2)), 1, 3, modern=False)
        close_session(client, wire, session)
        modern = client.exchange(wire.call(None, 2, 1, 2))
        check_call(modern, 2, 3, modern=True)
        if answer_of(modern, 2)["result"].get("resultType") != "complete":
            raise BenchError(f"a modern call answered without resultType: {modern.body!r}")
        if "mcp-session-id" in modern.headers:
            raise BenchError("a modern call was given a session")
    finally:
        client.close()


# --- the measurements ---------------------------------------------------------------------------


def sequential(server: ServerProcess, era: str, calls: int, warmup: int) -> list[int]:
    """``calls`` calls one at a time on one connection; return their round trips (ns).

    The clock runs from just before the request is written to the moment its whole
    response has been read; requests are built and answers checked outside it.
    """
    wire = Wire(server.port)
    client = SyncClient(server.port, server.timeout)
    modern = era == "modern"
    try:
        session = None if modern else open_session(client, wire)
        for i in range(warmup):
            check_call(client.exchange(wire.call(session, i + 1, 1, 2)), i + 1, 3, modern)
        latencies: list[int] = []
        for i in range(calls):
            a, b = arguments(i)
            request_id = warmup + i + 1
            request = wire.call(session, request_id, a, b)
            start = time.perf_counter_ns()
            response = client.exchange(request)
            latencies.append(time.perf_counter_ns() - start)
            check_call(response, request_id, a + b, modern)
        if session is not None:
            close_session(client, wire, session)
        return latencies
    finally:
        client.close()


@dataclass
class Burst:
    """The figures of one throughput run."""

    calls: int
    elapsed_s: float
    server_cpu_s: float | None
    driver_cpu_s: float
    latencies_ns: list[int]

    @property
    def calls_per_s(self) -> float:
        """Answered calls per second."""
        return self.calls / self.elapsed_s

    @property
    def server_cpu_us_per_call(self) -> float | None:
        """The server's CPU time per call, in microseconds."""
        return None if self.server_cpu_s is None else self.server_cpu_s / self.calls * 1e6


async def _burst(
    server: ServerProcess, era: str, sessions: list[str | None], duration: float, warmup: int
) -> Burst:
    wire = Wire(server.port)
    modern = era == "modern"
    clients = [await AsyncClient.connect(server.port) for _ in sessions]
    counts = [0] * len(sessions)
    latencies: list[int] = []
    try:

        async def warm(k: int) -> None:
            for i in range(warmup):
                response = await clients[k].exchange(wire.call(sessions[k], i + 1, 1, 2))
                check_call(response, i + 1, 3, modern)

        await asyncio.gather(*(warm(k) for k in range(len(sessions))))
        cpu_before = server.cpu_seconds()
        driver_before = time.process_time()
        start = time.perf_counter()
        deadline = start + duration

        async def work(k: int) -> None:
            client, session = clients[k], sessions[k]
            i = 0
            while time.perf_counter() < deadline:
                a, b = arguments(k * 100_003 + i)
                request_id = warmup + i + 1
                began = time.perf_counter_ns()
                response = await client.exchange(wire.call(session, request_id, a, b))
                latencies.append(time.perf_counter_ns() - began)
                check_call(response, request_id, a + b, modern)
                i += 1
            counts[k] = i

        await asyncio.wait_for(
            asyncio.gather(*(work(k) for k in range(len(sessions)))),
            duration + server.timeout,
        )
        elapsed = time.perf_counter() - start
        cpu_after = server.cpu_seconds()
        driver_cpu = time.process_time() - driver_before
    except asyncio.TimeoutError:
        raise BenchError(f"no answer within {server.timeout:g}s under load") from None
    finally:
        for client in clients:
            await client.close()
    server_cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return Burst(sum(counts), elapsed, server_cpu, driver_cpu, latencies)


def burst(server: ServerProcess, era: str, concurrency: int, duration: float) -> Burst:
    """``concurrency`` clients calling back to back for ``duration`` seconds.

    Each client has a keep-alive connection of its own and, in the handshake era, a
    session of its own (opened before, deleted after; not timed).
    """
    sessions: list[str | None] = [None] * concurrency
    wire = Wire(server.port)
    setup = SyncClient(server.port, server.timeout)
    try:
        if era == "handshake":
            sessions = [open_session(setup, wire) for _ in range(concurrency)]
        result = asyncio.run(_burst(server, era, sessions, duration, warmup=10))
        for session in sessions:
            if session is not None:
                close_session(setup, wire, session)
        return result
    finally:
        setup.close()


# --- results ------------------------------------------------------------------------------------


@dataclass
class ServerResult:
    """Everything measured for one server, or why it could not be."""

    spec: ServerSpec
    error: str | None = None
    latencies_ns: dict[str, list[int]] = field(default_factory=lambda: {e: [] for e in ERAS})
    bursts: dict[str, list[Burst]] = field(default_factory=lambda: {e: [] for e in ERAS})
    peak_rss_kib: int | None = None
    output: str = ""

    @property
    def available(self) -> bool:
        """True if the server started and answered correctly throughout."""
        return self.error is None

    def figures(self) -> dict[str, float | None]:
        """The reported figures (None where unknown)."""
        found: dict[str, float | None] = dict.fromkeys(METRIC_KEYS)
        if not self.available:
            return found
        for era in ERAS:
            latencies = self.latencies_ns[era]
            if latencies:
                found[f"{era}_rtt_median_us"] = statistics.median(latencies) / 1e3
                found[f"{era}_rtt_p90_us"] = percentile(latencies, 90) / 1e3
            bursts = self.bursts[era]
            if bursts:
                found[f"{era}_calls_per_s"] = statistics.median(b.calls_per_s for b in bursts)
                loaded = [ns for b in bursts for ns in b.latencies_ns]
                found[f"{era}_loaded_p99_us"] = percentile(loaded, 99) / 1e3 if loaded else None
                cpu = [b.server_cpu_us_per_call for b in bursts]
                if all(value is not None for value in cpu):
                    found[f"{era}_server_cpu_us"] = statistics.median(
                        value for value in cpu if value is not None
                    )
        if self.peak_rss_kib is not None:
            found["peak_rss_mib"] = self.peak_rss_kib / 1024
        return found


# (key, label, higher_is_better, format)
METRICS: tuple[tuple[str, str, bool, str], ...] = (
    *(
        metric
        for era in ERAS
        for metric in (
            (f"{era}_rtt_median_us", f"{era}: sequential call RTT median (us)", False, "{:.0f}"),
            (f"{era}_rtt_p90_us", f"{era}: sequential call RTT p90 (us)", False, "{:.0f}"),
        )
    ),
    *(
        metric
        for era in ERAS
        for metric in (
            (f"{era}_calls_per_s", f"{era}: throughput, C clients (calls/s)", True, "{:.0f}"),
            (f"{era}_loaded_p99_us", f"{era}: call RTT p99 under load (us)", False, "{:.0f}"),
            (f"{era}_server_cpu_us", f"{era}: server CPU per call, loaded (us)", False, "{:.0f}"),
        )
    ),
    ("peak_rss_mib", "server peak RSS at the end (MiB)", False, "{:.1f}"),
)
METRIC_KEYS: tuple[str, ...] = tuple(metric[0] for metric in METRICS)


def ratios(results: Sequence[ServerResult]) -> dict[str, dict[str, float | None]]:
    """objmcp / each other server, for every figure."""
    figures = {r.spec.key: r.figures() for r in results}
    if "objmcp" not in figures:
        return {}
    mine = figures["objmcp"]
    return {
        f"objmcp/{key}": {metric: ratio(mine[metric], other[metric]) for metric in METRIC_KEYS}
        for key, other in figures.items()
        if key != "objmcp"
    }


def render_table(results: Sequence[ServerResult], concurrency: int) -> str:
    """The figures and ratios as a plain-text table."""
    figures = {r.spec.key: r.figures() for r in results}
    relative = ratios(results)
    headers = ["metric", *(r.spec.label for r in results), *relative]
    metrics = [
        (key, label.replace("C clients", f"{concurrency} clients"), higher, fmt)
        for key, label, higher, fmt in METRICS
    ]
    rows = metric_rows(metrics, [figures[r.spec.key] for r in results], relative)
    lines = table(headers, rows)
    for result in results:
        if not result.available:
            lines.append(f"{result.spec.label}: UNAVAILABLE: {result.error}")
    return "\n".join(lines)


def troubles(output: str) -> list[str]:
    """The lines of a server's output that speak of trouble."""
    words = ("error", "exception", "traceback", "warning")
    return [line for line in output.splitlines() if any(w in line.lower() for w in words)]


def to_json(results: Sequence[ServerResult], options: dict[str, Any]) -> dict[str, Any]:
    """Every figure, per-round data, ratios and the environment, as JSON."""
    return {
        "meta": {
            **options,
            "handshake_version": HANDSHAKE_VERSION,
            "modern_version": MODERN_VERSION,
            **environment(),
            "versions": {
                name: library_version(name)
                for name in ("objmcp", "mcp", "uvicorn", "h11", "starlette", "anyio")
            },
            "uvloop": importlib.util.find_spec("uvloop") is not None,
            "httptools": importlib.util.find_spec("httptools") is not None,
        },
        "servers": {
            r.spec.key: {
                "label": r.spec.label,
                "app": r.spec.description,
                "available": r.available,
                "error": r.error,
                "figures": r.figures(),
                "rounds": {
                    era: [
                        {
                            "calls": b.calls,
                            "elapsed_s": b.elapsed_s,
                            "calls_per_s": b.calls_per_s,
                            "server_cpu_us_per_call": b.server_cpu_us_per_call,
                            "driver_cpu_share": b.driver_cpu_s / b.elapsed_s,
                            "loaded_rtt_median_us": statistics.median(b.latencies_ns) / 1e3
                            if b.latencies_ns
                            else None,
                            "loaded_rtt_p99_us": percentile(b.latencies_ns, 99) / 1e3
                            if b.latencies_ns
                            else None,
                        }
                        for b in r.bursts[era]
                    ]
                    for era in ERAS
                },
                "output_troubles": troubles(r.output)[-20:],
            }
            for r in results
        },
        "ratios": ratios(results),
    }


def benchmark(
    specs: Sequence[ServerSpec],
    calls: int,
    duration: float,
    concurrency: int,
    rounds: int,
    timeout: float,
    log: Callable[[str], None],
) -> list[ServerResult]:
    """Start every server, check it, then measure in interleaved rounds."""
    results = [ServerResult(spec) for spec in specs]
    servers = {spec.key: ServerProcess(spec, timeout) for spec in specs}
    try:
        for result in results:
            server = servers[result.spec.key]
            try:
                server.wait_ready()
                verify(server)
            except (BenchError, OSError) as exc:
                result.error = f"{exc}"
                log(f"{result.spec.key} unavailable: {result.error}")
        warmup = min(100, calls)
        for round_index in range(rounds):
            shift = round_index % len(results)
            order = results[shift:] + results[:shift]
            phases: list[tuple[str, str]] = [("sequential", era) for era in ERAS]
            phases += [("throughput", era) for era in ERAS]
            for phase, era in phases:
                for result in order:
                    if not result.available:
                        continue
                    log(f"round {round_index + 1}/{rounds}: {phase} {era}: {result.spec.key}")
                    server = servers[result.spec.key]
                    try:
                        if phase == "sequential":
                            result.latencies_ns[era] += sequential(server, era, calls, warmup)
                        else:
                            found = burst(server, era, concurrency, duration)
                            result.bursts[era].append(found)
                            log(
                                f"  {found.calls_per_s:.0f} calls/s, driver CPU "
                                f"{found.driver_cpu_s / found.elapsed_s:.0%}"
                            )
                    except (BenchError, OSError) as exc:
                        result.error = f"{phase} {era}, round {round_index + 1}: {exc}"
                        if server.proc.poll() is not None:
                            result.error = server.died(result.error)
                        log(f"  {result.spec.key} failed: {result.error}")
        for result in results:
            result.peak_rss_kib = servers[result.spec.key].peak_rss_kib()
    finally:
        for result in results:
            result.output = servers[result.spec.key].stop()
    return results


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print the table; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    parser.add_argument("--quick", action="store_true", help="a short run (smaller defaults)")
    parser.add_argument("--calls", type=int, help="sequential calls per era and round (1000)")
    parser.add_argument("--duration", type=float, help="seconds of each throughput run (3)")
    parser.add_argument("--concurrency", type=int, default=16, help="clients (default 16)")
    parser.add_argument("--rounds", type=int, help="measured rounds (3)")
    parser.add_argument(
        "--servers",
        default=",".join(s.key for s in SERVERS),
        help="comma-separated subset of: " + ", ".join(s.key for s in SERVERS),
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait (30)")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve is not None:
        serve(args.serve, args.port)
        return 0
    calls = args.calls or (200 if args.quick else 1000)
    duration = args.duration or (1.0 if args.quick else 3.0)
    rounds = args.rounds or (1 if args.quick else 3)
    if calls < 1 or rounds < 1 or duration <= 0 or args.concurrency < 1:
        parser.error("--calls, --rounds, --duration and --concurrency must be positive")
    wanted = [key.strip() for key in args.servers.split(",") if key.strip()]
    known = {spec.key: spec for spec in SERVERS}
    unknown = [key for key in wanted if key not in known]
    if unknown:
        parser.error(f"unknown servers: {', '.join(unknown)}")

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    specs = [known[key] for key in wanted]
    compile_sources(log)
    results = benchmark(specs, calls, duration, args.concurrency, rounds, args.timeout, log)
    print(
        f"\nStreamable HTTP on {HOST}, uvicorn (one worker each): {calls} sequential calls per "
        f"era x {rounds} rounds; throughput: {args.concurrency} clients x {duration:g} s "
        f"x {rounds} rounds; {sys.executable}"
    )
    print(render_table(results, args.concurrency))
    print("ratios are objmcp / other: below 1x is better, except throughput (above 1x is better)")
    for result in results:
        found = troubles(result.output)
        if found:
            print(f"{result.spec.label} wrote {len(found)} troubled line(s), last: {found[-1]}")
    if args.json:
        options = {
            "calls": calls,
            "duration_s": duration,
            "concurrency": args.concurrency,
            "rounds": rounds,
        }
        args.json.write_text(json.dumps(to_json(results, options), indent=2) + "\n")
        log(f"wrote {args.json}")
    return 0 if all(r.available for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
