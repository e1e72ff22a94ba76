"""Content-Length framing against newline framing, both served by objmcp over stdio.

objmcp decides the framing from the first bytes it reads (a ``Content-Length: N``
header, a blank line and N bytes of JSON, LSP style; or one JSON text a line) and
answers in the same framing. The other servers speak only newline framing, so only
objmcp is measured here, with ``run.py``'s driver and ``bench/servers/objmcp_add.py``:
for each framing, ``ROUND_TRIP_SPAWNS`` times ``--repeat`` spawns of the sequential
round trip and pipelined throughput of ``--calls`` calls (as in ``run.py``), and
``--repeat`` spawns of the payload phase (``--payload-mb`` string argument and
result). Spawns alternate between the framings (the order flipping each round) so that
drift hits both alike; the ratio ``content-length / newline`` of each figure is
reported.

Usage::

    python bench/framing.py [--calls 5000] [--repeat 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from figures import compile_sources, metric_rows, percentile, ratio, server_env, table
from run import (
    FAULT_KEYS,
    PAYLOAD_KEYS,
    SERVERS,
    BenchError,
    Framing,
    PayloadResult,
    SessionResult,
    payload_figures,
    run_payload_session,
    run_session,
)
from run import (
    METRICS as STDIO_METRICS,
)

SPEC = next(spec for spec in SERVERS if spec.key == "objmcp")
FRAMINGS: tuple[Framing, ...] = ("newline", "content-length")
RATIO = "content-length/newline"

COMPARED = ("rtt_median_us", "rtt_p90_us", "pipelined_calls_per_s", *PAYLOAD_KEYS)
# (key, label, higher_is_better, format): the stdio phase's rows that depend on the framing
METRICS: tuple[tuple[str, str, bool, str], ...] = tuple(
    metric for metric in STDIO_METRICS if metric[0] in COMPARED
)
METRIC_KEYS: tuple[str, ...] = tuple(m[0] for m in METRICS)
ROUND_TRIP_SPAWNS = 3
"""Round-trip spawns a framing, per payload spawn. Where a new process's threads land on
the cores moves its round trip's median by several percent from one spawn to the next,
more than the difference between the framings, so the pooled figures take more spawns
than ``run.py``'s; a spawn of calls takes a second, one of payloads several."""


@dataclass
class FramingResult:
    """What was measured in one framing."""

    framing: Framing
    sessions: list[SessionResult] = field(default_factory=list)
    payloads: list[PayloadResult] = field(default_factory=list)

    def figures(self) -> dict[str, float | None]:
        """The reported figures (None where nothing was measured)."""
        latencies = [ns for s in self.sessions for ns in s.latencies_ns]
        found: dict[str, float | None] = dict.fromkeys(METRIC_KEYS)
        if latencies:
            found["rtt_median_us"] = statistics.median(latencies) / 1e3
            found["rtt_p90_us"] = percentile(latencies, 90) / 1e3
        if self.sessions:
            found["pipelined_calls_per_s"] = statistics.median(
                s.pipelined_calls_per_s for s in self.sessions
            )
        found.update(payload_figures(self.payloads))
        return found


@dataclass
class FramingComparison:
    """Both framings' results, or why they could not be measured."""

    results: dict[Framing, FramingResult]
    error: str | None = None

    def figures(self) -> dict[str, dict[str, float | None]]:
        """The figures of each framing, by framing."""
        if self.error is not None:
            return {framing: dict.fromkeys(METRIC_KEYS) for framing in self.results}
        return {framing: result.figures() for framing, result in self.results.items()}

    def ratios(self) -> dict[str, dict[str, float | None]]:
        """``content-length / newline`` for every figure but the page faults."""
        figures = self.figures()
        return {
            RATIO: {
                key: ratio(figures["content-length"][key], figures["newline"][key])
                for key in METRIC_KEYS
                if key not in FAULT_KEYS
            }
        }


def benchmark(
    calls: int,
    repeat: int,
    timeout: float,
    log: Callable[[str], None],
    *,
    payload_size: int = 10_000_000,
    payload_calls: int = 3,
) -> FramingComparison:
    """Measure objmcp in both framings, spawns alternating (``ROUND_TRIP_SPAWNS`` x
    ``repeat`` of calls, ``repeat`` of payloads); stop at the first failure."""
    env = server_env()
    comparison = FramingComparison({framing: FramingResult(framing) for framing in FRAMINGS})
    spawns = ROUND_TRIP_SPAWNS * repeat
    try:
        for framing in FRAMINGS:
            log(f"framing warm-up {framing} ...")
            run_session(SPEC, env, min(calls, 100), timeout, framing)
        for r in range(spawns):
            order = FRAMINGS if r % 2 == 0 else FRAMINGS[::-1]
            for framing in order:
                log(f"framing run {r + 1}/{spawns} {framing} ...")
                _, session = run_session(SPEC, env, calls, timeout, framing)
                comparison.results[framing].sessions.append(session)
            if r >= repeat:
                continue
            for framing in order if payload_calls > 0 else ():
                log(f"framing payloads {r + 1}/{repeat} {framing} ...")
                found = run_payload_session(
                    SPEC, env, payload_size, payload_calls, timeout, framing
                )
                comparison.results[framing].payloads.append(found)
    except (BenchError, OSError) as exc:
        comparison.error = str(exc)
        log(f"  framing comparison failed: {comparison.error}")
    return comparison


def render_table(comparison: FramingComparison, payload_size: int = 10_000_000) -> str:
    """The figures of both framings and their ratio, as a plain-text table."""
    size = f"{payload_size / 1e6:g} MB string"
    metrics = [(k, label.replace("P string", size), h, f) for k, label, h, f in METRICS]
    figures = comparison.figures()
    headers = ["objmcp over stdio", *FRAMINGS, RATIO]
    rows = metric_rows(metrics, [figures[f] for f in FRAMINGS], comparison.ratios())
    lines = table(headers, rows)
    if comparison.error is not None:
        lines.append(f"framing comparison UNAVAILABLE: {comparison.error}")
    return "\n".join(lines)


def to_json(
    comparison: FramingComparison, calls: int, repeat: int, payload_size: int, payload_calls: int
) -> dict[str, Any]:
    """The figures, per-spawn data and ratio, as JSON."""
    return {
        "meta": {
            "server": str(SPEC.script.name),
            "calls": calls,
            "repeat": repeat,
            "round_trip_spawns": ROUND_TRIP_SPAWNS * repeat,
            "payload_bytes": payload_size,
            "payload_calls_per_spawn": payload_calls,
        },
        "available": comparison.error is None,
        "error": comparison.error,
        "figures": comparison.figures(),
        "spawns": {
            framing: [
                {
                    "startup_ms": s.startup_s * 1e3,
                    "rtt_median_us": statistics.median(s.latencies_ns) / 1e3,
                    "pipelined_calls_per_s": s.pipelined_calls_per_s,
                }
                for s in result.sessions
                if s.latencies_ns
            ]
            for framing, result in comparison.results.items()
        },
        "ratios": comparison.ratios(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Measure both framings and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--calls", type=int, default=5000, help="calls a spawn (5000)")
    parser.add_argument(
        "--repeat", type=int, default=5, help="payload spawns a framing, 3x that of calls (5)"
    )
    parser.add_argument("--payload-mb", type=float, default=10.0, help="payload size, MB (10)")
    parser.add_argument("--payload-calls", type=int, default=3, help="payload calls a spawn (3)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait (30)")
    parser.add_argument("--json", type=Path, help="write the figures to this file too")
    args = parser.parse_args(argv)
    if args.calls < 1 or args.repeat < 1 or args.payload_calls < 0 or args.payload_mb <= 0:
        parser.error("--calls, --repeat and --payload-mb must be positive")
    payload_size = round(args.payload_mb * 1e6)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    compile_sources(log)
    comparison = benchmark(
        args.calls,
        args.repeat,
        args.timeout,
        log,
        payload_size=payload_size,
        payload_calls=args.payload_calls,
    )
    print(render_table(comparison, payload_size))
    if args.json:
        found = to_json(comparison, args.calls, args.repeat, payload_size, args.payload_calls)
        args.json.write_text(json.dumps(found, indent=2) + "\n")
    return 0 if comparison.error is None else 1


if __name__ == "__main__":
    sys.exit(main())
