"""The calls of ``jsonschema`` (rank 55, held-out).

Written from jsonschema's documentation (the README's and "Schema Validation" page's
``validate(instance, schema)``, which returns None when the instance is valid; the "Validating
Formats" page's ``FormatChecker``), each answer computed by calling jsonschema itself.

``jsonschema:FormatChecker`` is a target beyond the walk's: the module serves only
``validate``, and a ``FormatChecker()`` (made with no arguments, every format it knows) is the
documented object for checking a value against a format; its ``conforms`` answers a boolean.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

PRODUCT = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "price": {"type": "number"}},
    "required": ["name"],
}
INTEGERS = {"type": "array", "items": {"type": "integer", "minimum": 0}, "maxItems": 5}


def _jsonschema() -> Any:
    return importlib.import_module("jsonschema")


def _conforms(instance: Any, format: str) -> Any:
    return _jsonschema().FormatChecker().conforms(instance, format)


TARGETS: tuple[Target, ...] = (
    Target(
        "jsonschema",
        (
            Call(
                "validate",
                {"instance": {"name": "Eggs", "price": 34.99}, "schema": PRODUCT},
                lambda: _jsonschema().validate({"name": "Eggs", "price": 34.99}, PRODUCT),
            ),
            Call(
                "validate",
                {"instance": [1, 2, 3], "schema": INTEGERS},
                lambda: _jsonschema().validate([1, 2, 3], INTEGERS),
            ),
            Call(
                "validate",
                {"instance": "2024-01-05", "schema": {"type": "string", "maxLength": 10}},
                lambda: _jsonschema().validate("2024-01-05", {"type": "string", "maxLength": 10}),
            ),
        ),
    ),
    Target(
        "jsonschema:FormatChecker",
        (
            Call(
                "conforms",
                {"instance": "2024-01-05", "format": "date"},
                lambda: _conforms("2024-01-05", "date"),
            ),
            Call(
                "conforms",
                {"instance": "192.168.0.300", "format": "ipv4"},
                lambda: _conforms("192.168.0.300", "ipv4"),
            ),
        ),
    ),
)
