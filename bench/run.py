"""Benchmark objmcp against the official MCP SDK and a bare-loop floor.

Every server in ``bench/servers/`` serves the same single tool,
``add(a: int, b: int) -> int``, over stdio. One raw-pipe driver (a
subprocess with pipes, newline-delimited JSON-RPC, protocol version
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
  ``max(5, --repeat)`` runs), so interpreter start and shutdown are excluded.

Every answer is checked (the text content of ``add(a, b)`` must be
``str(a + b)``), so a broken server fails instead of being measured. A
server that cannot start (e.g. objmcp is not importable yet) is reported as
unavailable and the others are still measured.

Usage::

    python bench/run.py [--json out.json] [--calls N] [--repeat R]

Only the standard library is used here; the servers use their own libraries
and run under the interpreter that runs this script (``sys.executable``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from figures import ROOT, library_version, metric_rows, percentile, ratio, server_env, table

PROTOCOL_VERSION = "2025-06-18"
BENCH_DIR = Path(__file__).resolve().parent
SERVERS_DIR = BENCH_DIR / "servers"


@dataclass(frozen=True)
class ServerSpec:
    """One server under test: its script and the library it imports."""

    key: str
    label: str
    script: Path
    module: str


SERVERS: tuple[ServerSpec, ...] = (
    ServerSpec("objmcp", "objmcp", SERVERS_DIR / "objmcp_add.py", "objmcp"),
    ServerSpec("sdk", "mcp SDK", SERVERS_DIR / "sdk_add.py", "mcp.server.mcpserver"),
    ServerSpec("floor", "floor", SERVERS_DIR / "floor.py", "json"),
)


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
class ServerResult:
    """Everything measured for one server, or why it could not be."""

    spec: ServerSpec
    error: str | None = None
    tool_name: str | None = None
    sessions: list[SessionResult] = field(default_factory=list)
    import_s: float | None = None

    @property
    def available(self) -> bool:
        """True if the server started and answered correctly."""
        return self.error is None

    def figures(self) -> dict[str, float | None]:
        """Summarise the sessions into the reported figures (None if unknown)."""
        if not self.available or not self.sessions:
            return dict.fromkeys(METRIC_KEYS)
        latencies = [ns for s in self.sessions for ns in s.latencies_ns]
        return {
            "startup_ms": statistics.median(s.startup_s for s in self.sessions) * 1e3,
            "rtt_median_us": statistics.median(latencies) / 1e3 if latencies else None,
            "rtt_p90_us": percentile(latencies, 90) / 1e3 if latencies else None,
            "pipelined_calls_per_s": statistics.median(
                s.pipelined_calls_per_s for s in self.sessions
            ),
            "peak_rss_mib": statistics.median(s.peak_rss_kib for s in self.sessions) / 1024,
            "import_ms": None if self.import_s is None else self.import_s * 1e3,
        }


# (key, label, higher_is_better, format)
METRICS: tuple[tuple[str, str, bool, str], ...] = (
    ("startup_ms", "startup: spawn -> initialize reply (ms)", False, "{:.1f}"),
    ("rtt_median_us", "sequential tools/call RTT median (us)", False, "{:.1f}"),
    ("rtt_p90_us", "sequential tools/call RTT p90 (us)", False, "{:.1f}"),
    ("pipelined_calls_per_s", "pipelined throughput (calls/s)", True, "{:.0f}"),
    ("peak_rss_mib", "peak RSS after calls (MiB)", False, "{:.1f}"),
    ("import_ms", "library import time (ms)", False, "{:.1f}"),
)
METRIC_KEYS: tuple[str, ...] = tuple(m[0] for m in METRICS)


def encode(message: dict[str, Any]) -> bytes:
    """Serialise one JSON-RPC message as a newline-terminated line."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def call_request(request_id: int, tool: str, a: int, b: int) -> bytes:
    """Build the ``tools/call`` line for ``tool(a, b)``."""
    return encode(
        {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "tools/call",
            "params": {"name": tool, "arguments": {"a": a, "b": b}},
        }
    )


def check_call_reply(reply: dict[str, Any], expected: int) -> None:
    """Raise BenchError unless ``reply`` is a successful add result equal to ``expected``."""
    if "error" in reply:
        raise BenchError(f"tools/call answered with an error: {reply['error']!r}")
    result = reply.get("result")
    if not isinstance(result, dict):
        raise BenchError(f"tools/call reply without a result object: {reply!r}")
    if result.get("isError"):
        raise BenchError(f"tools/call reported a tool error: {result!r}")
    content = result.get("content")
    texts = [
        item.get("text")
        for item in content or []
        if isinstance(item, dict) and item.get("type") == "text"
    ]
    if texts != [str(expected)]:
        raise BenchError(f"tools/call expected text {str(expected)!r}, got {result!r}")


class Session:
    """One spawned server process, driven over raw pipes with newline-delimited JSON."""

    def __init__(self, spec: ServerSpec, env: dict[str, str], timeout: float) -> None:
        """Spawn the server; the clock for the startup figure starts here."""
        self.spec = spec
        self.timeout = timeout
        # Closed in close(); a file, not a pipe, so a chatty server never blocks on it.
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        self._buffer = bytearray()
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

    def send(self, data: bytes) -> None:
        """Write all of ``data`` to the server's stdin."""
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._in_fd, view) :]
        except BrokenPipeError as exc:
            raise BenchError(self.died("stdin closed")) from exc

    def read_line(self) -> bytes:
        """Return the next line from the server's stdout, without the newline."""
        deadline = time.monotonic() + self.timeout
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return line
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
            line = self.read_line()
            if line.strip():
                return parse(line)

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
        self.send(encode(message))
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
        self.send(encode({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        return elapsed

    def find_add_tool(self) -> str:
        """Return the name under which the server lists the ``add`` tool."""
        reply = self.request("tools/list")
        tools = (reply.get("result") or {}).get("tools")
        if not isinstance(tools, list):
            raise BenchError(f"bad tools/list reply: {reply!r}")
        names = [t.get("name") for t in tools if isinstance(t, dict)]
        candidates = [n for n in names if n == "add"] or [
            n for n in names if isinstance(n, str) and n.lower().endswith("add")
        ]
        if len(candidates) != 1:
            raise BenchError(f"cannot find one add tool in tools/list: {names!r}")
        tool = next(t for t in tools if t.get("name") == candidates[0])
        properties = (tool.get("inputSchema") or {}).get("properties") or {}
        if not {"a", "b"} <= set(properties):
            raise BenchError(f"add tool schema lacks a and b: {tool!r}")
        return str(candidates[0])

    def call(self, tool: str, a: int, b: int) -> None:
        """Call ``tool(a, b)`` once and check the answer."""
        request_id = self.new_id()
        self.send(call_request(request_id, tool, a, b))
        check_call_reply(self.read_reply(request_id), a + b)

    def sequential(self, tool: str, count: int) -> list[int]:
        """Make ``count`` calls one after another; return each round trip in ns.

        Requests are encoded beforehand and the clock stops when the reply line
        arrives, so the figure holds as little client work as possible; every
        reply is parsed and checked after its clock has stopped.
        """
        latencies: list[int] = []
        for i in range(count):
            a, b = i, i % 7 + 1
            request_id = self.new_id()
            data = call_request(request_id, tool, a, b)
            start = time.perf_counter_ns()
            self.send(data)
            line = self.read_line()
            stop = time.perf_counter_ns()
            message = parse(line)
            while "method" in message:  # a notification came first: skip it
                if "id" in message:
                    raise BenchError(f"unexpected server request: {message!r}")
                message = parse(self.read_line())
                stop = time.perf_counter_ns()
            latencies.append(stop - start)
            if message.get("id") != request_id:
                raise BenchError(f"reply to wrong id (wanted {request_id}): {message!r}")
            check_call_reply(message, a + b)
        return latencies

    def pipelined(self, tool: str, count: int) -> float:
        """Write ``count`` calls without waiting, read all answers; return calls/s.

        Writing and reading are interleaved with ``select`` on non-blocking
        stdin so neither side can deadlock on a full pipe; no request waits for
        an earlier answer. Answers may arrive in any order and are matched by id.
        """
        expected: dict[int, int] = {}
        lines: list[bytes] = []
        for i in range(count):
            a, b = count - i, i
            request_id = self.new_id()
            expected[request_id] = a + b
            lines.append(call_request(request_id, tool, a, b))
        pending = memoryview(b"".join(lines))
        replies: dict[int, dict[str, Any]] = {}
        os.set_blocking(self._in_fd, False)
        try:
            start = time.perf_counter()
            deadline = time.monotonic() + self.timeout
            while len(replies) < count:
                end = self._buffer.find(b"\n")
                if end >= 0:
                    line = bytes(self._buffer[:end])
                    del self._buffer[: end + 1]
                    self._take_reply(line, expected, replies)
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
        """Record one pipelined answer line (notifications are skipped)."""
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


def parse(line: bytes) -> dict[str, Any]:
    """Decode one JSON-RPC message line, raising BenchError if it is not an object."""
    try:
        message = json.loads(line)
    except ValueError as exc:
        raise BenchError(f"server wrote a non-JSON line: {line[:200]!r}") from exc
    if not isinstance(message, dict):
        raise BenchError(f"server wrote a non-object message: {line[:200]!r}")
    return message


def run_session(
    spec: ServerSpec, env: dict[str, str], calls: int, timeout: float
) -> tuple[str, SessionResult]:
    """Spawn one server, measure everything, close it; return (tool name, figures)."""
    session = Session(spec, env, timeout)
    try:
        startup = session.initialize()
        tool = session.find_add_tool()
        session.call(tool, 1, 2)
        for i in range(min(50, calls)):
            session.call(tool, i, 1)
        latencies = session.sequential(tool, calls)
        throughput = session.pipelined(tool, calls)
        session.call(tool, 1, 2)
        rss = session.peak_rss_kib()
    finally:
        session.close()
    return tool, SessionResult(startup, latencies, throughput, rss)


IMPORT_PROBE = """\
import time
start = time.perf_counter()
import {module}
print(time.perf_counter() - start)
"""


def time_import(module: str, env: dict[str, str]) -> float:
    """Return the seconds ``import module`` takes in a fresh interpreter.

    The clock runs inside the child, around the import statement only, so
    interpreter start-up and shutdown (which for a large module graph can
    take a noticeable time of its own) are left out.
    """
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE.format(module=module)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip()[-400:]
        raise BenchError(f"import {module} failed: {tail}")
    return float(done.stdout.decode().split()[-1])


def import_times(specs: Sequence[ServerSpec], env: dict[str, str], runs: int) -> dict[str, float]:
    """Return, per server key, the median import time of its library over ``runs`` runs.

    Runs are interleaved (one of each library, then again) so drift hits all alike.
    """
    samples: dict[str, list[float]] = {s.key: [] for s in specs}
    for _ in range(runs):
        for spec in specs:
            samples[spec.key].append(time_import(spec.module, env))
    return {key: statistics.median(values) for key, values in samples.items()}


def benchmark(
    specs: Sequence[ServerSpec],
    calls: int,
    repeat: int,
    timeout: float,
    log: Callable[[str], None],
) -> list[ServerResult]:
    """Measure every server; a server that fails is marked unavailable, not fatal."""
    env = server_env()
    results = [ServerResult(spec) for spec in specs]
    for result in results:
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
                _, session = run_session(result.spec, env, calls, timeout)
            except (BenchError, OSError) as exc:
                result.error = f"failed during run {r + 1}: {exc}"
                log(f"  {result.spec.key} {result.error}")
                continue
            result.sessions.append(session)
    available = [r for r in results if r.available]
    if available:
        log("import times ...")
        try:
            times = import_times([r.spec for r in available], env, max(5, repeat))
        except BenchError as exc:
            log(f"  import timing failed: {exc}")
        else:
            for result in available:
                result.import_s = times[result.spec.key]
    return results


def ratios(results: Sequence[ServerResult]) -> dict[str, dict[str, float | None]]:
    """Return objmcp/sdk and objmcp/floor ratios for every metric."""
    figures = {r.spec.key: r.figures() for r in results}
    empty = dict.fromkeys(METRIC_KEYS)
    mine = figures.get("objmcp", empty)
    return {
        f"objmcp/{other}": {
            key: ratio(mine[key], figures.get(other, empty)[key]) for key in METRIC_KEYS
        }
        for other in ("sdk", "floor")
    }


def render_table(results: Sequence[ServerResult]) -> str:
    """Render the figures and ratios as a plain-text table."""
    figures = {r.spec.key: r.figures() for r in results}
    rel = ratios(results)
    headers = ["metric", *(r.spec.label for r in results), *rel]
    rows = metric_rows(METRICS, [figures[r.spec.key] for r in results], rel)
    lines = table(headers, rows)
    for result in results:
        if not result.available:
            lines.append(f"{result.spec.label}: UNAVAILABLE: {result.error}")
        elif result.tool_name != "add":
            lines.append(f"{result.spec.label}: add tool is listed as {result.tool_name!r}")
    return "\n".join(lines)


def to_json(results: Sequence[ServerResult], calls: int, repeat: int) -> dict[str, Any]:
    """Return the full results (figures, per-spawn data, ratios, environment) as JSON."""
    return {
        "meta": {
            "protocol_version": PROTOCOL_VERSION,
            "calls": calls,
            "repeat": repeat,
            "python": sys.version,
            "executable": sys.executable,
            "platform": platform.platform(),
            "cpu_count": os.cpu_count(),
            "mcp_version": library_version("mcp"),
            "objmcp_version": library_version("objmcp"),
        },
        "servers": {
            r.spec.key: {
                "label": r.spec.label,
                "script": str(r.spec.script.relative_to(ROOT)),
                "module": r.spec.module,
                "available": r.available,
                "error": r.error,
                "tool_name": r.tool_name,
                "figures": r.figures(),
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
            }
            for r in results
        },
        "ratios": ratios(results),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print the table; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--json", type=Path, help="also write full results to this JSON file")
    parser.add_argument("--calls", type=int, default=1000, help="calls per spawn (default 1000)")
    parser.add_argument("--repeat", type=int, default=5, help="measured spawns (default 5)")
    parser.add_argument(
        "--servers",
        default=",".join(s.key for s in SERVERS),
        help="comma-separated subset of: " + ", ".join(s.key for s in SERVERS),
    )
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="seconds to wait for any answer (default 30)"
    )
    args = parser.parse_args(argv)
    if args.calls < 1 or args.repeat < 1:
        parser.error("--calls and --repeat must be at least 1")
    wanted = [k.strip() for k in args.servers.split(",") if k.strip()]
    known = {s.key: s for s in SERVERS}
    unknown = [k for k in wanted if k not in known]
    if unknown:
        parser.error(f"unknown servers: {', '.join(unknown)}")
    specs = [known[k] for k in wanted]

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    results = benchmark(specs, args.calls, args.repeat, args.timeout, log)
    print(
        f"\n{args.calls} calls x {args.repeat} spawns per server, "
        f"protocol {PROTOCOL_VERSION}, {sys.executable}"
    )
    print(render_table(results))
    print("ratios are objmcp / other: below 1x is better, except throughput (above 1x is better)")
    if args.json:
        args.json.write_text(json.dumps(to_json(results, args.calls, args.repeat), indent=2) + "\n")
        log(f"wrote {args.json}")
    return 0 if any(r.available for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
