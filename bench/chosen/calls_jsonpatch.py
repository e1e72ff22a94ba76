"""The calls of ``jsonpatch`` (rank 266, held-out, second walk).

Written from jsonpatch's documentation (the tutorial, python-json-patch.readthedocs.io, and the
docstrings of the module's functions it leads with: ``apply_patch(doc, patch)``, whose patch is
"Iterable of operation dicts or a raw JSON-encoded string"; ``make_patch(src, dst)`` with its
``generate_test_ops``; ``path_split`` and ``path_join``, with their docstrings' examples), each
answer computed by calling jsonpatch itself, in JSON's terms: the ``JsonPatch`` ``make_patch``
gives has no JSON form of its own, its text (``str``, its ``to_string``) is the JSON array of its
operations, so it is said as that array; ``path_split``'s tuple as a list.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

DOC = {"foo": "bar"}
ADD = [{"op": "add", "path": "/baz", "value": "qux"}]
SRC = {"foo": "bar", "numbers": [1, 3, 4, 8]}
DST = {"baz": "qux", "numbers": [1, 4, 7]}
OPS = [
    {"op": "replace", "path": "/numbers/0", "value": 10},
    {"op": "remove", "path": "/foo"},
    {"op": "move", "from": "/numbers/3", "path": "/last"},
    {"op": "test", "path": "/last", "value": 8},
]
ADD_TEXT = '[{"op": "add", "path": "/tags", "value": ["new", "sale"]}]'
CONFIG = {"name": "web", "replicas": 2, "ports": [80, 443]}
CONFIG_NEW = {"name": "web", "replicas": 3, "ports": [80, 443, 8080]}


def _jsonpatch() -> Any:
    return importlib.import_module("jsonpatch")


def _made(src: Any, dst: Any, **options: Any) -> Any:
    return json.loads(str(_jsonpatch().make_patch(src, dst, **options)))


TARGETS: tuple[Target, ...] = (
    Target(
        "jsonpatch",
        (
            Call(
                "apply_patch",
                {"doc": DOC, "patch": ADD},
                lambda: _jsonpatch().apply_patch(DOC, ADD),
            ),
            Call(
                "apply_patch",
                {"doc": SRC, "patch": OPS},
                lambda: _jsonpatch().apply_patch(SRC, OPS),
            ),
            Call(
                "apply_patch",
                {"doc": DOC, "patch": ADD_TEXT},
                lambda: _jsonpatch().apply_patch(DOC, ADD_TEXT),
            ),
            Call("make_patch", {"src": SRC, "dst": DST}, lambda: _made(SRC, DST)),
            Call(
                "make_patch",
                {"src": CONFIG, "dst": CONFIG_NEW, "generate_test_ops": True},
                lambda: _made(CONFIG, CONFIG_NEW, generate_test_ops=True),
            ),
            Call(
                "path_split",
                {"path": "/~1fields~1test/a~0b"},
                lambda: expected_json(_jsonpatch().path_split("/~1fields~1test/a~0b")),
            ),
            Call(
                "path_join",
                {"parts": ["foo", 0]},
                lambda: _jsonpatch().path_join(["foo", 0]),
            ),
        ),
    ),
)
