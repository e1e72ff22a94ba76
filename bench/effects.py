"""What the danger rules withhold on the zoos: the false-positive measure of issue 38.

For every target of the first zoo (``bench/zoo_cases.py``, with the main ``.venv``) or,
with ``--chosen``, of the chosen zoo (``bench/chosen/libraries.py``, with
``.venv-chosen``), the toolbox objmcp builds for it, as over HTTP (callers share the
process): how many callables it serves, and how many it withholds, and why: the table of
effects, a class's shape (it holds something open, or is a thread), or reading its code
(``objmcp/model/finding/codereading.py``). Every finding of the code reading is listed, for a
reader to judge; ``--json`` writes them all.

    .venv/bin/python bench/effects.py
    .venv-chosen/bin/python bench/effects.py --chosen
    .venv/bin/python bench/effects.py --target tests/servers/innocent.py
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
for _folder in (ROOT, BENCH_DIR, BENCH_DIR / "chosen"):
    sys.path.insert(0, str(_folder))

SHAPES = ("makes an object that holds something open", "makes a thread")


def targets(chosen: bool) -> list[str]:
    """The specs of the zoo's targets, in its order."""
    if chosen:
        from libraries import LIBRARIES

        return [spec for library in LIBRARIES for spec in library.targets]
    from zoo_cases import TARGETS

    return list(dict.fromkeys(target.spec for target in TARGETS))


def source(reason: str) -> str:
    """What withheld a callable: ``code``, ``shape`` or ``table``."""
    if ": its code " in reason:
        return "code"
    return "shape" if reason.startswith(SHAPES) else "table"


def measure(spec: str) -> dict[str, Any]:
    """The toolbox of ``spec``, built as ``objmcp run --http`` builds it."""
    import objmcp
    from objmcp.cli.targets import load_target

    logging.disable(logging.WARNING)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        toolbox = objmcp.Toolbox(load_target(spec), shared_process=True)
    except Exception as error:  # a target that does not load here: said, not measured
        return {"spec": spec, "error": f"{type(error).__name__}: {error}"[:300]}
    finally:
        os.chdir(cwd)
        logging.disable(logging.NOTSET)
    withheld = dict(toolbox.withheld)
    return {
        "spec": spec,
        "served": len(toolbox),
        "withheld": {
            kind: sum(source(r) == kind for r in withheld.values())
            for kind in ("table", "shape", "code")
        },
        "found": {name: reason for name, reason in withheld.items() if source(reason) == "code"},
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--chosen", action="store_true", help="the chosen zoo (.venv-chosen)")
    parser.add_argument("--json", type=Path, help="write every target's figures")
    parser.add_argument(
        "--target", action="append", help="measure this target instead (again for more)"
    )
    options = parser.parse_args(argv)
    rows = [measure(spec) for spec in options.target or targets(options.chosen)]
    totals: Counter[str] = Counter()
    for row in rows:
        if "error" in row:
            print(f"{row['spec']}: not measured: {row['error']}")
            continue
        totals["targets"] += 1
        totals["served"] += row["served"]
        for kind, count in row["withheld"].items():
            totals[kind] += count
        for name, reason in sorted(row["found"].items()):
            print(f"{row['spec']}: {name}: {reason}")
    callables = totals["served"] + totals["table"] + totals["shape"] + totals["code"]
    print(
        f"\n{totals['targets']} targets, {callables} callables: {totals['served']} served; "
        f"withheld {totals['table']} by the table, {totals['shape']} by their shape, "
        f"{totals['code']} by reading their code "
        f"({100 * totals['code'] / max(callables, 1):.1f}% of all)"
    )
    if options.json:
        options.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
