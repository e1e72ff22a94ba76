"""The calls of ``pycparser`` (rank 22, held-out).

Written from pycparser's documentation (its README's "Using" section and ``examples/``: a
``CParser()`` and its ``parse`` of preprocessed C text, with the optional ``filename``), each
answer computed by calling pycparser itself, in JSON's terms: the ``FileAST`` as its ``str``,
the textual form of the tree the docs print. ``parse`` is the only method of the parser, and
it takes only text and a flag, so no call here has a number, list or object parameter.
"""

from __future__ import annotations

import importlib

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

DECLARATION = "int x = 42;"
FUNCTION = "int add(int a, int b) { return a + b; }"
STRUCT = "typedef struct { double x, y; } point; point origin;"
LOOP = "void count(int n) { int i; for (i = 0; i < n; i++) { n--; } }"


def _parse(text: str, filename: str = "") -> str:
    parser = importlib.import_module("pycparser.c_parser").CParser()
    return str(parser.parse(text, filename=filename))


TARGETS: tuple[Target, ...] = (
    Target(
        "pycparser.c_parser:CParser",
        (
            Call("parse", {"text": DECLARATION}, lambda: _parse(DECLARATION)),
            Call(
                "parse",
                {"text": FUNCTION, "filename": "add.c"},
                lambda: _parse(FUNCTION, "add.c"),
            ),
            Call("parse", {"text": STRUCT}, lambda: _parse(STRUCT)),
            Call("parse", {"text": LOOP}, lambda: _parse(LOOP)),
        ),
    ),
)
