"""Checks that every chosen library's targets load in this interpreter (``.venv-chosen``'s):
each target's module imports and its named attribute exists. ``venv.sh`` runs it with no
network (``unshare -n``), so a library that reaches out while importing fails here."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from libraries import LIBRARIES


def failures() -> list[str]:
    """Each target that does not load, with why."""
    found: list[str] = []
    for library in LIBRARIES:
        for name in library.imports:
            try:
                importlib.import_module(name)
            except Exception as error:
                found.append(f"{library.distribution}: import {name}: {error!r}")
        for target in library.targets:
            module, _, attribute = target.partition(":")
            try:
                loaded = importlib.import_module(module)
                if attribute:
                    getattr(loaded, attribute.removesuffix("()"))
            except Exception as error:
                found.append(f"{library.distribution}: {target}: {error!r}")
    return found


def main() -> int:
    """Print the targets that fail to load; 0 when none does."""
    problems = failures()
    for problem in problems:
        print(problem, file=sys.stderr)
    targets = sum(len(library.targets) for library in LIBRARIES)
    print(f"{len(LIBRARIES)} libraries, {targets} targets: {len(problems)} failed to load")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
