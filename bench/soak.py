"""Soak: a long, bounded run of mixed calls on one stdio connection, watching for growth.

One objmcp server (``bench/servers/objmcp_soak.py``) is driven through raw pipes, in
windows of ``--window`` requests written at once and then read: sync and async
``add``, structured results of a few KiB, and in every window one call that runs until it
is cancelled (a worker thread that checks its flag, or a task on the event loop) and is
then cancelled. Every answer is checked against its request; a cancelled call must never
be answered. Every ``--sample`` calls the driver reads the server's resident memory
(``VmRSS``) and asks it for a census of its threads and event-loop tasks.

After the warm-up (the first tenth of the calls) the figures must stay flat: RSS within
``--rss-bound`` MiB of its value at the end of the warm-up, no more tasks than then, and
at most :data:`THREAD_SLACK` more threads (a reader thread running a call hands the input
over to a new reader when the call runs long, so a sample may catch a few threads
that are about to end; a leak grows past that). The server's census leaves out the idle
worker threads a pool keeps for a while (objmcp's warm pool, anyio's), whose number
follows the machine's load.
The exit status is 1 when they did not, 2 when the server misbehaved.

Usage::

    python bench/soak.py [--calls 100000] [--window 100] [--sample 5000] [--json out.json]

Only the standard library is used here; the server runs under this interpreter.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from figures import server_env

SERVER = Path(__file__).resolve().parent / "servers" / "objmcp_soak.py"


class SoakError(Exception):
    """The server answered wrongly, twice, not at all, or died."""


THREAD_SLACK = 4
"""Threads a sample may show above the warm-up's without counting as growth (on a busy
machine, readers handing the input over and idle workers not yet gone: four were seen)."""


@dataclass
class Sample:
    """What the server held after ``calls`` calls."""

    calls: int
    seconds: float
    rss_mib: float
    threads: int
    tasks: int


@dataclass
class Report:
    """The soak's figures; ``flat`` says whether they stayed within bounds."""

    calls: int
    cancelled: int
    seconds: float
    calls_per_s: float
    rss_bound_mib: float
    samples: list[Sample] = field(default_factory=list)
    warm: Sample | None = None
    rss_growth_mib: float = 0.0
    thread_growth: int = 0
    task_growth: int = 0
    flat: bool = False


class Driver:
    """The server process and the requests in flight on it."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=server_env(),
        )
        self.next_id = 0

    @property
    def stdin(self) -> IO[bytes]:
        assert self.process.stdin is not None
        return self.process.stdin

    def send(self, message: dict[str, Any]) -> None:
        self.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def read(self) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SoakError(f"the server closed its output (status {self.process.poll()})")
        return json.loads(line)

    def call(self, tool: str, **arguments: Any) -> int:
        self.next_id += 1
        params = {"name": tool, "arguments": arguments}
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call", "params": params})
        return self.next_id

    def cancel(self, request_id: int) -> None:
        params = {"requestId": request_id, "reason": "soak"}
        self.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params})

    def initialize(self) -> None:
        params = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "soak", "version": "0"},
        }
        self.send({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": params})
        self.stdin.flush()
        if "result" not in self.read():
            raise SoakError("initialize failed")
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def rss_mib(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        kib = next(int(line.split()[1]) for line in status.splitlines() if line[:6] == "VmRSS:")
        return kib / 1024

    def census(self) -> tuple[int, int]:
        request_id = self.call("census")
        self.stdin.flush()
        answer = self.read()
        if answer.get("id") != request_id:
            raise SoakError(f"a census was answered by {answer!r}")
        counts = answer["result"]["structuredContent"]
        return int(counts["threads"]), int(counts["tasks"])

    def close(self) -> int:
        self.stdin.close()
        return self.process.wait(30)


def window(driver: Driver, size: int, number: int) -> int:
    """One window of ``size`` calls, one of them cancelled; returns the calls answered."""
    expected: dict[int, Any] = {}
    runner = "spin" if number % 2 else "hang"
    doomed = driver.call(runner)
    for n in range(size - 1):
        kind = n % 3
        if kind == 0:
            expected[driver.call("add", a=n, b=number)] = str(n + number)
        elif kind == 1:
            expected[driver.call("add_async", a=number, b=n)] = str(n + number)
        else:
            expected[driver.call("pad", size=n * 16)] = n * 16
    driver.cancel(doomed)
    driver.stdin.flush()
    while expected:
        answer = driver.read()
        request_id = answer.get("id")
        if request_id == doomed:
            raise SoakError(f"the cancelled call {runner} was answered: {answer!r}")
        if request_id not in expected:
            raise SoakError(f"an answer to nothing asked, or a second one: {answer!r}")
        want = expected.pop(request_id)
        result = answer.get("result") or {}
        if result.get("isError"):
            raise SoakError(f"a call failed: {answer!r}")
        if isinstance(want, str):
            if result["content"][0]["text"] != want:
                raise SoakError(f"a wrong answer: {answer!r}, wanted {want}")
        elif result["structuredContent"]["size"] != want:
            raise SoakError(f"a wrong answer: {answer!r}, wanted size {want}")
    return size - 1


def soak(calls: int, size: int, every: int, rss_bound: float) -> Report:
    """Run the soak; raises :class:`SoakError` when the server misbehaves."""
    driver = Driver()
    try:
        driver.initialize()
        start = time.perf_counter()
        done = cancelled = number = 0
        warm_after = calls // 10
        samples: list[Sample] = []
        warm: Sample | None = None
        next_sample = 0
        while done < calls:
            number += 1
            done += window(driver, min(size, calls - done + 1), number)
            cancelled += 1
            if done >= next_sample or done >= calls:
                threads, tasks = driver.census()
                elapsed = time.perf_counter() - start
                sample = Sample(done, round(elapsed, 2), driver.rss_mib(), threads, tasks)
                samples.append(sample)
                if warm is None and done >= warm_after:
                    warm = sample
                next_sample = done + every
        seconds = time.perf_counter() - start
        status = driver.close()
        if status != 0:
            raise SoakError(f"the server exited with status {status}")
    finally:
        if driver.process.poll() is None:
            driver.process.kill()
    assert warm is not None
    later = [s for s in samples if s.calls >= warm.calls]
    report = Report(calls, cancelled, round(seconds, 2), round(done / seconds), rss_bound)
    report.samples, report.warm = samples, warm
    report.rss_growth_mib = round(max(s.rss_mib for s in later) - warm.rss_mib, 2)
    report.thread_growth = max(s.threads for s in later) - warm.threads
    report.task_growth = max(s.tasks for s in later) - warm.tasks
    report.flat = (
        report.rss_growth_mib <= rss_bound
        and report.thread_growth <= THREAD_SLACK
        and report.task_growth <= 0
    )
    return report


def main(argv: list[str] | None = None) -> int:
    """Run the soak and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=100_000, help="calls answered (100000)")
    parser.add_argument("--window", type=int, default=100, help="requests written at once")
    parser.add_argument("--sample", type=int, default=5000, help="calls between samples")
    parser.add_argument("--rss-bound", type=float, default=8.0, help="MiB of growth allowed")
    parser.add_argument("--json", help="write the figures to this file too")
    options = parser.parse_args(argv)
    try:
        report = soak(options.calls, options.window, options.sample, options.rss_bound)
    except SoakError as error:
        print(f"soak failed: {error}", file=sys.stderr)
        return 2
    print(f"{'calls':>8} {'seconds':>8} {'RSS MiB':>8} {'threads':>8} {'tasks':>6}")
    for s in report.samples:
        print(f"{s.calls:>8} {s.seconds:>8.1f} {s.rss_mib:>8.1f} {s.threads:>8} {s.tasks:>6}")
    print(
        f"{report.calls} calls ({report.cancelled} more cancelled) in {report.seconds} s, "
        f"{report.calls_per_s}/s; after warm-up: RSS {report.rss_growth_mib:+.1f} MiB "
        f"(bound {report.rss_bound_mib}), threads {report.thread_growth:+d}, "
        f"tasks {report.task_growth:+d}: {'flat' if report.flat else 'GREW'}"
    )
    if options.json:
        Path(options.json).write_text(json.dumps(asdict(report), indent=2) + "\n")
    return 0 if report.flat else 1


if __name__ == "__main__":
    sys.exit(main())
