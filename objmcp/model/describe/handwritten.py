"""Schemas an author writes by hand (``@objmcp.tool(input_schema={...})``), checked
when the tool is made.

A hand-written schema is published and used exactly as given; what is checked is
that it is a JSON Schema 2020-12 (its metaschema), that it describes an object (MCP's
``inputSchema`` and ``outputSchema`` are objects), and, for an input schema, that it
fits the method: it names no parameter objmcp fills in itself, no property the method
cannot take (unless it has ``**kwargs``), and requires every parameter that has no
default.
"""

from __future__ import annotations

import inspect
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from ..._exceptions import TargetError

__all__ = ["check_against_signature", "check_schema"]

_DIALECTS = (
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/schema#",
)


def check_schema(schema: Mapping[str, Any], what: str) -> dict[str, Any]:
    """``schema`` as a dict, once it is a JSON Schema 2020-12 of an object; raises
    :class:`TargetError` starting with ``what`` ("the input schema of tool 'f'")."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    schema = dict(schema)
    dialect = schema.get("$schema", _DIALECTS[0])
    if dialect not in _DIALECTS:
        raise TargetError(
            f"{what} says $schema {dialect!r}: objmcp takes JSON Schema 2020-12 "
            f"({_DIALECTS[0]}), or no $schema"
        )
    error = best_match(Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(schema))
    if error is not None:
        where = "".join(f"[{part!r}]" for part in error.absolute_path)
        raise TargetError(f"{what} is not a valid JSON Schema 2020-12: {where} {error.message}")
    if schema.get("type") != "object":
        raise TargetError(f'{what} must describe an object: give it "type": "object"')
    _check_references(schema, what)
    return schema


def _check_references(schema: dict[str, Any], what: str) -> None:
    """Every ``$ref`` must lead somewhere in the schema itself: nothing is ever fetched
    (SEP-2106), and a reference that leads nowhere would fail every call."""
    from referencing import Registry
    from referencing.exceptions import Unresolvable
    from referencing.jsonschema import DRAFT202012

    base = str(schema.get("$id", "urn:objmcp:schema"))
    resource = DRAFT202012.create_resource(schema)
    resolver = Registry().with_resource(base, resource).crawl().resolver(base_uri=base)
    for reference in _references(schema):
        try:
            resolver.lookup(reference)
        except Unresolvable:
            raise TargetError(
                f"{what} refers to {reference!r}, which is not in the schema: objmcp "
                "fetches no schema from elsewhere (put it in $defs)"
            ) from None


def _references(node: object) -> Iterator[str]:
    """The ``$ref`` values under ``node``."""
    if isinstance(node, list):
        for item in node:
            yield from _references(item)
    elif isinstance(node, Mapping):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            elif key not in ("const", "enum", "default", "examples"):
                yield from _references(value)


def check_against_signature(
    schema: Mapping[str, Any],
    tool: str,
    signature: inspect.Signature,
    injected: Collection[str],
) -> None:
    """Raise :class:`TargetError` unless the input ``schema`` fits the method's
    parameters (see the module's docstring)."""
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    named = set(properties) | set(required) if isinstance(properties, Mapping) else set(required)
    filled = sorted(named & set(injected))
    if filled:
        raise TargetError(
            f"the input schema of tool '{tool}' names {filled[0]!r}, a parameter objmcp "
            "fills in itself (elicit, progress, context...): leave it out of the schema"
        )
    params = signature.parameters.values()
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params)
    takes = {
        p.name
        for p in params
        if p.kind is not inspect.Parameter.VAR_KEYWORD and p.name not in injected
    }
    unknown = sorted(named - takes)
    if unknown and not takes_any:
        raise TargetError(
            f"the input schema of tool '{tool}' names {unknown[0]!r}, which the method "
            f"does not take (its parameters: {', '.join(sorted(takes)) or 'none'}; a "
            "method with **kwargs takes any name)"
        )
    for param in params:
        needed = param.default is inspect.Parameter.empty and param.kind in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            inspect.Parameter.KEYWORD_ONLY,
        )
        if needed and param.name not in injected and param.name not in required:
            raise TargetError(
                f"the input schema of tool '{tool}' does not require {param.name!r}, "
                "which the method needs (it has no default): list it in the schema's "
                '"required", or give it a default'
            )
