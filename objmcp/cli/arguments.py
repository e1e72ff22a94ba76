"""The arguments of ``objmcp call``: ``key=value`` and ``key:=json`` words read against a
tool's input schema.

:func:`parse_arguments` reads each word by the JSON types its parameter takes (as
far as the schema says: ``$ref``, ``enum``, ``const``, ``anyOf``, ``type``): the text
as written for a parameter that takes only strings, JSON (else the text) for one
that takes none, and for one that takes a string among other kinds the text unless
it is a number, boolean or null the parameter also takes. ``key:=json`` is always
JSON. Plain functions, no I/O: the call itself is :mod:`objmcp.cli.client`'s.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from ..model.values.jsontext import parse_json

__all__ = ["parse_arguments"]


def parse_arguments(words: Sequence[str], schema: dict[str, Any]) -> dict[str, Any]:
    """``key=value`` and ``key:=json`` words as a tool's arguments, read by the tool's
    input schema.

    ``key:=json`` is always read as JSON. ``key=value`` is the text as written where the
    parameter takes only strings; read as JSON (else taken as text) where it takes no
    string; and where it takes a string among other kinds (a union with ``str``, or any
    value, as an untyped parameter does), the text as written unless it is a JSON number,
    ``true`` or ``false`` the parameter also takes (or ``null``, where it takes any value):
    ``s='{"a": 1}'`` stays a string, ``n=42`` is a number; ``s:='{"a": 1}'`` sends the
    object."""
    properties = schema.get("properties", {})
    defs = schema.get("$defs", {})
    extra = schema.get("additionalProperties")
    arguments: dict[str, Any] = {}
    for word in words:
        key, _, text = word.partition("=")
        as_json = key.endswith(":")
        key = key.removesuffix(":") if as_json else key
        if key in arguments:
            raise ValueError(f"{key} is given twice")
        if as_json:
            try:
                arguments[key] = parse_json(text)
            except (ValueError, RecursionError) as error:
                raise ValueError(
                    f"{key}:= takes a JSON value ({error}); write {key}=... for text"
                ) from None
            continue
        prop = properties.get(key, extra if isinstance(extra, dict) else {})
        kinds = _json_types(prop, defs)
        if kinds == {"string"}:
            arguments[key] = text
        elif "string" in kinds:
            arguments[key] = _scalar_or_text(text, kinds)
        else:
            try:  # not Python's NaN and Infinity: as text, a float parameter takes them
                arguments[key] = parse_json(text)
            except (ValueError, RecursionError):
                arguments[key] = text
    return arguments


def _scalar_or_text(text: str, kinds: set[str]) -> Any:
    """``text`` read as a JSON number, boolean or null when it is one that ``kinds`` (the
    JSON types a parameter takes, a string among them) admits; else ``text`` itself."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    kind = _json_type(value)
    if isinstance(value, float) and not math.isfinite(value):
        return text  # Python reads NaN and Infinity, which JSON has not
    if kind == "number" and isinstance(value, int) and "integer" in kinds:
        return value
    if kind in ("number", "boolean") and kind in kinds:
        return value
    if value is None and kinds >= _ANY:
        return value
    return text


_ANY = frozenset({"string", "number", "integer", "boolean", "object", "array"})


def _json_types(schema: object, defs: dict[str, Any], depth: int = 0) -> set[str]:
    """The JSON types (``null`` left out) a schema accepts, as far as it says."""
    if not isinstance(schema, dict) or depth > 20:
        return set(_ANY)
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return _json_types(defs.get(name, {}), defs, depth + 1)
    values = (
        schema["enum"] if "enum" in schema else [schema["const"]] if "const" in schema else None
    )
    if isinstance(values, list):
        return {_json_type(value) for value in values} - {"null"}
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list):
        found: set[str] = set()
        for option in options:
            found |= _json_types(option, defs, depth + 1)
        return found
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind} - {"null"}
    if isinstance(kind, list):
        return {str(k) for k in kind} - {"null"}
    return set(_ANY)


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"
