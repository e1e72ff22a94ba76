"""The calls of ``pytokens`` (rank 369, tuning, third walk).

Written from pytokens' documentation, which is its README on PyPI (a "spec compliant Python
3.14+ tokenizer that runs on older Pythons"; its usage is the command ``python -m pytokens
path/to/file.py``; no docs site was found with the ``search`` tool) and, for the Python API
that command calls, the module's signatures: ``tokenize(source, *, fstring_tokens=True,
issue_128233_handling=True)`` gives ``Token`` s. Each answer is computed by calling pytokens
itself, in JSON's terms: a ``Token`` is a dataclass, so its fields, with its ``TokenType`` (an
``IntEnum``) as its value; the iterator ``tokenize`` gives as the list of its tokens.

No call has a non-string parameter beside booleans: the API a caller calls with values is
``tokenize``, which takes the source text and two flags. Its other callables take no value a
task starts from: ``merge_fstring_tokens`` takes a ``TokenIterator`` object, and the
constructors ``Token``, ``TokenType`` and ``TokenIterator`` make the tokenizer's own output or
state from its numbers.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

ASSIGNMENT = "x = 1 + 2\n"
GREETING = 'name = "Ada"\nprint(f"Hello {name}!")\n'
FUNCTION = "def add(a, b):\n    # sum\n    return a + b\n"


def _tokens(source: str, **options: Any) -> Any:
    tokens = importlib.import_module("pytokens").tokenize(source, **options)
    return expected_json([dataclasses.asdict(token) for token in tokens])


TARGETS: tuple[Target, ...] = (
    Target(
        "pytokens",
        (
            Call("tokenize", {"source": ASSIGNMENT}, lambda: _tokens(ASSIGNMENT)),
            Call("tokenize", {"source": FUNCTION}, lambda: _tokens(FUNCTION)),
            Call("tokenize", {"source": GREETING}, lambda: _tokens(GREETING)),
            Call(
                "tokenize",
                {"source": GREETING, "fstring_tokens": False},
                lambda: _tokens(GREETING, fstring_tokens=False),
            ),
            Call(
                "tokenize",
                {"source": "if x:\n\tpass\n", "issue_128233_handling": False},
                lambda: _tokens("if x:\n\tpass\n", issue_128233_handling=False),
            ),
        ),
    ),
)
