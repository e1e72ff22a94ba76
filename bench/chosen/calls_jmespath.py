"""The calls of ``jmespath`` (rank 47, tuning).

Written from jmespath's documentation (the README's "API" section and the JMESPath tutorial:
``jmespath.search(expression, data)`` and ``jmespath.compile``), each answer computed by calling
jmespath itself, in JSON's terms (a compiled expression as its text).

More calls (issue 37), taken by the rule of the README's "More tuning calls": both functions are
called and ``Options`` takes Python classes and functions, so the rule takes three more
``search`` calls, from the JMESPath tutorial's functions and pipes.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

PEOPLE = {
    "people": [
        {"name": "Ann", "age": 31, "city": "Oslo"},
        {"name": "Bob", "age": 25, "city": "Rome"},
        {"name": "Cid", "age": 40, "city": "Oslo"},
    ]
}
NESTED = {"foo": {"bar": {"baz": [0, 1, 2, 3, 4]}}}


def _jmespath() -> Any:
    return importlib.import_module("jmespath")


TARGETS: tuple[Target, ...] = (
    Target(
        "jmespath",
        (
            Call(
                "search",
                {"expression": "foo.bar.baz[2]", "data": NESTED},
                lambda: _jmespath().search("foo.bar.baz[2]", NESTED),
            ),
            Call(
                "search",
                {"expression": "people[?age > `30`].name", "data": PEOPLE},
                lambda: _jmespath().search("people[?age > `30`].name", PEOPLE),
            ),
            Call(
                "search",
                {"expression": "people[*].{who: name, where: city}", "data": PEOPLE},
                lambda: _jmespath().search("people[*].{who: name, where: city}", PEOPLE),
            ),
            Call(
                "search",
                {"expression": "max_by(people, &age).name", "data": PEOPLE},
                lambda: _jmespath().search("max_by(people, &age).name", PEOPLE),
            ),
            Call(
                "search",
                {"expression": "length(people)", "data": PEOPLE},
                lambda: _jmespath().search("length(people)", PEOPLE),
            ),
            Call(
                "search",
                {"expression": "sort_by(people, &age)[*].name", "data": PEOPLE},
                lambda: _jmespath().search("sort_by(people, &age)[*].name", PEOPLE),
            ),
            Call(
                "search",
                {"expression": "people[?city == 'Oslo'] | [0].age", "data": PEOPLE},
                lambda: _jmespath().search("people[?city == 'Oslo'] | [0].age", PEOPLE),
            ),
            Call(
                "search",
                {"expression": "[0:3:2]", "data": [10, 20, 30, 40]},
                lambda: _jmespath().search("[0:3:2]", [10, 20, 30, 40]),
            ),
            Call(
                "compile",
                {"expression": "foo.bar"},
                lambda: str(_jmespath().compile("foo.bar")),
            ),
        ),
    ),
)
