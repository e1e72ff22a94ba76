"""The calls of ``tomlkit`` (rank 119, held-out).

Written from tomlkit's documentation (the "Quickstart" and "API Reference" pages: ``parse``/
``loads``, ``dumps``, and the item constructors ``integer``, ``array``, ``item``), each answer
computed by calling tomlkit itself, in JSON's terms (a document as its plain dict, a date as
its ISO text).
"""

from __future__ import annotations

import datetime
import importlib
import json
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

DOC = '# my config\ntitle = "TOML Example"\n\n[owner]\nname = "Tom"\ndob = 1979-05-27\n'
DATA = {"title": "Example", "owner": {"name": "Tom", "age": 42}, "tags": ["a", "b"]}


def _tomlkit() -> Any:
    return importlib.import_module("tomlkit")


def _plain(value: Any) -> Any:
    def iso(item: Any) -> Any:
        if isinstance(item, datetime.date | datetime.time):
            return item.isoformat()
        raise TypeError(type(item).__name__)

    return json.loads(json.dumps(value.unwrap(), default=iso))


TARGETS: tuple[Target, ...] = (
    Target(
        "tomlkit",
        (
            Call("parse", {"string": DOC}, lambda: _plain(_tomlkit().parse(DOC))),
            Call(
                "loads",
                {"string": "a = [1, 2, 3]\n"},
                lambda: _plain(_tomlkit().loads("a = [1, 2, 3]\n")),
            ),
            Call("dumps", {"data": DATA}, lambda: _tomlkit().dumps(DATA)),
            Call(
                "dumps",
                {"data": {"b": 2, "a": 1}, "sort_keys": True},
                lambda: _tomlkit().dumps({"b": 2, "a": 1}, sort_keys=True),
            ),
            Call("integer", {"raw": 42}, lambda: _plain(_tomlkit().integer(42))),
            Call("item", {"value": [1, 2, 3]}, lambda: _plain(_tomlkit().item([1, 2, 3]))),
            Call("array", {"raw": "[1, 2, 3]"}, lambda: _plain(_tomlkit().array("[1, 2, 3]"))),
        ),
    ),
)
