"""Tool definitions in the shapes LLM APIs take, from one :class:`~objmcp.Toolbox`.

``specs(tools, "mcp")`` is exactly what ``tools/list`` serves; ``"anthropic"``,
``"openai"`` (Chat Completions), ``"openai-responses"`` (Responses API),
``"gemini"`` and ``"jsonschema"`` are the same tools for those APIs. Where an
API cannot express a schema feature, it is translated, or dropped with a
warning; where an API's tool names are narrower than MCP's, the name is made to
fit and :meth:`Toolbox.call` accepts it.

The shapes follow each provider's API reference and the request types of its
official SDK (``anthropic.types.ToolParam``; ``openai.types.chat.
ChatCompletionFunctionToolParam`` and ``openai.types.responses.FunctionToolParam``;
``google.genai.types.FunctionDeclaration``), which the tests validate against:
tool names ``[A-Za-z0-9_-]{1,64}`` (Gemini: not starting with a digit); OpenAI's
strict mode only where every object lists all its properties as required, forbids
others, every schema says its type (no untyped ``{}``) and every array its items, and
no keyword strict mode refuses (``default`` among them) appears.
"""

from __future__ import annotations

import copy
import json
import logging
import re
from collections.abc import Iterable
from typing import Any, Literal

from ..calling.tool import Tool
from .schema import JsonSchema, json_type

__all__ = ["FORMATS", "SpecFormat", "api_name", "mcp_tool", "specs"]

logger = logging.getLogger("objmcp")

SpecFormat = Literal["mcp", "anthropic", "openai", "openai-responses", "gemini", "jsonschema"]
FORMATS: tuple[str, ...] = (
    "mcp",
    "anthropic",
    "openai",
    "openai-responses",
    "gemini",
    "jsonschema",
)
JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema"
_NOT_IN_API_NAMES = re.compile(r"[^A-Za-z0-9_-]")


def api_name(name: str) -> str:
    """A tool name as the Anthropic, OpenAI and Gemini APIs allow it: ``[A-Za-z0-9_-]{1,64}``
    (and, for Gemini, not starting with a digit or ``-``)."""
    fitted = _NOT_IN_API_NAMES.sub("_", name)
    if not fitted[:1].isalpha() and fitted[:1] != "_":
        fitted = "_" + fitted
    return fitted[:64]


def mcp_tool(tool: Tool) -> dict[str, Any]:
    """The ``Tool`` object of ``tools/list``, with every field objmcp fills in.

    The session leaves out, per revision, the fields that revision does not define.
    """
    entry: dict[str, Any] = {"name": tool.name}
    if tool.title is not None:
        entry["title"] = tool.title
    if tool.description:
        entry["description"] = tool.description
    entry["inputSchema"] = tool.input_schema
    if tool.output_schema is not None:
        entry["outputSchema"] = tool.output_schema
    if tool.annotations:
        entry["annotations"] = dict(tool.annotations)
    if tool.icons:
        entry["icons"] = [dict(icon) for icon in tool.icons]
    if tool.meta:
        entry["_meta"] = dict(tool.meta)
    return entry


def specs(tools: Iterable[Tool], format: str) -> list[dict[str, Any]]:
    """The definitions of ``tools`` in ``format`` (one of :data:`FORMATS`)."""
    makers = {
        "mcp": mcp_tool,
        "anthropic": _anthropic,
        "openai": _openai_chat,
        "openai-responses": _openai_responses,
        "gemini": _gemini,
        "jsonschema": _jsonschema,
    }
    maker = makers.get(format)
    if maker is None:
        raise ValueError(f"Unknown spec format {format!r}: use one of {', '.join(FORMATS)}")
    tools = list(tools)
    if format not in ("mcp", "jsonschema"):
        fitted: dict[str, str] = {}
        for tool in tools:
            other = fitted.setdefault(api_name(tool.name), tool.name)
            if other != tool.name:
                raise ValueError(
                    f"The tools {other!r} and {tool.name!r} would both be called "
                    f"{api_name(tool.name)!r} in {format} (which allows [A-Za-z0-9_-], at most "
                    "64 characters): rename one, or leave one out with exclude="
                )
    return [maker(tool) for tool in tools]


def _described(tool: Tool, entry: dict[str, Any]) -> dict[str, Any]:
    if tool.description:
        entry["description"] = tool.description
    return entry


def _jsonschema(tool: Tool) -> dict[str, Any]:
    schema = {"$schema": JSON_SCHEMA_2020_12, **copy.deepcopy(tool.input_schema)}
    return _described(tool, {"name": tool.name, "schema": schema})


def _anthropic(tool: Tool) -> dict[str, Any]:
    entry = _described(tool, {"name": api_name(tool.name)})
    entry["input_schema"] = copy.deepcopy(tool.input_schema)
    return entry


def _openai_function(tool: Tool) -> dict[str, Any]:
    entry = _described(tool, {"name": api_name(tool.name)})
    entry["parameters"] = copy.deepcopy(tool.input_schema)
    entry["strict"] = strict_compatible(tool.input_schema)
    return entry


def _openai_chat(tool: Tool) -> dict[str, Any]:
    return {"type": "function", "function": _openai_function(tool)}


def _openai_responses(tool: Tool) -> dict[str, Any]:
    return {"type": "function", **_openai_function(tool)}


# --- OpenAI strict mode -----------------------------------------------------------------------

_STRICT_KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "$ref",
        "$defs",
        "description",
        "title",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
    }
)
_TYPING_KEYWORDS = frozenset({"type", "anyOf", "$ref", "enum", "const"})
"""A schema in strict mode says what its values are with one of these."""
_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)


def strict_compatible(schema: JsonSchema) -> bool:
    """Whether OpenAI's strict mode (Structured Outputs) takes ``schema`` as it is: every
    object lists all its properties as required and forbids others, every schema in it
    says what its values are (a type, or ``anyOf``, ``$ref``, ``enum``, ``const``: not the
    untyped ``{}``), every array the schema of its items, and only the keywords strict
    mode supports appear."""
    if "anyOf" in schema:
        return False  # not allowed at the root
    return _strict(schema)


def _strict(node: Any) -> bool:
    if isinstance(node, list):
        return all(_strict(item) for item in node)
    if not isinstance(node, dict):
        return True
    if not set(node) <= _STRICT_KEYWORDS:
        return False
    if not _TYPING_KEYWORDS & set(node):
        return False  # an untyped schema ({} for any value): strict mode wants a type
    types = node.get("type")
    if "array" in (types if isinstance(types, list) else [types]) and "items" not in node:
        return False  # strict mode refuses an array schema without its items' schema
    if "format" in node and node["format"] not in _STRICT_FORMATS:
        return False
    if node.get("type") == "object" or "properties" in node:
        properties = node.get("properties", {})
        if node.get("additionalProperties") is not False:
            return False
        if sorted(node.get("required", [])) != sorted(properties):
            return False
        if not all(_strict(value) for value in properties.values()):
            return False
    for key in ("items", "anyOf"):
        if key in node and not _strict(node[key]):
            return False
    return all(_strict(value) for value in node.get("$defs", {}).values())


# --- Gemini -----------------------------------------------------------------------------------
#
# Gemini's ``FunctionDeclaration.parameters`` is an OpenAPI 3.0 subset: upper-case types,
# ``nullable`` instead of a null type, string enums only, no ``$ref``, ``const``,
# ``prefixItems``, ``uniqueItems`` or (in the Developer API) ``additionalProperties``.

_GEMINI_COPIED = ("title", "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength")
_GEMINI_STRING_FORMATS = frozenset({"date-time", "date", "email", "byte", "password"})
_GEMINI_UNSAID = (
    "additionalProperties",
    "uniqueItems",
    "propertyNames",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "contentEncoding",
)


def _gemini(tool: Tool) -> dict[str, Any]:
    entry = _described(tool, {"name": api_name(tool.name)})
    entry["parameters"] = gemini_schema(tool.input_schema, tool.name)
    return entry


def gemini_schema(schema: JsonSchema, tool: str) -> dict[str, Any]:
    """A JSON Schema translated into the OpenAPI subset of Gemini's ``Schema``, with a
    warning on stderr for each thing it cannot say (the tool still checks it on call)."""
    return _Gemini(schema.get("$defs", {}), tool).convert(schema, ())


class _Gemini:
    def __init__(self, defs: dict[str, Any], tool: str) -> None:
        self.defs = defs
        self.tool = tool

    def warn(self, what: str) -> None:
        logger.warning("tool %r for Gemini: %s", self.tool, what)

    def convert(self, node: Any, seen: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(node, dict) or not node:
            return {}
        if "$ref" in node:
            return self._reference(node, seen)
        kinds = node.get("type")
        options = node.get("anyOf") or node.get("oneOf")
        if isinstance(kinds, list):
            options = [{**node, "type": kind} for kind in kinds]
        if options is not None:
            return self._options(node, options, seen)
        out: dict[str, Any] = {}
        if isinstance(kinds, str):
            out["type"] = kinds.upper()
        if "description" in node:
            out["description"] = node["description"]
        for key in _GEMINI_COPIED:
            if key in node:
                out[key] = node[key]
        self._format(node, out)
        self._enum(node, out)
        if isinstance(node.get("items"), dict):
            out["items"] = self.convert(node["items"], seen)
        if "prefixItems" in node:
            items = [self.convert(item, seen) for item in node["prefixItems"]]
            out["items"] = items[0] if len(items) == 1 else {"anyOf": items}
            self.warn("a fixed-length tuple is described as an array of any of its item types")
        if "properties" in node:
            out["properties"] = {
                key: self.convert(value, seen) for key, value in node["properties"].items()
            }
            out["propertyOrdering"] = list(node["properties"])
            if node.get("required"):
                out["required"] = list(node["required"])
        if "default" in node:
            out["default"] = node["default"]
        unsaid = [key for key in _GEMINI_UNSAID if key in node]
        if node.get("additionalProperties") is False:
            unsaid.remove("additionalProperties")  # Gemini sends only the declared keys anyway
        if unsaid:
            self.warn(f"{', '.join(unsaid)} cannot be said; the tool still checks it on call")
        return out

    def _reference(self, node: dict[str, Any], seen: tuple[str, ...]) -> dict[str, Any]:
        name = str(node["$ref"]).rsplit("/", 1)[-1]
        if name in seen:
            self.warn(f"the recursive type {name} is described one level deep only")
            return {"type": "OBJECT", "description": f"A {name} (nested)."}
        target = self.defs.get(name)
        if target is None:
            self.warn(f"{node['$ref']} points nowhere; any value is accepted")
            return {}
        merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return self.convert(merged, (*seen, name))

    def _format(self, node: dict[str, Any], out: dict[str, Any]) -> None:
        fmt = node.get("format")
        if fmt is None:
            return
        if node.get("type") == "string" and fmt in _GEMINI_STRING_FORMATS:
            out["format"] = fmt
        else:
            said = out.get("description", "")
            out["description"] = f"{said} (format: {fmt})".strip()

    def _enum(self, node: dict[str, Any], out: dict[str, Any]) -> None:
        if "enum" not in node and "const" not in node:
            return
        values = node["enum"] if "enum" in node else [node["const"]]
        if all(isinstance(value, str) for value in values):
            out["enum"] = list(values)
            out.setdefault("type", "STRING")
            return
        # Gemini's enums are strings; say the allowed values in words, keep the real type.
        listed = ", ".join(json.dumps(value) for value in values)
        out["description"] = f"{out.get('description', '')} One of: {listed}.".strip()
        kinds = {(json_type(value) or "string").upper() for value in values}
        if len(kinds) == 1 and "type" not in out:
            out["type"] = kinds.pop()

    def _options(
        self, node: dict[str, Any], options: list[Any], seen: tuple[str, ...]
    ) -> dict[str, Any]:
        is_null = [isinstance(o, dict) and o.get("type") == "null" for o in options]
        rest = [o for o, null in zip(options, is_null, strict=True) if not null]
        converted = [self.convert(option, seen) for option in rest]
        if not converted:
            out: dict[str, Any] = {"type": "NULL"}
        elif len(converted) == 1:
            out = converted[0]
        else:
            out = {"anyOf": converted}
        if any(is_null) and converted:
            out = {**out, "nullable": True}
        for key in ("description", "default"):
            if key in node:
                out = {**out, key: node[key]}
        return out
