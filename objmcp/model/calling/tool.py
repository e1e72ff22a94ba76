"""One published callable: a :class:`Tool`, made by :func:`make_tool`.

A tool has its MCP-facing name, description and input schema, built from the
callable's signature, type hints and docstring; :meth:`Tool.bind` checks a
call's JSON arguments against the schema and turns them into the positional
and keyword arguments the callable wants.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import logging
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..._exceptions import ArgumentError, TargetError
from ..describe.annotations import stub_hints_of, type_hints_of
from ..describe.docs import Docs, read_docs
from ..describe.handwritten import check_against_signature, check_schema
from ..describe.keywords import spread
from ..describe.paramtypes import TypeSource, Uncarried, sourced_type, unbuilt_class, uncarried
from ..describe.schema import JsonSchema, SchemaBuilder, inline_defs
from ..describe.signatures import OMITTED, is_async, signature_of
from ..finding.publish import ToolOptions
from ..values.built import Binding, read_makers_with, reading_constructor, remembering
from ..values.convert import ConversionError, from_json
from ..values.jsonable import NotJsonable, argument_form
from ..values.jsoncount import DEFAULT_MAX_VALUES
from ..values.media import MEDIA, is_picture_type
from ..values.nonfinite import named_numbers
from ..values.quickcheck import Check, quick_check
from ..values.subclasses import choice_name
from ..values.validate import Validator, check_values
from .caller import Caller
from .headers import HEADER_KEY, ParamHeader, header_of, param_headers, with_safe_bounds
from .inject import Cancelled, injected_parameters, injected_value

__all__ = ["Parameter", "Tool", "make_tool"]

_PLAIN_TYPES: dict[str, tuple[type, ...]] = {
    "integer": (int,),
    "number": (int, float),
    "string": (str,),
    "boolean": (bool,),
}
"""The Python types whose values a schema of that JSON type takes, every one of them
(a float is a number: NaN and infinities never reach here, as they are sent as names)."""
_FLOAT_RESULT: JsonSchema = named_numbers({"type": "number"})
"""A float result's schema: a number, or the name of NaN or an infinity."""
_EMPTY: Any = inspect.Parameter.empty
_MISSING: Any = object()
logger = logging.getLogger("objmcp")


@dataclass(frozen=True)
class Parameter:
    """One parameter of a tool's callable, as the dispatcher needs it."""

    name: str
    hint: object
    kind: inspect._ParameterKind
    default: object = _EMPTY
    type_from: TypeSource | None = None
    """What gave ``hint`` (:data:`~objmcp.model.describe.paramtypes.TypeSource`), for a parameter of
    a built schema; None when nothing did, or the schema was written by hand."""


@dataclass(frozen=True, eq=False)
class Tool:
    """A published callable: its MCP-facing name, description and input schema, and
    what the author said of it (title, annotations, icons), and the schema of its
    results when its return type gives one (``output_schema``; ``wraps_output`` says a
    value that is not an object goes as ``{"result": value}``)."""

    name: str
    description: str
    input_schema: JsonSchema
    function: Callable[..., object] = field(repr=False)
    is_async: bool = False
    parameters: tuple[Parameter, ...] = field(default=(), repr=False)
    injected: Mapping[str, object] = field(default_factory=dict, repr=False)
    title: str | None = None
    annotations: Mapping[str, Any] = field(default_factory=dict)
    icons: tuple[Mapping[str, Any], ...] = ()
    needs: tuple[str, ...] = ()
    """What the tool said it will ask the client for (``ToolOptions.needs``)."""
    task: str | None = None
    """When a call to it becomes a task (``ToolOptions.task``)."""
    meta: Mapping[str, Any] = field(default_factory=dict)
    """The tool's ``_meta`` in ``tools/list`` (``ToolOptions.meta``)."""
    scopes: tuple[str, ...] = ()
    """The OAuth scopes a caller must hold to see and call it (``ToolOptions.scopes``)."""
    output_schema: JsonSchema | None = field(default=None, repr=False)
    wraps_output: bool = False
    lenient: bool = field(default=True, repr=False)
    """Arguments sent as JSON text where the schema wants another kind are read
    (:mod:`objmcp.model.values.validate`)."""
    schema_given: bool = field(default=False, repr=False)
    """The input schema was written by the author (``ToolOptions.input_schema``), not
    built from the signature: an argument it lets through that the callable cannot take
    is refused when the call is bound."""
    headers: tuple[ParamHeader, ...] = ()
    """The properties the input schema marks ``x-mcp-header``, which an HTTP client
    mirrors into ``Mcp-Param-*`` headers."""
    _validator: Validator = field(init=False, repr=False, compare=False)
    _output_validator: Any = field(init=False, repr=False, compare=False)
    _output_quick: Check | None = field(init=False, repr=False, compare=False)
    _reserved: frozenset[str] = field(init=False, repr=False, compare=False)
    _by_keyword: tuple[tuple[str, object, type | None], ...] | None = field(
        init=False, repr=False, compare=False
    )
    _plain_output: tuple[type, ...] = field(init=False, repr=False, compare=False)
    _takes: frozenset[str] | None = field(init=False, repr=False, compare=False)
    _spread: str | None = field(init=False, repr=False, compare=False)
    self_contained: bool = field(init=False, repr=False, compare=False)
    """Sync, and given nothing but (maybe) ``Cancelled`` and ``Caller``: a call needs nothing of the
    event loop, and may run in whatever thread reads its request."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_validator", Validator(self.input_schema, lenient=self.lenient))
        object.__setattr__(self, "_reserved", self._names_kwargs_cannot_take())
        object.__setattr__(self, "_by_keyword", self._keyword_plan())
        object.__setattr__(self, "_takes", self._names_taken())
        object.__setattr__(self, "_spread", self._keywords_name())
        # the caller is None wherever such a call may run (stdio's reading thread)
        alone = all(marker in (Cancelled, Caller) for marker in self.injected.values())
        object.__setattr__(self, "self_contained", not self.is_async and alone)
        object.__setattr__(self, "_output_validator", None)  # made when first needed
        object.__setattr__(self, "_plain_output", self._plain_output_types())
        quick = quick_check(self.output_schema) if self.output_schema is not None else None
        object.__setattr__(self, "_output_quick", quick)

    def _plain_output_types(self) -> tuple[type, ...]:
        """The Python types of the values a wrapped output schema of one plain JSON type
        (``{"result": {"type": "integer"}}`` and the like) takes as they are."""
        if not self.wraps_output or self.output_schema is None:
            return ()
        expected = {
            "type": "object",
            "properties": {"result": self.output_schema["properties"]["result"]},
            "required": ["result"],
        }
        result = self.output_schema["properties"]["result"]
        if self.output_schema != expected or not isinstance(result, dict) or len(result) != 1:
            return ()
        if result == _FLOAT_RESULT:
            return _PLAIN_TYPES["number"]  # a name is a str, left to the schema check
        return _PLAIN_TYPES.get(result.get("type"), ())  # type: ignore[arg-type]

    def _keyword_plan(self) -> tuple[tuple[str, object, type | None], ...] | None:
        """For a tool whose parameters all go by keyword and none is injected, each one's
        name, hint, and the JSON type its values keep as they are (None when converted).
        :meth:`bind` then needs no placing."""
        keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        if self.injected or any(p.kind not in keyword for p in self.parameters):
            return None
        kept = (int, str, bool, float)
        return tuple((p.name, p.hint, p.hint if p.hint in kept else None) for p in self.parameters)

    def _names_taken(self) -> frozenset[str] | None:
        """The argument names the callable takes, for a hand-written input schema when it
        has no ``**kwargs`` (else None: the schema alone says which names may come)."""
        if not self.schema_given:
            return None
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in self.parameters):
            return None
        return frozenset(p.name for p in self.parameters if p.name not in self.injected)

    def _keywords_name(self) -> str | None:
        """The name of the callable's ``**NAME``, whose keyword arguments may come as one
        object under that name (:mod:`objmcp.model.describe.keywords`); None without one, when
        objmcp fills it, or when a hand-written schema has a property of that name."""
        for p in self.parameters:
            if p.kind is inspect.Parameter.VAR_KEYWORD and p.name not in self.injected:
                given = self.input_schema.get("properties", {}) if self.schema_given else {}
                return None if p.name in given else p.name
        return None

    def _names_kwargs_cannot_take(self) -> frozenset[str]:
        """The names a ``**kwargs`` key cannot take: parameters objmcp fills in, and a bound
        method's own ``self`` (looked up only for tools that have ``**kwargs``)."""
        if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in self.parameters):
            return frozenset()
        reserved = set(self.injected)
        bound = getattr(self.function, "__func__", None)
        if bound is not None and getattr(self.function, "__self__", None) is not None:
            with contextlib.suppress(TypeError, ValueError):
                reserved.update(list(inspect.signature(bound).parameters)[:1])
        return frozenset(reserved)

    def structure(self, value: object) -> dict[str, Any] | None:
        """The ``structuredContent`` of a call that returned ``value`` (its JSON form), or
        None when the tool has no output schema. Raises ValueError, saying where, when the
        value does not fit the schema."""
        if self.output_schema is None:
            return None
        if type(value) in self._plain_output:
            return {"result": value}
        content = {"result": value} if self.wraps_output else value
        if self._output_quick is not None and self._output_quick(content):
            assert isinstance(content, dict)
            return content
        from jsonschema.exceptions import best_match

        validator = self._output_validator
        if validator is None:
            from jsonschema import Draft202012Validator

            validator = Draft202012Validator(self.output_schema)
            object.__setattr__(self, "_output_validator", validator)
        error = best_match(validator.iter_errors(content))
        if error is not None:
            where = "".join(f"[{part!r}]" for part in error.absolute_path)
            raise ValueError(f"{where or 'the value'}: {error.message}")
        assert isinstance(content, dict)
        return content

    def bind(
        self,
        arguments: object,
        injected: Mapping[object, object] | None = None,
        max_values: int = DEFAULT_MAX_VALUES,
    ) -> tuple[list[object], dict[str, object]]:
        """Positional and keyword arguments for the callable, from a call's JSON arguments.

        ``arguments`` is a dict, or its JSON text. ``injected`` maps markers
        (``objmcp.Elicit``) to the values given to the parameters that ask for
        them. Raises :class:`ArgumentError` naming the parameter when the
        arguments do not fit, and when JSON text to read (the arguments', or an
        argument's) holds more than ``max_values`` values. For a method of a served
        object, a value of a library's class built from the same JSON value is the
        same object in each call (:func:`~objmcp.model.values.built.remembering`).
        """
        with remembering(self.function):
            return self._bind(arguments, injected, max_values)

    def _bind(
        self,
        arguments: object,
        injected: Mapping[object, object] | None,
        max_values: int,
    ) -> tuple[list[object], dict[str, object]]:
        if arguments is None:
            arguments = {}
        if isinstance(arguments, (str, bytes)):  # as OpenAI's APIs hand them over
            check_values(arguments, max_values, f"arguments of tool '{self.name}'")
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except ValueError as error:
                raise ArgumentError(
                    f"Arguments of tool '{self.name}' are not valid JSON: {error}"
                ) from None
        if not isinstance(arguments, dict):
            raise ArgumentError(
                f"Arguments of tool '{self.name}' must be a JSON object, "
                f"not {type(arguments).__name__}"
            )
        if self._spread is not None:  # before the check: each key by the schema of **NAME
            arguments = spread(arguments, self._spread, self._reserved, self.name)
        arguments = self._validator.check(arguments, max_values)
        if self._takes is not None:
            unknown = [key for key in arguments if key not in self._takes]
            if unknown:
                listed = ", ".join(f"'{taken}'" for taken in sorted(self._takes)) or "none"
                raise ArgumentError(
                    f"Unknown argument '{unknown[0]}' of tool '{self.name}'; the arguments "
                    f"are: {listed}"
                )
        if self._by_keyword is not None:
            given: dict[str, object] = {}
            for name, hint, kept in self._by_keyword:
                if name in arguments:
                    item = arguments[name]
                    given[name] = item if type(item) is kept else _convert(item, hint, name)
            return [], given
        positional: list[object] = []
        keywords: dict[str, object] = {}
        waiting: list[tuple[Parameter, object]] = []  # parameters that may go positionally
        known = {p.name for p in self.parameters}
        for param in self.parameters:
            if param.name in self.injected:
                marker = self.injected[param.name]
                value: object = injected_value(marker, injected, self.name)
            elif param.kind is inspect.Parameter.VAR_KEYWORD:
                for key, item in arguments.items():
                    if key in self._reserved:
                        raise ArgumentError(
                            f"Invalid argument '{key}' of tool '{self.name}': this name "
                            "cannot be given (the tool has a parameter of that name that "
                            "is not the client's to fill)"
                        )
                    if key not in known:
                        keywords[key] = _convert(item, param.hint, key)
                continue
            elif param.name in arguments:
                value = _convert(arguments[param.name], param.hint, param.name)
            else:
                value = _MISSING
            if param.kind is inspect.Parameter.VAR_POSITIONAL:
                items = list(typing.cast(list[object], value)) if value is not _MISSING else []
                self._place(waiting, positional, keywords, everything=bool(items))
                positional.extend(items)
                waiting = []
            elif param.kind is inspect.Parameter.KEYWORD_ONLY:
                if value is not _MISSING:
                    keywords[param.name] = value
            else:
                waiting.append((param, value))
        self._place(waiting, positional, keywords, everything=False)
        return positional, keywords

    def _place(
        self,
        waiting: list[tuple[Parameter, object]],
        positional: list[object],
        keywords: dict[str, object],
        everything: bool,
    ) -> None:
        """Place parameters that may go by position: all of them by position when
        ``everything`` (``*args`` follows them), else positional-only ones by position
        (defaults filling the gaps) and the rest by keyword."""
        given = [
            index
            for index, (param, value) in enumerate(waiting)
            if value is not _MISSING and param.kind is inspect.Parameter.POSITIONAL_ONLY
        ]
        last = len(waiting) - 1 if everything else (given[-1] if given else -1)
        for index, (param, value) in enumerate(waiting):
            if index > last:
                if value is not _MISSING:
                    keywords[param.name] = value
            elif value is not _MISSING:
                positional.append(value)
            elif param.default is _EMPTY or param.default is OMITTED:
                raise ArgumentError(
                    f"Argument '{param.name}' of tool '{self.name}' must be given "
                    "too, since a later positional argument is"
                )
            else:
                positional.append(param.default)


def _convert(value: object, hint: object, name: str) -> object:
    try:
        return from_json(value, hint, name)
    except ConversionError as error:
        raise ArgumentError(f"Invalid argument '{error.path}': {error.message}") from None


def make_tool(
    name: str,
    function: Callable[..., object],
    options: ToolOptions | None = None,
    *,
    lenient: bool = True,
) -> Tool:
    """Build the :class:`Tool` for one callable: its schema from signature, hints and
    docstring, and what ``options`` say of it (``lenient``: see :class:`Tool`)."""
    options = options or ToolOptions()
    signature = signature_of(function)
    hints = type_hints_of(function)
    docs = read_docs(function)
    if options.input_schema is not None:
        input_schema, parameters, injected = _given_input(name, options, signature, hints)
    else:
        input_schema, parameters, injected = _built_input(
            name, options, function, signature, hints, docs
        )
    output_schema, wraps = None, False
    if options.output_schema is not None:
        if options.structured is False:
            raise TargetError(
                f"tool '{name}' gives an output schema but asks for no structured output "
                "(structured=False): drop one of them"
            )
        output_schema = check_schema(options.output_schema, f"the output schema of tool '{name}'")
    elif options.structured is not False:
        output_schema, wraps = _output_schema(hints.get("return", _EMPTY), name)
        if output_schema is None and options.structured:
            raise TargetError(
                f"tool '{name}' asks for structured output, but its return annotation "
                "gives no schema: annotate the return type"
            )
    return Tool(
        name=name,
        description=docs.description if options.description is None else options.description,
        input_schema=input_schema,
        function=function,
        is_async=is_async(function),
        parameters=tuple(parameters),
        injected=injected,
        title=options.title,
        annotations=options.annotations(),
        icons=options.icons or (),
        needs=options.needs or (),
        task=options.task,
        meta=options.meta or {},
        scopes=options.scopes or (),
        output_schema=output_schema,
        wraps_output=wraps,
        lenient=lenient,
        schema_given=options.input_schema is not None,
        headers=param_headers(input_schema, name),
    )


def _given_input(
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


def _built_input(
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


def _read_maker(
    maker: Callable[..., object], name: str
) -> tuple[JsonSchema, Binding, frozenset[str]] | None:
    """The input schema and binding of a tool of ``maker`` (a class, or a factory of one),
    and the parameters the library types, for :mod:`objmcp.model.values.built`; None when it
    makes no tool."""
    try:
        tool = make_tool(name, maker, ToolOptions(structured=False), lenient=False)
    except (TargetError, TypeError, ValueError):
        return None
    typed = frozenset(p.name for p in tool.parameters if p.type_from is not None)
    return tool.input_schema, tool.bind, typed


read_makers_with(_read_maker)

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


def _output_schema(hint: object, name: str) -> tuple[JsonSchema | None, bool]:
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


# --- types named in docstrings ----------------------------------------------------------------
