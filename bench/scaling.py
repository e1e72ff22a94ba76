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
import json
import statistics
import sys
import time
from pathlib import Path

from figures import server_env
from run import SERVERS_DIR, BenchError, ServerSpec, Session

SPEC = ServerSpec("many", "objmcp", SERVERS_DIR / "objmcp_many.py", "objmcp")


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
            rtts.extend(session.sequential(f"add{methods - 1}", calls))
        finally:
            session.close()
    return {
        "methods": methods,
        "initialize_ms": round(statistics.median(started) * 1e3, 1),
        "tools_list_ms": round(statistics.median(listed) * 1e3, 1),
        "rtt_median_us": round(statistics.median(rtts) / 1e3, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Measure each size and print the curve."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,100,1000", help="method counts, by commas")
    parser.add_argument("--calls", type=int, default=500, help="sequential calls a spawn")
    parser.add_argument("--repeat", type=int, default=3, help="spawns a size")
    parser.add_argument("--json", help="write the figures to this file too")
    options = parser.parse_args(argv)
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
    if options.json:
        Path(options.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
