"""What the box of ``objmcp run --sandbox`` costs (issue 43): start-up, and a call's round
trip, with and without the box, in the same run, through real processes, on stdio and over
HTTP.

- **Start-up**: from spawning ``objmcp run [--sandbox] servers/objmcp_add.py:Adder`` to the
  answer to ``initialize``, ``--starts`` times each, alternating; the median of each and
  their ratio. The box adds bubblewrap's namespaces and mounts, the re-run of
  ``objmcp run`` inside it, and the seccomp filter.
- **Round trip**: one server of each kind, ``--calls`` calls of ``add`` one at a time after
  a warm-up, alternating blocks; the median of each and their ratio (a call in the box
  runs as any call: the filter is in the kernel, on every system call).
- **Over HTTP** the same two figures of ``objmcp run --http [--sandbox]``: start-up to the
  first answered ``tools/call`` (the front starts a boxed child and lists its tools before
  it listens), and a 2026-07-28 ``tools/call`` round trip through httpx, which with the box
  crosses the front and a pipe to the child.

Usage::

    python bench/sandbox.py            # 20 starts and 2,000 calls of each
    python bench/sandbox.py --quick    # a smoke run
    python bench/sandbox.py --json sandbox.json

Without bubblewrap (``bwrap``) or off Linux it says so and measures nothing. Ratios, not
absolute times, are the figures: the machines are shared and noisy. Nothing was tuned on
them.
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARGET = f"{HERE / 'servers' / 'objmcp_add.py'}:Adder"
BLOCK = 100
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"},
    },
}


class Served:
    """``objmcp run [--sandbox] TARGET`` on raw pipes, once it answered ``initialize``."""

    def __init__(self, boxed: bool) -> None:
        box = ["--sandbox"] if boxed else []
        self.started = time.perf_counter_ns()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "objmcp", "run", *box, TARGET],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.send(INITIALIZE)
        answer = self.read()
        if "result" not in answer:
            raise SystemExit(f"the server did not start: {answer!r}")
        self.start_ns = time.perf_counter_ns() - self.started
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.number = 0

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("the server closed its output")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def add(self) -> int:
        """One call of ``add``, checked: its round trip (ns)."""
        self.number += 1
        a, b = self.number, 2 * self.number
        params = {"name": "add", "arguments": {"a": a, "b": b}}
        begun = time.perf_counter_ns()
        self.send({"jsonrpc": "2.0", "id": self.number, "method": "tools/call", "params": params})
        answer = self.read()
        took = time.perf_counter_ns() - begun
        if answer.get("result", {}).get("structuredContent", {}).get("result") != a + b:
            raise SystemExit(f"a wrong answer: {answer!r}")
        return took

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


class HttpServed:
    """``objmcp run --http [--sandbox] TARGET``, once it answered a ``tools/call``."""

    def __init__(self, boxed: bool) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        box = ["--sandbox"] if boxed else []
        run = [sys.executable, "-m", "objmcp", "run", "--http", "--port", str(port), *box]
        self.client = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.number = 0
        started = time.perf_counter_ns()
        self.process = subprocess.Popen(
            [*run, TARGET],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        while True:
            if self.process.poll() is not None:
                raise SystemExit("the HTTP server did not start")
            try:
                self.add()
                break
            except OSError:
                self.client.close()
                time.sleep(0.005)
        self.start_ns = time.perf_counter_ns() - started

    def add(self) -> int:
        """One call of ``add``, checked: its round trip (ns)."""
        self.number += 1
        a, b = self.number, 2 * self.number
        meta = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }
        params = {"name": "add", "arguments": {"a": a, "b": b}, "_meta": meta}
        message = {"jsonrpc": "2.0", "id": self.number, "method": "tools/call", "params": params}
        headers = {
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "add",
        }
        begun = time.perf_counter_ns()
        self.client.request("POST", "/mcp", json.dumps(message), headers)
        answer = json.loads(self.client.getresponse().read())
        took = time.perf_counter_ns() - begun
        if answer.get("result", {}).get("structuredContent", {}).get("result") != a + b:
            raise SystemExit(f"a wrong answer: {answer!r}")
        return took

    def close(self) -> None:
        self.client.close()
        self.process.terminate()
        self.process.wait(timeout=30)


def measure(starts: int, calls: int, server: type[Served] | type[HttpServed]) -> dict[str, Any]:
    """The figures of ``server``: start-up and round trip, with and without the box."""
    start_ms: dict[str, list[float]] = {"plain": [], "boxed": []}
    for _ in range(starts):
        for kind in ("plain", "boxed"):
            served = server(kind == "boxed")
            start_ms[kind].append(served.start_ns / 1e6)
            served.close()
    servers = {kind: server(kind == "boxed") for kind in ("plain", "boxed")}
    round_us: dict[str, list[float]] = {"plain": [], "boxed": []}
    try:
        for served in servers.values():
            for _ in range(min(BLOCK, calls)):
                served.add()
        done = 0
        while done < calls:
            block = min(BLOCK, calls - done)
            for kind, served in servers.items():
                round_us[kind].extend(served.add() / 1000 for _ in range(block))
            done += block
    finally:
        for served in servers.values():
            served.close()
    medians = {
        "start_ms": {kind: statistics.median(found) for kind, found in start_ms.items()},
        "round_us": {kind: statistics.median(found) for kind, found in round_us.items()},
    }
    ratios = {name: values["boxed"] / values["plain"] for name, values in medians.items()}
    return {"starts": starts, "calls": calls, "medians": medians, "ratios": ratios}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: 3 starts, 200 calls")
    parser.add_argument("--starts", type=int, help="start-ups of each (20)")
    parser.add_argument("--calls", type=int, help="calls of each (2,000)")
    parser.add_argument("--json", metavar="FILE", help="write the figures there")
    options = parser.parse_args()
    if not sys.platform.startswith("linux") or shutil.which("bwrap") is None:
        print("skipped: --sandbox needs bubblewrap on Linux (apt-get install bubblewrap)")
        if options.json:
            Path(options.json).write_text(json.dumps({"skipped": "no bubblewrap"}))
        return 0
    starts = options.starts or (3 if options.quick else 20)
    calls = options.calls or (200 if options.quick else 2000)
    figures = measure(starts, calls, Served)
    figures["http"] = measure(starts, calls, HttpServed)
    print(f"== objmcp run --sandbox against without ({starts} starts, {calls} calls)")
    print(f"{'figure':<34}{'without':>12}{'--sandbox':>12}{'ratio':>9}")
    for where, found in (("stdio", figures), ("HTTP", figures["http"])):
        for name, label in (
            ("start_ms", "start-up (ms, median)"),
            ("round_us", "add (us, median)"),
        ):
            values = found["medians"][name]
            print(
                f"{where + ': ' + label:<34}{values['plain']:>12.1f}{values['boxed']:>12.1f}"
                f"{found['ratios'][name]:>8.2f}x"
            )
    print("(one run; nothing was tuned on these figures, so none is held out)")
    if options.json:
        Path(options.json).write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
