"""The chosen zoo, measured: both halves (and the first zoo), objmcp beside FastMCP.

For every library with a calls module (``bench/chosen/calls_*.py``), grouped by its half
(``libraries.py``): each target served by a real ``objmcp run`` process, listed and called
through the official SDK's client; beside it, FastMCP's ``Tool.from_function`` on the same
callables, the calls run by the tools it built. The measuring is ``bench/zoo_figures.py``'s:
calls passing (each answer checked against the library called directly), parameters, typed
(a schema narrower than any JSON value, and for objmcp only a type the library gives by an
annotation, a stub, its docstring or a plain default: never a guess from the parameter's
name) and described. With ``--first-zoo``, the first zoo (``bench/zoo_cases.py``) too.

Run: ``.venv-chosen/bin/python bench/chosen/figures.py`` (with any other Python it runs itself
again under ``.venv-chosen``, made by ``venv.sh`` when missing; the first zoo's libraries are in
the main ``.venv``, whose Python measures them). ``--json FILE`` writes the figures per library
and per call, with each failure's details (``baseline.json`` is such a file); ``--markdown``
prints the README's table (each half also split by the walk that kept its libraries, where it
has more than one); ``--half``, ``--walk``, ``--library`` and ``--sample`` (the CI sample,
``sample.py``) choose what is measured. Each library is measured in a process of its own, two at
once (``--jobs``), with no network where ``unshare -n`` works.

``figures.py`` beside it is the command; this module is what it runs (a module of its own name,
as ``bench/figures.py`` is ``figures`` to the type checker).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

CHOSEN_DIR = Path(__file__).resolve().parent
BENCH_DIR = CHOSEN_DIR.parent
ROOT = BENCH_DIR.parent
CHOSEN_VENV = ROOT / ".venv-chosen"
MAIN_VENV = ROOT / ".venv"
COMMAND = CHOSEN_DIR / "figures.py"
sys.path.insert(0, str(BENCH_DIR))  # before bench/chosen/: bench/figures.py is ``figures``

from libraries import LIBRARIES, normalized  # noqa: E402
from sample import HALVES, call_key, library_named, sample, targets_of, with_calls  # noqa: E402
from zoo_cases import TARGETS as FIRST_ZOO_TARGETS  # noqa: E402
from zoo_cases import Target  # noqa: E402

FIRST_ZOO = "first zoo"
GROUPS = (*HALVES, FIRST_ZOO)
SERVERS = {"objmcp": "objmcp", "fastmcp": "FastMCP"}
TARGET_TIMEOUT = 300.0
"""Seconds for one target's calls through its server (a call that never ends fails them)."""
WORKER_TIMEOUT = 1200.0
"""Seconds for one library's process (beyond, each of its calls is failed)."""
COUNTS = ("tools", "params", "typed", "described", "calls", "passed")


@dataclass(frozen=True)
class Job:
    """One library to measure, in a process of its own."""

    group: str
    """Its half, or the first zoo."""
    name: str
    """Its distribution's name (the first zoo: its top module)."""
    rank: int | None = None

    def targets(self) -> tuple[Target, ...]:
        """Its targets and calls."""
        if self.group == FIRST_ZOO:
            return tuple(target for target in FIRST_ZOO_TARGETS if target.library == self.name)
        return targets_of(library_named(self.name))

    def python(self) -> Path:
        """The Python that has its library: the first zoo's is the main venv's."""
        venv = MAIN_VENV if self.group == FIRST_ZOO else CHOSEN_VENV
        return venv / "bin" / "python"


def jobs(options: argparse.Namespace) -> list[Job]:
    """The libraries the options choose, the halves' in rank order, then the first zoo's."""
    chosen = sample() if options.sample else with_calls()
    found = [Job(library.half, library.distribution, library.rank) for library in chosen]
    if options.first_zoo:
        names = dict.fromkeys(target.library for target in FIRST_ZOO_TARGETS)
        found += [Job(FIRST_ZOO, name) for name in names]
    if options.half:
        found = [job for job in found if job.group in (options.half, FIRST_ZOO)]
    if options.walk:
        found = [job for job in found if job.group == FIRST_ZOO or _walk(job.name) == options.walk]
    if options.library:
        named = {normalized(name) for name in options.library}
        found = [job for job in found if normalized(job.name) in named or _imports(job) & named]
        measured = {normalized(job.name) for job in found}.union(*map(_imports, found))
        missing = named - measured
        if missing:
            sys.exit(f"no calls to measure for {', '.join(sorted(missing))} (with these options)")
    return found


def _walk(name: str) -> int:
    return library_named(name).walk


def by_walk(groups: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each half's libraries again, split by the walk that kept them (``"held-out, walk 2"``),
    where a half has libraries of more than one walk."""
    split: dict[str, dict[str, Any]] = {}
    for group, libraries in groups.items():
        if group == FIRST_ZOO:
            continue
        walks = sorted({_walk(name) for name in libraries})
        for walk in walks if len(walks) > 1 else ():
            split[f"{group}, walk {walk}"] = {
                name: library for name, library in libraries.items() if _walk(name) == walk
            }
    return split


def _imports(job: Job) -> set[str]:
    return {
        normalized(name)
        for library in LIBRARIES
        if library.distribution == job.name
        for name in library.imports
    }


# --- in the library's own process ---


def measure(job: Job) -> dict[str, Any]:
    """Every target of ``job``'s library measured for both servers; a target that cannot be
    served or called has each of its calls failed with the reason."""
    from zoo_figures import measure_fastmcp, measure_objmcp

    return {
        target.spec: {
            "objmcp": _guarded(lambda t: measure_objmcp(t, TARGET_TIMEOUT), target),
            "fastmcp": _guarded(measure_fastmcp, target),
        }
        for target in job.targets()
    }


def _guarded(measuring: Any, target: Target) -> dict[str, Any]:
    from zoo_figures import Figures, Outcome, add_outcomes

    try:
        figures: Figures = measuring(target)
    except Exception as error:
        figures = Figures()
        reason = f"not measured: {type(error).__name__}: {error}"[:500]
        add_outcomes(figures, [Outcome(call.tool, False, reason) for call in target.calls])
    return _with_keys(asdict(figures), target)


def _with_keys(figures: dict[str, Any], target: Target) -> dict[str, Any]:
    for outcome, call in zip(figures["outcomes"], target.calls, strict=True):
        outcome["call"] = call_key(target.spec, call)
    return figures


# --- in the measuring process ---


def run_job(job: Job) -> dict[str, Any]:
    """Measure ``job`` in a process of its own (under ``unshare -n`` where it works): its
    figures by target, or every call failed with why the process did not finish."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "figures.json"
        command = [str(job.python()), str(COMMAND), "--worker", job.group, job.name, str(out)]
        failed = run_offline(command, WORKER_TIMEOUT)
        if failed is None and out.is_file():
            return {"rank": job.rank, "error": None, "targets": json.loads(out.read_text())}
    reason = (failed or "no figures written")[-500:]
    return {"rank": job.rank, "error": reason, "targets": _failed(job, reason)}


def run_offline(
    command: list[str], timeout: float, env: dict[str, str] | None = None
) -> str | None:
    """Run ``command`` from the repository's root, the repository first on ``PYTHONPATH`` and
    with no network where ``unshare -n`` works: ``None`` when it succeeds, else why not."""
    path = os.pathsep.join(filter(None, [str(ROOT), _path()]))
    try:
        done = subprocess.run(
            [*_offline(), *command],
            env={**os.environ, **(env or {}), "PYTHONPATH": path},
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"not done in {timeout:.0f} s"
    return None if done.returncode == 0 else f"exit {done.returncode}: {done.stderr}"


def _path() -> str:
    return os.environ.get("PYTHONPATH", "")


def _offline() -> list[str]:
    unshare = shutil.which("unshare")
    if unshare is None:
        return []
    works = subprocess.run([unshare, "-n", "true"], capture_output=True, check=False)
    return [unshare, "-n"] if works.returncode == 0 else []


def _failed(job: Job, reason: str) -> dict[str, Any]:
    from zoo_figures import Figures, Outcome, add_outcomes

    by_target = {}
    for target in job.targets():
        figures = Figures()
        add_outcomes(figures, [Outcome(call.tool, False, reason) for call in target.calls])
        row = _with_keys(asdict(figures), target)
        by_target[target.spec] = {"objmcp": row, "fastmcp": row}
    return by_target


def totals(libraries: Iterable[dict[str, Any]], server: str) -> dict[str, int]:
    """The counts of ``server`` summed over ``libraries`` (as :func:`run_job` gives them)."""
    summed = dict.fromkeys(("libraries", *COUNTS), 0)
    for library in libraries:
        summed["libraries"] += 1
        for target in library["targets"].values():
            for key in COUNTS:
                summed[key] += target[server][key]
    return summed


def share(part: int, whole: int) -> str:
    """``part`` of ``whole``, and as a whole percentage."""
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else f"{part}/{whole}"


def table(summary: dict[str, dict[str, dict[str, int]]]) -> list[list[str]]:
    """The summary as rows of cells: a header, then libraries, calls passing, parameters
    typed and described, for each group and server side by side."""
    columns = [(group, server) for group in summary for server in SERVERS]
    rows = [["", *(f"{group}: {SERVERS[server]}" for group, server in columns)]]
    cells: dict[str, Callable[[dict[str, int]], str]] = {
        "libraries": lambda f: str(f["libraries"]),
        "calls passing": lambda f: share(f["passed"], f["calls"]),
        "parameters typed": lambda f: share(f["typed"], f["params"]),
        "parameters described": lambda f: share(f["described"], f["params"]),
    }
    for label, cell in cells.items():
        rows.append([label, *(cell(summary[group][server]) for group, server in columns)])
    return rows


def markdown(rows: list[list[str]]) -> str:
    """Rows of cells as a Markdown table, the figures right-aligned."""
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    lines.insert(1, "|---|" + "---:|" * (len(rows[0]) - 1))
    return "\n".join(lines)


def plain(rows: list[list[str]]) -> str:
    """Rows of cells as aligned text."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def report(job: Job, measured: dict[str, Any]) -> str:
    """One library's line for stderr, with its failing calls under it."""
    ours, theirs = totals([measured], "objmcp"), totals([measured], "fastmcp")
    lines = [
        f"{job.name} ({job.group}): objmcp {share(ours['passed'], ours['calls'])} calls, "
        f"{share(ours['typed'], ours['params'])} typed; FastMCP "
        f"{share(theirs['passed'], theirs['calls'])} calls, "
        f"{share(theirs['typed'], theirs['params'])} typed"
    ]
    for target in measured["targets"].values():
        lines += [f"  {failure}" for failure in target["objmcp"]["failures"]]
    return "\n".join(lines)


def parse(argv: list[str]) -> argparse.Namespace:
    """The command line's options."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write the figures, per library and call")
    parser.add_argument(
        "--baseline",
        type=Path,
        help="write which calls passed, and no more (bench/chosen/baseline.json: what CI holds "
        "the sample to, with no held-out failure's detail for a tuner to read)",
    )
    parser.add_argument("--markdown", action="store_true", help="print the README's table")
    parser.add_argument("--half", choices=HALVES, help="measure only this half")
    parser.add_argument(
        "--walk",
        type=int,
        choices=sorted({library.walk for library in LIBRARIES}),
        help="measure only the libraries this walk kept",
    )
    parser.add_argument(
        "--library", action="append", help="measure only this library (again for more)"
    )
    parser.add_argument("--sample", action="store_true", help="only the CI sample (sample.py)")
    parser.add_argument(
        "--first-zoo", action="store_true", help="the first zoo too (with the main .venv)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="libraries measured at once")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def _chosen(argv: list[str]) -> list[str]:
    """The options that chose what was measured (what is printed or written left out)."""
    kept: list[str] = []
    skip = False
    for argument in argv:
        if skip or argument == "--markdown" or argument.startswith(("--json=", "--baseline=")):
            skip = False
        elif argument in ("--json", "--baseline"):
            skip = True
        else:
            kept.append(argument)
    return kept


def passed_only(groups: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The figures cut to whether each call of objmcp passed (the shape ``--json`` writes,
    each outcome only its ``call`` and ``passed``)."""
    return {
        group: {
            name: {
                "targets": {
                    spec: {
                        "objmcp": {
                            "outcomes": [
                                {"call": outcome["call"], "passed": outcome["passed"]}
                                for outcome in target["objmcp"]["outcomes"]
                            ]
                        }
                    }
                    for spec, target in library.get("targets", {}).items()
                }
            }
            for name, library in libraries.items()
        }
        for group, libraries in groups.items()
    }


def in_venv(venv: Path) -> bool:
    """Whether this Python is ``venv``'s."""
    return Path(sys.prefix).resolve() == venv.resolve()


SCRATCH = "objmcp-calls-*"
"""What calls with state leave in the temporary folder (``/tmp/objmcp-calls-dulwich``): each
call module expects none there when the bench starts, so a run that was cut short must not
decide the next one's answers."""


def _clear_scratch() -> None:
    for left in Path(tempfile.gettempdir()).glob(SCRATCH):
        if left.is_dir() and not left.is_symlink():
            shutil.rmtree(left, ignore_errors=True)
        else:
            left.unlink(missing_ok=True)


def main(argv: list[str]) -> None:
    """Measure what the options choose; print the summary, keep the figures."""
    options = parse(argv)
    if options.worker:
        group, name, out = options.worker
        rank = next((lib.rank for lib in LIBRARIES if lib.distribution == name), None)
        Path(out).write_text(json.dumps(measure(Job(group, name, rank))))
        return
    if not in_venv(CHOSEN_VENV):
        python = CHOSEN_VENV / "bin" / "python"
        if not python.exists():
            subprocess.run(["bash", str(CHOSEN_DIR / "venv.sh")], check=True)
        os.execv(python, [str(python), str(COMMAND), *argv])
    chosen = jobs(options)
    _clear_scratch()
    if options.first_zoo and not (MAIN_VENV / "bin" / "python").exists():
        sys.exit(f"--first-zoo measures with {MAIN_VENV} (scripts/test.sh makes it): missing")
    measured: dict[str, dict[str, Any]] = {group: {} for group in GROUPS}

    def run_and_report(job: Job) -> None:
        measured[job.group][job.name] = run_job(job)
        print(report(job, measured[job.group][job.name]), file=sys.stderr, flush=True)

    with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        list(pool.map(run_and_report, chosen))
    groups = {group: libraries for group, libraries in measured.items() if libraries}
    ranked = {
        group: dict(sorted(libraries.items(), key=lambda item: (item[1]["rank"] or 0, item[0])))
        for group, libraries in groups.items()
    }
    summary = {
        group: {server: totals(libraries.values(), server) for server in SERVERS}
        for group, libraries in {**ranked, **by_walk(ranked)}.items()
    }
    if options.json:
        options.json.write_text(
            json.dumps({"options": _chosen(argv), "summary": summary, "groups": ranked}, indent=1)
            + "\n"
        )
    if options.baseline:
        options.baseline.write_text(
            json.dumps({"options": _chosen(argv), "groups": passed_only(ranked)}, indent=1) + "\n"
        )
    rows = table(summary) if summary else [["nothing measured"]]
    print(markdown(rows) if options.markdown and summary else plain(rows))


if __name__ == "__main__":
    main(sys.argv[1:])
