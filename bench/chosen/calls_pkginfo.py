"""The calls of ``pkginfo`` (rank 344, held-out, third walk).

Written from pkginfo's documentation (its README on PyPI: "an API for querying the distutils
metadata" of an sdist, a bdist, "an installed distribution" or a development checkout; the
docstrings of ``get_metadata(path_or_module, metadata_version=None)`` and of the classes the
package exports, ``Installed(package, metadata_version=None)`` among them; its command line's
"an installed package: ... the importable name of the package" and its ``--json`` output;
tseaver.github.io/pkginfo was not found in the docs corpus), each answer computed by calling
pkginfo itself. The installed packages asked about are the chosen zoo's pinned ones (pkginfo
itself, tinycss2, lz4, dulwich), so the answers are fixed.

A ``Distribution`` (``Installed``) has no JSON form and its text holds its address: its answer
is the form pkginfo's own command line gives it as JSON, each metadata field the distribution
iterates over with its value (a tuple as a list). ``SDist``, ``BDist`` and ``Wheel`` read an
archive file a model would name, which no call can count on: not called.

pkginfo's API takes names, paths and metadata versions, all text: no callable has a number,
list, mapping or date parameter, so no call sends one.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _fields(distribution: Any) -> dict[str, Any]:
    """The distribution as pkginfo's command line writes it as JSON."""
    found: dict[str, Any] = {}
    for field in distribution:
        value = getattr(distribution, field)
        found[field] = list(value) if isinstance(value, (tuple, list)) else value
    return found


def _metadata(name: str, *arguments: Any) -> dict[str, Any]:
    return _fields(getattr(importlib.import_module("pkginfo"), name)(*arguments))


TARGETS: tuple[Target, ...] = (
    Target(
        "pkginfo",
        (
            Call(
                "get_metadata",
                {"path_or_module": "pkginfo"},
                lambda: _metadata("get_metadata", "pkginfo"),
            ),
            Call("Installed", {"package": "tinycss2"}, lambda: _metadata("Installed", "tinycss2")),
            Call(
                "Installed",
                {"package": "lz4", "metadata_version": "1.2"},
                lambda: _metadata("Installed", "lz4", "1.2"),
            ),
            Call(
                "get_metadata",
                {"path_or_module": "dulwich", "metadata_version": "2.1"},
                lambda: _metadata("get_metadata", "dulwich", "2.1"),
            ),
        ),
    ),
)
