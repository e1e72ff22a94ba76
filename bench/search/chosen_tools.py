"""Which tools of a target the benchmark asks for, by a rule: the served tools in the order of
the SHA-256 of ``target + ":" + name``, the first :data:`PER_TARGET` whose docstring says
something, each given the next style of :data:`~labelled.STYLES` in turn.

    python bench/search/chosen_tools.py TARGET        # style, tool, docstring's first line
    python bench/search/chosen_tools.py TARGET --all  # every served tool (the valid answers)

Run it with the Python the target's zoo uses (``.venv`` for the first zoo's, ``.venv-chosen``
for the chosen zoo's). It builds the toolbox as ``objmcp run`` does and reads names and
docstrings only: it runs no search.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from labelled import STYLES  # noqa: E402

if TYPE_CHECKING:
    from objmcp import Toolbox

PER_TARGET = 15
"""Requests written for each target: three in each style."""

TARGETS: tuple[str, ...] = (
    # the first zoo's (bench/zoo_cases.py), served with more than 40 tools
    "math",
    "operator",
    "os",
    "builtins",
    "more_itertools",
    "numpy",
    "numpy.random:default_rng()",
    "scipy.stats",
    "pandas",
    "sympy",
    "toolz",
    "shapely",
    # the chosen zoo's (bench/chosen/libraries.py), served with more than 40 tools
    "fsspec.implementations.memory:MemoryFileSystem",
    "platformdirs",
    "rich.console:Console",
    "pyarrow.compute",
    "pyparsing",
    "bs4:BeautifulSoup",
    "matplotlib.pyplot",
    "sklearn.metrics",
    "mpmath",
    "torch",
    "dulwich.porcelain",
    "pymupdf",
)
"""Every target of the two zoos that objmcp served with more than 40 tools (where search is
on by default) on 2026-12-06, in the zoos' order."""

FIRST_ZOO = frozenset(TARGETS[:12])
"""The targets measured with the main ``.venv``; the rest with ``.venv-chosen``."""


def served_toolbox(target: str) -> Toolbox:
    """The target's toolbox, built as ``objmcp run`` builds it (its warnings quiet)."""
    import objmcp
    from objmcp.cli.targets import load_target

    logging.disable(logging.WARNING)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        return objmcp.Toolbox(load_target(target))
    finally:
        os.chdir(cwd)
        logging.disable(logging.NOTSET)


def served(target: str) -> dict[str, object]:
    """The target's tools, by name: their functions."""
    return {name: tool.function for name, tool in served_toolbox(target).items()}


def order(target: str, names: list[str]) -> list[str]:
    """``names`` in the benchmark's fixed order for ``target``."""
    return sorted(names, key=lambda name: hashlib.sha256(f"{target}:{name}".encode()).digest())


def summary(function: object) -> str:
    """The first line of the function's own docstring ('' when it has none)."""
    doc = inspect.getdoc(function) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def sample(target: str) -> list[tuple[str, str, str]]:
    """The target's sample: (style, tool, first docstring line), :data:`PER_TARGET` of them."""
    tools = served(target)
    chosen = [name for name in order(target, list(tools)) if summary(tools[name])]
    return [
        (STYLES[index % len(STYLES)], name, summary(tools[name]))
        for index, name in enumerate(chosen[:PER_TARGET])
    ]


def main(argv: list[str]) -> None:
    target = argv[0]
    if "--all" in argv:
        print("\n".join(sorted(served(target))))
        return
    for style, name, line in sample(target):
        print(f"{style}\t{name}\t{line}")


if __name__ == "__main__":
    main(sys.argv[1:])
