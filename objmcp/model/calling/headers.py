"""Tool parameters a client mirrors into its request's metadata: ``x-mcp-header``.

A property of a tool's input schema may carry ``"x-mcp-header": "Region"`` (SEP-2243):
a client then repeats the argument beside the message, where intermediaries can read
it without parsing the body, and the server checks that both say the same. Here is
what the schema says of it: the :class:`Header` marker (``Annotated[str,
objmcp.Header("Region")]``), and the annotations a schema carries, checked against the
spec's rules when the tool is made. Where the value travels, and how it is compared,
is the transport's business.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..._exceptions import TargetError
from ..describe import hints as t

__all__ = [
    "HEADER_KEY",
    "Header",
    "ParamHeader",
    "header_name_problem",
    "header_of",
    "param_headers",
    "with_safe_bounds",
]

HEADER_KEY = "x-mcp-header"
"""The schema keyword that names a parameter's header."""

_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+", re.ASCII)
"""RFC 9110's ``token`` (``1*tchar``): what a header name may be made of."""
_TYPES = ("string", "integer", "boolean")
_SAFE_INTEGER = 2**53 - 1
_WALKED = ("properties",)
"""The only keyword a chain to an annotated property may pass through."""


@dataclass(frozen=True)
class Header:
    """Mirror this parameter into a header named ``Mcp-Param-<name>``: as
    ``Annotated[str, objmcp.Header("Region")]``, or ``tools={"f": {"headers":
    {"region": "Region"}}}``. Only string, integer and boolean parameters may be mirrored;
    ``name`` is an HTTP field name (letters, digits and ``!#$%&'*+-.^_`|~``)."""

    name: str

    def __post_init__(self) -> None:
        problem = header_name_problem(self.name)
        if problem is not None:
            raise TypeError(f"objmcp.Header({self.name!r}): {problem}")


@dataclass(frozen=True)
class ParamHeader:
    """One annotated property: the header's ``name`` (as the schema writes it) and the
    ``path`` of ``properties`` keys from the arguments' root to the value it mirrors."""

    name: str
    path: tuple[str, ...]


def header_name_problem(name: object) -> str | None:
    """What is wrong with ``name`` as an ``x-mcp-header`` value (None: nothing)."""
    if not isinstance(name, str):
        return f"a header name is a string, not {name!r}"
    if not name:
        return "a header name cannot be empty"
    if not _TOKEN.fullmatch(name):
        return (
            f"header name {name!r} may hold only ASCII letters, digits and "
            "!#$%&'*+-.^_`|~ (no spaces, colons or control characters)"
        )
    return None


def header_of(hint: object) -> str | None:
    """The header name an ``Annotated[..., Header(name)]`` hint asks for (None: none).
    A union with such a member (``Annotated[str, Header("X")] | None``) is refused: a
    mirrored parameter is a string, an integer or a boolean, never null."""
    hint = t.strip_qualifiers(hint)
    marks = [m for m in t.annotated_parts(hint)[1] if isinstance(m, Header)]
    if len(marks) > 1:
        raise TypeError(f"a parameter takes one objmcp.Header, not {len(marks)}")
    if not marks and t.is_union(hint) and any(header_of(arg) for arg in typing.get_args(hint)):
        raise TypeError(
            "objmcp.Header marks a string, integer or boolean parameter, not a union with "
            "null: give the parameter a default instead"
        )
    return marks[0].name if marks else None


def with_safe_bounds(schema: Mapping[str, Any]) -> dict[str, Any]:
    """An integer parameter's schema bounded to what JSON numbers carry exactly (the
    spec asks mirrored integers to be safe for JavaScript), where it is not already."""
    bounded = dict(schema)
    if schema.get("type") == "integer":
        bounded.setdefault("minimum", -_SAFE_INTEGER)
        bounded.setdefault("maximum", _SAFE_INTEGER)
    return bounded


def param_headers(schema: Mapping[str, Any], tool: str) -> tuple[ParamHeader, ...]:
    """The ``x-mcp-header`` annotations of a tool's input schema, checked by the spec's
    rules: each names a token, unique whatever its case, on a string, integer or boolean
    property reached from the root through ``properties`` alone. Raises
    :class:`TargetError` naming the tool and the rule broken."""
    found: list[ParamHeader] = []
    _walk(schema, (), True, found, tool)
    seen: dict[str, ParamHeader] = {}
    for header in found:
        other = seen.setdefault(header.name.lower(), header)
        if other is not header:
            raise TargetError(
                f"tool '{tool}': the properties {'.'.join(other.path)} and "
                f"{'.'.join(header.path)} both take the header {header.name!r} (header names "
                "are compared without case)"
            )
    return tuple(found)


def _walk(
    node: object, path: tuple[str, ...], reachable: bool, found: list[ParamHeader], tool: str
) -> None:
    """Collect the annotations under ``node``; ``reachable`` says the chain to it went
    through ``properties`` only."""
    if isinstance(node, list):
        for item in node:
            _walk(item, path, False, found, tool)
        return
    if not isinstance(node, Mapping):
        return
    if HEADER_KEY in node:
        where = ".".join(path) or "the schema's root"
        name = node[HEADER_KEY]
        if not reachable or not path:
            raise TargetError(
                f"tool '{tool}': x-mcp-header {name!r} at {where} is not on a property "
                "reached from the root through properties alone (not through items, "
                "anyOf/oneOf/allOf/not, if/then/else or $ref)"
            )
        problem = header_name_problem(name)
        if problem is not None:
            raise TargetError(f"tool '{tool}', property {where}: {problem}")
        if node.get("type") not in _TYPES:
            raise TargetError(
                f"tool '{tool}', property {where}: a header mirrors a string, integer or "
                f"boolean parameter, not one of type {node.get('type', 'any')!r} (a "
                "parameter that may be null is left out of the arguments instead)"
            )
        found.append(ParamHeader(name, path))
    for key, value in node.items():
        if key in _WALKED and isinstance(value, Mapping):
            for prop, schema in value.items():
                _walk(schema, (*path, str(prop)), reachable, found, tool)
        elif key not in ("const", "enum", "default", "examples", HEADER_KEY):
            _walk(value, path, False, found, tool)
