"""The calls of ``jsonref`` (rank 387, tuning, third walk).

Written from jsonref's documentation (its README on PyPI: ``jsonref.loads`` of a document whose
``{"$ref": "#/real"}`` is answered by the data it points to; the docstrings of ``loads``,
``replace_refs`` (``obj``, ``base_uri``, ``jsonschema``, ``merge_props``, ``proxies``) and
``dumps`` ("``JsonRef`` objects will be dumped as the original reference object", its
``kwargs`` those of ``json.dumps``)), each answer computed by calling jsonref itself. In JSON's
terms, the document with its references dereferenced: the references' lazy proxies stand for
their referents (the README: "as if the references had been replaced with the referent data"),
so an answer is the same call with ``proxies=False``, which puts the referent data in place.
``dumps(obj, **kwargs)`` takes ``json.dumps``' keywords, which a model sends as the object
``kwargs``.

The target is the walk's, the module ``jsonref``. ``load`` and ``dump`` take an open file,
which JSON cannot carry; ``load_uri`` and ``jsonloader`` fetch a URI (the network or a local
file) and are not called.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

README = '{"real": [1, 2, 3, 4], "ref": {"$ref": "#/real"}}'
SCHEMA = {
    "definitions": {"point": {"type": "object", "properties": {"x": {"type": "number"}}}},
    "type": "array",
    "items": {"$ref": "#/definitions/point"},
}
MERGE = {
    "base": {"type": "string", "maxLength": 10},
    "name": {"$ref": "#/base", "description": "a short name"},
}
IDS = (
    '{"$id": "https://example.com/order.json", "definitions": {"qty": {"type": "integer",'
    ' "minimum": 1}}, "properties": {"quantity": {"$ref": "#/definitions/qty"}}}'
)


def _jsonref() -> Any:
    return importlib.import_module("jsonref")


def _loads(s: str, **options: Any) -> Any:
    return expected_json(_jsonref().loads(s, proxies=False, **options))


def _replace(obj: Any, **options: Any) -> Any:
    return expected_json(_jsonref().replace_refs(obj, proxies=False, **options))


TARGETS: tuple[Target, ...] = (
    Target(
        "jsonref",
        (
            Call("loads", {"s": README}, lambda: _loads(README)),
            Call("replace_refs", {"obj": SCHEMA}, lambda: _replace(SCHEMA)),
            Call(
                "replace_refs",
                {"obj": MERGE, "merge_props": True},
                lambda: _replace(MERGE, merge_props=True),
            ),
            Call("loads", {"s": IDS, "jsonschema": True}, lambda: _loads(IDS, jsonschema=True)),
            Call(
                "dumps",
                {"obj": {"b": [1, 2], "a": {"$ref": "#/b"}}, "kwargs": {"sort_keys": True}},
                lambda: _jsonref().dumps({"b": [1, 2], "a": {"$ref": "#/b"}}, sort_keys=True),
            ),
            Call(
                "replace_refs",
                {"obj": [{"id": 1}, {"$ref": "#/0"}], "proxies": False},
                lambda: _replace([{"id": 1}, {"$ref": "#/0"}]),
            ),
        ),
    ),
)
