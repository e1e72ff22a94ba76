"""A quick yes to the common JSON Schemas, before ``jsonschema`` is asked.

:func:`quick_check` compiles a schema into a predicate that answers True only
for values the schema accepts. It understands the keywords objmcp's own schemas
use for plain parameters (``type``, ``properties``, ``required``,
``additionalProperties``, ``items``, ``enum``, ``const``, ``anyOf`` and the
numeric and length bounds); a schema with any other keyword that constrains
values gets no predicate. A False answer only means "ask jsonschema", which
gives the verdict and says what is wrong, so the predicate may be strict but
must never be lenient.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["Check", "quick_check"]

Check = Callable[[object], bool]

_ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "format",  # an annotation: objmcp's validators have no format checker
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
        "contentMediaType",
        "contentEncoding",
        "x-mcp-header",  # a parameter mirrored into a header: says nothing of its values
    }
)


class _Unsupported(Exception):
    """The schema uses something the quick check does not understand."""


def quick_check(schema: object) -> Check | None:
    """A predicate true only of values ``schema`` accepts, or None when the schema is
    beyond it."""
    if isinstance(schema, dict) and "$schema" in schema:
        # below the root, jsonschema would switch to the dialect a "$schema" names
        if not isinstance(schema["$schema"], str) or schema["$schema"] not in _DIALECTS:
            return None
        schema = {key: value for key, value in schema.items() if key != "$schema"}
    try:
        return _compile(schema)
    except _Unsupported:
        return None


_DIALECTS = frozenset(
    {
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2020-12/schema#",
    }
)


def _compile(schema: object) -> Check:
    if schema is True or schema == {}:
        return _anything
    if not isinstance(schema, dict):
        raise _Unsupported
    unknown = schema.keys() - _KEYWORDS - _ANNOTATIONS
    if unknown:
        raise _Unsupported
    checks: list[Check] = []
    if "type" in schema:
        checks.append(_type_check(schema["type"]))
    if "enum" in schema:
        checks.append(_one_of_values(schema["enum"]))
    if "const" in schema:
        checks.append(_one_of_values([schema["const"]]))
    if "anyOf" in schema:
        options = schema["anyOf"]
        if not isinstance(options, list) or not options:
            raise _Unsupported
        compiled = [_compile(option) for option in options]
        checks.append(lambda value: any(check(value) for check in compiled))
    checks.extend(_bounds(schema))
    if {"properties", "required", "additionalProperties"} & schema.keys():
        checks.append(_object_check(schema))
    if "items" in schema:
        items = _compile(schema["items"])
        checks.append(lambda value: type(value) is not list or all(items(item) for item in value))
    return _both(checks)


def _both(checks: list[Check]) -> Check:
    """All of ``checks`` at once (chained, which is quicker to call than a loop)."""
    if not checks:
        return _anything
    first, rest = checks[0], checks[1:]
    if not rest:
        return first
    second = _both(rest)
    return lambda value: first(value) and second(value)


_KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "anyOf",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
    }
)


def _anything(value: object) -> bool:
    return True


def _is_integer(value: object) -> bool:
    kind = type(value)
    return kind is int or (kind is float and value.is_integer())  # type: ignore[attr-defined]


def _is_number(value: object) -> bool:
    kind = type(value)
    return kind is int or (kind is float and math.isfinite(value))  # type: ignore[arg-type]


_TYPES: dict[str, Check] = {
    "string": lambda value: type(value) is str,
    "integer": _is_integer,
    "number": _is_number,
    "boolean": lambda value: type(value) is bool,
    "null": lambda value: value is None,
    "array": lambda value: type(value) is list,
    "object": lambda value: type(value) is dict,
}


def _type_check(kinds: object) -> Check:
    if isinstance(kinds, str):
        kinds = [kinds]
    if not isinstance(kinds, list) or not kinds:
        raise _Unsupported
    if any(not isinstance(kind, str) or kind not in _TYPES for kind in kinds):
        raise _Unsupported
    checks = [_TYPES[kind] for kind in kinds]
    if len(checks) == 1:
        return checks[0]
    return lambda value: any(check(value) for check in checks)


def _one_of_values(values: object) -> Check:
    """Only strings, and integers that are not booleans, are compared here: equality
    between JSON values of other kinds has rules (``1 == 1.0``, ``True != 1``) best
    left to jsonschema."""
    if not isinstance(values, list):
        raise _Unsupported
    strings = frozenset(value for value in values if type(value) is str)
    integers = frozenset(value for value in values if type(value) is int)

    def check(value: object) -> bool:
        kind = type(value)
        if kind is str:
            return value in strings
        return kind is int and value in integers

    return check


def _bounds(schema: dict[str, Any]) -> list[Check]:
    checks: list[Check] = []
    for keyword, holds in _NUMBER_BOUNDS.items():
        if keyword in schema:
            limit = schema[keyword]
            if type(limit) not in (int, float):
                raise _Unsupported
            checks.append(_number_bound(holds, limit))
    for keyword, (kind, holds) in _SIZE_BOUNDS.items():
        if keyword in schema:
            limit = schema[keyword]
            if type(limit) is not int:
                raise _Unsupported
            checks.append(_size_bound(kind, holds, limit))
    return checks


_NUMBER_BOUNDS: dict[str, Callable[[Any, Any], bool]] = {
    "minimum": lambda value, limit: value >= limit,
    "maximum": lambda value, limit: value <= limit,
    "exclusiveMinimum": lambda value, limit: value > limit,
    "exclusiveMaximum": lambda value, limit: value < limit,
}
_SIZE_BOUNDS: dict[str, tuple[type, Callable[[int, int], bool]]] = {
    "minLength": (str, lambda size, limit: size >= limit),
    "maxLength": (str, lambda size, limit: size <= limit),
    "minItems": (list, lambda size, limit: size >= limit),
    "maxItems": (list, lambda size, limit: size <= limit),
}


def _number_bound(holds: Callable[[Any, Any], bool], limit: float) -> Check:
    def check(value: object) -> bool:
        kind = type(value)
        if kind is int or kind is float:
            return holds(value, limit)
        return True  # bounds say nothing of other kinds (booleans are not numbers)

    return check


def _size_bound(kind: type, holds: Callable[[int, int], bool], limit: int) -> Check:
    if kind is str:
        # jsonschema counts code points, as len() does
        return lambda value: type(value) is not str or holds(len(value), limit)
    return lambda value: type(value) is not list or holds(len(value), limit)


def _object_check(schema: dict[str, Any]) -> Check:
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    if not isinstance(properties, dict) or not isinstance(required, list):
        raise _Unsupported
    if not all(isinstance(name, str) for name in required):
        raise _Unsupported
    compiled = {name: _compile(sub) for name, sub in properties.items()}
    extra_check = None if extra is False else _compile(extra)
    required_names = tuple(required)

    def check(value: object) -> bool:
        if type(value) is not dict:
            return True  # object keywords say nothing of other kinds
        for name in required_names:
            if name not in value:
                return False
        for name, item in value.items():
            sub = compiled.get(name)
            if sub is None:
                if extra_check is None or not extra_check(item):
                    return False
            elif not sub(item):
                return False
        return True

    return check
