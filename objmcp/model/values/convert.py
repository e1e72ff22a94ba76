"""JSON values as the Python values a tool's hints ask for.

:func:`from_json` turns a JSON value that already passed the tool's schema into
the Python value its type hint asks for (Enum members, dataclass instances,
tuples, datetimes, a library's classes built from JSON, ...). It mirrors
:mod:`objmcp.model.describe.schema` and :mod:`objmcp.model.values.jsonable`: a value of a type, sent
through ``to_jsonable``, validates against that type's schema and comes back equal
through ``from_json``; except bytes, whose argument form is not their result form. A
string argument is always text: for a bytes parameter, its UTF-8 bytes, and any bytes
come as ``{"base64": "..."}`` (:func:`~objmcp.model.values.scalars.binary_from_json`). A
float is also the name of NaN or an infinity, as a result sends it
(:func:`~objmcp.model.values.nonfinite.named_float`).

The scalars are read by :mod:`~objmcp.model.values.scalars`, the standard library's kinds by
:mod:`~objmcp.model.values.standardkinds`, a subclass of either by
:mod:`~objmcp.model.values.remade`; a union's members are tried in the order of
:mod:`~objmcp.model.values.unionorder`; what does not convert is a
:class:`~objmcp.model.values.mismatch.ConversionError`.
"""

from __future__ import annotations

import enum
import inspect
import re
import typing
from collections import abc
from typing import Any

from ..describe import hints as t
from .arrays import array_hint, array_union, to_array
from .built import Refused, build, construction
from .jsontext import parse_json
from .mismatch import ConversionError, describe_json, expect_kind
from .remade import to_number_class, to_subclass
from .scalars import SCALARS
from .standardkinds import STANDARD
from .subclasses import chosen_base, class_choices
from .unionorder import narrow_first

__all__ = ["from_json", "from_text"]


def from_texts(
    values: abc.Mapping[str, str], hints: abc.Mapping[str, object], label: str
) -> dict[str, object]:
    """Convert strings from the wire by name (URI variables, prompt arguments) with
    :func:`from_text`; raise :class:`~objmcp.ArgumentError` naming the ``label``ed one
    that does not convert."""
    from ..._exceptions import ArgumentError

    converted: dict[str, object] = {}
    for key, text in values.items():
        try:
            converted[key] = from_text(text, hints[key], key)
        except ConversionError as error:
            raise ArgumentError(f"Invalid {label} '{key}': {error.message}") from None
    return converted


def from_text(text: str, hint: object, path: str = "") -> object:
    """Convert a string from the wire (a URI variable, a prompt argument) into a value of
    ``hint``: the string itself where a string fits, else its JSON reading (``"5"`` is
    5 for an ``int``); raise :class:`ConversionError`."""
    try:
        return from_json(text, hint, path)
    except ConversionError as first:
        try:
            parsed = parse_json(text)
        except (ValueError, RecursionError):
            raise first from None
        return from_json(parsed, hint, path)


def from_json(value: object, hint: object, path: str = "") -> object:
    """Convert a JSON value into a value of ``hint``; raise :class:`ConversionError`."""
    if type(hint) is type:
        scalar = SCALARS.get(hint)
        if scalar is not None:
            return scalar(value, path)
    hint = t.bytes_like(t.strip_qualifiers(t.annotated_parts(t.strip_qualifiers(hint))[0]))
    if hint in (Any, object, inspect.Parameter.empty) or isinstance(hint, (str, typing.ForwardRef)):
        return value
    if isinstance(hint, typing.TypeVar):
        return value if hint.__bound__ is None else from_json(value, hint.__bound__, path)
    supertype = getattr(hint, "__supertype__", None)
    if supertype is not None:
        return from_json(value, supertype, path)
    found = array_hint(hint)
    if found is not None:
        try:
            return to_array(value, found)
        except ValueError as error:
            raise ConversionError(path, str(error)) from None
    if t.is_union(hint):
        return _from_union(value, typing.get_args(hint), path)
    if t.is_literal(hint):
        for option in typing.get_args(hint):
            plain = option.value if isinstance(option, enum.Enum) else option
            if plain == value and _same_json_kind(plain, value):
                return option
        raise ConversionError(path, f"expected one of {list(typing.get_args(hint))!r}")
    if hint is None or hint is type(None):
        if value is None:
            return None
        raise ConversionError(path, f"expected null, got {describe_json(value)}")
    origin = typing.get_origin(hint) or hint
    args = typing.get_args(hint)
    if isinstance(origin, type):
        converter = SCALARS.get(origin)
        if converter is not None:
            return converter(value, path)
        standard = t.standard_kind(origin)
        if standard is not None:
            return STANDARD[standard](value, path, origin)
        if issubclass(origin, enum.Enum):
            try:
                return origin(value)
            except ValueError:
                values = [m.value for m in origin]
                raise ConversionError(path, f"expected one of {values!r}") from None
        if t.is_pydantic_model(origin):
            try:
                return origin.model_validate(value)  # type: ignore[attr-defined]
            except Exception as error:
                raise ConversionError(path, str(error)) from None
        if t.is_dataclass_type(origin) or t.is_typeddict_type(origin):
            return _from_object(value, origin, path)
        if t.is_namedtuple_type(origin):
            return _from_object(value, origin, path)
        if t.path_class(origin):
            return origin(expect_kind(value, str, "string", path))
        base = t.standard_base(origin)
        if base is not None:
            return to_subclass(from_json(value, base, path), origin, path)
        number = t.number_kind(origin)
        if number is not None:
            return to_number_class(SCALARS[number](value, path), origin)
        if construction(origin) is not None:  # the class, or a generic one's alias
            try:
                return build(value, origin)
            except Refused as refusal:
                raise ConversionError(path, f"{origin.__name__} refused it: {refusal}") from None
    chosen = chosen_base(hint)
    if chosen is not None:
        return _chosen_class(value, chosen, path)
    if origin is tuple:
        return _from_tuple(value, args, path)
    if origin in t.SEQUENCES:
        if isinstance(value, str) and t.takes_text(hint):
            return value
        items = expect_kind(value, list, "array", path)
        return [from_json(v, args[0] if args else Any, f"{path}[{i}]") for i, v in enumerate(items)]
    if origin in t.SETS:
        items = expect_kind(value, list, "array", path)
        member = args[0] if args else Any
        converted = {from_json(v, member, f"{path}[{i}]") for i, v in enumerate(items)}
        return frozenset(converted) if origin is frozenset else converted
    if origin in t.MAPPINGS:
        mapping = expect_kind(value, dict, "object", path)
        key_hint, value_hint = args if args else (str, Any)
        entries: dict[object, object] = {}
        for k, v in mapping.items():
            key = _key_from_json(k, key_hint, path)
            if key in entries:  # "1" and "01" are one int key: neither may be lost
                raise ConversionError(path, f"keys {k!r} and another are the same {key!r}")
            entries[key] = from_json(v, value_hint, f"{path}.{k}" if path else k)
        return entries
    return value


_INT_KEY = re.compile(r"-?[0-9]+")


def _same_json_kind(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` are the same kind of JSON value (1 and 1.0 are one number;
    True is no number)."""
    numbers = (int, float)
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, numbers):
        return type(a) is type(b)
    return isinstance(b, numbers)


def _key_from_json(key: str, hint: object, path: str) -> object:
    """JSON object keys are strings; parse them into the key type asked for."""
    hint = t.annotated_parts(hint)[0]
    try:
        if hint is int:
            if not _INT_KEY.fullmatch(key):  # int() would take " 5", "+5" and "5\n" too
                raise ValueError(key)
            return int(key)
        if hint is float:
            return float(key)
    except ValueError:
        raise ConversionError(
            path, f"key {key!r} is not a {getattr(hint, '__name__', hint)}"
        ) from None
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        for member in hint:
            if str(member.value) == key:
                return member
        raise ConversionError(path, f"key {key!r} is not one of {[m.value for m in hint]!r}")
    return from_json(key, hint, path)


def _from_union(value: object, members: tuple[object, ...], path: str) -> object:
    errors = []
    # None first; and a JSON fraction tries float before int, so 1.0 stays a float.
    declared = sorted(
        t.union_members(array_union(members)),
        key=lambda m: (
            m is not type(None) and m is not None,
            m is int and isinstance(value, float),
        ),
    )
    carried = [m for m in declared if not (isinstance(m, type) and construction(m) is not None)]
    if any(member is not type(None) and member is not None for member in carried):
        declared = carried  # a library's own class in a union: JSON sends the other members
    for member in narrow_first(declared):
        try:
            return from_json(value, member, path)
        except ConversionError as error:
            errors.append(error.message)
    raise ConversionError(path, "fits none of the allowed types: " + "; ".join(errors))


def _chosen_class(value: object, base: type, path: str) -> type:
    """The class of :func:`~objmcp.model.values.subclasses.class_choices` ``value`` names."""
    choices = class_choices(base)
    found = choices.get(value) if isinstance(value, str) else None
    if found is None:
        raise ConversionError(path, f"expected one of {list(choices)!r}")
    return found


def _from_tuple(value: object, args: tuple[object, ...], path: str) -> tuple[object, ...]:
    items = expect_kind(value, list, "array", path)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(from_json(v, args[0], f"{path}[{i}]") for i, v in enumerate(items))
    if not args:
        return tuple(items)
    if args == ((),):
        args = ()
    if len(items) != len(args):
        raise ConversionError(path, f"expected an array of {len(args)} items, got {len(items)}")
    return tuple(
        from_json(v, a, f"{path}[{i}]") for i, (v, a) in enumerate(zip(items, args, strict=True))
    )


def _from_object(value: object, cls: type, path: str) -> object:
    mapping = expect_kind(value, dict, "object", path)
    fields, required = t.fields_of(cls)
    for name in required:
        if name not in mapping:
            raise ConversionError(path, f"missing required field '{name}'")
    converted: dict[str, object] = {}
    for name, item in mapping.items():
        if name not in fields:
            raise ConversionError(path, f"unknown field '{name}'")
        converted[name] = from_json(item, fields[name][0], f"{path}.{name}" if path else name)
    if t.is_typeddict_type(cls):
        return converted
    try:
        return cls(**converted)
    except Exception as error:
        raise ConversionError(path, f"{cls.__name__} refused it: {error}") from None
