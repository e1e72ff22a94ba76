"""What tracing costs objmcp's stdio round trip: off, on with OpenTelemetry's no-op
provider, and on with the SDK exporting every span to memory.

``bench/servers/objmcp_traced.py`` serves ``add`` in each mode; spawns alternate between
the modes (the order rotating each round), each making ``--calls`` sequential calls and
then ``--calls`` pipelined ones, as ``run.py`` does. Reported: the median round trip and
the pipelined throughput of each mode, and their ratios to tracing off.

Usage::

    python bench/tracing.py [--calls N] [--repeat R] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence

from figures import server_env
from run import SERVERS_DIR, ServerSpec, Session

MODES = ("off", "noop", "memory")
SPEC = ServerSpec("objmcp", "objmcp traced", SERVERS_DIR / "objmcp_traced.py", "objmcp")


def spawn(mode: str, calls: int) -> tuple[list[int], float]:
    """One spawn in ``mode``: its sequential round trips (ns) and pipelined calls/s."""
    env = {**server_env(), "OBJMCP_BENCH_TRACE": mode}
    session = Session(SPEC, env, timeout=60)
    try:
        session.initialize()
        tool = session.find_add_tool()
        session.sequential(tool, 200)  # warm up
        latencies = session.sequential(tool, calls)
        throughput = session.pipelined(tool, calls)
    finally:
        session.close()
    return latencies, throughput


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the three modes and their ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000, help="calls a spawn (3000)")
    parser.add_argument("--repeat", type=int, default=4, help="spawns a mode (4)")
    parser.add_argument("--json", help="write the figures here")
    options = parser.parse_args(argv)
    latencies: dict[str, list[int]] = {mode: [] for mode in MODES}
    throughputs: dict[str, list[float]] = {mode: [] for mode in MODES}
    for round_ in range(options.repeat):
        order = MODES[round_ % 3 :] + MODES[: round_ % 3]
        for mode in order:
            took, rate = spawn(mode, options.calls)
            latencies[mode].extend(took)
            throughputs[mode].append(rate)
            print(f"round {round_ + 1} {mode}: done", file=sys.stderr)
    figures = {
        mode: {
            "round_trip_us": statistics.median(latencies[mode]) / 1000,
            "pipelined_calls_per_s": statistics.median(throughputs[mode]),
        }
        for mode in MODES
    }
    base = figures["off"]
    print(
        f"{'tracing':<8} {'round trip (us)':>16} {'x off':>7} "
        f"{'pipelined (calls/s)':>20} {'x off':>7}"
    )
    for mode in MODES:
        figure = figures[mode]
        trip, rate = figure["round_trip_us"], figure["pipelined_calls_per_s"]
        print(
            f"{mode:<8} {trip:>16.1f} {trip / base['round_trip_us']:>7.2f} "
            f"{rate:>20.0f} {rate / base['pipelined_calls_per_s']:>7.2f}"
        )
    if options.json:
        with open(options.json, "w", encoding="utf-8") as out:
            json.dump({"calls": options.calls, "repeat": options.repeat, "figures": figures}, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
