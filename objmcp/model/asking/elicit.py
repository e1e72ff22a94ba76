"""Questions to the user (MCP elicitation): the form to send, and what the answer means.

MCP asks for a *flat* form (``requestedSchema``): an object of string, number,
integer, boolean or plain string-enum fields (2025-06-18 allows ``default`` on
booleans only). :func:`make_question` turns a Python type or a JSON Schema dict
into such a form, refusing anything a client could not show; :func:`read_answer`
checks the answer against the form and converts it into the type asked for.
Answer keys the form does not have are refused, though the form does not say
``additionalProperties: false``: a client that invents fields did not answer.
"""

from __future__ import annotations

import copy
import enum
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..._exceptions import ElicitError
from ..calling.inject import ElicitResult
from ..describe import hints as t
from ..describe.docs import read_docs
from ..values.convert import from_json
from ..values.jsonable import NotJsonable, to_jsonable
from ..values.mismatch import ConversionError, describe_json

__all__ = ["Question", "make_question", "read_answer"]

_Action = Literal["accept", "decline", "cancel"]
_ACTIONS: tuple[_Action, ...] = ("accept", "decline", "cancel")
_TEXT: dict[str, Any] = {"type": "string"}
_LENGTH: dict[str, Any] = {"type": "integer", "minimum": 0}
_BOUNDS: dict[str, Any] = {"minimum": {"type": "number"}, "maximum": {"type": "number"}}
_COMMON: dict[str, Any] = {"type": {}, "title": _TEXT, "description": _TEXT, "default": {}}
_CHOICES: dict[str, Any] = {"type": "array", "items": _TEXT, "minItems": 1, "uniqueItems": True}
_TITLED: dict[str, Any] = {  # choices with a title each (2025-11-25)
    "type": "array",
    "minItems": 1,
    "items": {
        "type": "object",
        "properties": {"const": _TEXT, "title": _TEXT},
        "required": ["const", "title"],
        "additionalProperties": False,
    },
}
_SINCE_2025_11 = ("titled string enum", "multi-select")
"""Field kinds the 2025-06-18 revision does not have."""
_KEYWORDS: dict[str, dict[str, Any]] = {  # field kind -> keyword -> schema of its value
    "string": {
        **_COMMON,
        "minLength": _LENGTH,
        "maxLength": _LENGTH,
        "format": {"enum": ["email", "uri", "date", "date-time"]},
    },
    "string enum": {
        **_COMMON,
        "enum": {"type": "array", "items": _TEXT, "minItems": 1, "uniqueItems": True},
        "enumNames": {"type": "array", "items": _TEXT},
    },
    "titled string enum": {**_COMMON, "oneOf": _TITLED},
    "multi-select": {
        **_COMMON,
        "minItems": _LENGTH,
        "maxItems": _LENGTH,
        "items": {
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"type": {"const": "string"}, "enum": _CHOICES},
                    "required": ["type", "enum"],
                    "additionalProperties": False,
                },
                {
                    "type": "object",
                    "properties": {"anyOf": _TITLED},
                    "required": ["anyOf"],
                    "additionalProperties": False,
                },
            ]
        },
    },
    "number": {**_COMMON, **_BOUNDS},
    "integer": {**_COMMON, **_BOUNDS},
    "boolean": _COMMON,
}
_SCALARS: dict[type, str] = {bool: "boolean", int: "integer", float: "number", str: "string"}
_ALLOWED = (
    "an elicitation form holds only bool, int, float, str, an Enum with str values "
    "or a Literal of str (each optionally `| None`), asked alone or as the fields "
    "of a dataclass or TypedDict"
)


@dataclass
class Question:
    """A question ready to send: the message, the form, and how to read the answer.

    ``hint`` is the Python type asked for (None for a raw JSON Schema dict);
    ``wrapped`` says a bare type was made the form's one field ``"value"``.
    """

    message: str
    schema: dict[str, Any]
    hint: object
    wrapped: bool


def make_question(
    message: str, schema: object, *, defaults: Literal["boolean", "all"] = "all"
) -> Question:
    """The question asking ``message`` for ``schema`` (a Python type or a JSON Schema dict).

    ``defaults="boolean"`` keeps ``default`` to boolean fields (2025-06-18); a
    raw schema breaking that rule, or any rule of the flat form, raises TypeError.
    """
    if not isinstance(message, str):
        raise TypeError(f"the question must be a string, not {type(message).__name__}")
    if defaults not in ("boolean", "all"):
        raise ValueError(f"defaults must be 'boolean' or 'all', not {defaults!r}")
    if isinstance(schema, dict):
        raw = copy.deepcopy(schema)
        _check_form(raw, defaults)
        return Question(message, raw, None, False)
    base = t.annotated_parts(t.strip_qualifiers(schema))[0]
    if t.is_dataclass_type(base) or t.is_typeddict_type(base):
        return Question(message, _object_form(typing.cast(type, base), defaults), schema, False)
    prop, optional = _primitive(schema, "")
    form: dict[str, Any] = {"type": "object", "properties": {"value": prop}}
    if not optional:
        form["required"] = ["value"]
    return Question(message, form, schema, True)


def read_answer(question: Question, action: object, content: object) -> ElicitResult:
    """The user's answer: ``action`` and ``content`` as the client sent them, checked
    against the question's form and converted; raises :class:`ElicitError`."""
    known = next((a for a in _ACTIONS if isinstance(action, str) and a == action), None)
    if known is None:
        raise ElicitError(f"The client answered with action {action!r}, not accept/decline/cancel")
    if known != "accept":
        return ElicitResult(known, content if isinstance(content, dict) else {}, None)
    answer = {} if content is None else content  # `content` is optional in the spec
    if not isinstance(answer, dict):
        raise ElicitError(f"The accepted answer is {describe_json(answer)}, not an object")
    _check_answer(question.schema, answer)
    if question.hint is None:
        return ElicitResult("accept", answer, answer)
    try:
        if question.wrapped:
            value = from_json(answer.get("value"), question.hint)
        else:
            value = from_json(_fill_nones(question.hint, answer), question.hint)
    except (ConversionError, OverflowError) as error:
        raise ElicitError(f"The answer does not convert: {error}") from None
    return ElicitResult("accept", answer, value)


# --- Python types -> form ---------------------------------------------------------------------


def _primitive(hint: object, where: str) -> tuple[dict[str, Any], bool]:
    """The property schema of one field, and whether ``None`` is allowed (not required)."""
    kind, meta = t.annotated_parts(t.strip_qualifiers(hint))
    optional = False
    if t.is_union(kind):
        members = [m for m in typing.get_args(kind) if m is not None and m is not type(None)]
        optional = True
        kind, more = t.annotated_parts(members[0]) if len(members) == 1 else (None, ())
        meta = (*meta, *more)  # a wider union leaves kind None: refused below
    prop: dict[str, Any] | None = None
    values: list[Any] = []
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        values = [member.value for member in kind]
    elif t.is_literal(kind):
        values = [v if type(v) is str else None for v in typing.get_args(kind)]
    scalar = next((name for cls, name in _SCALARS.items() if kind is cls), None)
    if scalar is not None:
        prop = {"type": scalar}
    elif values and all(isinstance(v, str) for v in values):
        prop = {"type": "string", "enum": values}
    if prop is None:
        raise TypeError(f"elicitation cannot ask for {_name(hint)}{where}: {_ALLOWED}")
    descriptions = [m for m in meta if isinstance(m, str)]
    if descriptions:
        prop["description"] = " ".join(descriptions)
    return prop, optional


def _object_form(cls: type, defaults: str) -> dict[str, Any]:
    fields, required = t.fields_of(cls)
    docs = read_docs(typing.cast(Callable[..., object], cls)).params
    properties: dict[str, Any] = {}
    needed: list[str] = []
    for name, (hint, default) in fields.items():
        prop, optional = _primitive(hint, f" (field '{name}' of {cls.__qualname__})")
        if name in docs and "description" not in prop:
            prop["description"] = docs[name]
        if default is not t.NO_DEFAULT and (defaults == "all" or prop["type"] == "boolean"):
            try:
                jsonable = to_jsonable(default, strict=True)
            except NotJsonable:
                jsonable = None
            if jsonable is not None and _fits(prop, jsonable):  # else: no default shown
                prop["default"] = jsonable
        properties[name] = prop
        if name in required and not optional:
            needed.append(name)
    form: dict[str, Any] = {"type": "object", "properties": properties}
    if needed:
        form["required"] = needed
    return form


def _name(hint: object) -> str:
    if isinstance(hint, type):
        return hint.__qualname__
    return repr(hint).replace("typing.", "").replace("typing_extensions.", "")


def _fits(schema: dict[str, Any], value: object) -> bool:
    return _problem(schema, value) is None


def _problem(schema: dict[str, Any], value: object) -> str | None:
    """What is wrong with ``value`` under ``schema``, or None."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(schema).iter_errors(value))
    return None if error is None else str(error.message)


# --- JSON Schema dicts ------------------------------------------------------------------------


def _check_form(form: dict[str, Any], defaults: str) -> None:
    for key in form:
        if key not in ("type", "properties", "required"):
            raise TypeError(
                f"elicitation schema: keyword '{key}' is not allowed at the top level; "
                "a form has only type, properties and required"
            )
    if form.get("type") != "object":
        raise TypeError("elicitation schema: keyword 'type' at the top level must be \"object\"")
    properties = form.get("properties")
    if not isinstance(properties, dict):
        raise TypeError("elicitation schema: keyword 'properties' must be an object of fields")
    for name, prop in properties.items():
        _check_property(name, prop, defaults)
    required = form.get("required", [])
    if not isinstance(required, list) or len(set(map(str, required))) != len(required):
        raise TypeError("elicitation schema: keyword 'required' must list unique names")
    for name in required:
        if not isinstance(name, str) or name not in properties:
            raise TypeError(f"elicitation schema: 'required' names {name!r}, not a property")


def _check_property(name: str, prop: object, defaults: str) -> None:
    where = f"elicitation schema: property '{name}'"
    if not isinstance(prop, dict):
        raise TypeError(f"{where} must be an object, not {describe_json(prop)}")
    kind = prop.get("type")
    if kind not in ("string", "number", "integer", "boolean", "array"):
        raise TypeError(
            f"{where}: keyword 'type' is {kind!r}; a field is a string, number, integer, "
            "boolean or (a multi-select) array"
        )
    if kind == "string" and "enum" in prop:
        kind = "string enum"
    elif kind == "string" and "oneOf" in prop:
        kind = "titled string enum"
    elif kind == "array":
        kind = "multi-select"
    if kind in _SINCE_2025_11 and defaults == "boolean":
        raise TypeError(
            f"{where}: a {kind} field came in protocol revision 2025-11-25; this client "
            "speaks 2025-06-18"
        )
    allowed = _KEYWORDS[kind]
    for key, value in prop.items():
        if key not in allowed:
            raise TypeError(
                f"{where}: keyword '{key}' is not allowed on a {kind} field; "
                f"allowed: {', '.join(sorted(allowed))}"
            )
        problem = _problem(allowed[key], value)
        if problem:
            raise TypeError(f"{where}: keyword '{key}' is wrong: {problem}")
    names = prop.get("enumNames")
    if names is not None and len(names) != len(prop.get("enum", ())):
        raise TypeError(f"{where}: keyword 'enumNames' must name each of the enum's values")
    if kind == "multi-select" and "items" not in prop:
        raise TypeError(f"{where}: a multi-select field needs 'items' (its choices)")
    if "default" in prop:
        if defaults == "boolean" and kind != "boolean":
            raise TypeError(
                f"{where}: keyword 'default' is allowed only on boolean fields in this "
                "protocol revision (2025-06-18)"
            )
        problem = _problem({k: v for k, v in prop.items() if k != "default"}, prop["default"])
        if problem:
            raise TypeError(f"{where}: keyword 'default' does not fit the field: {problem}")


# --- answers ----------------------------------------------------------------------------------


def _check_answer(form: dict[str, Any], answer: dict[str, Any]) -> None:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    properties = form.get("properties", {})
    unknown = [key for key in answer if key not in properties]
    if unknown:
        fields = ", ".join(properties) or "none"
        raise ElicitError(f"The answer has unknown field '{unknown[0]}'; the fields are: {fields}")
    error = best_match(Draft202012Validator(form).iter_errors(answer))
    if error is None:
        return
    missing = [name for name in form.get("required", []) if name not in answer]
    if missing:
        raise ElicitError(f"The answer is missing required field '{missing[0]}'")
    if not error.absolute_path:
        raise ElicitError(f"The answer does not fit the form: {error.message}")
    field = error.absolute_path[0]
    given = describe_json(error.instance)
    if error.validator == "type":
        problem = f"expected {error.validator_value}, got {given}"
    elif error.validator == "enum":
        problem = f"expected one of {error.validator_value!r}, got {given}"
    else:
        problem = str(error.message)
    raise ElicitError(f"The answer's field '{field}': {problem}")


def _fill_nones(hint: object, answer: dict[str, Any]) -> dict[str, Any]:
    """Optional fields the form left out, that the class still needs, become None."""
    cls = t.annotated_parts(t.strip_qualifiers(hint))[0]
    fields, required = t.fields_of(typing.cast(type, cls))
    filled = dict(answer)
    for name in required:
        field_hint = t.annotated_parts(t.strip_qualifiers(fields[name][0]))[0]
        if name not in filled and t.is_union(field_hint):
            filled[name] = None
    return filled
