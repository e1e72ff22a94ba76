"""The calls of ``executing`` (rank 254, held-out, second walk).

Written from executing's documentation (its README on PyPI, "Usage": everything goes through
``Source``, ``Source.executing(frame).node``, ``Source.for_frame(frame)``; the docstring of
``Source``: "Attributes: filename, text, lines, tree"), each answer computed by calling
executing itself.

Every documented use takes a frame or a traceback of the running program (``executing``,
``for_frame``, ``lazycache``, ``code_qualname(code)``), which JSON cannot carry and a model does
not have: out of reach of any target. What the walk's target ``executing`` offers a model with
values is ``Source`` made from a file's name and lines (its ``__init__`` says to use
``for_filename`` instead, which reads the file, but it is what the module serves) and the
functions ``is_pytest_compatible`` (in ``__all__``) and ``only`` (public, imported by the
package from its own submodule: "expects one value in an iterable"). A ``Source`` has no JSON
form and its text is its address: it is said as its documented attributes, as an object, its
``tree`` (an ``ast.Module``) as ``ast.dump``'s text, the standard text of an AST.
"""

from __future__ import annotations

import ast
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

LINES = ["def add(a, b):\n", "    return a + b\n"]
BROKEN = ["x = (1,\n", "print(x)\n"]


def _executing() -> Any:
    return importlib.import_module("executing")


def _source(filename: str, lines: list[str]) -> dict[str, Any]:
    source = _executing().Source(filename, lines)
    tree = None if source.tree is None else ast.dump(source.tree)
    return {
        "filename": source.filename,
        "text": source.text,
        "lines": source.lines,
        "tree": tree,
    }


TARGETS: tuple[Target, ...] = (
    Target(
        "executing",
        (
            Call("is_pytest_compatible", {}, lambda: _executing().is_pytest_compatible()),
            Call(
                "Source",
                {"filename": "example.py", "lines": LINES},
                lambda: _source("example.py", LINES),
            ),
            Call(
                "Source",
                {"filename": "broken.py", "lines": BROKEN},
                lambda: _source("broken.py", BROKEN),
            ),
            Call("only", {"it": [42]}, lambda: _executing().only([42])),
        ),
    ),
)
