"""The calls of ``asttokens`` (rank 267, tuning, second walk).

Written from asttokens' documentation (its README on PyPI, "Usage"; the "API Reference" page
of asttokens.readthedocs.io: ``ASTTokens``, ``LineNumbers`` and ``asttokens.util``'s
``Token`` and ``token_repr``) and the docstrings of ``asttokens.util`` (``replace``, with its
own example, ``is_non_coding_token`` and ``generate_tokens``), each answer computed by calling
asttokens itself, in JSON's terms.

The README's use is ``ASTTokens(source, parse=True)`` and then its methods (``get_text`` of a
node of its tree), and ``LineNumbers(text)``'s methods: both classes need constructor
arguments, and served from the walk's target ``asttokens`` as constructors they answer an
object whose text is its address. So the walk's target keeps its one function,
``supports_tokenless`` (``True`` on the Python 3.11 of the chosen zoo's venv), and
``asttokens.util``, a module of the same library, is a target beyond the walk's: its functions
take source text, token types (numbers: Python 3.11's ``token.NAME`` is 1, ``token.COMMENT``
61) and replacement lists. ``generate_tokens`` yields the
standard library's ``TokenInfo`` named tuples: as a list of the objects of their fields (a
position as a list), as ``calls_psutil.py`` gives psutil's named tuples.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

SOURCE = "steps = 10*n\n"


def _util() -> Any:
    return importlib.import_module("asttokens.util")


def _tokens(text: str) -> Any:
    return expected_json([item._asdict() for item in _util().generate_tokens(text)])


TARGETS: tuple[Target, ...] = (
    Target(
        "asttokens",
        (
            Call(
                "supports_tokenless",
                {},
                lambda: importlib.import_module("asttokens").supports_tokenless(),
            ),
        ),
    ),
    Target(
        "asttokens.util",
        (
            Call(
                "token_repr",
                {"tok_type": 1, "string": "walk"},
                lambda: _util().token_repr(1, "walk"),
            ),
            Call(
                "replace",
                {"text": "this is a test", "replacements": [[0, 4, "X"], [8, 9, "THE"]]},
                lambda: _util().replace("this is a test", [(0, 4, "X"), (8, 9, "THE")]),
            ),
            Call(
                "is_non_coding_token",
                {"token_type": 61},
                lambda: _util().is_non_coding_token(61),
            ),
            Call("generate_tokens", {"text": SOURCE}, lambda: _tokens(SOURCE)),
        ),
    ),
)
