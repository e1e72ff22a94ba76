"""The calls of ``deepdiff`` (rank 360, tuning, third walk).

Written from DeepDiff's documentation (its README on PyPI, "Modules": DeepDiff, DeepSearch,
DeepHash, Delta, Extract; the zepworks.com/deepdiff pages "DeepDiff" (``DeepDiff(t1, t2)`` of
two dictionaries, ``ignore_order``, ``significant_digits``, ``exclude_paths``), "DeepSearch"
(``DeepSearch(obj, item)``, its example list ``["long somewhere", "string", 0, "somewhere
great!"]``) and "Extract" (``extract(obj, path)``, ``parse_path``)), each answer computed by
calling deepdiff itself, in JSON's terms. The walk's target is the module ``deepdiff``: its
classes ``DeepDiff`` and ``DeepSearch`` are served as constructors; each is a ``dict`` whose
JSON form is the documented one (``to_json``: path sets as lists). The dictionaries and lists
compared, ``significant_digits`` and the lists of paths are the non-string values.

Withheld: ``Delta``, whose default deserializer unpickles the ``diff`` bytes or the file at
``delta_path`` it is given.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

BEFORE = {"name": "Ada", "age": 36, "langs": ["en"]}
AFTER = {"name": "Ada", "age": 37, "langs": ["en", "fr"], "city": "London"}
WORDS = ["long somewhere", "string", 0, "somewhere great!"]
NESTED = {"users": [{"name": "Ada", "langs": ["en", "fr"]}, {"name": "Alan"}]}


def _deepdiff() -> Any:
    return importlib.import_module("deepdiff")


def _diff(t1: Any, t2: Any, **options: Any) -> Any:
    return json.loads(_deepdiff().DeepDiff(t1, t2, **options).to_json())


def _search(obj: Any, item: Any, **options: Any) -> Any:
    return json.loads(json.dumps(_deepdiff().DeepSearch(obj, item, **options), default=list))


TARGETS: tuple[Target, ...] = (
    Target(
        "deepdiff",
        (
            Call("DeepDiff", {"t1": BEFORE, "t2": AFTER}, lambda: _diff(BEFORE, AFTER)),
            Call(
                "DeepDiff",
                {"t1": [1, 2, 3], "t2": [3, 2, 1], "ignore_order": True},
                lambda: _diff([1, 2, 3], [3, 2, 1], ignore_order=True),
            ),
            Call(
                "DeepDiff",
                {"t1": [1.23, 2.5], "t2": [1.2301, 2.6], "significant_digits": 2},
                lambda: _diff([1.23, 2.5], [1.2301, 2.6], significant_digits=2),
            ),
            Call(
                "DeepDiff",
                {"t1": BEFORE, "t2": AFTER, "exclude_paths": ["root['age']", "root['city']"]},
                lambda: _diff(BEFORE, AFTER, exclude_paths=["root['age']", "root['city']"]),
            ),
            Call(
                "DeepSearch",
                {"obj": WORDS, "item": "somewhere"},
                lambda: _search(WORDS, "somewhere"),
            ),
            Call(
                "extract",
                {"obj": NESTED, "path": "root['users'][0]['langs'][1]"},
                lambda: _deepdiff().extract(NESTED, "root['users'][0]['langs'][1]"),
            ),
            Call(
                "parse_path",
                {"path": "root[1][2]['age']"},
                lambda: _deepdiff().parse_path("root[1][2]['age']"),
            ),
        ),
        withheld=("Delta",),
    ),
)
