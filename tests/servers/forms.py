"""Tools described by hand-written JSON Schemas, and tools whose parameters an HTTP client
mirrors into ``Mcp-Param-*`` headers (``x-mcp-header``): served by ``objmcp run`` in
``tests/serving/test_handwritten_schemas.py`` and ``tests/serving/test_param_headers.py``.

``json_schema_2020_12_tool`` is the tool the conformance suite's ``json-schema-2020-12``
scenario (0.2.0-alpha.12) looks for, with the very schema it checks."""

from __future__ import annotations

import json
from typing import Annotated, Any

import objmcp

CONTACT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
    "properties": {
        "name": {"type": "string"},
        "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}

SCALE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "values": {"type": "array", "items": {"type": "number"}, "minItems": 1},
        "factor": {"type": "number", "exclusiveMinimum": 0},
    },
    "required": ["values"],
}

STATS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"low": {"type": "number"}, "high": {"type": "number"}},
    "required": ["low", "high"],
    "additionalProperties": False,
}


class Forms:
    """Hand-written schemas and mirrored parameters."""

    @objmcp.tool(input_schema=CONTACT_SCHEMA)
    def json_schema_2020_12_tool(self, **contact: Any) -> str:
        """Record a contact: a name, an address, and a phone or an email."""
        return json.dumps(contact, sort_keys=True)

    @objmcp.tool(input_schema=SCALE_SCHEMA, output_schema=STATS_SCHEMA)
    def scale(self, values: tuple[float, ...], factor: float = 1.0) -> dict[str, float]:
        """The lowest and highest of ``values`` times ``factor``."""
        assert isinstance(values, tuple)  # converted by its hint: the schema names it
        return {"low": min(values) * factor, "high": max(values) * factor}

    @objmcp.tool(output_schema=STATS_SCHEMA)
    def wrong_stats(self) -> dict[str, Any]:
        """A result that does not fit the output schema."""
        return {"low": "zero", "high": 1}

    def execute_sql(
        self,
        region: Annotated[str, objmcp.Header("Region")],
        query: str,
        priority: Annotated[int, objmcp.Header("Priority")] = 0,
        verbose: Annotated[bool, objmcp.Header("Verbose")] = False,
    ) -> str:
        """Run ``query`` in ``region``."""
        return f"{region}|{priority}|{verbose}|{query}"

    @objmcp.tool(
        input_schema={
            "type": "object",
            "properties": {
                "tenant": {
                    "type": "object",
                    "properties": {"id": {"type": "string", "x-mcp-header": "Tenant"}},
                },
                "note": {"type": "string"},
            },
            "required": ["note"],
        }
    )
    def annotate(self, note: str, tenant: dict[str, Any] | None = None) -> str:
        """A note for a tenant, whose id is mirrored (a nested property)."""
        return f"{(tenant or {}).get('id')}:{note}"
