"""The tools as Python: the stubs code mode shows a model, and the names its code calls.

In code mode (:mod:`objmcp.model.discovery.code`) a model writes ordinary Python against
the library's own names (``statistics.median(data)``), not ``call_tool("median", ...)``.
The tools of a served target are one *module*, named after it (``statistics``; a class,
or an object of one, snake-cased: ``Ledger`` is ``ledger``), renamed ``<name>_lib`` where
the sandbox has a module of that name of its own (``math_lib``: the sandbox's ``math``
would hide it); in it each tool has its own name, made an identifier (``linalg.norm`` is
``linalg_norm``). :func:`stub` writes a tool as a Python definition: its signature with
JSON-able types from its input schema, its return type from its output schema, and its
description's first sentence as the docstring; where no output schema says what it returns,
the docstring says what the function's docstring or annotation does (``Returns ndarray:
...``), or, for a class, that the code gets the new object as JSON, not the object.
:func:`module_stubs` writes a module of them.
"""

from __future__ import annotations

import inspect
import keyword
import re
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..calling.tool import Tool
from ..describe.annotations import type_hints_of
from ..describe.docs import read_docs

__all__ = [
    "SANDBOX_MODULES",
    "Placed",
    "module_name",
    "module_stubs",
    "placed",
    "python_type",
    "stub",
    "summary_of",
    "variadic",
]

_NOT_NAME = re.compile(r"\W")
_PLAIN = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}
_MAX_DEPTH = 6  # nested schemas said deeper than this are Any


@dataclass(frozen=True)
class Placed:
    """Where code mode puts a tool: its ``module`` and its ``name`` there."""

    module: str
    name: str

    @property
    def dotted(self) -> str:
        """How code calls it: ``module.name``."""
        return f"{self.module}.{self.name}"


def placed(tools: Iterable[Tool], module: str) -> dict[str, Placed]:
    """Where each tool goes, by its name: in ``module`` (the served target's name: see
    :func:`module_name`), under its name made an identifier, no two tools under one name
    (a later one is numbered)."""
    found: dict[str, Placed] = {}
    taken: set[str] = set()
    for tool in tools:
        base = identifier(tool.name, "tool")
        name, number = base, 2
        while name in taken:
            name, number = f"{base}_{number}", number + 1
        taken.add(name)
        found[tool.name] = Placed(module, name)
    return found


SANDBOX_MODULES = frozenset(
    {
        "asyncio", "bisect", "collections", "copy", "dataclasses", "datetime", "decimal",
        "functools", "itertools", "json", "math", "os", "pathlib", "random", "re", "sys",
        "time", "typing",
    }
)  # fmt: skip
"""The modules pydantic-monty's sandbox has of its own: a served module of one of these
names would be hidden by it."""


def module_name(target: object) -> str:
    """The module code mode puts ``target``'s tools in: a module's name (its last part), a
    class's or an object's class's name snake-cased; ``<name>_lib`` for a name the sandbox
    has a module of."""
    if isinstance(target, type(re)):
        name = target.__name__.rsplit(".", 1)[-1]
    else:
        cls = target if isinstance(target, type) else type(target)
        name = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    name = identifier(name, "tools")
    return f"{name}_lib" if name in SANDBOX_MODULES else name


def identifier(text: str, default: str) -> str:
    """``text`` as a Python identifier (``default`` when nothing of it is left)."""
    name = _NOT_NAME.sub("_", text).strip("_") or default
    if name[0].isdigit():
        name = f"_{name}"
    return f"{name}_" if keyword.iskeyword(name) else name


def stub(tool: Tool, name: str) -> str:
    """``tool`` as a Python definition called ``name``: ``def name(a: int, b: int = 2) ->
    float:`` and its one-line docstring, its body ``...``."""
    schema = tool.input_schema
    properties = schema.get("properties") or {}
    required = set(schema.get("required") or ())
    mandatory, optional, rest = [], [], []
    for key, value in properties.items():
        if not key.isidentifier() or keyword.iskeyword(key):
            continue  # a property Python cannot name: reached through **kwargs
        if key == variadic(tool):  # *args: its items, one by one
            items = value.get("items") if isinstance(value, dict) else None
            rest.append(f"*{key}: {python_type(items) if isinstance(items, dict) else 'Any'}")
            continue
        kind = python_type(value if isinstance(value, dict) else {})
        if key in required:
            mandatory.append(f"{key}: {kind}")
        else:
            default = value.get("default") if isinstance(value, dict) else None
            shown = repr(default) if isinstance(default, (str, int, float, bool)) else "None"
            if shown == "None" and kind != "Any" and "None" not in _members(kind):
                kind = f"{kind} | None"
            optional.append(f"{key}: {kind} = {shown}")
    unnamed = any(not key.isidentifier() or keyword.iskeyword(key) for key in properties)
    more = schema.get("additionalProperties")
    if unnamed or more is True or isinstance(more, dict):  # **kwargs, or names Python lacks
        kind = python_type(more) if isinstance(more, dict) and more else "Any"
        rest.append(f"**options: {kind}")
    parameters = [*mandatory, *optional, *rest]
    returns = _returns(tool)
    summary = summary_of(tool.description or "")
    lines = [summary]
    if returns == "Any":  # what it returns said in words, unless the summary says it
        lines.append(_said_returns(tool, said_already=summary.lower().startswith("return")))
    said = "\n    ".join(line for line in lines if line).replace('"""', "'''")
    body = f'    """{said}"""\n' if said else "    ...\n"
    return f"def {name}({', '.join(parameters)}) -> {returns}:\n{body}"


def _said_returns(tool: Tool, said_already: bool) -> str:
    """What a tool with no output schema returns, as its callable says (its annotation,
    else its docstring's Returns section; a class: a new object, which the code gets as
    JSON), or nothing when it says nothing; only its type when its summary
    ``said_already`` what it returns."""
    function = tool.function
    if isinstance(function, type):
        return f"Returns a new {function.__name__}, as JSON (its data, not the object)."
    try:
        docs = read_docs(function)
    except Exception:  # a callable whose docstring cannot be read says nothing of it
        return ""
    hint = _annotation(tool)
    kind = _hint_text(hint) or docs.return_type
    if isinstance(hint, type) and kind and not issubclass(hint, _JSON_TYPES):
        kind = f"{kind} (as JSON)"
    text = "" if said_already else summary_of(docs.return_text, limit=120)
    if kind and text:
        return f"Returns {kind}: {text}"
    return f"Returns {kind}." if kind else (f"Returns: {text}" if text else "")


_JSON_TYPES = (str, int, float, bool, list, dict, tuple)
_MODULE_PATH = re.compile(r"\b[A-Za-z_]\w*\.(?=[A-Za-z_])")
_FORWARD = re.compile(r"ForwardRef\('([^']*)'[^)]*\)")


def _annotation(tool: Tool) -> object:
    """The callable's return annotation, resolved where it can be; None when absent or
    unreadable."""
    try:
        return type_hints_of(tool.function).get("return")
    except Exception:  # annotations that cannot be read say nothing
        return None


def _hint_text(hint: object) -> str:
    """An annotation as a short text (``Union[Tag, None]``, ``Pixmap``), or nothing for
    none that says anything (absent, ``Any``, ``object``)."""
    if hint is None or hint is typing.Any or hint is object:
        return ""
    if isinstance(hint, type):
        return "None" if hint is type(None) else hint.__name__
    text = hint if isinstance(hint, str) else repr(hint)
    text = _MODULE_PATH.sub("", _FORWARD.sub(r"\1", text)).replace("NoneType", "None")
    return text if len(text) <= 80 else text[:77] + "..."


def summary_of(description: str, limit: int = 240) -> str:
    """A description's first sentence (in its first paragraph, lines joined), at most
    ``limit`` characters."""
    paragraph = " ".join(description.strip().split("\n\n", 1)[0].split())
    end = re.search(r"(?<=[.!?])\s", paragraph)
    sentence = paragraph[: end.start()] if end else paragraph
    return sentence if len(sentence) <= limit else sentence[: limit - 3].rsplit(" ", 1)[0] + "..."


def variadic(tool: Tool) -> str | None:
    """The name of the tool's ``*args`` parameter (an array in its schema), or None."""
    for parameter in tool.parameters:
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            return parameter.name
    return None


def _returns(tool: Tool) -> str:
    output = tool.output_schema
    if not isinstance(output, dict):  # annotated as returning None: it does
        return "None" if _annotation(tool) is type(None) else "Any"
    if tool.wraps_output:
        inner = (output.get("properties") or {}).get("result")
        return python_type(inner) if isinstance(inner, dict) else "Any"
    return python_type(output)


def python_type(schema: Mapping[str, Any], depth: int = 0) -> str:
    """The Python type a JSON Schema's values have, as text (``list[float]``,
    ``dict[str, int]``, ``Literal['a', 'b']``, ``str | None``); ``Any`` where it says none."""
    if depth > _MAX_DEPTH:
        return "Any"
    if "enum" in schema and isinstance(schema["enum"], list) and schema["enum"]:
        return f"Literal[{', '.join(repr(value) for value in schema['enum'][:20])}]"
    if "const" in schema:
        return f"Literal[{schema['const']!r}]"
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list) and options:
        kinds = [python_type(o, depth + 1) for o in options if isinstance(o, dict)]
        return _union(kinds)
    kind = schema.get("type")
    if isinstance(kind, list):
        return _union([python_type({**schema, "type": k}, depth + 1) for k in kind])
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind == "array":
        items = schema.get("items")
        inner = python_type(items, depth + 1) if isinstance(items, dict) else "Any"
        return f"list[{inner}]"
    if kind == "object" or "properties" in schema:
        values = schema.get("additionalProperties")
        inner = python_type(values, depth + 1) if isinstance(values, dict) else "Any"
        return f"dict[str, {inner}]"
    return "Any"


def _union(kinds: list[str]) -> str:
    unique = list(dict.fromkeys(part for kind in kinds for part in _members(kind)))
    if "Any" in unique or not unique:
        return "Any"
    return " | ".join(unique)


def _members(kind: str) -> list[str]:
    """The members of a union's text (``int | list[int | str]``: ``int``, ``list[int |
    str]``), split where no bracket is open."""
    members, depth, start = [], 0, 0
    for index, char in enumerate(kind):
        depth += (char == "[") - (char == "]")
        if depth == 0 and kind.startswith(" | ", index):
            members.append(kind[start:index])
            start = index + 3
    members.append(kind[start:])
    return members


def module_stubs(module: str, tools: Iterable[tuple[Tool, str]], about: str = "") -> str:
    """The stubs of one module's ``tools`` (each with its name there), as a module: a
    docstring of ``about``, then each definition."""
    head = f'"""{about}"""\n\n' if about else ""
    definitions = "\n\n".join(stub(tool, name) for tool, name in tools)
    return f"# module {module}\n{head}{definitions}"
