"""The calls of ``jiter`` (rank 123, tuning).

Written from jiter's documentation (its README's Python API: ``from_json`` and its
``partial_mode``, ``cache_mode`` and ``allow_inf_nan`` options), each answer computed by calling
jiter itself, in JSON's terms. The JSON text is the string a model sends for the ``bytes``
parameter ``json_data``. jiter's API takes no number, list or object as a parameter (the data
is always a JSON text; the options are strings and booleans), so no call here has one.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``cache_clear``
then ``cache_usage`` (``0`` after the clear) and the class ``LosslessFloat`` (a float kept as
its text; its text). None takes a non-string parameter.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

DOCUMENT = '{"name": "Ada", "scores": [9.5, 8, null], "active": true}'
PARTIAL = '[1, 2, {"title": "unfinish'


def _jiter() -> Any:
    return importlib.import_module("jiter")


def _usage_after_clear() -> Any:
    _jiter().cache_clear()
    return _jiter().cache_usage()


def _from_json(text: str, **options: Any) -> Any:
    return importlib.import_module("jiter").from_json(text.encode(), **options)


TARGETS: tuple[Target, ...] = (
    Target(
        "jiter",
        (
            Call("from_json", {"json_data": DOCUMENT}, lambda: _from_json(DOCUMENT)),
            Call(
                "from_json",
                {"json_data": PARTIAL, "partial_mode": "trailing-strings"},
                lambda: _from_json(PARTIAL, partial_mode="trailing-strings"),
            ),
            Call(
                "from_json",
                {"json_data": PARTIAL, "partial_mode": True},
                lambda: _from_json(PARTIAL, partial_mode=True),
            ),
            Call(
                "from_json",
                {"json_data": '{"a": 1, "b": {"c": [true, false]}}', "cache_mode": "keys"},
                lambda: _from_json('{"a": 1, "b": {"c": [true, false]}}', cache_mode="keys"),
            ),
            Call("cache_clear", {}, lambda: _jiter().cache_clear()),
            Call("cache_usage", {}, _usage_after_clear),
            Call(
                "LosslessFloat",
                {"raw": "1.2345678901234567890"},
                lambda: str(_jiter().LosslessFloat(b"1.2345678901234567890")),
            ),
        ),
    ),
)
