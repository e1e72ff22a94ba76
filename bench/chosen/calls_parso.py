"""The calls of ``parso`` (rank 252, tuning, second walk).

Written from parso's documentation (its README on PyPI, the opening of parso.readthedocs.io:
``parso.parse('hello + 1', version="3.9")`` and ``parso.load_grammar()``; and the "Usage"
page's "Utility" section: ``split_lines`` and ``python_bytes_to_unicode``), each answer
computed by calling parso itself, in JSON's terms. A ``Module`` (``parse``'s answer) and a
``Grammar`` (``load_grammar``'s) have no JSON form: their text (``str``), which the "Usage"
page shows as ``parse``'s answer (``<Module: @1-1>``) and which names no address. Bytes are
sent as text, as a model sends them.

parso's module functions take only code text, a version text and flags (``keepends``,
``error_recovery``), so no call has a number, list, object or date; the rest of the documented
API (``Grammar.parse``, ``iter_errors``, a node's ``get_code``) is methods of objects that
``parse`` and ``load_grammar`` make, out of a module target's reach.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

BROKEN = "def f(:\n    pass\n"
LINES = "a = 1\nb = 2\r\nc\x0cd\n"
LATIN = "# -*- coding: latin-1 -*-\nx = 1\n"


def _parso() -> Any:
    return importlib.import_module("parso")


TARGETS: tuple[Target, ...] = (
    Target(
        "parso",
        (
            Call(
                "parse",
                {"code": "hello + 1", "version": "3.9"},
                lambda: str(_parso().parse("hello + 1", version="3.9")),
            ),
            Call("parse", {"code": BROKEN}, lambda: str(_parso().parse(BROKEN))),
            Call(
                "load_grammar",
                {"version": "3.8"},
                lambda: str(_parso().load_grammar(version="3.8")),
            ),
            Call(
                "split_lines",
                {"string": LINES, "keepends": True},
                lambda: _parso().split_lines(LINES, keepends=True),
            ),
            Call(
                "python_bytes_to_unicode",
                {"source": LATIN},
                lambda: _parso().python_bytes_to_unicode(LATIN.encode("latin-1")),
            ),
        ),
    ),
)
