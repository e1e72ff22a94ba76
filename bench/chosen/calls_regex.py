"""The calls of ``regex`` (rank 107, tuning).

Written from regex's documentation (its PyPI page: the ``re``-compatible module functions,
the ``flags`` values, ``maxsplit``/``count``/``pos``, overlapped matches and fuzzy matching),
each answer computed by calling regex itself, in JSON's terms (a tuple as a list, a match
object as its text).

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``Regex``,
``cache_all`` and ``compile``, the first three functions not called (a pattern as its text,
``regex.Regex('\\d+', flags=regex.I | regex.V0)``).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]


def _regex() -> Any:
    return importlib.import_module("regex")


TARGETS: tuple[Target, ...] = (
    Target(
        "regex",
        (
            Call(
                "findall",
                {"pattern": r"\d+", "string": "a1b22c333"},
                lambda: _regex().findall(r"\d+", "a1b22c333"),
            ),
            Call(
                "findall",
                {"pattern": r"\w\w", "string": "abcd", "overlapped": True},
                lambda: _regex().findall(r"\w\w", "abcd", overlapped=True),
            ),
            Call(
                "findall",
                {"pattern": "hello", "string": "Hello HELLO hello", "flags": 2},
                lambda: _regex().findall("hello", "Hello HELLO hello", flags=2),
            ),
            Call(
                "sub",
                {"pattern": r"\s+", "repl": "-", "string": "a  b   c d", "count": 2},
                lambda: _regex().sub(r"\s+", "-", "a  b   c d", count=2),
            ),
            Call(
                "split",
                {"pattern": ",", "string": "x,y,z,w", "maxsplit": 2},
                lambda: _regex().split(",", "x,y,z,w", maxsplit=2),
            ),
            Call(
                "search",
                {"pattern": r"(?:cat){e<=1}", "string": "the cot sat"},
                lambda: str(_regex().search(r"(?:cat){e<=1}", "the cot sat")),
            ),
            Call(
                "subn",
                {"pattern": r"\p{Lu}", "repl": "_", "string": "ÀbCdÉ"},
                lambda: expected_json(_regex().subn(r"\p{Lu}", "_", "ÀbCdÉ")),
            ),
            Call(
                "escape",
                {"pattern": "1+1=2?"},
                lambda: _regex().escape("1+1=2?"),
            ),
            Call(
                "Regex",
                {"pattern": r"\d+", "flags": 2},
                lambda: repr(_regex().Regex(r"\d+", flags=2)),
            ),
            Call("cache_all", {"value": False}, lambda: _regex().cache_all(False)),
            Call(
                "compile",
                {"pattern": r"(?i)colou?r", "flags": 256},
                lambda: repr(_regex().compile(r"(?i)colou?r", flags=256)),
            ),
        ),
    ),
)
