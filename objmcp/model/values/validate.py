"""Checking a call's arguments against its tool's input schema, with messages a model can act on.

The quick check (:mod:`objmcp.model.values.quickcheck`) is made once per tool, when the tool
is; ``jsonschema``'s validator when a call first needs it (arguments the quick
check cannot vouch for), so that a server whose calls fit starts without
importing ``jsonschema`` at all.

Leniency: some clients send an argument as JSON text (``tags='["a"]'``) because
their converters look only at a property's own ``type``, which an ``anyOf``, a
``$ref`` or an untyped parameter lacks. A string argument the schema refuses is
read as JSON, and taken when the value is of a kind (array, object, number,
boolean, null) the parameter allows and a string is not one of them; a string
that is a JSON array, given to a parameter of any type, is taken as the list.
A string where a number is wanted (and a string is not) that names NaN or an infinity
(``"Infinity"``, ``"-inf"``: :func:`~objmcp.model.values.nonfinite.named_float`), at any depth,
is taken as that float, as a result sends it.
Nothing else changes, and only arguments that would fail anyway are read. A text is
read only when the texts of one call hold at most ``max_values`` JSON values
together, counted before they are parsed (:mod:`objmcp.model.values.jsoncount`): the bound
a request's own values are held to.
"""

from __future__ import annotations

import typing
from typing import Any

from ..._exceptions import ArgumentError
from .jsoncount import DEFAULT_MAX_VALUES, count_values, values_over
from .jsontext import parse_json
from .mismatch import describe_json
from .nonfinite import named_float
from .quickcheck import quick_check

__all__ = ["Validator", "check_values", "json_kinds"]

_KINDS = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})


class Validator:
    """A compiled JSON Schema (2020-12) for one tool's arguments.

    ``lenient`` (the default) accepts arguments sent as JSON text where the schema
    wants another kind (see the module's docstring)."""

    def __init__(self, schema: dict[str, Any], *, lenient: bool = True) -> None:
        self.schema = schema
        self.lenient = lenient
        self._quick = quick_check(schema)
        self._compiled: Any = None
        properties = schema.get("properties", {})
        defs = schema.get("$defs", {})
        self._untyped = frozenset(
            name
            for name, prop in properties.items()
            if lenient and json_kinds(prop, defs) == _KINDS
        )

    def check(
        self, arguments: dict[str, Any], max_values: int = DEFAULT_MAX_VALUES
    ) -> dict[str, Any]:
        """The arguments to bind: ``arguments``, or a copy with what leniency read from
        JSON text (at most ``max_values`` values in all). Raise :class:`ArgumentError`
        when they do not fit the schema, or the texts to read hold more values."""
        budget = _TextBudget(max_values)
        if self._untyped:
            arguments = self._lists_for_untyped(arguments, budget)
        if self._quick is not None and self._quick(arguments):
            return arguments
        if self._compiled is None:
            from jsonschema import Draft202012Validator

            self._compiled = Draft202012Validator(self.schema)
        errors = list(self._compiled.iter_errors(arguments))
        if errors and self.lenient:
            read = self._read_json_text(arguments, errors, budget)
            if read is not arguments:
                arguments = read
                errors = list(self._compiled.iter_errors(arguments))
            read = self._read_named_floats(arguments, errors)
            if read is not arguments:
                arguments = read
                errors = list(self._compiled.iter_errors(arguments))
        if errors:
            from jsonschema.exceptions import relevance

            messages: list[str] = []
            for error in sorted(errors, key=relevance, reverse=True):
                message = self._explain(error, arguments)
                if message not in messages:
                    messages.append(message)
            raise ArgumentError("; ".join(messages[:3]))
        return arguments

    def _lists_for_untyped(self, arguments: dict[str, Any], budget: _TextBudget) -> dict[str, Any]:
        """A JSON array's text given to an untyped parameter, as the list."""
        read = arguments
        for name in self._untyped:
            value = arguments.get(name)
            if isinstance(value, str) and value.lstrip(_JSON_SPACE).startswith("["):
                parsed = _parse(value, name, budget)
                if isinstance(parsed, list):
                    read = {**read, name: parsed}
        return read

    def _read_json_text(
        self, arguments: dict[str, Any], errors: list[Any], budget: _TextBudget
    ) -> dict[str, Any]:
        """``arguments`` with each refused string that is JSON of a kind its parameter
        takes (and a string is not) replaced by that value."""
        properties = self.schema.get("properties", {})
        extra = self.schema.get("additionalProperties")
        defs = self.schema.get("$defs", {})
        refused = {error.absolute_path[0] for error in errors if error.absolute_path}
        read = arguments
        for name in refused:
            value = arguments.get(name)
            if not isinstance(value, str):
                continue
            prop = properties.get(name, extra if isinstance(extra, dict) else None)
            if prop is None:
                continue
            kinds = json_kinds(prop, defs)
            if "string" in kinds:
                continue
            parsed = _parse(value, name, budget)
            if parsed is not _NOT_JSON and _kind_of(parsed) & kinds:
                read = {**read, name: parsed}
        return read

    def _read_named_floats(self, arguments: dict[str, Any], errors: list[Any]) -> dict[str, Any]:
        """``arguments`` with each refused string that names NaN or an infinity, where a
        number is wanted and a string is not (in an option of an ``anyOf`` too), replaced
        by that float."""
        defs = self.schema.get("$defs", {})
        read: Any = arguments
        waiting = list(errors)
        while waiting:
            error = waiting.pop()
            waiting.extend(error.context or ())
            if not isinstance(error.instance, str) or not error.absolute_path:
                continue
            kinds = json_kinds(error.schema, defs)
            named = named_float(error.instance)
            if named is not None and "number" in kinds and "string" not in kinds:
                read = _replaced(read, list(error.absolute_path), named)
        return typing.cast(dict[str, Any], read)

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
            wanted = error.validator_value if isinstance(error.validator_value, list) else []
            missing = [name for name in wanted if name not in arguments]
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
        if not path:  # a rule of the whole (minProperties, not, dependentRequired...)
            return f"Invalid arguments: {error.message}"
        return f"Invalid argument '{path}': {error.message}"


def _replaced(data: Any, path: list[Any], value: object) -> Any:
    """A copy of the JSON ``data`` with the value at ``path`` (keys and indexes) replaced
    by ``value``; what is off the path is shared, not copied."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(data, list):
        return [*data[:head], _replaced(data[head], rest, value), *data[head + 1 :]]
    return {**data, head: _replaced(data[head], rest, value)}


def _path(parts: Any) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _expected(schema: Any) -> str:
    """What ``schema`` takes, in words: each kind once (``number or string``)."""
    return " or ".join(dict.fromkeys(_kinds(schema)))


def _kinds(schema: Any) -> list[str]:
    if not isinstance(schema, dict):
        return []
    if "enum" in schema:
        return ["one of " + ", ".join(_json(v) for v in schema["enum"])]
    if "const" in schema:
        return [_json(schema["const"])]
    kind = schema.get("type")
    if isinstance(kind, list):
        return [str(each) for each in kind]
    if isinstance(kind, str):
        items = schema.get("items")
        if kind == "array" and isinstance(items, dict) and _expected(items):
            return [f"array of {_expected(items)}"]
        fmt = schema.get("format")
        return [f"{kind} ({fmt})" if fmt else kind]
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list):
        return [each for option in options for each in _kinds(option)]
    if "$ref" in schema:
        return ["object " + str(schema["$ref"]).rsplit("/", 1)[-1]]
    return []


def _json(value: Any) -> str:
    import json

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def json_kinds(schema: object, defs: dict[str, Any], depth: int = 0) -> frozenset[str]:
    """The JSON types a schema accepts at its top, as far as it says (``integer`` is in
    whatever has ``number``): every one for a schema that names none."""
    if not isinstance(schema, dict) or depth > 20:
        return _KINDS
    reference = schema.get("$ref")
    if isinstance(reference, str):
        return json_kinds(defs.get(reference.rsplit("/", 1)[-1]), defs, depth + 1)
    if "enum" in schema or "const" in schema:
        values = schema["enum"] if "enum" in schema else [schema["const"]]
        if isinstance(values, list):
            return frozenset().union(*(_kind_of(value) for value in values))
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list):
        return frozenset().union(*(json_kinds(option, defs, depth + 1) for option in options))
    kind = schema.get("type")
    named = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else None
    if named is None:
        return _KINDS
    kinds = frozenset(str(k) for k in named)
    return kinds | {"integer"} if "number" in kinds else kinds


def _kind_of(value: object) -> frozenset[str]:
    """The JSON types ``value`` is of (an integer is a number too)."""
    if value is None:
        return frozenset({"null"})
    if isinstance(value, bool):
        return frozenset({"boolean"})
    if isinstance(value, int):
        return frozenset({"integer", "number"})
    if isinstance(value, float):
        return frozenset({"number"})
    if isinstance(value, str):
        return frozenset({"string"})
    return frozenset({"array"} if isinstance(value, list) else {"object"})


_NOT_JSON = object()


_JSON_SPACE = " \t\n\r"
"""What JSON takes for whitespace (str.strip would take more: U+001F, U+00A0...)."""


class _TextBudget:
    """What is left of ``max_values`` for the JSON texts of one call's arguments."""

    def __init__(self, max_values: int) -> None:
        self.max_values = max_values
        self.left = max_values

    def take(self, text: str, name: object) -> None:
        """Count ``text``, the argument ``name``'s, against what is left; raise
        :class:`ArgumentError` when it holds more."""
        found = count_values(text)
        if found > self.left:
            taken = self.max_values - self.left
            together = f" ({found + taken:,} with the other arguments' texts)" if taken else ""
            raise ArgumentError(
                f"Invalid argument '{name}': its JSON text holds {found:,} values{together}, "
                f"over the server's max_values of {self.max_values:,}; send fewer at a time"
            )
        self.left -= found


def _parse(text: str, name: object, budget: _TextBudget) -> object:
    """The JSON value ``text`` holds (NaN and the infinities refused, ``1e400`` too,
    however deep), or ``_NOT_JSON``; :class:`ArgumentError` when it holds more values
    than are left of ``budget`` (``name`` is the argument's)."""
    budget.take(text, name)
    try:
        return parse_json(text.strip(_JSON_SPACE))
    except (ValueError, RecursionError):
        return _NOT_JSON


def check_values(text: str | bytes, max_values: int, what: str) -> None:
    """Raise :class:`ArgumentError` when the JSON text ``text`` (``what`` it is: "argument
    'tags'") holds more than ``max_values`` values; it is left unparsed."""
    found = values_over(text, max_values)
    if found is not None:
        raise ArgumentError(
            f"Invalid {what}: its JSON text holds {found:,} values, over the server's "
            f"max_values of {max_values:,}; send fewer at a time"
        )
