"""The chosen zoo's calls, where they are, and the fixed sample of it that CI runs.

A library has calls when ``bench/chosen/calls_<import>.py`` exists (``Library.calls_module``).
**The sample** is a rule, not a list: in each half, the :data:`SAMPLE_SIZE` highest-ranked
libraries that have calls. ``tests/zoo/test_chosen_sample.py`` runs its calls; CI installs its
libraries at the pins of ``requirements.txt`` (``python3 bench/chosen/sample.py --pins``, in
``scripts/test.sh``). ``baseline.json`` (``figures.py --json``) holds the outcome of every call
the bench made, the held-out sample's included, by :func:`call_key`.

Standard library only (``scripts/test.sh`` runs it before any venv exists): the calls modules
themselves are imported only by :func:`targets_of`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

CHOSEN_DIR = Path(__file__).resolve().parent
BENCH_DIR = CHOSEN_DIR.parent
for _folder in (BENCH_DIR, CHOSEN_DIR):
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))  # after bench/: bench/figures.py stays ``figures``

from libraries import LIBRARIES, Half, Library, normalized  # noqa: E402

if TYPE_CHECKING:
    from zoo_cases import Call, Target

__all__ = [
    "BASELINE",
    "HALVES",
    "SAMPLE_SIZE",
    "call_key",
    "has_calls",
    "library_named",
    "pins",
    "sample",
    "targets_of",
    "with_calls",
]

HALVES: tuple[Half, ...] = ("tuning", "held-out")

SAMPLE_SIZE = 4
"""How many libraries of each half the CI sample takes."""

BASELINE = CHOSEN_DIR / "baseline.json"
"""The figures the held-out sample may not fall below (written by ``figures.py --json``)."""


def has_calls(library: Library) -> bool:
    """Whether the library's calls module has been written."""
    return (CHOSEN_DIR / f"{library.calls_module}.py").is_file()


def with_calls(half: Half | None = None) -> tuple[Library, ...]:
    """The libraries (of ``half``, or both) that have calls, in rank order."""
    return tuple(
        library
        for library in LIBRARIES
        if has_calls(library) and (half is None or library.half == half)
    )


def sample() -> tuple[Library, ...]:
    """The CI sample: the :data:`SAMPLE_SIZE` highest-ranked libraries with calls of the
    tuning half, then of the held-out half."""
    return tuple(library for half in HALVES for library in with_calls(half)[:SAMPLE_SIZE])


def library_named(name: str) -> Library:
    """The chosen library of that distribution or import name (:class:`KeyError` if none)."""
    for library in LIBRARIES:
        if normalized(name) in {
            normalized(library.distribution),
            *map(normalized, library.imports),
        }:
            return library
    raise KeyError(f"{name!r} is no library of the chosen zoo (bench/chosen/libraries.py)")


def targets_of(library: Library) -> tuple[Target, ...]:
    """The targets and calls its calls module defines."""
    module = importlib.import_module(library.calls_module)
    targets: tuple[Target, ...] = module.TARGETS
    return targets


def call_key(spec: str, call: Call) -> str:
    """A call's name in ``baseline.json``: its target, tool and arguments (a call that is
    edited is a new call)."""
    return f"{spec} {call.tool} {json.dumps(call.arguments, sort_keys=True, default=repr)}"


def pins(libraries: tuple[Library, ...]) -> list[str]:
    """The ``requirements.txt`` lines that pin ``libraries``."""
    wanted = {normalized(library.distribution) for library in libraries}
    lines = (CHOSEN_DIR / "requirements.txt").read_text().splitlines()
    return [
        line
        for line in lines
        if line and not line.startswith("#") and normalized(line.partition("==")[0]) in wanted
    ]


def main(argv: list[str] | None = None) -> None:
    """Print the sample's libraries, or (``--pins``) their pins on one line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--pins", action="store_true", help="print the sample's pins")
    options = parser.parse_args(argv)
    chosen = sample()
    if options.pins:
        print(" ".join(pins(chosen)))
        return
    for library in chosen:
        print(f"{library.half}\t{library.rank}\t{library.distribution}")


if __name__ == "__main__":
    main()
