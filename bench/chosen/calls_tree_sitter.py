"""The calls of ``tree_sitter`` (tree-sitter, rank 315, third walk).

Written from py-tree-sitter's documentation (its README on PyPI, the package's long
description: "Basic parsing" with its positions ``(1, 0)``, ``(4, 0)``, ``(1, 4)``, ``(1, 7)``,
and "Editing" with its byte offsets and points; the API reference's ``Point`` and ``Range``,
tree-sitter.github.io/py-tree-sitter, as the package's ``__init__.pyi`` gives them), each
answer computed by calling tree_sitter itself, in JSON's terms: a ``Point`` is a tuple of row
and column, so a list; a ``Range`` has no JSON form, so its text (``<Range start_point=...>``,
which holds no address).

The docs' main use, parsing, is out of reach with no network: every ``Parser`` needs a
``Language``, and each language's grammar is a package of its own (``tree-sitter-python``)
that the chosen zoo does not install; the walk's target stays, and its calls are the classes
the module offers that need no grammar: ``Point`` and ``Range``, each position taken from the
README. ``Language`` is withheld: it takes a raw ``TSLanguage *`` pointer as an integer and
dereferences what a caller sends (``Language(140000000000000)`` ends the process with a
segmentation fault).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _tree_sitter() -> Any:
    return importlib.import_module("tree_sitter")


def _point(row: int, column: int) -> list[int]:
    return list(_tree_sitter().Point(row, column))


def _range(start: tuple[int, int], end: tuple[int, int], start_byte: int, end_byte: int) -> str:
    return str(_tree_sitter().Range(start, end, start_byte, end_byte))


TARGETS: tuple[Target, ...] = (
    Target(
        "tree_sitter",
        (
            Call("Point", {"row": 1, "column": 4}, lambda: _point(1, 4)),
            Call("Point", {"row": 4, "column": 0}, lambda: _point(4, 0)),
            Call(
                "Range",
                {"start_point": [0, 5], "end_point": [0, 7], "start_byte": 5, "end_byte": 7},
                lambda: _range((0, 5), (0, 7), 5, 7),
            ),
            Call(
                "Range",
                {"start_point": [1, 0], "end_point": [4, 0], "start_byte": 1, "end_byte": 40},
                lambda: _range((1, 0), (4, 0), 1, 40),
            ),
        ),
        withheld=("Language",),
    ),
)
