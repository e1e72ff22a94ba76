"""What the benchmarks (``run.py``, stdio; ``run_http.py``, HTTP; ``all.py``, ...) share:
the servers' environment, byte-code preparation, percentiles, ratios, versions, and the
plain-text table."""

from __future__ import annotations

import importlib.metadata
import math
import os
import platform
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(__file__).resolve().parent


def source_base() -> Path | None:
    """The directory holding the working copy of objmcp (``src/`` or the root), if any."""
    for base in (ROOT / "src", ROOT):
        if (base / "objmcp" / "__init__.py").is_file() or (base / "objmcp.py").is_file():
            return base
    return None


def server_env() -> dict[str, str]:
    """The environment for servers, with the working copy of objmcp first on the path.

    If the project keeps objmcp in ``src/objmcp`` or ``objmcp/`` next to ``bench/``,
    that tree is put first on ``PYTHONPATH`` so the working copy is what gets
    measured, whether or not it is installed.

    ``PYTHONDONTWRITEBYTECODE`` is left out: with it, a module whose cached byte code
    is stale is compiled again on every import, which would be measured as start-up
    and import time. Without it the first (unmeasured) spawn refreshes the cache.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    base = source_base()
    extra = [str(base)] if base is not None else []
    if env.get("PYTHONPATH"):
        extra.append(env["PYTHONPATH"])
    if extra:
        env["PYTHONPATH"] = os.pathsep.join(extra)
    return env


def environment() -> dict[str, Any]:
    """The interpreter and machine the figures come from, for the JSON reports."""
    return {
        "python": sys.version,
        "executable": sys.executable,
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
    }


def compile_sources(log: Callable[[str], None]) -> str | None:
    """Bring the byte code of objmcp's working copy and of ``bench/`` up to date.

    Runs ``python -m compileall -q`` on both trees (it writes byte code whatever
    ``PYTHONDONTWRITEBYTECODE`` says), so that no measured import compiles source.
    Returns None, or what compileall said if it failed, which is also logged (a file
    that does not compile is the servers' problem, reported when they start).
    """
    base = source_base()
    trees = [BENCH_DIR]
    if base is not None:
        trees.insert(0, base / "objmcp" if (base / "objmcp").is_dir() else base / "objmcp.py")
    done = subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *map(str, trees)],
        env=server_env(),
        capture_output=True,
        check=False,
    )
    if done.returncode == 0:
        return None
    said = (done.stdout + done.stderr).decode(errors="replace").strip()
    trouble = said[-400:] or f"compileall exited with {done.returncode}"
    log(f"compileall: {trouble}")
    return trouble


def percentile(values: Sequence[float], pct: float) -> float:
    """The nearest-rank percentile ``pct`` (0-100] of non-empty ``values``."""
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def ratio(num: float | None, den: float | None) -> float | None:
    """``num / den``, or None if either is unknown or ``den`` is zero."""
    if num is None or den is None or den == 0:
        return None
    return num / den


def library_version(name: str) -> str | None:
    """The installed version of distribution ``name``, if any."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def metric_rows(
    metrics: Sequence[tuple[str, str, bool, str]],
    columns: Sequence[Mapping[str, float | None]],
    relative: Mapping[str, Mapping[str, float | None]],
) -> list[list[str]]:
    """One row per metric ``(key, label, higher_better, format)``: its label, its value
    in each column of figures, then each ratio (``-`` where there is none)."""
    rows: list[list[str]] = []
    for key, label, higher_better, fmt in metrics:
        row = [label + (" [higher=better]" if higher_better else "")]
        for figures in columns:
            value = figures[key]
            row.append("-" if value is None else fmt.format(value))
        for ratios in relative.values():
            value = ratios.get(key)
            row.append("-" if value is None else f"{value:.2f}x")
        rows.append(row)
    return rows


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of a plain-text table: the first column left-aligned, the rest right."""
    widths = [max(len(line[i]) for line in [headers, *rows]) for i in range(len(headers))]

    def line_of(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest])

    return [line_of(headers), "  ".join("-" * width for width in widths)] + [
        line_of(row) for row in rows
    ]
