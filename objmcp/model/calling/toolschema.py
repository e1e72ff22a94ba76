"""A tool's input and output schemas, from its callable's signature, type hints and docstring.

:func:`built_input` builds the input schema (:mod:`objmcp.model.describe.schema`), a
property per parameter the client gives, typed by its hint or, without one, by what else
says its type (:mod:`objmcp.model.describe.paramtypes`), described by the docstring, with
its default and the header it is mirrored into; :func:`given_input` checks a hand-written
one against the signature instead. Both say each parameter as binding needs it
(:class:`~objmcp.model.calling.binding.Parameter`). :func:`output_schema_of` gives the
output schema a return annotation gives.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import typing
from collections.abc import Callable
from typing import Any

from ..._exceptions import TargetError
from ..describe.annotations import stub_hints_of
from ..describe.docs import Docs
from ..describe.handwritten import check_against_signature, check_schema
from ..describe.paramtypes import TypeSource, Uncarried, sourced_type, unbuilt_class, uncarried
from ..describe.schema import JsonSchema, SchemaBuilder, inline_defs
from ..describe.signatures import OMITTED
from ..finding.publish import ToolOptions
from ..values.built import reading_constructor
from ..values.jsonable import NotJsonable, argument_form
from ..values.media import MEDIA, is_picture_type
from ..values.subclasses import choice_name
from .binding import Parameter
from .headers import HEADER_KEY, header_of, with_safe_bounds
from .injecting import injected_parameters

__all__ = ["built_input", "given_input", "output_schema_of"]

_EMPTY: Any = inspect.Parameter.empty
logger = logging.getLogger("objmcp")


def given_input(
    name: str, options: ToolOptions, signature: inspect.Signature, hints: dict[str, object]
) -> tuple[JsonSchema, list[Parameter], dict[str, object]]:
    """A hand-written input schema, checked against the metaschema and the signature,
    and the parameters it fills (converted by their hints, where they have any)."""
    assert options.input_schema is not None
    marked = [p for p in signature.parameters if _header_mark(name, p, hints.get(p, _EMPTY))]
    if options.headers or marked:
        raise TargetError(
            f"tool '{name}' has a hand-written input schema: mark its headers there "
            f'("x-mcp-header": "Name" on the property), not with objmcp.Header or headers='
        )
    input_schema = check_schema(options.input_schema, f"the input schema of tool '{name}'")
    injected = injected_parameters(signature, hints)
    check_against_signature(input_schema, name, signature, injected)
    parameters: list[Parameter] = []
    for param in signature.parameters.values():
        hint = hints.get(param.name, param.annotation)
        if isinstance(hint, str):
            hint = _EMPTY
        if param.kind is inspect.Parameter.VAR_POSITIONAL and param.name not in injected:
            hint = list[hint] if hint is not _EMPTY else list  # type: ignore[valid-type]
        parameters.append(Parameter(param.name, hint, param.kind, param.default))
    return input_schema, parameters, injected


def built_input(
    name: str,
    options: ToolOptions,
    function: Callable[..., object],
    signature: inspect.Signature,
    hints: dict[str, object],
    docs: Docs,
) -> tuple[JsonSchema, list[Parameter], dict[str, object]]:
    """The input schema the signature, hints and docstring give, and the parameters."""
    stubbed = functools.cache(lambda: stub_hints_of(function, signature))  # read if needed
    builder = SchemaBuilder()
    properties: dict[str, JsonSchema] = {}
    required: list[str] = []
    parameters: list[Parameter] = []
    injected = injected_parameters(signature, hints)
    additional: JsonSchema | bool = False
    given_headers = dict(options.headers or {})
    unsure: list[tuple[str, str, TypeSource | None]] = []
    unknown = sorted(set(given_headers) - set(signature.parameters))
    if unknown:
        raise TargetError(f"tool '{name}': headers= names {unknown[0]!r}, not a parameter")
    for param in signature.parameters.values():
        hint = hints.get(param.name, param.annotation)
        unresolved = hint if isinstance(hint, str) else None  # type_hints_of could not
        if unresolved is not None:
            hint = _EMPTY
        header = given_headers.get(param.name) or _header_mark(name, param.name, hint)
        if header is not None and (param.name in injected or param.kind in _VARIADIC):
            raise TargetError(
                f"tool '{name}': parameter {param.name} cannot be mirrored into a header "
                "(only a string, integer or boolean argument the client gives can)"
            )
        if param.name in injected:
            parameters.append(Parameter(param.name, hint, param.kind, param.default))
            continue
        hint, type_from = sourced_type(
            hint,
            docs.type_names.get(param.name),
            param.default,
            functools.partial(_stub_hint, stubbed, param.name),
            function,
            docs.params.get(param.name),
        )
        prose = docs.params.get(param.name) if param.default is _EMPTY else None
        cannot = uncarried(hint, docs.type_names.get(param.name), prose, param.default)
        optional = param.default is not _EMPTY and param.kind not in _VARIADIC
        unbuilt = unbuilt_class(hint) if cannot is None and optional else None
        if unbuilt is not None:  # a required one takes any value, for the library to read
            cannot = f"an object of class {unbuilt.__qualname__}"
            _say_left_out(unbuilt)
        if cannot is not None and param.kind not in _VARIADIC:
            if header is not None:
                raise TargetError(
                    f"tool '{name}': parameter {param.name} has a header, but no JSON form"
                )
            if param.default is _EMPTY:
                raise Uncarried(
                    f"its parameter {param.name} needs {cannot}, which JSON cannot carry"
                )
            parameters.append(Parameter(param.name, hint, param.kind, param.default))
            continue  # left out of the schema: the default is used
        where = f"parameter '{param.name}' of tool '{name}'"
        if unresolved is not None:  # shown in the schema: worth a word, if the tool is made
            unsure.append((param.name, unresolved, type_from))
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            additional = builder.schema(hint, where) if hint is not _EMPTY else {}
            parameters.append(Parameter(param.name, hint, param.kind, type_from=type_from))
            continue
        schema = builder.schema(hint, where)
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            schema = {"type": "array", "items": schema} if schema else {"type": "array"}
            hint = list[hint] if hint is not _EMPTY else list  # type: ignore[valid-type]
        elif param.default is _EMPTY:
            required.append(param.name)
        if param.name in docs.params and "description" not in schema:
            schema = {**schema, "description": docs.params[param.name]}
        if param.default is not _EMPTY and param.default is not OMITTED:
            # A default with no JSON form is the method's own business: none is shown.
            with contextlib.suppress(NotJsonable, ValueError, RecursionError):
                schema = {**schema, "default": argument_form(param.default)}
            chosen = choice_name(hint, param.default) if "default" not in schema else None
            if chosen is not None:
                schema = {**schema, "default": chosen}
        if header is not None:
            schema = {**with_safe_bounds(schema), HEADER_KEY: header}
        properties[param.name] = schema
        parameters.append(Parameter(param.name, hint, param.kind, param.default, type_from))
    for param_name, annotation, type_from in unsure:
        _say_unresolved(name, param_name, annotation, type_from)
    input_schema: JsonSchema = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = required
    input_schema["additionalProperties"] = additional
    if builder.defs:
        input_schema["$defs"] = builder.defs
        input_schema = inline_defs(input_schema)
    return input_schema, parameters, injected


_SAID_LEFT_OUT: set[type] = set()


def _say_left_out(cls: type) -> None:
    """Warn, once per class, that parameters of ``cls`` are left out of the schemas."""
    if cls in _SAID_LEFT_OUT or reading_constructor():
        return
    _SAID_LEFT_OUT.add(cls)
    logger.warning(
        "parameters of class %s.%s are left out of the tools' schemas (JSON cannot carry "
        "one, nor build one by its constructor or a factory): their defaults are used",
        cls.__module__,
        cls.__qualname__,
    )


def _say_unresolved(tool: str, param: str, annotation: str, type_from: TypeSource | None) -> None:
    """Warn that the annotation of a parameter the schema shows cannot be resolved, and
    what the parameter takes instead."""
    instead = "accepting any JSON value" if type_from is None else f"typed by its {type_from}"
    logger.warning(
        "tool %r: cannot resolve the annotation %r of parameter %s; %s",
        tool,
        annotation,
        param,
        instead,
    )


def _header_mark(tool: str, param: str, hint: object) -> str | None:
    """The header ``hint`` marks ``param`` with (``objmcp.Header``), or None; a mark
    that cannot be is a :class:`TargetError` naming the tool."""
    try:
        return header_of(hint)
    except TypeError as error:
        raise TargetError(f"tool '{tool}', parameter {param}: {error}") from None


def _stub_hint(stubbed: Callable[[], dict[str, object]], name: str) -> object:
    """The type ``stubbed`` (a callable's stub hints, read when first asked) gives ``name``."""
    return stubbed().get(name, _EMPTY)


_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
_UNSTRUCTURED = (_EMPTY, None, type(None), Any, object, typing.NoReturn)


def _mentions_media(hint: object) -> bool:
    if isinstance(hint, type) and (issubclass(hint, MEDIA) or is_picture_type(hint)):
        return True
    return any(_mentions_media(arg) for arg in typing.get_args(hint))


def output_schema_of(hint: object, name: str) -> tuple[JsonSchema | None, bool]:
    """The output schema a return annotation gives (an object schema, the value wrapped as
    ``{"result": ...}`` when it is not an object), or None when it gives none."""
    if any(hint is nothing for nothing in _UNSTRUCTURED) or isinstance(hint, str):
        return None, False
    if _mentions_media(hint):
        return None, False  # images and files travel as content, not as structured values
    builder = SchemaBuilder(results=True)
    schema = builder.schema(hint, f"the return value of tool '{name}'")
    if not schema:
        return None, False
    target = schema
    reference = schema.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/$defs/"):
        target = builder.defs.get(reference.removeprefix("#/$defs/"), {})
    if target.get("type") == "object":
        root: JsonSchema = {**target}
        wraps = False
    else:
        root = {"type": "object", "properties": {"result": schema}, "required": ["result"]}
        wraps = True
    if builder.defs:
        root["$defs"] = builder.defs
        root = inline_defs(root)
    return root, wraps
