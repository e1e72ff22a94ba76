"""Every benchmark of objmcp in one command: one report, and optionally JSON and a PNG.

The phases (``--skip`` leaves some out), each reusing the script that also runs it alone:

* ``stdio`` (``run.py``): objmcp, the ``mcp`` SDK's ``MCPServer``, FastMCP and a bare
  loop (the floor) over stdio: spawn -> ``initialize``, library import time, sequential
  ``tools/call`` round trip, pipelined throughput, peak RSS after the calls, and the
  payloads: a 10 MB string argument and a 10 MB string result, in MB/s;
* ``framing`` (``framing.py``): objmcp with Content-Length framing against newline
  framing: round trip, throughput and the payloads;
* ``scaling`` (``scaling.py``): objmcp serving 10, 100 and 1,000 methods: spawn ->
  ``initialize``, spawn -> ``tools/list``, and a call's round trip;
* ``http`` (``run_http.py``): Streamable HTTP, objmcp's ASGI app against the SDK's, each
  under the same uvicorn.

Before measuring, the byte code of objmcp's working copy and of ``bench/`` is brought up
to date (``python -m compileall -q``) and the servers run without
``PYTHONDONTWRITEBYTECODE``, so no measured start-up compiles source. Every ratio is
objmcp / other (stdio, payloads, HTTP), content-length / newline (framing) or a size /
the smallest (scaling). Progress goes to stderr, the report to stdout.

Usage::

    .venv/bin/python bench/all.py                        # everything, about 5 minutes
    .venv/bin/python bench/all.py --quick                # a smoke run, under a minute
    .venv/bin/python bench/all.py --json bench.json --png bench.png
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import framing
import run
import run_http
import scaling
from figures import compile_sources, environment, library_version, table

PHASES = ("stdio", "framing", "scaling", "http")
PAYLOAD_KEYS = run.PAYLOAD_KEYS
NOISE = 0.05  # "no slower" allows this much, relatively, for the noise of one run


@dataclass(frozen=True)
class Options:
    """What to run, and how much of it."""

    phases: tuple[str, ...]
    servers: tuple[run.ServerSpec, ...]
    calls: int
    repeat: int
    payload_size: int
    payload_calls: int
    import_runs: int
    sizes: tuple[int, ...]
    scaling_calls: int
    scaling_repeat: int
    http_servers: tuple[run_http.ServerSpec, ...]
    http_calls: int
    http_duration: float
    http_rounds: int
    http_concurrency: int
    timeout: float
    quick: bool

    def to_json(self) -> dict[str, Any]:
        """The options as JSON."""
        return {
            "phases": list(self.phases),
            "servers": [spec.key for spec in self.servers],
            "calls": self.calls,
            "repeat": self.repeat,
            "payload_bytes": self.payload_size,
            "payload_calls_per_spawn": self.payload_calls,
            "import_runs": self.import_runs,
            "sizes": list(self.sizes),
            "scaling_calls": self.scaling_calls,
            "scaling_repeat": self.scaling_repeat,
            "http_servers": [spec.key for spec in self.http_servers],
            "http_calls": self.http_calls,
            "http_duration_s": self.http_duration,
            "http_rounds": self.http_rounds,
            "http_concurrency": self.http_concurrency,
            "timeout_s": self.timeout,
            "quick": self.quick,
        }


@dataclass
class Report:
    """Everything measured, phase by phase (None for a phase not run)."""

    options: Options
    compile_trouble: str | None = None
    stdio: list[run.ServerResult] | None = None
    framing_comparison: framing.FramingComparison | None = None
    scaling_rows: list[dict[str, float]] | None = None
    scaling_error: str | None = None
    http: list[run_http.ServerResult] | None = None
    elapsed_s: float = 0.0
    problems: list[str] = field(default_factory=list)


def measure(options: Options, log: Callable[[str], None]) -> Report:
    """Run every phase asked for; a phase that fails is reported, not fatal."""
    started = time.perf_counter()
    report = Report(options)
    report.compile_trouble = compile_sources(log)
    if "stdio" in options.phases:
        log("== stdio ==")
        report.stdio = run.benchmark(
            options.servers,
            options.calls,
            options.repeat,
            options.timeout,
            log,
            payload_size=options.payload_size,
            payload_calls=options.payload_calls,
            import_runs=options.import_runs,
            warm_up=not options.quick,
        )
    if "framing" in options.phases:
        log("== framing ==")
        report.framing_comparison = framing.benchmark(
            options.calls,
            options.repeat,
            options.timeout,
            log,
            payload_size=options.payload_size,
            payload_calls=options.payload_calls,
        )
    if "scaling" in options.phases:
        log("== scaling ==")
        report.scaling_rows = []
        try:
            for size in options.sizes:
                log(f"scaling: {size} methods ...")
                report.scaling_rows.append(
                    scaling.measure(size, options.scaling_calls, options.scaling_repeat)
                )
        except (run.BenchError, OSError) as exc:
            report.scaling_error = str(exc)
            log(f"  scaling failed: {exc}")
    if "http" in options.phases:
        log("== http ==")
        report.http = run_http.benchmark(
            options.http_servers,
            options.http_calls,
            options.http_duration,
            options.http_concurrency,
            options.http_rounds,
            options.timeout,
            log,
        )
    report.elapsed_s = time.perf_counter() - started
    report.problems = problems_of(report)
    return report


def problems_of(report: Report) -> list[str]:
    """What could not be measured: empty when every phase measured every server."""
    found: list[str] = []
    for result in report.stdio or []:
        if not result.available:
            found.append(f"stdio {result.spec.key}: {result.error}")
        elif result.payload_error is not None:
            found.append(f"payloads {result.spec.key}: {result.payload_error}")
    if report.framing_comparison is not None and report.framing_comparison.error is not None:
        found.append(f"framing: {report.framing_comparison.error}")
    if report.scaling_error is not None:
        found.append(f"scaling: {report.scaling_error}")
    found.extend(
        f"http {result.spec.key}: {result.error}"
        for result in report.http or []
        if not result.available
    )
    return found


# --- the payloads and the scaling curve, as sections of their own -------------------------------


def payload_section(report: Report) -> dict[str, Any]:
    """The stdio payload figures of every server, and objmcp / each other."""
    results = report.stdio or []
    figures = {r.spec.key: r.figures() for r in results}
    relative = run.ratios(results)
    return {
        "payload_bytes": report.options.payload_size,
        "calls_per_spawn": report.options.payload_calls,
        "spawns": report.options.repeat,
        "servers": {
            r.spec.key: {
                **{key: figures[r.spec.key][key] for key in PAYLOAD_KEYS},
                "error": r.error if not r.available else r.payload_error,
            }
            for r in results
        },
        "ratios": {
            pair: {key: values[key] for key in PAYLOAD_KEYS if key not in run.FAULT_KEYS}
            for pair, values in relative.items()
        },
    }


def scaling_section(report: Report) -> dict[str, Any]:
    """The scaling curve's rows, each size over the smallest, and the cost of a method."""
    rows = report.scaling_rows or []
    return {
        "server": scaling.SPEC.script.name,
        "calls": report.options.scaling_calls,
        "repeat": report.options.scaling_repeat,
        "available": report.scaling_error is None,
        "error": report.scaling_error,
        "rows": rows,
        "per_method": scaling.per_method_us(rows),
        "ratios": scaling.curve_ratios(rows),
    }


def targets(report: Report) -> list[dict[str, Any]]:
    """The issue's targets, each with the figure that decides it and whether it is met.

    Informational: the figures come from one run on one machine.
    """
    found: list[dict[str, Any]] = []
    if report.stdio is not None:
        floor = run.ratios(report.stdio).get("objmcp/floor", {})
        for key, what in (("argument_mb_s", "argument"), ("result_mb_s", "result")):
            value = floor.get(key)
            found.append(
                {
                    "target": f"payload {what} round trip within 2x of the floor's throughput",
                    "figure": f"objmcp/floor {key}",
                    "value": value,
                    "met": None if value is None else value >= 0.5,
                }
            )
    if report.framing_comparison is not None:
        relative = report.framing_comparison.ratios()[framing.RATIO]
        for key, _, higher_better, _ in framing.METRICS:
            if key in run.FAULT_KEYS:
                continue  # not compared: the allocator's, not the framing's
            value = relative[key]
            met = None
            if value is not None:
                met = value >= 1 - NOISE if higher_better else value <= 1 + NOISE
            found.append(
                {
                    "target": "Content-Length framing no slower than newline framing "
                    f"(within {NOISE:.0%})",
                    "figure": f"{framing.RATIO} {key}",
                    "value": value,
                    "met": met,
                }
            )
    steps = scaling.per_method_us(report.scaling_rows or [])
    if len(steps) >= 2:
        for key in ("initialize_us_per_method", "tools_list_us_per_method"):
            first, last = steps[0][key], steps[-1][key]
            value = last / first if first > 0 and last > 0 else None
            found.append(
                {
                    "target": "start-up and tools/list linear in the methods "
                    "(a method costs the same along the curve, within 2x)",
                    "figure": f"{key} {steps[-1]['from']:g}->{steps[-1]['to']:g} / "
                    f"{steps[0]['from']:g}->{steps[0]['to']:g}",
                    "value": value,
                    "met": None if value is None else value <= 2,
                }
            )
    return found


# --- the report -------------------------------------------------------------------------------


def cell(value: float | None, fmt: str = "{:.1f}") -> str:
    """A table cell: the formatted value, or ``-``."""
    return "-" if value is None else fmt.format(value)


def scaling_table(report: Report) -> list[str]:
    """The scaling curve as a table: a row a size, then the ratios and a method's cost."""
    rows = report.scaling_rows or []
    headers = ["methods", "spawn->initialize (ms)", "spawn->tools/list (ms)", "call RTT (us)"]
    body = [
        [f"{row['methods']:g}", *(cell(row[key]) for key in scaling.CURVE_KEYS)] for row in rows
    ]
    body += [
        [f"ratio {pair}", *(cell(values[key], "{:.2f}x") for key in scaling.CURVE_KEYS)]
        for pair, values in scaling.curve_ratios(rows).items()
    ]
    body += [
        [
            f"+1 method, {step['from']:g}->{step['to']:g} (us)",
            cell(step["initialize_us_per_method"]),
            cell(step["tools_list_us_per_method"]),
            "",
        ]
        for step in scaling.per_method_us(rows)
    ]
    lines = table(headers, body)
    if report.scaling_error is not None:
        lines.append(f"scaling UNAVAILABLE: {report.scaling_error}")
    return lines


def render(report: Report) -> str:
    """The whole report: a table a phase, then the targets."""
    options = report.options
    size = f"{options.payload_size / 1e6:g} MB"
    out: list[str] = []
    if report.stdio is not None:
        out += [
            "",
            f"== stdio: {options.calls} sequential + {options.calls} pipelined calls x "
            f"{options.repeat} spawns per server; payloads {size}, {options.payload_calls} "
            f"x {options.repeat} spawns each way; protocol {run.PROTOCOL_VERSION} ==",
            run.render_table(report.stdio, options.calls, options.payload_size),
        ]
    if report.framing_comparison is not None:
        out += [
            "",
            f"== framing: objmcp, Content-Length against newline ({options.calls} calls x "
            f"{framing.ROUND_TRIP_SPAWNS * options.repeat} spawns each; payloads as above) ==",
            framing.render_table(report.framing_comparison, options.payload_size),
        ]
    if report.scaling_rows is not None:
        out += [
            "",
            f"== scaling: objmcp serving N methods ({options.scaling_calls} calls x "
            f"{options.scaling_repeat} spawns a size; medians) ==",
            *scaling_table(report),
        ]
    if report.http is not None:
        out += [
            "",
            f"== http: Streamable HTTP under uvicorn, {options.http_calls} sequential calls, "
            f"{options.http_concurrency} clients x {options.http_duration:g} s, "
            f"{options.http_rounds} round(s) ==",
            run_http.render_table(report.http, options.http_concurrency),
        ]
    found = targets(report)
    if found:
        out += ["", "== targets (one run, informational) =="]
        for target in found:
            verdict = {True: "met", False: "NOT met", None: "unknown"}[target["met"]]
            out.append(
                f"{verdict:>8}  {target['target']}: {target['figure']} = "
                f"{cell(target['value'], '{:.2f}x')}"
            )
    out += [
        "",
        "ratios are objmcp / other (framing: content-length / newline; scaling: size / "
        "smallest); below 1x is better except [higher=better] rows",
        f"{report.elapsed_s:.0f} s in all; {sys.executable}",
    ]
    if report.problems:
        out.append(f"{len(report.problems)} thing(s) could not be measured (see above)")
    return "\n".join(out)


def to_json(report: Report) -> dict[str, Any]:
    """Every section as JSON."""
    options = report.options
    document: dict[str, Any] = {
        "meta": {
            "options": options.to_json(),
            "elapsed_s": report.elapsed_s,
            "bytecode": "python -m compileall -q on objmcp and bench/ before measuring; "
            "servers run without PYTHONDONTWRITEBYTECODE",
            "compile_trouble": report.compile_trouble,
            **environment(),
            "versions": {
                name: library_version(name)
                for name in ("objmcp", "mcp", "fastmcp", "uvicorn", "matplotlib")
            },
            "problems": report.problems,
        }
    }
    if report.stdio is not None:
        document["stdio"] = run.to_json(
            report.stdio,
            options.calls,
            options.repeat,
            options.payload_size,
            options.payload_calls,
        )
        document["payloads"] = payload_section(report)
    if report.framing_comparison is not None:
        document["framing"] = framing.to_json(
            report.framing_comparison,
            options.calls,
            options.repeat,
            options.payload_size,
            options.payload_calls,
        )
    if report.scaling_rows is not None:
        document["scaling"] = scaling_section(report)
    if report.http is not None:
        document["http"] = run_http.to_json(
            report.http,
            {
                "calls": options.http_calls,
                "duration_s": options.http_duration,
                "concurrency": options.http_concurrency,
                "rounds": options.http_rounds,
            },
        )
    document["targets"] = targets(report)
    return document


# --- the plot ---------------------------------------------------------------------------------


def plot(report: Report, path: Path) -> None:
    """Write a PNG: the round-trip distribution (CDF) of each stdio server, the scaling
    curve, and the payload throughputs. matplotlib is imported here, with Agg."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (latency, curve, payloads) = plt.subplots(1, 3, figsize=(17, 5.2))
    results = [r for r in report.stdio or [] if r.available and r.latencies_ns]
    for result in results:
        values = sorted(ns / 1e3 for ns in result.latencies_ns)
        share = [(i + 1) / len(values) for i in range(len(values))]
        latency.step(values, share, where="post", label=f"{result.spec.label}")
    latency.set_xscale("log")
    latency.set_xlabel("sequential tools/call round trip (us, log scale)")
    latency.set_ylabel("share of calls at or below")
    latency.set_title("stdio round-trip distribution")
    latency.grid(True, which="both", alpha=0.3)
    if results:
        latency.legend(loc="lower right")
    else:
        latency.text(0.5, 0.5, "not measured", ha="center", transform=latency.transAxes)

    rows = report.scaling_rows or []
    if rows:
        methods = [row["methods"] for row in rows]
        curve.plot(methods, [r["initialize_ms"] for r in rows], "o-", label="spawn -> initialize")
        curve.plot(methods, [r["tools_list_ms"] for r in rows], "s-", label="spawn -> tools/list")
        curve.set_xticks(methods, [f"{m:g}" for m in methods])
        curve.set_xlim(left=0)
        curve.set_ylim(bottom=0)
        curve.legend(loc="upper left")
    else:
        curve.text(0.5, 0.5, "not measured", ha="center", transform=curve.transAxes)
    curve.set_xlabel("methods on the object (linear scale: a straight line is linear)")
    curve.set_ylabel("ms")
    curve.set_title("objmcp scaling (stdio)")
    curve.grid(True, which="both", alpha=0.3)

    measured = [r for r in report.stdio or [] if r.available and r.payload_error is None]
    size = f"{report.options.payload_size / 1e6:g} MB"
    if measured and measured[0].payloads:
        width = 0.38
        for offset, key, label in (
            (-width / 2, "argument_mb_s", f"{size} argument"),
            (width / 2, "result_mb_s", f"{size} result"),
        ):
            heights = [r.figures()[key] or 0.0 for r in measured]
            payloads.bar([i + offset for i in range(len(measured))], heights, width, label=label)
        payloads.set_xticks(range(len(measured)), [r.spec.label for r in measured])
        payloads.set_ylim(top=payloads.get_ylim()[1] * 1.2)  # room for the legend
        payloads.legend(loc="upper center", ncol=2)
    else:
        payloads.text(0.5, 0.5, "not measured", ha="center", transform=payloads.transAxes)
    payloads.set_ylabel("MB/s (higher is better)")
    payloads.set_title(f"{size} string round trips (stdio)")
    payloads.grid(True, axis="y", alpha=0.3)

    figure.suptitle(
        f"objmcp benchmark ({platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()})"
    )
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


# --- the command --------------------------------------------------------------------------------


def pick(parser: argparse.ArgumentParser, names: str, known: Mapping[str, Any]) -> list[Any]:
    """The items of ``known`` named in comma-separated ``names``; a parser error if unknown."""
    wanted = [name.strip() for name in names.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in known]
    if unknown:
        parser.error(f"unknown: {', '.join(unknown)} (known: {', '.join(known)})")
    return [known[name] for name in wanted]


def parse_options(argv: Sequence[str] | None) -> tuple[Options, Path | None, Path | None]:
    """The options, and where to write the JSON and the PNG (None: not asked for)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: few calls, 1 spawn, no warm-up"
    )
    parser.add_argument("--json", type=Path, help="write every figure to this JSON file")
    parser.add_argument("--png", type=Path, help="plot to this PNG file (needs matplotlib)")
    parser.add_argument("--skip", default="", help="phases to leave out: " + ", ".join(PHASES))
    parser.add_argument("--calls", type=int, help="stdio and framing calls a spawn (5000; 200)")
    parser.add_argument("--repeat", type=int, help="measured spawns a server (5; quick 1)")
    parser.add_argument("--payload-mb", type=float, default=10.0, help="payload size, MB (10)")
    parser.add_argument("--payload-calls", type=int, help="payloads each way a spawn (3; 1)")
    parser.add_argument(
        "--servers",
        default=",".join(spec.key for spec in run.SERVERS),
        help="stdio servers: " + ", ".join(spec.key for spec in run.SERVERS),
    )
    parser.add_argument("--sizes", default="10,100,1000", help="scaling: method counts")
    parser.add_argument("--scaling-calls", type=int, help="scaling: calls a spawn (500; 100)")
    parser.add_argument("--scaling-repeat", type=int, help="scaling: spawns a size (3; 1)")
    parser.add_argument(
        "--http-servers",
        default=",".join(spec.key for spec in run_http.SERVERS),
        help="HTTP servers: " + ", ".join(spec.key for spec in run_http.SERVERS),
    )
    parser.add_argument("--http-calls", type=int, help="HTTP: sequential calls (1000; 200)")
    parser.add_argument("--http-duration", type=float, help="HTTP: seconds of load (3; 1)")
    parser.add_argument("--http-rounds", type=int, help="HTTP: rounds (3; 1)")
    parser.add_argument("--http-concurrency", type=int, default=16, help="HTTP: clients (16)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait (30)")
    args = parser.parse_args(argv)
    quick = bool(args.quick)

    def default(value: Any, full: Any, short: Any) -> Any:
        return value if value is not None else (short if quick else full)

    skipped = pick(parser, args.skip, {phase: phase for phase in PHASES})
    options = Options(
        phases=tuple(phase for phase in PHASES if phase not in skipped),
        servers=tuple(pick(parser, args.servers, {s.key: s for s in run.SERVERS})),
        calls=default(args.calls, 5000, 200),
        repeat=default(args.repeat, 5, 1),
        payload_size=round(args.payload_mb * 1e6),
        payload_calls=default(args.payload_calls, 3, 1),
        import_runs=1 if quick else max(5, default(args.repeat, 5, 1)),
        sizes=tuple(int(size) for size in args.sizes.split(",") if size.strip()),
        scaling_calls=default(args.scaling_calls, 500, 100),
        scaling_repeat=default(args.scaling_repeat, 3, 1),
        http_servers=tuple(pick(parser, args.http_servers, {s.key: s for s in run_http.SERVERS})),
        http_calls=default(args.http_calls, 1000, 200),
        http_duration=default(args.http_duration, 3.0, 1.0),
        http_rounds=default(args.http_rounds, 3, 1),
        http_concurrency=args.http_concurrency,
        timeout=args.timeout,
        quick=quick,
    )
    counts = (
        options.calls,
        options.repeat,
        options.scaling_calls,
        options.scaling_repeat,
        options.http_calls,
        options.http_rounds,
        options.http_concurrency,
        options.payload_size,
    )
    if min(counts) < 1 or options.payload_calls < 0 or options.http_duration <= 0:
        parser.error("counts, sizes and durations must be positive")
    if not options.sizes or min(options.sizes) < 1:
        parser.error("--sizes must be positive method counts")
    return options, args.json, args.png


def main(argv: Sequence[str] | None = None) -> int:
    """Run every phase, print the report, write the JSON and the PNG; 0 if all measured."""
    options, json_path, png_path = parse_options(argv)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    report = measure(options, log)
    print(render(report))
    if json_path is not None:
        json_path.write_text(json.dumps(to_json(report), indent=2) + "\n")
        log(f"wrote {json_path}")
    if png_path is not None:
        plot(report, png_path)
        log(f"wrote {png_path}")
    for problem in report.problems:
        log(f"not measured: {problem}")
    return 0 if not report.problems else 1


if __name__ == "__main__":
    sys.exit(main())
