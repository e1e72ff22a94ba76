"""A JSON value that is not what a type hint asks for: :class:`ConversionError`, which
says where, the check of a value's JSON kind that raises it, and :func:`describe_json`,
a JSON value as an error message shows it.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["ConversionError", "describe_json", "expect_kind"]


class ConversionError(ValueError):
    """A JSON value does not convert into the type asked for; ``path`` says where."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


def describe_json(value: object) -> str:
    """A JSON value for an error message: its JSON type and (shortened) text."""
    if value is None:
        return "null"
    kinds = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{kinds.get(type(value), 'object')} {text}"


def expect_kind(value: object, kind: type, name: str, path: str) -> Any:
    """``value`` itself when it is a ``kind`` (a bool is no int), else a
    :class:`ConversionError` saying the JSON ``name`` expected and what came."""
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConversionError(path, f"expected {name}, got {describe_json(value)}")
    return value
