"""The scaling curve: objmcp serving an object of 10, 100 and 1,000 methods.

For each size, ``--repeat`` spawns of ``bench/servers/objmcp_many.py`` through the raw-pipe
driver of ``run.py``: spawn -> ``initialize`` answered, spawn -> ``tools/list`` answered
(every tool listed, checked), and the median round trip of ``--calls`` sequential calls to
the last method. Start-up should grow linearly with the methods, and a call's cost not at
all.

Usage::

    python bench/scaling.py [--sizes 10,100,1000] [--calls 500] [--repeat 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from figures import compile_sources, ratio, server_env
from run import SERVERS_DIR, BenchError, ServerSpec, Session

SPEC = ServerSpec("many", "objmcp", SERVERS_DIR / "objmcp_many.py", "objmcp")
CURVE_KEYS = ("initialize_ms", "tools_list_ms", "rtt_median_us")
WARM_UP_CALLS = 1000
"""Calls made and not counted before the round trips are: for its first tens of
milliseconds, a new process's threads may share a core until the kernel spreads them
(pinned with taskset, the first calls are as quick as the rest), which short runs would
measure instead of the call."""


def measure(methods: int, calls: int, repeat: int) -> dict[str, float]:
    """The figures of one size: medians over ``repeat`` spawns."""
    started, listed, rtts = [], [], []
    for _ in range(repeat):
        session = Session(SPEC, {**server_env(), "BENCH_METHODS": str(methods)}, 60)
        try:
            started.append(session.initialize())
            tools = (session.request("tools/list").get("result") or {}).get("tools") or []
            listed.append(time.perf_counter() - session.spawned_at)
            if len(tools) != methods:
                raise BenchError(f"{len(tools)} tools listed, not {methods}")
            session.sequential(f"add{methods - 1}", WARM_UP_CALLS)
            rtts.extend(session.sequential(f"add{methods - 1}", calls))
        finally:
            session.close()
    return {
        "methods": methods,
        "initialize_ms": round(statistics.median(started) * 1e3, 1),
        "tools_list_ms": round(statistics.median(listed) * 1e3, 1),
        "rtt_median_us": round(statistics.median(rtts) / 1e3, 1),
    }


def curve_ratios(rows: Sequence[dict[str, float]]) -> dict[str, dict[str, float | None]]:
    """Each larger size's figures over the smallest size's, keyed ``"1000/10"`` etc."""
    if not rows:
        return {}
    first = rows[0]
    return {
        f"{row['methods']:g}/{first['methods']:g}": {
            key: ratio(row[key], first[key]) for key in CURVE_KEYS
        }
        for row in rows[1:]
    }


def per_method_us(rows: Sequence[dict[str, float]]) -> list[dict[str, float]]:
    """Between each two sizes in turn, what one more method adds to start-up and to
    ``tools/list`` (microseconds): constant along the curve if it is linear."""
    steps = []
    for low, high in itertools.pairwise(rows):
        added = high["methods"] - low["methods"]
        steps.append(
            {
                "from": low["methods"],
                "to": high["methods"],
                "initialize_us_per_method": (high["initialize_ms"] - low["initialize_ms"])
                * 1e3
                / added,
                "tools_list_us_per_method": (high["tools_list_ms"] - low["tools_list_ms"])
                * 1e3
                / added,
            }
        )
    return steps


def main(argv: list[str] | None = None) -> int:
    """Measure each size and print the curve."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,100,1000", help="method counts, by commas")
    parser.add_argument("--calls", type=int, default=500, help="sequential calls a spawn")
    parser.add_argument("--repeat", type=int, default=3, help="spawns a size")
    parser.add_argument("--json", help="write the figures to this file too")
    options = parser.parse_args(argv)
    compile_sources(lambda text: print(text, file=sys.stderr))
    try:
        rows = [
            measure(int(size), options.calls, options.repeat) for size in options.sizes.split(",")
        ]
    except BenchError as error:
        print(f"scaling failed: {error}", file=sys.stderr)
        return 2
    print(f"{'methods':>8} {'initialize ms':>14} {'tools/list ms':>14} {'call RTT us':>12}")
    for row in rows:
        print(
            f"{row['methods']:>8} {row['initialize_ms']:>14} {row['tools_list_ms']:>14} "
            f"{row['rtt_median_us']:>12}"
        )
    for step in per_method_us(rows):
        print(
            f"{step['from']:g} -> {step['to']:g} methods, each one more: initialize "
            f"+{step['initialize_us_per_method']:.1f} us, tools/list "
            f"+{step['tools_list_us_per_method']:.1f} us"
        )
    if options.json:
        Path(options.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
