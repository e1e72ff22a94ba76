"""The held-out search benchmark measured (issue 39): recall@1, recall@5 and MRR of objmcp's
``search_tools`` over the labelled requests of ``bench/search/requests_*.py``, per half, per
style and per target, with FastMCP's BM25 search transform ranking the same catalog beside it.

    python3 bench/search/search_figures.py [--markdown] [--half tuning] [--misses] [--json F]

Each target is measured in a process of its own, with the Python of its zoo (``.venv`` for
the first zoo's, ``.venv-chosen`` for the chosen zoo's: ``chosen_tools.FIRST_ZOO``). The
catalog is the toolbox ``objmcp run`` serves; FastMCP's index reads the same tool definitions
(name, description, parameters and their descriptions: its ``_extract_searchable_text``) with
its own ``_BM25Index``. A request's rank is that of the first right tool among the first ten
(none: MRR 0). ``--misses`` prints the tuning half's requests whose right tool is not first;
the held-out half's are never printed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from chosen_tools import FIRST_ZOO, TARGETS, served_toolbox  # noqa: E402
from labelled import STYLES, Request, half_of, slug  # noqa: E402

SERVERS = ("objmcp", "fastmcp")
DEPTH = 10
"""How far down a ranking a right tool still counts for MRR."""


def requests_of(target: str) -> tuple[Request, ...] | None:
    """The target's labelled requests, or None when its module is not written."""
    try:
        module = importlib.import_module(f"requests_{slug(target)}")
    except ModuleNotFoundError:
        return None
    assert target == module.TARGET, (module.TARGET, target)
    return tuple(module.REQUESTS)


# --- in the target's own process ---


def rank(names: list[str], answers: tuple[str, ...]) -> int | None:
    """The 1-based rank of the first right tool in ``names``, or None."""
    found = [names.index(name) + 1 for name in answers if name in names]
    return min(found, default=None)


def measure(target: str) -> list[dict[str, Any]]:
    """Each request's rank under objmcp's search and FastMCP's BM25, and the top five."""
    from fastmcp.server.transforms.search.base import _extract_searchable_text
    from fastmcp.server.transforms.search.bm25 import _BM25Index

    from objmcp.model.discovery.search import SearchIndex

    toolbox = served_toolbox(target)
    ours = SearchIndex(toolbox.values())
    specs = toolbox.specs("mcp")
    theirs = _BM25Index()
    shaped: list[Any] = [  # what FastMCP reads of a tool: its name, description, parameters
        SimpleNamespace(
            name=spec["name"], description=spec.get("description"), parameters=spec["inputSchema"]
        )
        for spec in specs
    ]
    theirs.build([_extract_searchable_text(tool) for tool in shaped])
    names = [spec["name"] for spec in specs]
    rows = []
    for request in requests_of(target) or ():
        missing = [name for name in request.answers if name not in toolbox]
        assert not missing, f"{target}: {request.text!r} answers {missing}, not served"
        ranked = {
            "objmcp": ours.search(request.text, DEPTH),
            "fastmcp": [names[i] for i in theirs.query(request.text, DEPTH)],
        }
        rows.append(
            {
                "text": request.text,
                "style": request.style,
                "answers": list(request.answers),
                **{f"{server}_rank": rank(ranked[server], request.answers) for server in SERVERS},
                "objmcp_top": ranked["objmcp"][:5],
            }
        )
    return rows


# --- in the measuring process ---


def python_of(target: str) -> Path:
    """The Python of the target's zoo."""
    venv = ".venv" if target in FIRST_ZOO else ".venv-chosen"
    return ROOT / venv / "bin" / "python"


def run(target: str) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "ranks.json"
        command = [str(python_of(target)), __file__, "--worker", target, str(out)]
        subprocess.run(command, check=True, cwd=ROOT, stderr=subprocess.DEVNULL, timeout=900)
        rows: list[dict[str, Any]] = json.loads(out.read_text())
        return rows


def scores(rows: list[dict[str, Any]], server: str) -> dict[str, float]:
    """recall@1, recall@5 and MRR of ``server`` over ``rows``."""
    ranks = [row[f"{server}_rank"] for row in rows]
    count = max(len(ranks), 1)
    return {
        "requests": len(ranks),
        "recall@1": sum(r == 1 for r in ranks) / count,
        "recall@5": sum(r is not None and r <= 5 for r in ranks) / count,
        "mrr": sum(1 / r for r in ranks if r) / count,
    }


def summary(measured: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Both servers' scores per half, per half and style, and per target."""
    found: dict[str, Any] = {"halves": {}, "styles": {}, "targets": {}}
    for half in ("tuning", "held-out"):
        rows = [row for target, got in measured.items() if half_of(target) == half for row in got]
        found["halves"][half] = {server: scores(rows, server) for server in SERVERS}
        for style in STYLES:
            chosen = [row for row in rows if row["style"] == style]
            found["styles"][f"{half}, {style}"] = {
                server: scores(chosen, server) for server in SERVERS
            }
    for target, rows in measured.items():
        found["targets"][f"{target} ({half_of(target)})"] = {
            server: scores(rows, server) for server in SERVERS
        }
    return found


def table(group: dict[str, Any], markdown: bool) -> str:
    """One group of scores as a table: objmcp's and FastMCP's side by side."""
    header = ["", "requests", "objmcp r@1", "r@5", "MRR", "FastMCP r@1", "r@5", "MRR"]
    lines = []
    for name, by_server in group.items():
        ours, theirs = by_server["objmcp"], by_server["fastmcp"]
        cells = [name, str(ours["requests"])]
        for figures in (ours, theirs):
            cells += [f"{figures['recall@1']:.2f}", f"{figures['recall@5']:.2f}"]
            cells.append(f"{figures['mrr']:.2f}")
        lines.append(cells)
    if markdown:
        rule = "|---|" + "---:|" * (len(header) - 1)
        return "\n".join(
            ["| " + " | ".join(header) + " |", rule]
            + ["| " + " | ".join(cells) + " |" for cells in lines]
        )
    return "\n".join("  ".join(f"{cell:>12}" for cell in cells) for cells in [header, *lines])


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print the README's tables")
    parser.add_argument("--half", choices=("tuning", "held-out"), help="measure only this half")
    parser.add_argument("--misses", action="store_true", help="print the tuning half's misses")
    parser.add_argument("--json", type=Path, help="write every request's ranks")
    parser.add_argument("--target", action="append", help="only this target (again for more)")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.worker:
        target, out = options.worker
        Path(out).write_text(json.dumps(measure(target)))
        return
    measured = {
        target: run(target)
        for target in options.target or TARGETS
        if requests_of(target) is not None
        and (options.half is None or half_of(target) == options.half)
    }
    if options.misses:
        for target, rows in measured.items():
            if half_of(target) != "tuning":
                continue
            for row in rows:
                if row["objmcp_rank"] != 1:
                    print(
                        f"{target}: {row['text']!r} ({row['style']}) -> {row['objmcp_top']} "
                        f"(want {row['answers']}, rank {row['objmcp_rank']})"
                    )
    found = summary(measured)
    for title in ("halves", "styles", "targets"):
        print(f"\n{title}:\n{table(found[title], options.markdown)}")
    if options.json:  # the held-out half's ranks, never what its misses found instead
        for target, rows in measured.items():
            for row in rows if half_of(target) == "held-out" else ():
                row.pop("objmcp_top")
        options.json.write_text(json.dumps({"summary": found, "ranks": measured}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
