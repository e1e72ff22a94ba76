"""The calls of ``jinja2`` (rank 45, held-out).

Written from Jinja's documentation (the API page of ``Environment``: ``call_filter`` and
``call_test`` with the built-in filters and tests of the Template Designer page, ``lex`` and
``parse`` of the Extensions page), each answer computed by calling Jinja itself with an
``Environment()``, in JSON's terms (``lex``'s tuples as lists, a parsed template as its
documented textual form, the node's ``repr``). ``from_string`` and ``get_template`` give a
``Template`` to be rendered by a further call on it, which a tool of the environment cannot
make, so they are not called.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

SOURCE = "Hello {{ name }}!"


def _env() -> Any:
    return importlib.import_module("jinja2").Environment()


TARGETS: tuple[Target, ...] = (
    Target(
        "jinja2:Environment",
        (
            Call(
                "call_filter",
                {"name": "join", "value": [1, 2, 3], "args": [", "]},
                lambda: _env().call_filter("join", [1, 2, 3], args=[", "]),
            ),
            Call(
                "call_filter",
                {"name": "round", "value": 3.14159, "kwargs": {"precision": 2}},
                lambda: _env().call_filter("round", 3.14159, kwargs={"precision": 2}),
            ),
            Call(
                "call_filter",
                {"name": "format", "value": "%s has %d items", "args": ["cart", 3]},
                lambda: _env().call_filter("format", "%s has %d items", args=["cart", 3]),
            ),
            Call(
                "call_test",
                {"name": "divisibleby", "value": 9, "args": [3]},
                lambda: _env().call_test("divisibleby", 9, args=[3]),
            ),
            Call(
                "call_filter",
                {"name": "title", "value": "hello world"},
                lambda: _env().call_filter("title", "hello world"),
            ),
            Call("lex", {"source": SOURCE}, lambda: expected_json(list(_env().lex(SOURCE)))),
            Call("parse", {"source": SOURCE}, lambda: str(_env().parse(SOURCE))),
        ),
    ),
)
