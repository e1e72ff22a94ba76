"""Progressive discovery measured: the size of ``tools/list``, the search's quality, its speed.

    .venv/bin/python bench/discovery.py [--markdown] [--quality-only] [--misses]

(a) Context size: the bytes of ``{"tools": [...]}`` as ``tools/list`` serves it
    (``Toolbox.specs("mcp")``, compact JSON as objmcp writes it), and tokens estimated
    as bytes / 4 (an approximation: real tokenizers give 3 to 5 bytes a token on JSON),
    for standard-library modules and three large PyPI libraries served whole, with
    discovery off and in ``"search"`` mode.
(b) Search quality: the labelled requests of ``bench/discovery_queries.py``; recall@5
    (a right tool among the first five) and MRR (the mean of 1/rank of the first right
    tool, 0 when it is not in the first ten).
(c) Speed: the index built for a ~2,000-tool target (numpy, sympy, networkx, scipy.stats
    and os in one dict target), and the time of a search over the labelled queries (each
    the median of five runs).
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from discovery_queries import LIBRARIES

import objmcp
from objmcp.model.discovery.search import SearchIndex

SIZE_TARGETS = (
    "statistics",
    "string",
    "math",
    "os.path",
    "os",
    "numpy",
    "sympy",
    "networkx",
    "scipy.stats",
)


def listing_bytes(toolbox: objmcp.Toolbox) -> int:
    """The bytes of the ``tools/list`` result objmcp serves for ``toolbox``."""
    text = json.dumps({"tools": toolbox.specs("mcp")}, separators=(",", ":"), ensure_ascii=False)
    return len(text.encode())


def sizes() -> list[dict[str, Any]]:
    """(a): each target's list, with discovery off and in search mode."""
    rows = []
    for name in SIZE_TARGETS:
        module = importlib.import_module(name)
        whole = objmcp.Toolbox(module)
        searching = objmcp.Toolbox(module, discovery="search")
        full, meta = listing_bytes(whole), listing_bytes(searching)
        rows.append(
            {
                "target": name,
                "tools": len(whole),
                "bytes": full,
                "tokens": full // 4,
                "search_bytes": meta,
                "search_tokens": meta // 4,
                "smaller": 1 - meta / full,
            }
        )
    return rows


def quality(misses: bool = False) -> dict[str, Any]:
    """(b): recall@5 and MRR over the labelled queries, per library and in all."""
    per_library = []
    found5 = reciprocal = total = 0.0
    for library in LIBRARIES:
        module = importlib.import_module(library.target)
        index = SearchIndex(objmcp.Toolbox(module, **library.options).values())
        hits = rr = 0.0
        for query, right in library.queries.items():
            names = index.search(query, 10)
            ranks = [names.index(name) + 1 for name in right if name in names]
            best = min(ranks, default=None)
            hits += best is not None and best <= 5
            rr += 1 / best if best else 0.0
            if misses and (best is None or best > 1):
                print(f"  {library.target}: {query!r} -> {names[:5]} (want {right}, rank {best})")
        count = len(library.queries)
        per_library.append(
            {
                "target": library.target,
                "tools": len(index),
                "queries": count,
                "recall@5": hits / count,
                "mrr": rr / count,
            }
        )
        found5, reciprocal, total = found5 + hits, reciprocal + rr, total + count
    return {
        "libraries": per_library,
        "recall@5": found5 / total,
        "mrr": reciprocal / total,
        "queries": int(total),
    }


def speed() -> dict[str, Any]:
    """(c): the index of a ~2,000-tool target built (and of its first 700 tools), and
    searched."""
    target = {
        short: importlib.import_module(name)
        for short, name in (
            ("np", "numpy"),
            ("sp", "sympy"),
            ("nx", "networkx"),
            ("st", "scipy.stats"),
            ("os", "os"),
        )
    }
    toolbox = objmcp.Toolbox(target)
    tools = list(toolbox.values())
    builds = []
    for _ in range(3):
        start = time.perf_counter()
        index = SearchIndex(tools)
        builds.append(time.perf_counter() - start)
    seven_hundred = []  # issue 39's measure: an index of 700 tools
    for _ in range(3):
        start = time.perf_counter()
        SearchIndex(tools[:700])
        seven_hundred.append(time.perf_counter() - start)
    fresh = SearchIndex(tools)
    start = time.perf_counter()
    fresh.search("shortest pth betwen two nodes", 10)  # its typos make the typo index
    typo_index = time.perf_counter() - start
    queries = [query for library in LIBRARIES for query in library.queries]
    for query in queries:  # warm the term cache, as a running server has
        index.search(query, 10)
    # each query's median of five runs, so that a moment's load on a shared machine does
    # not pass for the cost of a query
    times = []
    for query in queries:
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            index.search(query, 10)
            runs.append(time.perf_counter() - start)
        times.append(statistics.median(runs))
    return {
        "tools": len(tools),
        "build_s": min(builds),
        "build_700_s": min(seven_hundred),
        "first_typo_s": typo_index,
        "search_median_us": statistics.median(times) * 1e6,
        "search_p95_us": sorted(times)[int(len(times) * 0.95)] * 1e6,
    }


def main() -> None:
    """Print the three measurements (``--markdown``: as docs/internals/benchmarks.md's tables)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--quality-only", action="store_true")
    parser.add_argument("--misses", action="store_true", help="print the queries not ranked first")
    options = parser.parse_args()
    logging.disable(logging.WARNING)
    found = quality(options.misses)
    if options.quality_only:
        print(json.dumps({k: v for k, v in found.items() if k != "libraries"}))
        return
    rows, timing = sizes(), speed()
    if not options.markdown:
        print(json.dumps({"sizes": rows, "quality": found, "speed": timing}, indent=2))
        return
    print("| target | tools | `tools/list` bytes (~tokens) | with search | smaller |")
    print("|---|---:|---:|---:|---:|")
    for row in rows:
        print(
            f"| `{row['target']}` | {row['tools']} | {row['bytes']:,} (~{row['tokens']:,}) "
            f"| {row['search_bytes']:,} (~{row['search_tokens']:,}) | {row['smaller']:.0%} |"
        )
    print()
    print("| target | tools | queries | recall@5 | MRR |")
    print("|---|---:|---:|---:|---:|")
    for item in found["libraries"]:
        print(
            f"| `{item['target']}` | {item['tools']} | {item['queries']} "
            f"| {item['recall@5']:.2f} | {item['mrr']:.2f} |"
        )
    print(f"| **all** | | {found['queries']} | {found['recall@5']:.2f} | {found['mrr']:.2f} |")
    print()
    print(
        f"{timing['tools']:,} tools: index built in {timing['build_s'] * 1000:.0f} ms "
        f"(700 of them: {timing['build_700_s'] * 1000:.0f} ms); a search "
        f"takes {timing['search_median_us']:.0f} µs (median), {timing['search_p95_us']:.0f} µs "
        f"(95th percentile); the first query with a typo, {timing['first_typo_s'] * 1000:.0f} ms "
        "(it builds the typo index)."
    )


if __name__ == "__main__":
    main()
