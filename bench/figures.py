"""What both benchmarks (``run.py``, stdio; ``run_http.py``, HTTP) share: the servers'
environment, percentiles, ratios, versions, and the plain-text table."""

from __future__ import annotations

import importlib.metadata
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def server_env() -> dict[str, str]:
    """The environment for servers, with the working copy of objmcp first on the path.

    If the project keeps objmcp in ``src/objmcp`` or ``objmcp/`` next to ``bench/``,
    that tree is put first on ``PYTHONPATH`` so the working copy is what gets
    measured, whether or not it is installed.
    """
    env = dict(os.environ)
    extra = [
        str(base)
        for base in (ROOT / "src", ROOT)
        if (base / "objmcp" / "__init__.py").is_file() or (base / "objmcp.py").is_file()
    ][:1]
    if env.get("PYTHONPATH"):
        extra.append(env["PYTHONPATH"])
    if extra:
        env["PYTHONPATH"] = os.pathsep.join(extra)
    return env


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
            value = ratios[key]
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
