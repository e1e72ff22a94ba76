"""Type hints to JSON Schema (2020-12, no ``$schema`` key).

One dispatch (:meth:`SchemaBuilder.schema`) over the kinds of hint that
:mod:`objmcp.model.describe.hints` names. Named composite types (dataclasses, TypedDicts,
NamedTuples, pydantic models) go into ``$defs`` and are referenced while a
schema is built, so that recursive types terminate; :func:`inline_defs` then
puts every definition that is not recursive in place of its references, since
many clients' converters (OpenAI's strict mode among them) cannot follow a
``$ref``. A hint with no JSON form degrades to ``{}`` (any value) and a warning,
never an error at start.
"""

from __future__ import annotations

import contextlib
import enum
import inspect
import logging
import typing
from collections.abc import Callable
from typing import Any

from ..values import durations, pysource, timezones
from ..values.arrays import array_hint, array_union
from ..values.built import construction
from ..values.jsonable import BASE64_KEY, NotJsonable, argument_form, to_jsonable
from ..values.nonfinite import named_numbers
from ..values.subclasses import chosen_base, class_choices
from . import hints as t
from .docs import read_docs

__all__ = [
    "JsonSchema",
    "SchemaBuilder",
    "class_json_cannot_carry",
    "has_json_form",
    "inline_defs",
    "json_type",
]

JsonSchema = dict[str, Any]
logger = logging.getLogger("objmcp")

_PRIMITIVES: dict[object, JsonSchema] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    None: {"type": "null"},
    dict: {"type": "object"},
    list: {"type": "array"},
    tuple: {"type": "array"},
    set: {"type": "array", "uniqueItems": True},
    frozenset: {"type": "array", "uniqueItems": True},
    Any: {},
    object: {},
    inspect.Parameter.empty: {},
}
_STANDARD: dict[t.StandardKind, JsonSchema] = {
    "date-time": {"type": "string", "format": "date-time"},
    "date": {"type": "string", "format": "date"},
    "time": {"type": "string", "format": "time"},
    "uuid": {"type": "string", "format": "uuid"},
    "decimal": {"type": ["number", "string"], "description": "A decimal number."},
    "fraction": {
        "type": ["number", "string"],
        "description": 'A fraction: a number, or a text such as "3/4".',
    },
}

_SAID: dict[t.StandardKind, Callable[[type], JsonSchema]] = {
    "duration": lambda _: durations.schema(),
    "time-zone": timezones.schema,
    "ast": pysource.schema,
}
"""The schemas of the standard kinds a model says as text, by the class asked for."""
_SAID_RESULTS: dict[t.StandardKind, Callable[[type], JsonSchema]] = {
    "duration": lambda _: {
        "type": "string",
        "description": 'A duration, as Python writes it: "[D day[s], ]H:MM:SS[.ffffff]".',
    },
    "time-zone": lambda _: {"type": "string", "description": "A time zone's name."},
    "ast": lambda _: {"type": "string", "description": "Python source text."},
}
"""What the same kinds answer with (:func:`~objmcp.model.values.jsonable.to_jsonable`)."""


def _binary_schema() -> JsonSchema:
    """Bytes, as a parameter takes them (:func:`~objmcp.model.values.scalars.binary_from_json`)
    and a result holds them (:func:`~objmcp.model.values.jsonable.binary_form`): a string,
    always text, its UTF-8 bytes; or any bytes as ``{"base64": ...}``."""
    return {
        "anyOf": [
            {"type": "string"},
            {
                "type": "object",
                "description": (
                    "Bytes. A string is text (its UTF-8 bytes), never base64 to decode; "
                    f'bytes that are not UTF-8 text are {{"{BASE64_KEY}": "..."}}.'
                ),
                "properties": {BASE64_KEY: {"type": "string", "contentEncoding": "base64"}},
                "required": [BASE64_KEY],
                "additionalProperties": False,
            },
        ]
    }


class SchemaBuilder:
    """Builds schemas for the hints of one tool, collecting ``$defs`` as it goes.

    ``where`` names the place being typed ("parameter 'x' of tool 'add'") in
    the warnings for hints that have no JSON form. ``results``: the schemas are of
    results, not of arguments (bytes are the same in both).
    A result's number also takes the names its NaN and infinities are sent as
    (:func:`~objmcp.model.values.nonfinite.named_numbers`).
    """

    def __init__(self, *, quiet: bool = False, results: bool = False) -> None:
        self.defs: dict[str, JsonSchema] = {}
        self._def_names: dict[object, str] = {}
        self.quiet = quiet
        self.results = results
        self.lacking = False  # whether some hint had no JSON form

    def _lacks(self, message: str, *args: object) -> None:
        """Note a hint with no JSON form, with a warning unless ``quiet``."""
        self.lacking = True
        if not self.quiet:
            logger.warning(message, *args)

    def schema(self, hint: object, where: str = "a value") -> JsonSchema:
        """The JSON Schema of values of ``hint``."""
        hint = t.strip_qualifiers(hint)
        hint, metadata = t.annotated_parts(hint)
        schema = self._schema(hint, where)
        descriptions = [m for m in metadata if isinstance(m, str)]
        if descriptions:
            schema = {**schema, "description": " ".join(descriptions)}
        return schema

    def _schema(self, hint: object, where: str) -> JsonSchema:
        if isinstance(hint, str):
            self._lacks("%s: unresolved annotation %r; accepting any JSON value", where, hint)
            return {}
        if isinstance(hint, typing.ForwardRef):
            self._lacks("%s: unresolved forward reference %r; accepting any value", where, hint)
            return {}
        if isinstance(hint, typing.TypeVar):
            bound = hint.__bound__
            return self.schema(bound, where) if bound is not None else {}
        supertype = getattr(hint, "__supertype__", None)
        if supertype is not None:  # typing.NewType
            return self.schema(supertype, where)
        hint = t.bytes_like(hint)
        if isinstance(hint, type) and hint in t.BINARY:
            return _binary_schema()
        try:
            primitive = _PRIMITIVES.get(hint)
        except TypeError:  # an unhashable hint
            primitive = None
        if primitive is not None:
            if hint is float and self.results:  # NaN and the infinities come as names
                return typing.cast(JsonSchema, named_numbers(primitive))
            if hint in (set, frozenset) and not self.results:
                return {"type": "array"}  # repeats collapse, as set([1, 1]) collapses them
            return dict(primitive)
        standard = t.standard_kind(hint)
        if standard is not None:
            said = _SAID_RESULTS if self.results else _SAID
            if standard in said:
                return said[standard](typing.cast(type, hint))
            return dict(_STANDARD[standard])
        found = array_hint(hint) if not self.results else None
        if found is not None:  # numpy's ndarray: a scalar or nested arrays, not its constructor
            return self._schema(found.schema_hint(), where)
        if t.is_union(hint):
            return self._union(typing.get_args(hint), where)
        if t.is_literal(hint):
            return _enum_schema(list(typing.get_args(hint)))
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return _enum_schema([member.value for member in hint])
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is tuple:
            return self._tuple(args, where)
        if origin in t.SEQUENCES or origin in t.SETS:
            schema: JsonSchema = {"type": "array"}
            if args:
                schema["items"] = self.schema(args[0], where)
            if origin in t.SETS and self.results:  # an argument's repeats collapse in the set
                schema["uniqueItems"] = True
            if not self.results and t.takes_text(hint):
                return {"anyOf": [{"type": "string"}, schema]}
            return schema
        if origin in t.MAPPINGS:
            return self._mapping(args, where)
        made = construction(origin) if origin is not None and not self.results else None
        if made is not None:  # a library's generic class (``Resource[D]``), built as it is
            return made.schema()
        base_class = chosen_base(hint)
        choices = class_choices(base_class) if base_class is not None else {}
        if choices:
            return {"type": "string", "enum": list(choices)}
        if origin is type or hint is type:
            self._lacks("%s: a type object has no JSON form; accepting any value", where)
            return {}
        if t.is_pydantic_model(hint) or t.is_dataclass_type(hint):
            return self._named(typing.cast(type, hint), where)
        if t.is_typeddict_type(hint) or t.is_namedtuple_type(hint):
            return self._named(typing.cast(type, hint), where)
        if t.path_class(hint):
            return {"type": "string", "description": "A file system path."}
        base = t.standard_base(hint)
        if base is not None:  # a subclass of a standard kind takes that kind's values
            return self._schema(base, where)
        number = t.number_kind(hint) if not self.results else None
        if number is not None:  # sympy's Integer, numpy's float32: made from a number
            return dict(_PRIMITIVES[number])
        made = construction(hint) if not self.results else None
        if made is not None:
            return made.schema()
        name = getattr(hint, "__qualname__", None) or repr(hint)
        self._lacks("%s: type %s has no JSON Schema; accepting any JSON value", where, name)
        return {}

    def _union(self, members: tuple[object, ...], where: str) -> JsonSchema:
        taken = t.union_members(members if self.results else array_union(members))
        carried = [member for member in taken if not _own_class(member)]
        if not self.results and any(member is not type(None) for member in carried):
            taken = tuple(carried)  # bs4's ``Formatter | str``: JSON sends the str
        schemas = [self.schema(member, where) for member in taken]
        if any(schema == {} for schema in schemas):
            return {}
        unique: list[JsonSchema] = []
        for schema in schemas:
            for option in schema["anyOf"] if list(schema) == ["anyOf"] else [schema]:
                if option not in unique:
                    unique.append(option)
        return unique[0] if len(unique) == 1 else {"anyOf": unique}

    def _tuple(self, args: tuple[object, ...], where: str) -> JsonSchema:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": self.schema(args[0], where)}
        if args == ((),) or not args:
            return {"type": "array", "maxItems": 0} if args == ((),) else {"type": "array"}
        return {
            "type": "array",
            "prefixItems": [self.schema(arg, where) for arg in args],
            "items": False,
            "minItems": len(args),
            "maxItems": len(args),
        }

    def _mapping(self, args: tuple[object, ...], where: str) -> JsonSchema:
        schema: JsonSchema = {"type": "object"}
        if not args:
            return schema
        key, value = args
        key = t.annotated_parts(key)[0]
        if key is int:
            schema["propertyNames"] = {"pattern": r"^-?[0-9]+$"}
        elif isinstance(key, type) and issubclass(key, enum.Enum):
            schema["propertyNames"] = {"enum": [str(member.value) for member in key]}
        elif key is not str and key is not Any and key not in t.BINARY:
            key_schema = self.schema(key, where)
            if key_schema.get("type") == "string":
                schema["propertyNames"] = key_schema
            elif key is not float:
                self._lacks(
                    "%s: JSON object keys are strings; keys of %r are taken as strings", where, key
                )
        schema["additionalProperties"] = self.schema(value, where)
        return schema

    # --- named composite types -------------------------------------------------------------

    def _named(self, cls: type, where: str) -> JsonSchema:
        name = self._def_names.get(cls)
        if name is None:
            name = self._reserve_name(cls)
            self.defs[name] = {}  # a placeholder, so that recursion stops here
            self.defs[name] = self._object_schema(cls, where)
        return {"$ref": f"#/$defs/{name}"}

    def _reserve_name(self, cls: type) -> str:
        candidates = [cls.__name__, cls.__qualname__.replace(".", "_").replace("<locals>_", "")]
        candidates.append(f"{cls.__module__.replace('.', '_')}_{candidates[1]}")
        for candidate in candidates:
            if candidate not in self.defs:
                self._def_names[cls] = candidate
                return candidate
        number = 2
        while f"{candidates[0]}{number}" in self.defs:
            number += 1
        self._def_names[cls] = f"{candidates[0]}{number}"
        return self._def_names[cls]

    def _object_schema(self, cls: type, where: str) -> JsonSchema:
        if t.is_pydantic_model(cls):
            return self._pydantic(cls)
        docs = read_docs(typing.cast(Callable[..., object], cls))
        field_docs = docs.params
        fields, required = t.fields_of(cls)
        properties: dict[str, JsonSchema] = {}
        for field_name, (hint, default) in fields.items():
            schema = self.schema(hint, f"field '{field_name}' of {cls.__qualname__} ({where})")
            if field_name in field_docs and "description" not in schema:
                schema = {**schema, "description": field_docs[field_name]}
            if default is not t.NO_DEFAULT:
                with contextlib.suppress(NotJsonable):
                    if self.results:
                        schema = {**schema, "default": to_jsonable(default, strict=True)}
                    else:
                        schema = {**schema, "default": argument_form(default)}
            properties[field_name] = schema
        schema = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        schema["additionalProperties"] = False
        if docs.description and not _is_generated_doc(cls, docs.description):
            schema = {"description": docs.description, **schema}
        return schema

    def _pydantic(self, cls: type) -> JsonSchema:
        try:
            schema = dict(cls.model_json_schema())  # type: ignore[attr-defined]
        except Exception as error:
            self._lacks(
                "%s has no JSON Schema (%s); accepting any JSON value", cls.__qualname__, error
            )
            return {}
        if self.results:
            schema = named_numbers(schema)
        nested = schema.pop("$defs", {})
        renames: dict[str, str] = {}
        for def_name in nested:
            target = def_name
            number = 2
            while target in self.defs or target in renames.values():
                target = f"{def_name}{number}"
                number += 1
            renames[def_name] = target
        for def_name, def_schema in nested.items():
            self.defs[renames[def_name]] = _rewrite_refs(def_schema, renames)
        return typing.cast(JsonSchema, _rewrite_refs(schema, renames))


def has_json_form(hint: object) -> bool:
    """Whether values of ``hint`` have a JSON Schema narrower than "any value"."""
    builder = SchemaBuilder(quiet=True)
    try:
        schema = builder.schema(hint)
    except Exception:
        return False
    return bool(schema) and not builder.lacking


def _own_class(hint: object) -> bool:
    """Whether ``hint`` is a library's own class: one JSON cannot carry, or that is built
    from JSON (:mod:`objmcp.model.values.built`); in a union with members JSON carries as they
    are, a value is one of those (bs4's ``Formatter | str`` takes the ``str``)."""
    return class_json_cannot_carry(hint) or construction(hint) is not None


def class_json_cannot_carry(hint: object) -> bool:
    """Whether ``hint`` is a class of its own (no standard kind, no model) that has no
    JSON form, such as a library's ``Formatter``."""
    if not isinstance(hint, type) or hint is object or hint is typing.Any:
        return False
    builder = SchemaBuilder(quiet=True)
    try:
        return builder.schema(hint) == {}
    except Exception:
        return False


def _is_generated_doc(cls: type, doc: str) -> bool:
    """dataclasses and NamedTuple write a docstring of the signature when none is given."""
    return doc.startswith(f"{cls.__name__}(")


def _enum_schema(values: list[object]) -> JsonSchema:
    jsonable = [v.value if isinstance(v, enum.Enum) else v for v in values]
    schema: JsonSchema = {"enum": jsonable}
    kinds = {json_type(v) for v in jsonable}
    if len(kinds) == 1 and None not in kinds:
        schema = {"type": kinds.pop(), **schema}
    return schema


def json_type(value: object) -> str | None:
    """The JSON Schema type name of a JSON scalar (None for null and containers)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return None


def _rewrite_refs(node: Any, renames: dict[str, str]) -> Any:
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
                name = value[len("#/$defs/") :]
                out[key] = f"#/$defs/{renames.get(name, name)}"
            else:
                out[key] = _rewrite_refs(value, renames)
        return out
    if isinstance(node, list):
        return [_rewrite_refs(item, renames) for item in node]
    return node


_DEFS_REF = "#/$defs/"


def inline_defs(schema: JsonSchema) -> JsonSchema:
    """``schema`` with each reference to a definition that is not recursive replaced by
    the definition itself (titled with its name, the reference's own keywords kept over
    the definition's); ``$defs`` keeps only the recursive definitions, or goes."""
    defs: dict[str, JsonSchema] = schema.get("$defs", {})
    if not defs:
        return schema
    refers = {name: _refs_in(body) for name, body in defs.items()}
    recursive = {name for name in defs if _reaches(name, name, refers)}

    def inline(node: Any) -> Any:
        if isinstance(node, list):
            return [inline(item) for item in node]
        if not isinstance(node, dict):
            return node
        name = _def_name(node)
        if name is not None and name in defs and name not in recursive:
            body = {"title": name, **inline(defs[name])}
            kept = {k: inline(v) for k, v in node.items() if k not in ("$ref", "$defs")}
            return {**body, **kept}
        return {key: inline(value) for key, value in node.items() if key != "$defs"}

    result: JsonSchema = inline(schema)
    if recursive:
        result["$defs"] = {name: inline(defs[name]) for name in defs if name in recursive}
    return result


def _def_name(node: dict[str, Any]) -> str | None:
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith(_DEFS_REF):
        return reference[len(_DEFS_REF) :]
    return None


def _refs_in(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, list):
        for item in node:
            found |= _refs_in(item)
    elif isinstance(node, dict):
        name = _def_name(node)
        if name is not None:
            found.add(name)
        for value in node.values():
            found |= _refs_in(value)
    return found


def _reaches(start: str, goal: str, refers: dict[str, set[str]]) -> bool:
    """Whether the definition ``start`` refers, at any depth, to ``goal``."""
    seen: set[str] = set()
    waiting = list(refers.get(start, ()))
    while waiting:
        name = waiting.pop()
        if name == goal:
            return True
        if name not in seen:
            seen.add(name)
            waiting.extend(refers.get(name, ()))
    return False
