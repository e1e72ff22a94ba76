"""The calls of ``pure-eval`` (rank 277, tuning, second walk).

Written from pure_eval's documentation (its README on PyPI, the project's only docs:
``Evaluator``, ``group_expressions`` and ``is_expression_interesting`` with its examples),
each answer computed by calling pure_eval itself, in JSON's terms.

The README leads with ``Evaluator(names)`` and its methods (``evaluator[node]``,
``find_expressions``, ``interesting_expressions_grouped``): the class needs its ``names`` to be
made, so a class target cannot reach the methods, and served from the module as a constructor
it answers an object whose text is its address; it has no call here. The module functions take
AST expression nodes, which JSON cannot carry: a model sends an expression as its source text
(``"d[x]"``), and each answer is computed on the node that text parses to
(``ast.parse(text).body[0].value``, the README's own way of making one). Values are JSON
values (numbers, lists). ``group_expressions`` answers pairs of a list of nodes and a value:
the nodes as their source text (``ast.unparse``), a pair as a list. ``getattr_static`` (the
last name of its ``__all__``, not in the README) has no call: on the values JSON carries it
answers a bound method whose text holds an address, or refuses (``CannotEval``).
"""

from __future__ import annotations

import ast
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

PAIRS: list[list[Any]] = [["x", 1], ["d[x]", 2], ["x", 1], ["d", {"1": 2}]]


def _pure_eval() -> Any:
    return importlib.import_module("pure_eval")


def _node(text: str) -> Any:
    return ast.parse(text).body[0].value  # type: ignore[attr-defined]


def _interesting(text: str, value: Any) -> bool:
    answer: bool = _pure_eval().is_expression_interesting(_node(text), value)
    return answer


def _groups(pairs: list[list[Any]]) -> list[list[Any]]:
    groups = _pure_eval().group_expressions([(_node(text), value) for text, value in pairs])
    return [[[ast.unparse(node) for node in nodes], value] for nodes, value in groups]


TARGETS: tuple[Target, ...] = (
    Target(
        "pure_eval",
        (
            Call(
                "is_expression_interesting",
                {"node": "d[x]", "value": 2},
                lambda: _interesting("d[x]", 2),
            ),
            Call(
                "is_expression_interesting",
                {"node": "[1, 2, 3]", "value": [1, 2, 3]},
                lambda: _interesting("[1, 2, 3]", [1, 2, 3]),
            ),
            Call("group_expressions", {"expressions": PAIRS}, lambda: _groups(PAIRS)),
            Call(
                "is_expression_interesting",
                {"node": "rect.width", "value": 3},
                lambda: _interesting("rect.width", 3),
            ),
        ),
    ),
)
