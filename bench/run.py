"""Benchmark objmcp against the official MCP SDK, FastMCP and a bare-loop floor.

Every server in ``bench/servers/`` serves the same tools over stdio:
``add(a: int, b: int) -> int`` for the round trips, and ``length(text: str)
-> int`` and ``blob(size: int) -> str`` for the payloads. One raw-pipe driver
(a subprocess with pipes, newline-delimited JSON-RPC, protocol version
``2025-06-18``) is used identically for each of them and measures:

* startup: wall time from spawning the process to reading its
  ``initialize`` reply (median over ``--repeat`` spawns);
* sequential round trip of one ``tools/call`` (median and p90 over
  ``--calls`` calls per spawn, pooled over all spawns);
* pipelined throughput: ``--calls`` requests written without waiting for
  answers, then all answers read, in calls per second (median over spawns);
* peak RSS of the server process after all calls (``VmHWM`` from
  ``/proc/<pid>/status``, read before stdin is closed; median over spawns);
* import time of the server's library: ``import X`` timed with
  ``time.perf_counter`` inside a fresh ``python -c`` (median of
  ``max(5, --repeat)`` runs), so interpreter start and shutdown are excluded;
* the library's own start-up over anyio's: for a library built on anyio, the
  same import followed by an idle ``anyio.run``, less an idle ``anyio.run``
  alone (the import of anyio and asyncio, and an event loop started and
  stopped, which any of them pays before it serves); median of the per-run
  differences;
* payloads, in spawns of their own: the round trip of ``length(text)`` with a
  ``--payload-mb`` (10 MB) string argument, and of ``blob(size)`` whose result
  is a string that size, in MB/s of the string (median over all such calls).

Every answer is checked (the text content of ``add(a, b)`` must be
``str(a + b)``, of ``length`` the length sent, of ``blob`` the very string),
so a broken server fails instead of being measured. A server that cannot
start (e.g. objmcp is not importable yet) is reported as unavailable and the
others are still measured.

Usage::

    python bench/run.py [--json out.json] [--calls N] [--repeat R]

The driver also speaks Content-Length framing (``Session(framing=...)``),
which ``framing.py`` uses to compare objmcp's two framings.

Only the standard library is used here; the servers use their own libraries
and run under the interpreter that runs this script (``sys.executable``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

from figures import (
    BENCH_DIR,
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

PROTOCOL_VERSION = "2025-06-18"
SERVERS_DIR = BENCH_DIR / "servers"
Framing = Literal["newline", "content-length"]
PAYLOAD_TOOLS = ("length", "blob")
WARM_UP_S = 0.1
"""Seconds of calls, not counted, before the measured ones (at least 50 calls): for its
first tens of milliseconds a new process's threads may share a core until the kernel
spreads them, which is not the cost of a call (pinned with taskset, the first calls are
as quick as the rest)."""
PLAIN_HEADER = re.compile(rb"Content-Length: ([0-9]{1,18})\r\n\r\n")
"""The header objmcp writes, read in one match (any other takes the long way)."""
LATENCY_PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9)


@dataclass(frozen=True)
class ServerSpec:
    """One server under test: its script and the library it imports.

    ``names``, if given, are imported from ``module`` the way the script does
    (``from fastmcp import FastMCP``): some packages import their parts lazily,
    so a bare ``import module`` would time too little. ``bare``, if given, is
    timed as well and reported on a row of its own (``import objmcp``, which
    leaves the serving side for its first use). ``on_anyio``: the library serves on
    anyio, so its start-up over anyio's own is timed too.
    """

    key: str
    label: str
    script: Path
    module: str
    names: str = ""
    bare: str = ""
    on_anyio: bool = True

    @property
    def import_statement(self) -> str:
        """The statement whose time is the library's import time."""
        if self.names:
            return f"from {self.module} import {self.names}"
        return f"import {self.module}"


SERVERS: tuple[ServerSpec, ...] = (
    ServerSpec(
        "objmcp", "objmcp", SERVERS_DIR / "objmcp_add.py", "objmcp", "Server", "import objmcp"
    ),
    ServerSpec("sdk", "mcp SDK", SERVERS_DIR / "sdk_add.py", "mcp.server.mcpserver", "MCPServer"),
    ServerSpec("fastmcp", "FastMCP", SERVERS_DIR / "fastmcp_add.py", "fastmcp", "FastMCP"),
    ServerSpec("floor", "floor", SERVERS_DIR / "floor.py", "json", on_anyio=False),
)
OTHERS: tuple[str, ...] = tuple(s.key for s in SERVERS if s.key != "objmcp")


class BenchError(Exception):
    """A server misbehaved: it died, went silent, or answered wrongly."""


@dataclass
class SessionResult:
    """Figures from one spawned server process."""

    startup_s: float
    latencies_ns: list[int]
    pipelined_calls_per_s: float
    peak_rss_kib: int


@dataclass
class PayloadResult:
    """Figures from one spawn of the payload phase: seconds per round trip, and the
    server's minor page faults during each (empty where /proc cannot tell)."""

    size: int
    argument_s: list[float]
    result_s: list[float]
    peak_rss_kib: int
    argument_faults: list[int] = field(default_factory=list)
    result_faults: list[int] = field(default_factory=list)


@dataclass
class ServerResult:
    """Everything measured for one server, or why it could not be."""

    spec: ServerSpec
    error: str | None = None
    tool_name: str | None = None
    sessions: list[SessionResult] = field(default_factory=list)
    import_s: float | None = None
    bare_import_s: float | None = None
    own_start_s: float | None = None
    anyio_start_s: float | None = None
    payloads: list[PayloadResult] = field(default_factory=list)
    payload_error: str | None = None

    @property
    def latencies_ns(self) -> list[int]:
        """Every sequential round trip, pooled over the spawns."""
        return [ns for s in self.sessions for ns in s.latencies_ns]

    @property
    def available(self) -> bool:
        """True if the server started and answered correctly."""
        return self.error is None

    def figures(self) -> dict[str, float | None]:
        """Summarise the sessions into the reported figures (None if unknown)."""
        if not self.available or not self.sessions:
            return dict.fromkeys(METRIC_KEYS)
        latencies = self.latencies_ns
        return {
            "startup_ms": statistics.median(s.startup_s for s in self.sessions) * 1e3,
            "rtt_median_us": statistics.median(latencies) / 1e3 if latencies else None,
            "rtt_p90_us": percentile(latencies, 90) / 1e3 if latencies else None,
            "pipelined_calls_per_s": statistics.median(
                s.pipelined_calls_per_s for s in self.sessions
            ),
            "peak_rss_mib": statistics.median(s.peak_rss_kib for s in self.sessions) / 1024,
            "import_ms": None if self.import_s is None else self.import_s * 1e3,
            "bare_import_ms": None if self.bare_import_s is None else self.bare_import_s * 1e3,
            "own_start_ms": None if self.own_start_s is None else self.own_start_s * 1e3,
            "anyio_start_ms": None if self.anyio_start_s is None else self.anyio_start_s * 1e3,
            **payload_figures(self.payloads if self.payload_error is None else []),
        }


def payload_figures(payloads: Sequence[PayloadResult]) -> dict[str, float | None]:
    """MB/s of each payload direction (the string's size over the median round trip), and
    the median page faults of a round trip."""
    found: dict[str, float | None] = dict.fromkeys(PAYLOAD_KEYS)
    for key, times in (
        ("argument_mb_s", [(p.size, s) for p in payloads for s in p.argument_s]),
        ("result_mb_s", [(p.size, s) for p in payloads for s in p.result_s]),
    ):
        if times:
            found[key] = statistics.median(size / 1e6 / seconds for size, seconds in times)
    for key, faults in (
        ("argument_faults", [n for p in payloads for n in p.argument_faults]),
        ("result_faults", [n for p in payloads for n in p.result_faults]),
    ):
        if faults:
            found[key] = statistics.median(faults)
    return found


# (key, label, higher_is_better, format)
METRICS: tuple[tuple[str, str, bool, str], ...] = (
    ("startup_ms", "startup: spawn -> initialize reply (ms)", False, "{:.1f}"),
    ("rtt_median_us", "sequential tools/call RTT median (us)", False, "{:.1f}"),
    ("rtt_p90_us", "sequential tools/call RTT p90 (us)", False, "{:.1f}"),
    ("pipelined_calls_per_s", "pipelined throughput (calls/s)", True, "{:.0f}"),
    ("peak_rss_mib", "peak RSS after calls (MiB)", False, "{:.1f}"),
    ("import_ms", "library import time, the names the server uses (ms)", False, "{:.1f}"),
    ("bare_import_ms", "library import time, the bare package (ms)", False, "{:.1f}"),
    ("own_start_ms", "library start-up over anyio's own (ms)", False, "{:.1f}"),
    ("anyio_start_ms", "anyio's own: imported, an idle event loop run (ms)", False, "{:.1f}"),
    ("argument_mb_s", "payload: P string argument round trip (MB/s)", True, "{:.1f}"),
    ("result_mb_s", "payload: P string result round trip (MB/s)", True, "{:.1f}"),
    ("argument_faults", "payload: page faults, P string argument round trip", False, "{:.0f}"),
    ("result_faults", "payload: page faults, P string result round trip", False, "{:.0f}"),
)
METRIC_KEYS: tuple[str, ...] = tuple(m[0] for m in METRICS)
PAYLOAD_KEYS: tuple[str, ...] = ("argument_mb_s", "result_mb_s", "argument_faults", "result_faults")
FAULT_KEYS: tuple[str, ...] = ("argument_faults", "result_faults")
"""Minor page faults of the server (median over the round trips): each is a page of fresh
memory touched. Whether the allocator hands a freed 10 MB block back to the system (and so
the next one faults in afresh) depends on what else is on its heap at that moment, so these
can differ between two servers, or two framings, for no reason in the code of either; they
say what part of a payload figure is the memory's, and are not compared."""
ANYIO_KEYS: tuple[str, ...] = ("own_start_ms",)
"""The figures only a server on anyio has: divided where both have them."""
NOT_DIVIDED: tuple[str, ...] = ("bare_import_ms", "anyio_start_ms", *FAULT_KEYS)
"""Figures shown but never divided: objmcp's alone, or the same for all, or the allocator's."""
RATIO_KEYS: tuple[str, ...] = tuple(
    key for key in METRIC_KEYS if key not in NOT_DIVIDED and key not in ANYIO_KEYS
)
"""The figures every server has, so objmcp's can be divided by theirs."""
ANYIO_START = "import anyio\nasync def _idle() -> None: pass\nanyio.run(_idle)"
"""What any server on anyio does before it serves: import anyio (and asyncio, its
backend), start an event loop and stop it."""


def dump(message: dict[str, Any]) -> bytes:
    """Serialise one JSON-RPC message (compact, no framing)."""
    return json.dumps(message, separators=(",", ":")).encode()


def call_body(request_id: int, tool: str, arguments: dict[str, Any]) -> bytes:
    """The JSON of the ``tools/call`` request for ``tool(**arguments)``."""
    return dump(
        {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        }
    )


def check_text_reply(reply: dict[str, Any], expected: str) -> None:
    """Raise BenchError unless ``reply`` is a successful result whose text is ``expected``."""
    if "error" in reply:
        raise BenchError(f"tools/call answered with an error: {str(reply['error'])[:300]}")
    result = reply.get("result")
    if not isinstance(result, dict):
        raise BenchError(f"tools/call reply without a result object: {str(reply)[:300]}")
    if result.get("isError"):
        raise BenchError(f"tools/call reported a tool error: {str(result)[:300]}")
    content = result.get("content")
    texts = [
        item.get("text")
        for item in content or []
        if isinstance(item, dict) and item.get("type") == "text"
    ]
    if texts != [expected]:
        raise BenchError(f"tools/call expected text {expected[:40]!r}, got {str(result)[:300]}")


def check_call_reply(reply: dict[str, Any], expected: int) -> None:
    """Raise BenchError unless ``reply`` is a successful add result equal to ``expected``."""
    check_text_reply(reply, str(expected))


def payload_text(size: int) -> str:
    """The string argument of the payload phase: ``size`` ASCII characters, none escaped."""
    pattern = "The quick brown fox jumps over the lazy dog 0123456789. "
    return (pattern * (size // len(pattern) + 1))[:size]


class Session:
    """One spawned server process, driven over raw pipes.

    ``framing`` is how messages are delimited both ways: ``newline`` (one JSON text a
    line) or ``content-length`` (a ``Content-Length: N`` header, a blank line, then N
    bytes of JSON; only objmcp speaks it).
    """

    def __init__(
        self,
        spec: ServerSpec,
        env: dict[str, str],
        timeout: float,
        framing: Framing = "newline",
    ) -> None:
        """Spawn the server; the clock for the startup figure starts here."""
        self.spec = spec
        self.timeout = timeout
        self.framing: Framing = framing
        # Closed in close(); a file, not a pipe, so a chatty server never blocks on it.
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        self._buffer = bytearray()
        self._search_from = 0  # newline framing: no newline before this in the buffer
        self._body_length: int | None = None  # content-length framing: of the frame read
        self._next_id = 0
        self.spawned_at = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, str(spec.script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
            cwd=ROOT,
            bufsize=0,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in_fd = self.proc.stdin.fileno()
        self._out_fd = self.proc.stdout.fileno()

    def new_id(self) -> int:
        """Return a fresh request id."""
        self._next_id += 1
        return self._next_id

    def frame(self, body: bytes) -> bytes:
        """Frame one JSON body in this session's framing."""
        if self.framing == "content-length":
            return b"Content-Length: %d\r\n\r\n%b" % (len(body), body)
        return body + b"\n"

    def encode(self, message: dict[str, Any]) -> bytes:
        """Serialise and frame one JSON-RPC message."""
        return self.frame(dump(message))

    def send(self, data: bytes) -> None:
        """Write all of ``data`` to the server's stdin."""
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._in_fd, view) :]
        except BrokenPipeError as exc:
            raise BenchError(self.died("stdin closed")) from exc

    def _take_frame(self) -> bytes | None:
        """Take the next whole frame's body off the buffer, or None if there is none yet.

        Each byte is looked at once however the frame arrives in pieces, so a
        frame of many megabytes costs the driver linear time.
        """
        buffer = self._buffer
        if not buffer and self._body_length is None:
            return None
        if self.framing == "newline":
            end = buffer.find(b"\n", self._search_from)
            if end < 0:
                self._search_from = len(buffer)
                return None
            with memoryview(buffer) as view:
                line = bytes(view[:end])
            del buffer[: end + 1]
            self._search_from = 0
            return line
        if self._body_length is None and (plain := PLAIN_HEADER.match(buffer)) is not None:
            start, length = plain.end(), int(plain[1])
            if len(buffer) >= start + length:  # the whole frame: one copy, one cut
                with memoryview(buffer) as view:
                    body = bytes(view[start : start + length])
                del buffer[: start + length]
                return body
            self._body_length = length
            del buffer[:start]
        if self._body_length is None:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                if bytes(buffer.lstrip()[:1]) in (b"{", b"["):
                    raise BenchError(f"not a Content-Length frame: {bytes(buffer[:80])!r}")
                return None
            self._body_length = content_length(bytes(buffer[:end]))
            del buffer[: end + 4]
        if len(buffer) < self._body_length:
            return None
        with memoryview(buffer) as view:
            body = bytes(view[: self._body_length])
        del buffer[: self._body_length]
        self._body_length = None
        return body

    def read_frame(self) -> bytes:
        """Return the body of the next frame from the server's stdout."""
        deadline = time.monotonic() + self.timeout
        while True:
            body = self._take_frame()
            if body is not None:
                return body
            self._fill(deadline)

    def _fill(self, deadline: float) -> None:
        """Read whatever stdout has into the buffer, waiting until ``deadline``."""
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([self._out_fd], [], [], remaining)[0]:
            raise BenchError(self.died(f"no answer within {self.timeout:g}s"))
        chunk = os.read(self._out_fd, 1 << 16)
        if not chunk:
            raise BenchError(self.died("stdout closed"))
        self._buffer += chunk

    def read_message(self) -> dict[str, Any]:
        """Return the next JSON-RPC message from the server, skipping blank lines."""
        while True:
            body = self.read_frame()
            if body.strip():
                return parse(body)

    def read_reply(self, request_id: int) -> dict[str, Any]:
        """Return the reply to ``request_id``, ignoring server notifications."""
        while True:
            message = self.read_message()
            if message.get("id") == request_id and "method" not in message:
                return message
            if "id" in message and "method" not in message:
                raise BenchError(f"reply to unknown id: {message!r}")
            if "id" in message:
                raise BenchError(f"unexpected server request: {message!r}")

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one request and return its reply."""
        request_id = self.new_id()
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(self.encode(message))
        return self.read_reply(request_id)

    def initialize(self) -> float:
        """Run the initialize handshake; return seconds from spawn to the reply."""
        reply = self.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "objmcp-bench", "version": "0"},
            },
        )
        elapsed = time.perf_counter() - self.spawned_at
        result = reply.get("result")
        if not isinstance(result, dict) or "capabilities" not in result:
            raise BenchError(f"bad initialize reply: {reply!r}")
        if result.get("protocolVersion") != PROTOCOL_VERSION:
            raise BenchError(f"server did not accept {PROTOCOL_VERSION}: {reply!r}")
        if "tools" not in result["capabilities"]:
            raise BenchError(f"server does not declare tools: {reply!r}")
        self.send(self.encode({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        return elapsed

    def list_tools(self) -> dict[str, dict[str, Any]]:
        """Return the listed tools by name (one ``tools/list`` page)."""
        reply = self.request("tools/list")
        tools = (reply.get("result") or {}).get("tools")
        if not isinstance(tools, list):
            raise BenchError(f"bad tools/list reply: {reply!r}")
        return {
            str(t["name"]): t
            for t in tools
            if isinstance(t, dict) and isinstance(t.get("name"), str)
        }

    def find_add_tool(self) -> str:
        """Return the name under which the server lists the ``add`` tool."""
        tools = self.list_tools()
        names = list(tools)
        candidates = [n for n in names if n == "add"] or [
            n for n in names if n.lower().endswith("add")
        ]
        if len(candidates) != 1:
            raise BenchError(f"cannot find one add tool in tools/list: {names!r}")
        properties = (tools[candidates[0]].get("inputSchema") or {}).get("properties") or {}
        if not {"a", "b"} <= set(properties):
            raise BenchError(f"add tool schema lacks a and b: {tools[candidates[0]]!r}")
        return candidates[0]

    def call(self, tool: str, a: int, b: int) -> None:
        """Call ``tool(a, b)`` once and check the answer."""
        request_id = self.new_id()
        self.send(self.frame(call_body(request_id, tool, {"a": a, "b": b})))
        check_call_reply(self.read_reply(request_id), a + b)

    def exchange(self, data: bytes, request_id: int) -> tuple[int, dict[str, Any]]:
        """Send the framed request ``data``; return (round trip in ns, its reply).

        The clock starts before the first byte is written and stops when the reply's
        whole frame has arrived; parsing and checking the reply are left outside it
        (only a notification coming first is parsed inside it, to be skipped).
        """
        start = time.perf_counter_ns()
        self.send(data)
        body = self.read_frame()
        stop = time.perf_counter_ns()
        message = parse(body)
        while "method" in message:  # a notification came first: skip it
            if "id" in message:
                raise BenchError(f"unexpected server request: {message!r}")
            message = parse(self.read_frame())
            stop = time.perf_counter_ns()
        if message.get("id") != request_id:
            raise BenchError(f"reply to wrong id (wanted {request_id}): {str(message)[:300]}")
        return stop - start, message

    def sequential(self, tool: str, count: int) -> list[int]:
        """Make ``count`` calls one after another; return each round trip in ns.

        Requests are encoded beforehand and the clock stops when the reply frame
        arrives, so the figure holds as little client work as possible; every
        reply is parsed and checked after its clock has stopped.
        """
        latencies: list[int] = []
        for i in range(count):
            a, b = i, i % 7 + 1
            request_id = self.new_id()
            data = self.frame(call_body(request_id, tool, {"a": a, "b": b}))
            elapsed, message = self.exchange(data, request_id)
            latencies.append(elapsed)
            check_call_reply(message, a + b)
        return latencies

    def payload_argument(self, size: int) -> float:
        """One ``length(text)`` with a ``size``-character string; return the round trip (s)."""
        request_id = self.new_id()
        data = self.frame(call_body(request_id, "length", {"text": payload_text(size)}))
        elapsed, message = self.exchange(data, request_id)
        del data
        check_text_reply(message, str(size))
        return elapsed / 1e9

    def payload_result(self, size: int) -> float:
        """One ``blob(size)``, a string of ``size`` characters back; return the round trip (s)."""
        request_id = self.new_id()
        data = self.frame(call_body(request_id, "blob", {"size": size}))
        elapsed, message = self.exchange(data, request_id)
        check_text_reply(message, "x" * size)
        return elapsed / 1e9

    def pipelined(self, tool: str, count: int) -> float:
        """Write ``count`` calls without waiting, read all answers; return calls/s.

        Writing and reading are interleaved with ``select`` on non-blocking
        stdin so neither side can deadlock on a full pipe; no request waits for
        an earlier answer. Answers may arrive in any order and are matched by id.
        """
        expected: dict[int, int] = {}
        frames: list[bytes] = []
        for i in range(count):
            a, b = count - i, i
            request_id = self.new_id()
            expected[request_id] = a + b
            frames.append(self.frame(call_body(request_id, tool, {"a": a, "b": b})))
        pending = memoryview(b"".join(frames))
        replies: dict[int, dict[str, Any]] = {}
        os.set_blocking(self._in_fd, False)
        try:
            start = time.perf_counter()
            deadline = time.monotonic() + self.timeout
            while len(replies) < count:
                body = self._take_frame()
                if body is not None:
                    self._take_reply(body, expected, replies)
                    continue
                remaining = deadline - time.monotonic()
                writers = [self._in_fd] if pending else []
                readable, writable, _ = select.select(
                    [self._out_fd], writers, [], max(remaining, 0)
                )
                if not readable and not writable:
                    raise BenchError(
                        self.died(f"pipelined: {len(replies)}/{count} answers in {self.timeout:g}s")
                    )
                if writable:
                    try:
                        pending = pending[os.write(self._in_fd, pending) :]
                    except BlockingIOError:
                        pass
                    except BrokenPipeError as exc:
                        raise BenchError(self.died("stdin closed")) from exc
                if readable:
                    chunk = os.read(self._out_fd, 1 << 16)
                    if not chunk:
                        raise BenchError(self.died("stdout closed"))
                    self._buffer += chunk
                    deadline = time.monotonic() + self.timeout
            elapsed = time.perf_counter() - start
        finally:
            os.set_blocking(self._in_fd, True)
        for request_id, reply in replies.items():
            check_call_reply(reply, expected[request_id])
        return count / elapsed

    @staticmethod
    def _take_reply(
        line: bytes, expected: dict[int, int], replies: dict[int, dict[str, Any]]
    ) -> None:
        """Record one pipelined answer frame (notifications are skipped)."""
        if not line.strip():
            return
        message = parse(line)
        if "method" in message:
            if "id" in message:
                raise BenchError(f"unexpected server request: {message!r}")
            return
        request_id = message.get("id")
        if request_id not in expected or request_id in replies:
            raise BenchError(f"unexpected or duplicate reply id: {message!r}")
        replies[request_id] = message

    def minor_faults(self) -> int | None:
        """The server's minor page faults so far (None where /proc cannot say)."""
        try:
            stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        except OSError:
            return None
        return int(stat.rsplit(")", 1)[1].split()[7])  # the 10th field, minflt

    def peak_rss_kib(self) -> int:
        """Return the server's peak resident set size (VmHWM) in KiB."""
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        raise BenchError("VmHWM not found in /proc/<pid>/status")

    def died(self, what: str) -> str:
        """Describe a failure, with the exit status and stderr tail if the server died."""
        try:  # a server that closed stdout is usually exiting: give it a moment
            code: int | None = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        status = "still running" if code is None else f"exit code {code}"
        tail = self.stderr_tail()
        return f"{what} ({status})" + (f"; stderr: {tail}" if tail else "")

    def stderr_tail(self, lines: int = 3) -> str:
        """Return the last ``lines`` non-blank lines the server wrote to stderr, joined."""
        self._stderr.seek(0)
        text = self._stderr.read().decode(errors="replace")
        tail = [line.strip() for line in text.splitlines() if line.strip()][-lines:]
        return " | ".join(tail)

    def close(self) -> None:
        """Close stdin, let the server exit (kill it after a grace period)."""
        with contextlib.suppress(OSError):
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        self._stderr.close()


def content_length(header: bytes) -> int:
    """The body size a Content-Length frame header announces."""
    if header.startswith(b"Content-Length: ") and header[16:].isdigit():
        return int(header[16:])  # the usual header, and all objmcp writes: quickly
    for line in header.strip().split(b"\r\n"):
        name, colon, value = line.partition(b":")
        if colon and name.strip().lower() == b"content-length" and value.strip().isdigit():
            return int(value.strip())
    raise BenchError(f"a frame header without a Content-Length: {header[:200]!r}")


def parse(line: bytes) -> dict[str, Any]:
    """Decode one JSON-RPC message, raising BenchError if it is not an object."""
    try:
        message = json.loads(line)
    except ValueError as exc:
        raise BenchError(f"server wrote a non-JSON frame: {line[:200]!r}") from exc
    if not isinstance(message, dict):
        raise BenchError(f"server wrote a non-object message: {line[:200]!r}")
    return message


def run_session(
    spec: ServerSpec,
    env: dict[str, str],
    calls: int,
    timeout: float,
    framing: Framing = "newline",
) -> tuple[str, SessionResult]:
    """Spawn one server, measure everything, close it; return (tool name, figures)."""
    session = Session(spec, env, timeout, framing)
    try:
        startup = session.initialize()
        tool = session.find_add_tool()
        session.call(tool, 1, 2)
        warming = time.monotonic() + WARM_UP_S
        for i in range(min(50, calls)):
            session.call(tool, i, 1)
        while time.monotonic() < warming:
            session.call(tool, 1, 1)
        latencies = session.sequential(tool, calls)
        throughput = session.pipelined(tool, calls)
        session.call(tool, 1, 2)
        rss = session.peak_rss_kib()
    finally:
        session.close()
    return tool, SessionResult(startup, latencies, throughput, rss)


def run_payload_session(
    spec: ServerSpec,
    env: dict[str, str],
    size: int,
    calls: int,
    timeout: float,
    framing: Framing = "newline",
) -> PayloadResult:
    """Spawn one server for the payload phase: ``calls`` round trips each way of ``size``.

    After small checked calls of ``length`` and ``blob``, the big ones alternate
    (argument, result, argument, ...) so that both see the same process state.
    """
    session = Session(spec, env, timeout, framing)
    try:
        session.initialize()
        missing = set(PAYLOAD_TOOLS) - set(session.list_tools())
        if missing:
            raise BenchError(f"payload tools missing from tools/list: {sorted(missing)}")
        session.payload_argument(3)
        session.payload_result(3)
        found = PayloadResult(size, [], [], 0)
        for _ in range(calls):
            for call, times, faults in (
                (session.payload_argument, found.argument_s, found.argument_faults),
                (session.payload_result, found.result_s, found.result_faults),
            ):
                before = session.minor_faults()
                times.append(call(size))
                after = session.minor_faults()
                if before is not None and after is not None:
                    faults.append(after - before)
        found.peak_rss_kib = session.peak_rss_kib()
    finally:
        session.close()
    return found


IMPORT_PROBE = """\
import time
start = time.perf_counter()
{statement}
print(time.perf_counter() - start)
"""


def time_import(statement: str, env: dict[str, str]) -> float:
    """Return the seconds the import ``statement`` takes in a fresh interpreter.

    The clock runs inside the child, around the import statement only, so
    interpreter start-up and shutdown (which for a large module graph can
    take a noticeable time of its own) are left out.
    """
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE.format(statement=statement)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip()[-400:]
        raise BenchError(f"{statement} failed: {tail}")
    return float(done.stdout.decode().split()[-1])


def import_times(specs: Sequence[ServerSpec], env: dict[str, str], runs: int) -> dict[str, float]:
    """Return, per server key, the median import time of its library over ``runs`` runs;
    as ``key:bare``, that of its bare package, for a spec that names one; and as
    ``key:own``, for a spec on anyio, the median over the runs of its import followed by
    ``ANYIO_START`` less ``ANYIO_START`` alone (whose own median is ``anyio``).

    Runs are interleaved (one of each statement, then again) so drift hits all alike.
    """
    statements = {s.key: s.import_statement for s in specs}
    statements.update({f"{s.key}:bare": s.bare for s in specs if s.bare})
    on_anyio = [s.key for s in specs if s.on_anyio]
    statements.update(
        {f"{s.key}:own": f"{s.import_statement}\n{ANYIO_START}" for s in specs if s.on_anyio}
    )
    if on_anyio:
        statements["anyio"] = ANYIO_START
    samples: dict[str, list[float]] = {key: [] for key in statements}
    for _ in range(runs):
        for key, statement in statements.items():
            samples[key].append(time_import(statement, env))
    for key in on_anyio:
        own = samples[f"{key}:own"]
        samples[f"{key}:own"] = [
            whole - alone for whole, alone in zip(own, samples["anyio"], strict=True)
        ]
    return {key: statistics.median(values) for key, values in samples.items()}


def benchmark(
    specs: Sequence[ServerSpec],
    calls: int,
    repeat: int,
    timeout: float,
    log: Callable[[str], None],
    *,
    payload_size: int = 10_000_000,
    payload_calls: int = 3,
    import_runs: int | None = None,
    warm_up: bool = True,
) -> list[ServerResult]:
    """Measure every server; a server that fails is marked unavailable, not fatal.

    Each server is first spawned once, unmeasured, to warm the caches (not with
    ``warm_up`` False: a smoke run).

    The payload phase (``payload_calls`` round trips each way per spawn, ``repeat``
    spawns, skipped if ``payload_calls`` is 0) runs in spawns of its own, after the
    others, so that its big strings do not count in the peak RSS of the calls. A
    server that fails only there keeps its other figures (``payload_error`` says why).
    """
    env = server_env()
    results = [ServerResult(spec) for spec in specs]
    for result in results if warm_up else ():
        log(f"warm-up {result.spec.key} ...")
        try:
            result.tool_name, _ = run_session(result.spec, env, min(calls, 100), timeout)
        except (BenchError, OSError) as exc:
            result.error = str(exc)
            log(f"  {result.spec.key} unavailable: {result.error}")
    for r in range(repeat):
        for result in results:
            if not result.available:
                continue
            log(f"run {r + 1}/{repeat} {result.spec.key} ...")
            try:
                tool_name, session = run_session(result.spec, env, calls, timeout)
            except (BenchError, OSError) as exc:
                result.error = f"failed during run {r + 1}: {exc}"
                log(f"  {result.spec.key} {result.error}")
                continue
            result.tool_name = result.tool_name or tool_name
            result.sessions.append(session)
    for r in range(repeat if payload_calls > 0 else 0):
        for result in results:
            if not result.available or result.payload_error is not None:
                continue
            log(f"payloads {r + 1}/{repeat} {result.spec.key} ...")
            try:
                found = run_payload_session(result.spec, env, payload_size, payload_calls, timeout)
            except (BenchError, OSError) as exc:
                result.payload_error = f"payloads, run {r + 1}: {exc}"
                log(f"  {result.spec.key} {result.payload_error}")
                continue
            result.payloads.append(found)
    available = [r for r in results if r.available]
    if available:
        log("import times ...")
        try:
            runs = import_runs if import_runs is not None else max(5, repeat)
            times = import_times([r.spec for r in available], env, runs)
        except BenchError as exc:
            log(f"  import timing failed: {exc}")
        else:
            for result in available:
                result.import_s = times[result.spec.key]
                result.bare_import_s = times.get(f"{result.spec.key}:bare")
                result.own_start_s = times.get(f"{result.spec.key}:own")
                if result.spec.on_anyio:
                    result.anyio_start_s = times.get("anyio")
    return results


def ratios(results: Sequence[ServerResult]) -> dict[str, dict[str, float | None]]:
    """Return objmcp / each other server measured (sdk, fastmcp, floor), for every metric."""
    figures = {r.spec.key: r.figures() for r in results}
    if "objmcp" not in figures:
        return {}
    mine = figures["objmcp"]
    specs = {r.spec.key: r.spec for r in results}
    return {
        f"objmcp/{other}": {
            key: ratio(mine[key], figures[other][key])
            for key in (*RATIO_KEYS, *(ANYIO_KEYS if specs[other].on_anyio else ()))
        }
        for other in OTHERS
        if other in figures
    }


def calls_before_rss(calls: int) -> int:
    """How many calls a measured spawn has answered when its peak RSS is read."""
    return 1 + min(50, calls) + 2 * calls + 1


def metrics_for(calls: int, payload_size: int) -> list[tuple[str, str, bool, str]]:
    """``METRICS`` with the labels made concrete for these options."""
    size = f"{payload_size / 1e6:g} MB"
    rss = f"peak RSS after {calls_before_rss(calls):,} calls"
    return [
        (
            key,
            label.replace("P string", f"{size} string").replace("peak RSS after calls", rss),
            h,
            f,
        )
        for key, label, h, f in METRICS
    ]


def render_table(
    results: Sequence[ServerResult], calls: int = 0, payload_size: int = 10_000_000
) -> str:
    """Render the figures and ratios as a plain-text table."""
    figures = {r.spec.key: r.figures() for r in results}
    rel = ratios(results)
    headers = ["metric", *(r.spec.label for r in results), *rel]
    metrics = metrics_for(calls, payload_size) if calls else METRICS
    rows = metric_rows(metrics, [figures[r.spec.key] for r in results], rel)
    lines = table(headers, rows)
    for result in results:
        if not result.available:
            lines.append(f"{result.spec.label}: UNAVAILABLE: {result.error}")
        elif result.tool_name != "add":
            lines.append(f"{result.spec.label}: add tool is listed as {result.tool_name!r}")
        if result.available and result.payload_error is not None:
            lines.append(f"{result.spec.label}: payloads UNAVAILABLE: {result.payload_error}")
    return "\n".join(lines)


def latency_percentiles(latencies_ns: Sequence[int]) -> dict[str, float]:
    """Nearest-rank percentiles of round trips, in microseconds, keyed ``p50`` etc."""
    if not latencies_ns:
        return {}
    return {f"p{pct:g}": percentile(latencies_ns, pct) / 1e3 for pct in LATENCY_PERCENTILES}


def to_json(
    results: Sequence[ServerResult],
    calls: int,
    repeat: int,
    payload_size: int = 10_000_000,
    payload_calls: int = 3,
) -> dict[str, Any]:
    """Return the full results (figures, per-spawn data, ratios, environment) as JSON."""
    return {
        "meta": {
            "protocol_version": PROTOCOL_VERSION,
            "calls": calls,
            "calls_before_rss": calls_before_rss(calls),
            "repeat": repeat,
            "payload_bytes": payload_size,
            "payload_calls_per_spawn": payload_calls,
            **environment(),
            "mcp_version": library_version("mcp"),
            "fastmcp_version": library_version("fastmcp"),
            "objmcp_version": library_version("objmcp"),
        },
        "servers": {
            r.spec.key: {
                "label": r.spec.label,
                "script": str(r.spec.script.relative_to(ROOT)),
                "module": r.spec.module,
                "import_statement": r.spec.import_statement,
                "available": r.available,
                "error": r.error,
                "payload_error": r.payload_error,
                "tool_name": r.tool_name,
                "figures": r.figures(),
                "rtt_percentiles_us": latency_percentiles(r.latencies_ns),
                "spawns": [
                    {
                        "startup_ms": s.startup_s * 1e3,
                        "rtt_median_us": statistics.median(s.latencies_ns) / 1e3
                        if s.latencies_ns
                        else None,
                        "pipelined_calls_per_s": s.pipelined_calls_per_s,
                        "peak_rss_kib": s.peak_rss_kib,
                    }
                    for s in r.sessions
                ],
                "payload_spawns": [
                    {
                        "argument_ms": [seconds * 1e3 for seconds in p.argument_s],
                        "result_ms": [seconds * 1e3 for seconds in p.result_s],
                        "argument_faults": p.argument_faults,
                        "result_faults": p.result_faults,
                        "peak_rss_kib": p.peak_rss_kib,
                    }
                    for p in r.payloads
                ],
            }
            for r in results
        },
        "ratios": ratios(results),
    }


def select_servers(parser: argparse.ArgumentParser, names: str) -> list[ServerSpec]:
    """The servers named in ``names`` (comma-separated keys); a parser error if unknown."""
    wanted = [k.strip() for k in names.split(",") if k.strip()]
    known = {s.key: s for s in SERVERS}
    unknown = [k for k in wanted if k not in known]
    if unknown:
        parser.error(f"unknown servers: {', '.join(unknown)}")
    return [known[k] for k in wanted]


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print the table; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--json", type=Path, help="also write full results to this JSON file")
    parser.add_argument("--calls", type=int, default=5000, help="calls per spawn (default 5000)")
    parser.add_argument("--repeat", type=int, default=5, help="measured spawns (default 5)")
    parser.add_argument(
        "--payload-mb", type=float, default=10.0, help="payload string size in MB (default 10)"
    )
    parser.add_argument(
        "--payload-calls",
        type=int,
        default=3,
        help="payload round trips each way per spawn (default 3; 0 skips the payloads)",
    )
    parser.add_argument(
        "--servers",
        default=",".join(s.key for s in SERVERS),
        help="comma-separated subset of: " + ", ".join(s.key for s in SERVERS),
    )
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="seconds to wait for any answer (default 30)"
    )
    args = parser.parse_args(argv)
    if args.calls < 1 or args.repeat < 1 or args.payload_calls < 0 or args.payload_mb <= 0:
        parser.error("--calls, --repeat and --payload-mb must be positive")
    specs = select_servers(parser, args.servers)
    payload_size = round(args.payload_mb * 1e6)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    compile_sources(log)
    results = benchmark(
        specs,
        args.calls,
        args.repeat,
        args.timeout,
        log,
        payload_size=payload_size,
        payload_calls=args.payload_calls,
    )
    print(
        f"\n{args.calls} sequential + {args.calls} pipelined calls x {args.repeat} spawns per "
        f"server, payloads {args.payload_calls} x {args.repeat} each way, "
        f"protocol {PROTOCOL_VERSION}, {sys.executable}"
    )
    print(render_table(results, args.calls, payload_size))
    print("ratios are objmcp / other: below 1x is better, except [higher=better] rows")
    if args.json:
        found = to_json(results, args.calls, args.repeat, payload_size, args.payload_calls)
        args.json.write_text(json.dumps(found, indent=2) + "\n")
        log(f"wrote {args.json}")
    return 0 if any(r.available for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
