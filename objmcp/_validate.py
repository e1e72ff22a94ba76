"""Checking a call's arguments against its tool's input schema, with messages a model can act on.

The quick check (:mod:`objmcp._quickcheck`) is made once per tool, when the tool
is; ``jsonschema``'s validator when a call first needs it (arguments the quick
check cannot vouch for), so that a server whose calls fit starts without
importing ``jsonschema`` at all.
"""

from __future__ import annotations

from typing import Any

from ._convert import describe_json
from ._exceptions import ArgumentError
from ._quickcheck import quick_check

__all__ = ["Validator"]


class Validator:
    """A compiled JSON Schema (2020-12) for one tool's arguments."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self._quick = quick_check(schema)
        self._compiled: Any = None

    def check(self, arguments: dict[str, Any]) -> None:
        """Raise :class:`ArgumentError` when ``arguments`` do not fit the schema."""
        if self._quick is not None and self._quick(arguments):
            return
        if self._compiled is None:
            from jsonschema import Draft202012Validator

            self._compiled = Draft202012Validator(self.schema)
        errors = list(self._compiled.iter_errors(arguments))
        if errors:
            from jsonschema.exceptions import relevance

            messages: list[str] = []
            for error in sorted(errors, key=relevance, reverse=True):
                message = self._explain(error, arguments)
                if message not in messages:
                    messages.append(message)
            raise ArgumentError("; ".join(messages[:3]))

    def _explain(self, error: Any, arguments: dict[str, Any]) -> str:
        if error.validator in ("anyOf", "oneOf") and error.context:
            # When the value has the right JSON type for one option, what failed inside it
            # says more than "fits none of the options".
            inner = [e for e in error.context if e.validator != "type"]
            if inner:
                from jsonschema.exceptions import relevance

                return self._explain(max(inner, key=relevance), arguments)
        path = _path(error.absolute_path)
        properties = self.schema.get("properties", {})
        if error.validator == "required" and not path:
            missing = [name for name in self.schema.get("required", ()) if name not in arguments]
            described = []
            for name in missing:
                expected = _expected(properties.get(name, {}))
                described.append(f"'{name}'" + (f" ({expected})" if expected else ""))
            plural = "s" if len(missing) > 1 else ""
            return f"Missing required argument{plural} " + ", ".join(described)
        if error.validator == "additionalProperties" and not path:
            unknown = ", ".join(f"'{name}'" for name in arguments if name not in properties)
            known = ", ".join(properties) or "none"
            return f"Unknown argument {unknown}; the arguments are: {known}"
        given = describe_json(error.instance)
        expected = _expected(error.schema)
        if error.validator in ("type", "anyOf", "oneOf", "enum", "const") and expected:
            return f"Invalid argument '{path}': expected {expected}, got {given}"
        return f"Invalid argument '{path}': {error.message}"


def _path(parts: Any) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _expected(schema: Any) -> str:
    if not isinstance(schema, dict):
        return ""
    if "enum" in schema:
        return "one of " + ", ".join(_json(v) for v in schema["enum"])
    if "const" in schema:
        return _json(schema["const"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if isinstance(kind, str):
        items = schema.get("items")
        if kind == "array" and isinstance(items, dict) and _expected(items):
            return f"array of {_expected(items)}"
        fmt = schema.get("format")
        return f"{kind} ({fmt})" if fmt else kind
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list):
        return " or ".join(filter(None, (_expected(option) for option in options)))
    if "$ref" in schema:
        return "object " + str(schema["$ref"]).rsplit("/", 1)[-1]
    return ""


def _json(value: Any) -> str:
    import json

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
