"""The object model's front: a :class:`Toolbox` holds the tools of an object.

A :class:`Tool` is one published callable with its name, description and input
schema; :meth:`Tool.bind` checks a call's arguments against the schema and
converts them into the Python values the callable wants; :class:`Toolbox`
finds the tools of a target, and calls them (sync methods in worker threads,
async ones on the loop), turning every outcome into a :class:`ToolResult`.
Nothing here knows a protocol.
"""

from __future__ import annotations

import contextlib
import fnmatch
import inspect
import logging
import re
import threading
import typing
from collections.abc import Awaitable, Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread

from . import _introspect
from ._content import ToolResult, error_result, value_result
from ._convert import ConversionError, from_json
from ._exceptions import ArgumentError, TargetError, UnknownToolError
from ._inject import injected_kind
from ._schema import JsonSchema, SchemaBuilder
from ._validate import Validator

__all__ = ["Concurrency", "Tool", "Toolbox"]

logger = logging.getLogger("objmcp")

Concurrency = Literal["threads", "serial"]
TOOL_NAME = re.compile(r"^[A-Za-z0-9_.\-]{1,128}$")
_DOC_TYPES: dict[str, object] = {
    "str": str,
    "string": str,
    "int": int,
    "integer": int,
    "float": float,
    "number": float,
    "bool": bool,
    "boolean": bool,
    "list": list,
    "dict": dict,
    "tuple": tuple,
    "set": set,
    "bytes": bytes,
}


@dataclass(frozen=True)
class Parameter:
    """One parameter of a tool's callable, as the dispatcher needs it."""

    name: str
    hint: object
    kind: inspect._ParameterKind
    has_default: bool


@dataclass(frozen=True, eq=False)
class Tool:
    """A published callable: its MCP-facing name, description and input schema."""

    name: str
    description: str
    input_schema: JsonSchema
    function: Callable[..., object] = field(repr=False)
    is_async: bool = False
    parameters: tuple[Parameter, ...] = field(default=(), repr=False)
    injected: Mapping[str, object] = field(default_factory=dict, repr=False)
    _validator: Validator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_validator", Validator(self.input_schema))

    def bind(
        self, arguments: object, injected: Mapping[object, object] | None = None
    ) -> tuple[list[object], dict[str, object]]:
        """Positional and keyword arguments for the callable, from a call's JSON arguments.

        ``injected`` maps markers (``objmcp.Elicit``) to the values given to the
        parameters that ask for them. Raises :class:`ArgumentError` naming the
        parameter when the arguments do not fit.
        """
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise ArgumentError(
                f"Arguments of tool '{self.name}' must be a JSON object, "
                f"not {type(arguments).__name__}"
            )
        self._validator.check(arguments)
        positional: list[object] = []
        keywords: dict[str, object] = {}
        skipped: str | None = None
        for param in self.parameters:
            if param.name in self.injected:
                marker = self.injected[param.name]
                value = (injected or {}).get(marker, _unavailable(marker))
                present = True
            elif param.kind is inspect.Parameter.VAR_KEYWORD:
                known = {p.name for p in self.parameters}
                for key, item in arguments.items():
                    if key not in known:
                        keywords[key] = _convert(item, param.hint, key)
                continue
            else:
                present = param.name in arguments
                if present:
                    value = _convert(arguments[param.name], param.hint, param.name)
            if param.kind is inspect.Parameter.VAR_POSITIONAL:
                if present:
                    positional.extend(typing.cast(list[object], value))
            elif param.kind is inspect.Parameter.POSITIONAL_ONLY:
                if present and skipped is not None:
                    raise ArgumentError(
                        f"Argument '{param.name}' of tool '{self.name}' needs '{skipped}' "
                        "to be given too"
                    )
                if present:
                    positional.append(value)
                elif skipped is None:
                    skipped = param.name
            elif present:
                keywords[param.name] = value
        return positional, keywords


def _unavailable(marker: object) -> Callable[..., object]:
    def unavailable(*args: object, **kwargs: object) -> object:
        from ._exceptions import ElicitationUnavailable

        raise ElicitationUnavailable(
            "This session cannot ask the user: elicitation is not available here"
        )

    return unavailable


def _convert(value: object, hint: object, name: str) -> object:
    try:
        return from_json(value, hint, name)
    except ConversionError as error:
        raise ArgumentError(f"Invalid argument '{error.path}': {error.message}") from None


class Toolbox(Mapping[str, Tool]):
    """The tools of an object, by name, and the way to call them.

    ``target`` is an instance, a class, a module, a callable, or a mapping of
    names to any of these. ``include`` and ``exclude`` select tools by name or
    fnmatch glob. ``concurrency="serial"`` runs every sync call on one
    dedicated thread, one at a time (for thread-bound objects such as
    ``sqlite3`` connections); the default runs them in worker threads.

    Raises :class:`TargetError` for names that collide or that MCP does not allow.
    """

    def __init__(
        self,
        target: object,
        *,
        include: Collection[str] | None = None,
        exclude: Collection[str] | None = None,
        concurrency: Concurrency = "threads",
    ) -> None:
        if concurrency not in ("threads", "serial"):
            raise ValueError(f"concurrency must be 'threads' or 'serial', not {concurrency!r}")
        self.target = target
        self.concurrency: Concurrency = concurrency
        self._serial: _SerialThread | None = None
        self._tools: dict[str, Tool] = {}
        for member in _introspect.discover(target):
            if not _selected(member.name, include, exclude):
                continue
            if not TOOL_NAME.match(member.name):
                raise TargetError(
                    f"'{member.name}' is not a valid MCP tool name: use 1 to 128 characters "
                    "among A-Z, a-z, 0-9, '_', '-' and '.' (rename it, or leave it out "
                    "with exclude=)"
                )
            if member.name in self._tools:
                raise TargetError(
                    f"Two callables would both be the tool '{member.name}': rename one, or "
                    "leave one out with exclude="
                )
            self._tools[member.name] = make_tool(member.name, member.function)

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def __repr__(self) -> str:
        return f"Toolbox({', '.join(self._tools)})"

    def tool(self, name: str) -> Tool:
        """The tool called ``name``; raises :class:`UnknownToolError`."""
        try:
            return self._tools[name]
        except (KeyError, TypeError):
            raise UnknownToolError(str(name)) from None

    def call(
        self,
        name: str,
        arguments: object = None,
        *,
        injected: Mapping[object, object] | None = None,
    ) -> ToolResult:
        """Call a tool from synchronous code and return its result.

        Async tools run in an event loop of their own. Raises
        :class:`UnknownToolError`; every other failure is an error result.
        """
        tool = self.tool(name)
        if tool.is_async:
            return anyio.run(lambda: self.acall(name, arguments, injected=injected))
        try:
            positional, keywords = tool.bind(arguments, injected)
            value = _materialise(tool.function(*positional, **keywords))
            if inspect.isawaitable(value):
                value = anyio.run(_await, value)
        except Exception as error:
            return error_result(error, name)
        return value_result(value)

    async def acall(
        self,
        name: str,
        arguments: object = None,
        *,
        injected: Mapping[object, object] | None = None,
    ) -> ToolResult:
        """Call a tool from async code: sync tools in a worker thread, async ones here.

        Raises :class:`UnknownToolError`; every other failure is an error result.
        """
        tool = self.tool(name)
        try:
            positional, keywords = tool.bind(arguments, injected)
            if tool.is_async:
                value = await _collect(tool.function(*positional, **keywords))
            else:
                value = await self._run_sync(tool.function, positional, keywords)
                if inspect.isawaitable(value) or inspect.isasyncgen(value):
                    value = await _collect(value)
        except Exception as error:
            return error_result(error, name)
        return value_result(value)

    async def _run_sync(
        self, function: Callable[..., object], positional: list[object], keywords: dict[str, object]
    ) -> object:
        def run() -> object:
            return _materialise(function(*positional, **keywords))

        if self.concurrency == "serial":
            if self._serial is None:
                self._serial = _SerialThread()
            return await self._serial.run(run)
        return await anyio.to_thread.run_sync(run, abandon_on_cancel=True)

    async def aclose(self) -> None:
        """Close the served object (``close()``, ``__aexit__`` or ``__exit__``) and stop threads."""
        try:
            await _close_target(self.target)
        finally:
            if self._serial is not None:
                self._serial.stop()

    def close(self) -> None:
        """Synchronous :meth:`aclose`."""
        anyio.run(self.aclose)


def _selected(name: str, include: Collection[str] | None, exclude: Collection[str] | None) -> bool:
    if include is not None and not any(fnmatch.fnmatchcase(name, p) for p in include):
        return False
    return not (exclude is not None and any(fnmatch.fnmatchcase(name, p) for p in exclude))


def _materialise(value: object) -> object:
    """Run a sync generator to its end in the calling (worker) thread."""
    if inspect.isgenerator(value) or isinstance(value, (map, filter, zip, enumerate)):
        return list(value)
    return value


async def _await(value: Awaitable[object]) -> object:
    return await value


async def _collect(value: object) -> object:
    if inspect.isasyncgen(value):
        return [item async for item in value]
    while inspect.isawaitable(value):
        value = await value
    return value


async def _close_target(target: object) -> None:
    if isinstance(target, type) or inspect.ismodule(target) or isinstance(target, Mapping):
        return
    for name in ("aclose", "close"):
        method = getattr(type(target), name, None)
        if callable(method):
            outcome = await anyio.to_thread.run_sync(getattr(target, name))
            if inspect.isawaitable(outcome):
                await outcome
            return
    if callable(getattr(type(target), "__aexit__", None)):
        await target.__aexit__(None, None, None)  # type: ignore[attr-defined]
    elif callable(getattr(type(target), "__exit__", None)):
        await anyio.to_thread.run_sync(target.__exit__, None, None, None)  # type: ignore[attr-defined]


def make_tool(name: str, function: Callable[..., object]) -> Tool:
    """Build the :class:`Tool` for one callable: its schema from signature, hints and docstring."""
    signature = _introspect.signature_of(function)
    hints = _introspect.type_hints_of(function)
    docs = _introspect.read_docs(function)
    builder = SchemaBuilder()
    properties: dict[str, JsonSchema] = {}
    required: list[str] = []
    parameters: list[Parameter] = []
    injected: dict[str, object] = {}
    additional: JsonSchema | bool = False
    for param in signature.parameters.values():
        hint = hints.get(param.name, param.annotation)
        if isinstance(hint, str):
            hint = inspect.Parameter.empty  # an annotation type_hints_of could not resolve
        marker = injected_kind(param, hint)
        if marker is not None:
            injected[param.name] = marker
            parameters.append(Parameter(param.name, hint, param.kind, True))
            continue
        if hint is inspect.Parameter.empty and param.name in docs.type_names:
            hint = _DOC_TYPES.get(docs.type_names[param.name].lower(), inspect.Parameter.empty)
        where = f"parameter '{param.name}' of tool '{name}'"
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            additional = builder.schema(hint, where) if hint is not param.empty else {}
            parameters.append(Parameter(param.name, hint, param.kind, True))
            continue
        schema = builder.schema(hint, where)
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            schema = {"type": "array", "items": schema} if schema else {"type": "array"}
            hint = list[hint] if hint is not param.empty else list  # type: ignore[valid-type]
        has_default = param.default is not param.empty or param.kind is param.VAR_POSITIONAL
        if param.name in docs.params and "description" not in schema:
            schema = {**schema, "description": docs.params[param.name]}
        if param.default is not param.empty:
            default = _jsonable_default(param.default)
            if default is not _NO_JSON:
                schema = {**schema, "default": default}
        if not has_default:
            required.append(param.name)
        properties[param.name] = schema
        parameters.append(Parameter(param.name, hint, param.kind, has_default))
    input_schema: JsonSchema = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = required
    input_schema["additionalProperties"] = additional
    if builder.defs:
        input_schema["$defs"] = builder.defs
    return Tool(
        name=name,
        description=docs.description,
        input_schema=input_schema,
        function=function,
        is_async=_is_async(function),
        parameters=tuple(parameters),
        injected=injected,
    )


class _NoJson:
    pass


_NO_JSON: Any = _NoJson()


def _jsonable_default(default: object) -> object:
    from ._convert import NotJsonable, to_jsonable

    if default is _introspect.OMITTED:
        return _NO_JSON
    try:
        return to_jsonable(default, strict=True)
    except (NotJsonable, ValueError, RecursionError):
        return _NO_JSON


def _is_async(function: object) -> bool:
    while True:
        if inspect.iscoroutinefunction(function) or inspect.isasyncgenfunction(function):
            return True
        inner = getattr(function, "func", None) or getattr(function, "__wrapped__", None)
        if inner is None or inner is function:
            return False
        function = inner


class _SerialThread:
    """One dedicated thread that runs jobs one at a time, in order."""

    def __init__(self) -> None:
        self._jobs: list[
            tuple[Callable[[], object], Callable[[object, BaseException | None], None]]
        ]
        self._jobs = []
        self._ready = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._loop, name="objmcp-serial", daemon=True)
        self._thread.start()

    async def run(self, job: Callable[[], object]) -> object:
        done = anyio.Event()
        outcome: list[tuple[object, BaseException | None]] = []
        token = anyio.lowlevel.current_token()

        def finish(value: object, error: BaseException | None) -> None:
            outcome.append((value, error))
            with contextlib.suppress(RuntimeError):  # the loop has closed
                anyio.from_thread.run_sync(done.set, token=token)

        with self._ready:
            self._jobs.append((job, finish))
            self._ready.notify()
        await done.wait()
        value, error = outcome[0]
        if error is not None:
            raise error
        return value

    def _loop(self) -> None:
        while True:
            with self._ready:
                while not self._jobs and not self._stopping:
                    self._ready.wait()
                if not self._jobs:
                    return
                job, finish = self._jobs.pop(0)
            try:
                value = job()
            except BaseException as error:
                finish(None, error)
            else:
                finish(value, None)

    def stop(self) -> None:
        """Let the thread end once the jobs already queued are done."""
        with self._ready:
            self._stopping = True
            self._ready.notify()
