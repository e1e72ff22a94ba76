"""The calls of ``jsonschema-path`` (rank 338, tuning, third walk).

Written from jsonschema-path's documentation (its README on PyPI, "Usage":
``SchemaPath.from_dict(d)`` on a schema with a ``$ref``, then paths joined with ``/`` and
opened with implicit dereferencing; "Resolved cache": ``from_dict(d,
resolved_cache_maxsize=0)``; and ``from_dict``'s signature: ``from_dict(data, *args,
separator=..., base_uri="", resolved_cache_maxsize=0, ...)``, whose ``args`` are the path's
parts), each answer computed by calling jsonschema-path itself.

The target is the walk's, ``jsonschema_path:SchemaPath``. Its constructor needs an accessor,
so no instance can be made with no arguments: only its class methods are reachable, and of
them the README's ``from_dict`` is the one a model calls with values (``from_path``,
``from_file_path`` and ``from_file`` read a file or stream). The README's traversal
(``path / "properties"``, ``open()``, ``"properties" in path``) works on an instance and is out
of this target's reach, and of any other target of the library (``SchemaAccessor`` too needs a
schema to be made). So every call is ``from_dict``, with the schema as a JSON object and the
path's parts as the list ``args``. A ``SchemaPath`` has no JSON form: its answer is its text
(``str``), its parts joined by the separator (``""`` for the root; no address).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

SCHEMA: dict[str, Any] = {
    "properties": {"info": {"$ref": "#/$defs/Info"}},
    "$defs": {
        "Info": {
            "properties": {
                "title": {"type": "string"},
                "version": {"type": "string", "default": "1.0"},
            },
        },
    },
}
VERSION = ["properties", "info", "properties", "version"]


def _path(*args: Any, **options: Any) -> str:
    schema_path = importlib.import_module("jsonschema_path").SchemaPath
    return str(schema_path.from_dict(SCHEMA, *args, **options))


TARGETS: tuple[Target, ...] = (
    Target(
        "jsonschema_path:SchemaPath",
        (
            Call("from_dict", {"data": SCHEMA}, _path),
            Call(
                "from_dict",
                {"data": SCHEMA, "args": ["properties", "info"]},
                lambda: _path("properties", "info"),
            ),
            Call(
                "from_dict",
                {"data": SCHEMA, "args": VERSION, "resolved_cache_maxsize": 0},
                lambda: _path(*VERSION, resolved_cache_maxsize=0),
            ),
            Call(
                "from_dict",
                {"data": SCHEMA, "args": ["$defs/Info"], "separator": "/"},
                lambda: _path("$defs/Info", separator="/"),
            ),
            Call(
                "from_dict",
                {
                    "data": SCHEMA,
                    "args": ["$defs", "Info"],
                    "base_uri": "https://example.com/schema.json",
                    "resolved_cache_maxsize": 128,
                },
                lambda: _path(
                    "$defs",
                    "Info",
                    base_uri="https://example.com/schema.json",
                    resolved_cache_maxsize=128,
                ),
            ),
        ),
    ),
)
