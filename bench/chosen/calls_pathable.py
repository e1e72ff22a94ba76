"""The calls of ``pathable`` (rank 371, held-out, third walk).

Written from pathable's documentation (its README on PyPI: "Quickstart" and "Usage" with
``LookupPath.from_lookup(data)``, ``/`` joining and ``read_value``; "Core concepts": "``BasePath``
is a pure path (segments + separator) with ``/`` joining"; "Notes on parsing": a segment like
``"a/b"`` is split by the separator, path parts are type-sensitive, ``0`` is not ``"0"``), each
answer computed by calling pathable itself. A path has no JSON form: its text (``str``, its
segments joined by its separator, as the README prints a path).

The walk's target, ``pathable:LookupPath``, is a class whose constructor needs an accessor
object (``LookupPath(accessor)``), so a class target has no instance to call ``read_value``,
``get``, ``keys`` or ``exists`` on, and a model cannot send an accessor; the README's lookups
(a path into data, then ``read_value``) chain objects, which no single call makes. So the calls
use two other targets of pathable: the module ``pathable``, whose one class a model can make
with values is ``BasePath`` (served as a constructor from its segments, ``args``, and
``separator``), and ``pathable:BasePath``, one empty path (its constructor with no arguments),
whose ``joinpath`` builds a path from segments and ``is_relative_to`` compares. The lists of
segments, with list indexes as numbers, are the non-string values.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _path(*args: Any, **options: Any) -> str:
    return str(importlib.import_module("pathable").BasePath(*args, **options))


def _empty() -> Any:
    return importlib.import_module("pathable").BasePath()


TARGETS: tuple[Target, ...] = (
    Target(
        "pathable",
        (
            Call(
                "BasePath",
                {"args": ["parts", "part2", "name"]},
                lambda: _path("parts", "part2", "name"),
            ),
            Call(
                "BasePath",
                {"args": ["servers", 0, "url"]},
                lambda: _path("servers", 0, "url"),
            ),
            Call(
                "BasePath",
                {"args": ["info.title"], "separator": "."},
                lambda: _path("info.title", separator="."),
            ),
        ),
    ),
    Target(
        "pathable:BasePath",
        (
            Call(
                "joinpath",
                {"other": ["parts", "part2", "name"]},
                lambda: str(_empty().joinpath("parts", "part2", "name")),
            ),
            Call(
                "joinpath",
                {"other": ["users", 0, "emails", 1]},
                lambda: str(_empty().joinpath("users", 0, "emails", 1)),
            ),
            Call(
                "is_relative_to",
                {"other": ["parts"]},
                lambda: _empty().is_relative_to("parts"),
            ),
        ),
    ),
)
