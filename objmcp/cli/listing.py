"""``objmcp inspect TARGET``: the tools a target would serve, as a client would list them.

``--json`` prints exactly ``{"tools": [...]}``, the entries of ``tools/list``
(:func:`objmcp.model.describe.specs.mcp_tool`, through :meth:`Toolbox.specs`), with
``resources``, ``resourceTemplates`` and ``prompts`` beside it when the target
has them. Otherwise a
table: each tool's name, its parameters (``?`` marks an optional one) and the
first line of its description, fitted to the terminal's width on a terminal.
Warnings go to stderr: what the object model logged while making the tools
(annotations it could not resolve, types with no JSON form, a class it could
not instantiate), parameters with no type at all, a target with no tools.
"""

from __future__ import annotations

import collections
import inspect
import json
import logging
import shutil
import sys
import types
from collections.abc import Sequence
from typing import Any, TextIO

from .._exceptions import TargetError
from ..model.calling.tool import Tool
from ..model.calling.toolbox import Toolbox
from ..model.describe.signatures import signature_of
from ..model.describe.sources import stub_definition
from ..model.describe.stubpackages import stub_package_paths
from ..model.describe.typeshed import typeshed_missing
from .logform import labelled
from .targets import load_target, making_error
from .wording import alternatives, counted

__all__ = ["describe_type", "inspect_target", "load_toolbox", "untyped_parameters"]


def inspect_target(
    spec: str,
    include: Sequence[str] | None,
    exclude: Sequence[str] | None,
    as_json: bool,
    out: TextIO | None = None,
    err: TextIO | None = None,
    *,
    discovery: tuple[str, int] = ("auto", 40),
) -> int:
    """Print the tools of the TARGET ``spec`` on ``out``, warnings on ``err`` and what
    ``discovery`` (a mode and its threshold) would make ``objmcp run`` list; returns 0."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    records: list[logging.LogRecord] = []
    toolbox = load_toolbox(spec, include, exclude, records)
    warnings = [record.getMessage() for record in records if record.levelno >= logging.WARNING]
    warnings += untyped_parameters(toolbox)
    if not toolbox and toolbox.withheld:
        warnings.append(
            f"{spec} has no tools but dangerous ones, left out: name one with --include NAME"
        )
    elif not toolbox and (include or exclude):
        warnings.append(f"--include/--exclude left none of the tools of {spec}")
    elif not toolbox:
        _classes_instead(spec, toolbox)
        warnings.append(
            f"{spec} has no public callables, so it has no tools (a module's classes are not "
            "tools: name one, module:Class)"
        )
    for warning in dict.fromkeys(warnings):
        err.write(labelled("warning", warning))
    said = _discovery_note(len(toolbox), *discovery)
    if said:
        err.write(labelled("note", said))
    specs = toolbox.specs("mcp")
    listed = _listings(toolbox)
    if as_json:
        out.write(json.dumps({"tools": specs, **listed}, indent=2, ensure_ascii=False) + "\n")
    else:
        width = shutil.get_terminal_size().columns if out.isatty() else None
        out.write(_table(specs, width))
        for key, heading, detail in (
            ("resources", "RESOURCE", "uri"),
            ("resourceTemplates", "TEMPLATE", "uriTemplate"),
            ("prompts", "PROMPT", "name"),
        ):
            if key in listed:
                out.write("\n" + _others(listed[key], heading, detail, width))
    return 0


def _classes_instead(spec: str, toolbox: Toolbox) -> None:
    """Raise :class:`TargetError` naming the classes a module that serves nothing
    defines, with methods of their own: the targets meant, as ``spec:Class``."""
    module = toolbox.target
    if not isinstance(module, types.ModuleType) or toolbox.resources or toolbox.prompts:
        return
    classes = [
        name
        for name, value in vars(module).items()
        if inspect.isclass(value)
        and not name.startswith("_")
        and value.__module__ == module.__name__
        and any(not key.startswith("_") and callable(item) for key, item in vars(value).items())
    ]
    if classes:
        raise TargetError(
            f"{spec} serves no tools: it has no public functions, and a module's classes are "
            f"not tools. Name the class to serve: {alternatives([f'{spec}:{c}' for c in classes])}"
        )


def _discovery_note(count: int, mode: str, threshold: int) -> str | None:
    """What ``objmcp run`` would list, when not every tool (``mode`` and ``threshold``
    as its ``--discovery`` options say)."""
    if mode == "off" or (mode == "auto" and count <= threshold):
        return None
    why = mode if mode in ("search", "code") else f"auto, {counted(count, 'tool')} > {threshold}"
    last = "execute" if mode == "code" else "call_tool"
    return (
        f"objmcp run lists search_tools, describe_tools and {last} instead of these "
        f"(discovery {why}; --discovery off lists them all)"
    )


def _listings(toolbox: Toolbox) -> dict[str, list[dict[str, Any]]]:
    """The resources, templates and prompts as their list methods give them (only the
    kinds the target has)."""
    resources = [r.listing() for r in toolbox.resources.values() if not r.is_template]
    templates = [r.listing() for r in toolbox.resources.values() if r.is_template]
    prompts = [prompt.listing() for prompt in toolbox.prompts.values()]
    found = {"resources": resources, "resourceTemplates": templates, "prompts": prompts}
    return {key: entries for key, entries in found.items() if entries}


def _others(entries: list[dict[str, Any]], heading: str, key: str, width: int | None) -> str:
    rows = [(heading, "DESCRIPTION")]
    for entry in entries:
        label = entry[key]
        if heading == "PROMPT" and entry.get("arguments"):
            names = [a["name"] + ("" if a.get("required") else "?") for a in entry["arguments"]]
            label += f"({', '.join(names)})"
        description = (entry.get("description") or entry.get("title") or "").split("\n", 1)[0]
        rows.append((label, description))
    first = max(len(row[0]) for row in rows)
    lines = [f"{label:<{first}}  {text}".rstrip() for label, text in rows]
    if width is not None:
        lines = [line if len(line) <= width else line[: max(width - 1, 0)] + "…" for line in lines]
    return "\n".join(lines) + "\n"


def load_toolbox(
    spec: str,
    include: Sequence[str] | None,
    exclude: Sequence[str] | None,
    records: list[logging.LogRecord],
) -> Toolbox:
    """Load the target and make its tools, keeping what objmcp logs meanwhile."""
    collector = _Collector(records)
    logger = logging.getLogger("objmcp")
    propagate = logger.propagate
    logger.addHandler(collector)
    logger.propagate = False
    try:
        target = load_target(spec)
        try:
            return Toolbox(target, include=include, exclude=exclude)
        except TargetError:
            raise
        except Exception as error:
            raise making_error(spec, error) from None
    finally:
        logger.removeHandler(collector)
        logger.propagate = propagate


class _Collector(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(logging.WARNING)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def untyped_parameters(toolbox: Toolbox) -> list[str]:
    """A warning for each tool with parameters that have no annotation and accept any value,
    saying why where it can: the type a stub gives has no JSON form (``math.trunc``'s
    ``_SupportsTrunc[_T]``), or typeshed, which types the standard library's C functions, is
    not installed (one warning for all such tools); and, once for a package whose tools
    leave :data:`_MANY_UNTYPED` parameters or more untyped with no stub-only package
    installed, that one would type them."""
    found: list[str] = []
    without_typeshed: list[str] = []
    plain_by_package: collections.Counter[str] = collections.Counter()
    for name, tool in toolbox.items():
        untyped = _untyped(tool)
        if not untyped:
            continue
        module = str(getattr(tool.function, "__module__", None) or "")
        if typeshed_missing(module):
            without_typeshed.append(name)
            continue
        stub = stub_definition(tool.function)
        said = stub.annotations if stub is not None else {}
        overloaded = stub.disagreed if stub is not None else ()
        plain = [what for what in untyped if what.lstrip("*") not in {*said, *overloaded}]
        for what in untyped:
            if said.get(what.lstrip("*")) in ("Any", "object"):
                continue  # the stub says any value, as it means to
            if what.lstrip("*") in said:
                found.append(
                    f"tool '{name}': its stub types parameter {what} as "
                    f"{said[what.lstrip('*')]}, which objmcp cannot read as a JSON type, so any "
                    "JSON value is accepted"
                )
            elif what.lstrip("*") in overloaded:
                found.append(
                    f"tool '{name}': its stub's overloads type parameter {what} differently, "
                    "so it has no one type and any JSON value is accepted"
                )
        if plain:
            plain_by_package[module.partition(".")[0]] += len(plain)
            these = "parameter " if len(plain) == 1 else "parameters "
            verb = "has" if len(plain) == 1 else "have"
            found.append(
                f"tool '{name}': {these}{', '.join(plain)} {verb} no type annotation (nor a "
                "type in the docstring or a stub), so any JSON value is accepted"
            )
    if without_typeshed:
        shown = ", ".join(without_typeshed[:5]) + (", ..." if len(without_typeshed) > 5 else "")
        found.append(
            f"{counted(len(without_typeshed), 'tool')} ({shown}) "
            f"{'has' if len(without_typeshed) == 1 else 'have'} parameters with no type: they are "
            "the standard library's, typed by typeshed's stubs, and typeshed_client (a "
            "dependency of objmcp) is not installed: pip install typeshed_client"
        )
    found += [
        f"{counted(count, 'parameter')} of {package}'s tools have no type: a stub-only package "
        f"({package}-stubs, PEP 561) would type them, if one is published for it; typeshed's "
        "are named types-<distribution> (pip install types-<distribution>)"
        for package, count in plain_by_package.items()
        if count >= _MANY_UNTYPED
        and package not in sys.stdlib_module_names
        and not stub_package_paths(package)
    ]
    return found


_MANY_UNTYPED = 5
"""How many untyped parameters of one package's tools make :func:`untyped_parameters` say
that a stub-only package would type them."""


def _untyped(tool: Tool) -> list[str]:
    """The parameters of ``tool`` with no annotation whose schema accepts any value
    (``*args`` and ``**kwargs`` written so)."""
    try:
        annotations = {
            p.name: p.annotation for p in signature_of(tool.function).parameters.values()
        }
    except (TypeError, ValueError):
        annotations = {}
    properties = tool.input_schema.get("properties", {})
    untyped: list[str] = []
    for param in tool.parameters:
        if param.name in tool.injected:
            continue
        if annotations.get(param.name, inspect.Parameter.empty) is not inspect.Parameter.empty:
            continue  # annotated: if it has no JSON form, the object model said so
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            shown = tool.input_schema.get("additionalProperties")
            what = f"**{param.name}"
        elif param.kind is inspect.Parameter.VAR_POSITIONAL:
            shown = properties.get(param.name, {}).get("items", {})
            what = f"*{param.name}"
        elif param.name in properties:
            shown = properties[param.name]
            what = param.name
        else:
            continue  # left out of the schema (a callable, a class): not a value at all
        if isinstance(shown, dict) and not _said(shown):
            untyped.append(what)
    return untyped


def _said(schema: dict[str, Any]) -> bool:
    """Whether a schema constrains anything (beyond words and a default)."""
    return bool(set(schema) - {"description", "default", "title"})


# --- the table --------------------------------------------------------------------------------


def _table(specs: list[dict[str, Any]], width: int | None) -> str:
    if not specs:
        return "(no tools)\n"
    rows = [("TOOL", "PARAMETERS", "DESCRIPTION")]
    for entry in specs:
        schema = entry.get("inputSchema", {})
        description = (entry.get("description") or "").strip().split("\n", 1)[0]
        rows.append((entry["name"], _parameters(schema), description))
    name_width = max(len(row[0]) for row in rows)
    params_width = min(max(len(row[1]) for row in rows), 60)
    lines = []
    for name, params, description in rows:
        shown = params if len(params) <= params_width else params[: params_width - 1] + "…"
        line = f"{name:<{name_width}}  {shown:<{params_width}}  {description}".rstrip()
        if width is not None and len(line) > width:
            line = line[: max(width - 1, 0)] + "…"
        lines.append(line)
    return "\n".join(lines) + "\n"


def _parameters(schema: dict[str, Any]) -> str:
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    words = []
    for name, prop in schema.get("properties", {}).items():
        mark = "" if name in required else "?"
        words.append(f"{name}{mark}: {describe_type(prop, defs)}")
    extra = schema.get("additionalProperties")
    if extra not in (None, False):
        words.append(f"**: {describe_type(extra if isinstance(extra, dict) else {}, defs)}")
    return ", ".join(words) or "-"


def describe_type(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """A short name for what a JSON Schema accepts: ``integer``, ``array[string]``,
    ``"red"|"green"``, ``Point`` (a named object, or a ``$ref``), ``any``."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if schema.get("type") == "object" and isinstance(schema.get("title"), str):
        return str(schema["title"])
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return "|".join(json.dumps(value) for value in schema["enum"])
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        # kinds that differ only in what the short name leaves out (Decimal's string beside
        # str's), and nested unions' members, are said once
        return "|".join(dict.fromkeys(describe_type(option, defs) for option in _members(options)))
    kind = schema.get("type")
    if isinstance(kind, list):
        return "|".join(str(k) for k in kind)
    if kind == "array":
        items = schema.get("items")
        if isinstance(items, dict) and items:
            return f"array[{describe_type(items, defs)}]"
        if "prefixItems" in schema:
            return f"[{', '.join(describe_type(i, defs) for i in schema['prefixItems'])}]"
        return "array"
    if kind == "string" and "format" in schema:
        return f"string({schema['format']})"
    return str(kind) if kind else "any"


def _members(options: list[Any]) -> list[Any]:
    """A union's members, with the members of the unions among them (``anyOf``, or a
    list of types) in their place."""
    members: list[Any] = []
    for option in options:
        if not isinstance(option, dict):
            members.append(option)
        elif nested := option.get("anyOf") or option.get("oneOf"):
            members.extend(_members(nested))
        elif isinstance(kinds := option.get("type"), list):
            members.extend({**option, "type": kind} for kind in kinds)
        else:
            members.append(option)
    return members
