"""The calls of ``semver`` (rank 356, tuning, third walk).

Written from semver's documentation (its README on PyPI, "Quickstart": ``Version.parse``,
``bump_major``, ``semver.compare``; and the module functions its usage page lists with their
examples: ``match``, ``format_version(3, 4, 5, 'pre.2', 'build.4')``, ``parse``,
``bump_major``, ``max_ver``), each answer computed by calling semver itself, in JSON's terms.
The walk's target is the module ``semver``: its tools are the module functions and the class
``Version`` served as a constructor. A ``Version`` has no JSON form: its documented text form,
``str`` (``"3.4.5-pre.2+build.4"``). The version parts ``Version`` and ``format_version`` take
are the numbers a model sends.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _semver() -> Any:
    return importlib.import_module("semver")


TARGETS: tuple[Target, ...] = (
    Target(
        "semver",
        (
            Call(
                "compare",
                {"ver1": "1.0.0", "ver2": "2.0.0"},
                lambda: _semver().compare("1.0.0", "2.0.0"),
            ),
            Call(
                "match",
                {"version": "2.0.0", "match_expr": ">=1.0.0"},
                lambda: _semver().match("2.0.0", ">=1.0.0"),
            ),
            Call(
                "format_version",
                {"major": 3, "minor": 4, "patch": 5, "prerelease": "pre.2", "build": "build.4"},
                lambda: _semver().format_version(3, 4, 5, "pre.2", "build.4"),
            ),
            Call(
                "Version",
                {"major": 1, "minor": 2, "patch": 3, "prerelease": "rc.1"},
                lambda: str(_semver().Version(1, 2, 3, prerelease="rc.1")),
            ),
            Call(
                "parse",
                {"version": "3.4.5-pre.2+build.4"},
                lambda: _semver().parse("3.4.5-pre.2+build.4"),
            ),
            Call("bump_major", {"version": "3.4.5"}, lambda: _semver().bump_major("3.4.5")),
            Call(
                "max_ver",
                {"ver1": "1.0.0", "ver2": "2.0.0"},
                lambda: _semver().max_ver("1.0.0", "2.0.0"),
            ),
        ),
    ),
)
