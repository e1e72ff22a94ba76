"""One published callable: a :class:`Tool`, made by :func:`make_tool`.

A tool has its MCP-facing name, description and input schema, built from the
callable's signature, type hints and docstring (:mod:`objmcp.model.calling.toolschema`);
:meth:`Tool.bind` checks a call's JSON arguments against the schema and turns them into
the positional and keyword arguments the callable wants (:mod:`objmcp.model.calling.binding`).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..._exceptions import TargetError
from ..describe.annotations import type_hints_of
from ..describe.docs import read_docs
from ..describe.handwritten import check_schema
from ..describe.schema import JsonSchema
from ..describe.signatures import is_async, signature_of
from ..finding.publish import ToolOptions
from ..values.built import Binding, read_makers_with, remembering
from ..values.jsoncount import DEFAULT_MAX_VALUES
from ..values.nonfinite import named_numbers
from ..values.quickcheck import Check, quick_check
from ..values.validate import Validator
from .binding import Binder, Parameter, binder_of
from .caller import Caller
from .headers import ParamHeader, param_headers
from .inject import Cancelled
from .toolschema import built_input, given_input, output_schema_of

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
    _binder: Binder = field(init=False, repr=False, compare=False)
    _output_validator: Any = field(init=False, repr=False, compare=False)
    _output_quick: Check | None = field(init=False, repr=False, compare=False)
    _plain_output: tuple[type, ...] = field(init=False, repr=False, compare=False)
    self_contained: bool = field(init=False, repr=False, compare=False)
    """Sync, and given nothing but (maybe) ``Cancelled`` and ``Caller``: a call needs nothing of the
    event loop, and may run in whatever thread reads its request."""

    def __post_init__(self) -> None:
        binder = binder_of(
            self.name,
            self.input_schema,
            self.parameters,
            self.injected,
            self.function,
            lenient=self.lenient,
            schema_given=self.schema_given,
        )
        object.__setattr__(self, "_binder", binder)
        # the caller is None wherever such a call may run (stdio's reading thread)
        alone = all(marker in (Cancelled, Caller) for marker in self.injected.values())
        object.__setattr__(self, "self_contained", not self.is_async and alone)
        object.__setattr__(self, "_output_validator", None)  # made when first needed
        object.__setattr__(self, "_plain_output", self._plain_output_types())
        quick = quick_check(self.output_schema) if self.output_schema is not None else None
        object.__setattr__(self, "_output_quick", quick)

    @property
    def _validator(self) -> Validator:
        """The check of the input schema (its binder's)."""
        return self._binder.validator

    @property
    def _by_keyword(self) -> tuple[tuple[str, object, type | None], ...] | None:
        """The plan of a call whose arguments all go by keyword (its binder's), or None;
        set to None, the tool binds by the general path (as the tests compare them)."""
        return self._binder.by_keyword

    @_by_keyword.setter
    def _by_keyword(self, plan: tuple[tuple[str, object, type | None], ...] | None) -> None:
        object.__setattr__(self, "_binder", dataclasses.replace(self._binder, by_keyword=plan))

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
            return self._binder.bind(arguments, injected, max_values)


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
        input_schema, parameters, injected = given_input(name, options, signature, hints)
    else:
        input_schema, parameters, injected = built_input(
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
        output_schema, wraps = output_schema_of(hints.get("return", _EMPTY), name)
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

# --- types named in docstrings ----------------------------------------------------------------
