"""The calls of ``pyparsing`` (rank 99, held-out).

Written from pyparsing's documentation (the API reference's helper functions: ``srange``,
``one_of``, ``make_html_tags``, and the position helpers ``col``, ``lineno`` and ``line``),
each answer computed by calling pyparsing itself, in JSON's terms: a parser element (what
``one_of`` and ``make_html_tags`` build) as its ``str``, the documented textual form of a
grammar, a tuple as a list. pyparsing's central API (building a grammar from ``Word``,
``Literal`` ... and calling its ``parse_string``) is methods of classes made with arguments,
which the module target does not serve.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

TEXT = "ab\ncdef"


def _pp() -> Any:
    return importlib.import_module("pyparsing")


TARGETS: tuple[Target, ...] = (
    Target(
        "pyparsing",
        (
            Call("srange", {"s": "[a-f0-9]"}, lambda: _pp().srange("[a-f0-9]")),
            Call(
                "one_of",
                {"strs": ["<", ">", "==", "<="]},
                lambda: str(_pp().one_of(["<", ">", "==", "<="])),
            ),
            Call(
                "one_of",
                {"strs": "red green blue", "caseless": True},
                lambda: str(_pp().one_of("red green blue", caseless=True)),
            ),
            Call(
                "make_html_tags",
                {"tag_str": "a"},
                lambda: [str(tag) for tag in _pp().make_html_tags("a")],
            ),
            Call("col", {"loc": 5, "strg": TEXT}, lambda: _pp().col(5, TEXT)),
            Call("lineno", {"loc": 5, "strg": TEXT}, lambda: _pp().lineno(5, TEXT)),
            Call("line", {"loc": 5, "strg": TEXT}, lambda: _pp().line(5, TEXT)),
        ),
    ),
)
