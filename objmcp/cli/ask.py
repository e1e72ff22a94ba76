"""A server's question (``elicitation/create``, form mode) put to a person at a terminal.

A yes/no question (a form of one boolean field, as ``elicit("Sure?")`` and
``elicit(message, bool)`` send) is asked once, on one line: ``y`` or ``n``
answers it, ``d`` declines, ``c`` cancels, Enter takes its default. Any other
form: :func:`ask` shows the message, asks whether to answer it (``n`` declines,
``c`` cancels), then asks for each field of the requested schema (a flat object
of strings, numbers, integers, booleans, single- and multiple-choice enums, as
the spec allows): a choice by its value or its number, Enter for the default,
Enter to skip an optional field. An answer of the wrong type is asked again.
End of input (Ctrl-D) at any prompt cancels the question, and says so. Prompts
go to ``output`` (stderr), answers come from ``input``; the result is what
``elicitation/create`` returns.
"""

from __future__ import annotations

import json
import math
from typing import Any, TextIO

__all__ = ["ask"]

_YES = ("y", "yes", "true", "1")
_NO = ("n", "no", "false", "0")


class _Cancel(Exception):
    """End of input: the question is cancelled."""


def ask(params: dict[str, Any], input: TextIO, output: TextIO) -> dict[str, Any]:
    """Ask the question of an ``elicitation/create`` request; returns its result."""
    message = str(params.get("message", ""))
    schema = params.get("requestedSchema")
    schema = schema if isinstance(schema, dict) else {}
    try:
        yes_no = _yes_no(schema)
        if yes_no is not None:
            return _ask_yes_no(message, *yes_no, input, output)
        output.write(f"\nThe tool asks: {message}\n")
        choice = _line(input, output, "Answer? [Y]es, [n]o (decline), [c]ancel: ").lower()
        if choice in ("n", "no"):
            return {"action": "decline"}
        if choice in ("c", "cancel"):
            return {"action": "cancel"}
        content: dict[str, Any] = {}
        required = set(schema.get("required", []))
        for name, prop in (schema.get("properties") or {}).items():
            value = _field(
                name, prop if isinstance(prop, dict) else {}, name in required, input, output
            )
            if value is not _SKIP:
                content[name] = value
    except _Cancel:
        output.write(f"\n{_CANCELLED}\n")
        return {"action": "cancel"}
    return {"action": "accept", "content": content}


_CANCELLED = "objmcp call: end of input: the question is cancelled (the tool is told so)"


def _yes_no(schema: dict[str, Any]) -> tuple[str, dict[str, Any], bool] | None:
    """The one field of a form that asks only yes or no: (name, its schema, required)."""
    properties = schema.get("properties")
    if not isinstance(properties, dict) or len(properties) != 1:
        return None
    name, prop = next(iter(properties.items()))
    if not isinstance(prop, dict) or prop.get("type") != "boolean":
        return None
    required = schema.get("required")
    return name, prop, isinstance(required, list) and name in required


def _ask_yes_no(
    message: str, name: str, prop: dict[str, Any], required: bool, input: TextIO, output: TextIO
) -> dict[str, Any]:
    """The one prompt of a yes/no question: y/n answers it, d declines, c cancels."""
    about = f" ({prop['description']})" if prop.get("description") else ""
    default = prop.get("default")
    letters = "Y/n" if default is True else "y/N" if default is False else "y/n"
    skip = ", Enter skips" if not required and not isinstance(default, bool) else ""
    prompt = f"\nThe tool asks: {message}{about} [{letters}, d declines, c cancels{skip}]: "
    while True:
        text = _line(input, output, prompt).lower()
        prompt = "  y or n (d declines, c cancels): "
        if text in ("d", "decline"):
            return {"action": "decline"}
        if text in ("c", "cancel"):
            return {"action": "cancel"}
        if not text and isinstance(default, bool):
            return {"action": "accept", "content": {name: default}}
        if not text and not required:
            return {"action": "accept", "content": {}}
        if text in _YES or text in _NO:
            return {"action": "accept", "content": {name: text in _YES}}


_SKIP: Any = object()


def _line(input: TextIO, output: TextIO, prompt: str) -> str:
    output.write(prompt)
    output.flush()
    line = input.readline()
    if not line:
        raise _Cancel
    return line.strip()


def _choices(prop: dict[str, Any]) -> list[tuple[object, str]] | None:
    """The (value, label) choices of a single-choice field, or None."""
    if isinstance(prop.get("enum"), list):
        names = prop.get("enumNames")
        labels = names if isinstance(names, list) and len(names) == len(prop["enum"]) else None
        return [(v, str(labels[i]) if labels else str(v)) for i, v in enumerate(prop["enum"])]
    options = prop.get("oneOf") or prop.get("anyOf")
    if isinstance(options, list) and all(isinstance(o, dict) and "const" in o for o in options):
        return [(o["const"], str(o.get("title", o["const"]))) for o in options]
    return None


def _field(name: str, prop: dict[str, Any], required: bool, input: TextIO, output: TextIO) -> Any:
    title = str(prop.get("title") or name)
    about = f" ({prop['description']})" if prop.get("description") else ""
    kind = prop.get("type")
    many = kind == "array"
    choices = _choices(prop.get("items", {}) if many else prop)
    if choices:
        output.write(f"{title}{about}:\n")
        for number, (value, label) in enumerate(choices, 1):
            shown = label if label == str(value) else f"{label} ({value})"
            output.write(f"  {number}. {shown}\n")
    has_default = "default" in prop
    hint = f" [{json.dumps(prop['default'])}]" if has_default else ("" if required else " [skip]")
    kind_hint = {"boolean": " (y/n)", "integer": " (integer)", "number": " (number)"}.get(
        str(kind), " (numbers or values, comma-separated)" if many else ""
    )
    prompt = f"{'Choose' if choices else title}{'' if choices else about}{kind_hint}{hint}: "
    while True:
        text = _line(input, output, prompt)
        if not text:
            if has_default:
                return prop["default"]
            if not required:
                return _SKIP
            output.write("  an answer is needed\n")
            continue
        try:
            return _read(text, kind, choices, many)
        except ValueError as error:
            output.write(f"  {error}\n")


def _read(text: str, kind: object, choices: list[tuple[object, str]] | None, many: bool) -> Any:
    if many:
        return [_pick(part.strip(), choices) for part in text.split(",") if part.strip()]
    if choices:
        return _pick(text, choices)
    if kind == "boolean":
        if text.lower() in _YES:
            return True
        if text.lower() in _NO:
            return False
        raise ValueError("answer y or n")
    if kind == "integer":
        try:
            return int(text)
        except ValueError:
            raise ValueError("an integer, please") from None
    if kind == "number":
        try:
            number = float(text)
        except ValueError:
            raise ValueError("a number, please") from None
        if not math.isfinite(number):  # "nan", "inf", "1e400": JSON has no such number
            raise ValueError("a finite number, please")
        return int(number) if number.is_integer() and "." not in text else number
    return text


def _pick(text: str, choices: list[tuple[object, str]] | None) -> object:
    if not choices:
        return text
    for value, label in choices:
        if text in (str(value), label):
            return value
    if text.isdigit() and 1 <= int(text) <= len(choices):
        return choices[int(text) - 1][0]
    raise ValueError(f"one of 1-{len(choices)}, or a value shown")
