"""The meta-tools of code mode (``discovery="code"``): ``search_tools``, ``describe_tools``
and ``execute``, the tools said as Python.

A model finds the tools by search (each found tool comes back as its Python stub, grouped
by module), reads the stubs of those it names, and writes code that calls them by their
Python names (:mod:`objmcp.model.discovery.stubs`); ``execute`` runs it
(:mod:`objmcp.model.discovery.code`). Each call from the code is a call of the tool
through the toolbox (``call``: validation, conversion, hooks, per-caller objects), with
what the ``execute`` call was given (its elicit, progress, caller...), and only a tool the
caller's scopes reach may be called.
"""

from __future__ import annotations

import threading
import typing
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any, Protocol

from ..calling.caller import Caller
from ..calling.inject import (
    CARRIED,
    NESTED_SPAN,
    Cancelled,
    Carried,
    Elicit,
    Injected,
    Roots,
    Sample,
)
from ..calling.tool import Tool
from ..values.content import ToolResult
from .code import DEFAULT_CODE_LIMITS, CodeLimits, SpanMaker, run_code
from .metanames import check_names, free_names, meta_tools
from .stubs import Placed, module_stubs, placed


class Discovery(Protocol):
    """What code mode reads of progressive discovery
    (:class:`~objmcp.model.discovery.metatools.Discovery`)."""

    about: str

    def published(self) -> Mapping[str, Tool]: ...
    @property
    def generation(self) -> int: ...
    def search(
        self, query: str, limit: int = 10, caller: Caller | None = None
    ) -> list[dict[str, Any]]: ...
    def real_name(self, name: object) -> str | None: ...
    def names(self) -> tuple[str, str, str]: ...


__all__ = ["CodeMode", "NestedCall", "ToolCall"]

ToolCall = Callable[[str, dict[str, Any], Mapping[object, object]], Awaitable[ToolResult]]
"""A call of the tool named, with its arguments and the injected values of the call."""


class NestedCall(Mapping[object, object]):
    """What the ``number``-th tool call of a run is given: the ``execute`` call's injected
    values, its questions (elicitation, sampling, roots) keyed ``c<number>_q<i>`` unless
    they name their own key: each nested call's questions apart from the others', and the
    same when a run resumed from its snapshot makes the call again."""

    def __init__(self, given: Mapping[object, object], number: int) -> None:
        self._given, self._number = given, number
        self._asked = 0

    def __getitem__(self, marker: object) -> object:
        value = self._given[marker]
        if marker in (Elicit, Sample, Roots):
            return _Keyed(value, self._next_key)
        return value

    def __iter__(self) -> Iterator[object]:
        return iter(self._given)

    def __len__(self) -> int:
        return len(self._given)

    def _next_key(self) -> str:
        self._asked += 1
        return f"c{self._number}_q{self._asked - 1}"


class _Keyed:
    """An asker (``Elicit``, ``Sample``, ``Roots``) whose questions without a key get the
    next of :class:`NestedCall`'s; its other methods as they are."""

    def __init__(self, asker: Any, next_key: Callable[[], str]) -> None:
        self._asker, self._next_key = asker, next_key

    def __call__(self, *args: Any, key: str | None = None, **kwargs: Any) -> Any:
        return self._asker(*args, key=key or self._next_key(), **kwargs)

    def url(self, *args: Any, key: str | None = None, **kwargs: Any) -> Any:
        return self._asker.url(*args, key=key or self._next_key(), **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._asker, name)


class CodeMode:
    """Code mode over a toolbox: ``call`` calls its tools, which are the Python module
    ``module``; ``limits`` bound each run."""

    def __init__(
        self, call: ToolCall, module: str, limits: CodeLimits = DEFAULT_CODE_LIMITS
    ) -> None:
        self.call = call
        self.module = module
        """The module the tools are in (:func:`~objmcp.model.discovery.stubs.module_name`)."""
        self.limits = limits
        self._lock = threading.Lock()
        self._places: tuple[int, dict[str, Placed]] | None = None

    def places(self, discovery: Discovery) -> dict[str, Placed]:
        """Where each tool is in Python (module and name), by its name."""
        generation = discovery.generation
        made = self._places
        if made is None or made[0] != generation:
            with self._lock:
                made = (generation, placed(discovery.published().values(), self.module))
                self._places = made
        return made[1]

    def stubs(self, discovery: Discovery, names: list[str], caller: Caller | None) -> str:
        """The Python stubs of the tools named (a tool's name, or its ``module.name``),
        grouped by module; a line for a name no tool has."""
        tools = discovery.published()
        places = self.places(discovery)
        by_dotted = {place.dotted: name for name, place in places.items()}
        grouped: dict[str, list[tuple[Tool, str]]] = {}
        unknown: list[str] = []
        for name in names:
            real = by_dotted.get(name) or discovery.real_name(name)
            tool = tools.get(real) if real is not None else None
            if tool is None or (caller is not None and not caller.allows(tool.scopes)):
                unknown.append(name)
                continue
            place = places[tool.name]
            entries = grouped.setdefault(place.module, [])
            if all(existing is not tool for existing, _ in entries):
                entries.append((tool, place.name))
        parts = [module_stubs(module, entries) for module, entries in grouped.items()]
        if unknown:
            search = discovery.names()[0]
            parts.append(f"# no tool is called {', '.join(unknown)}: {search} finds them")
        return "\n\n".join(parts) if parts else "# nothing found"

    def modules(self, discovery: Discovery, caller: Caller | None) -> dict[str, dict[str, Tool]]:
        """The tools the code may call (those ``caller``'s scopes reach), by module and name."""
        tools = discovery.published()
        found: dict[str, dict[str, Tool]] = {}
        for name, place in self.places(discovery).items():
            tool = tools.get(name)
            if tool is not None and (caller is None or caller.allows(tool.scopes)):
                found.setdefault(place.module, {})[place.name] = tool
        return found

    def meta_tools(self, discovery: Discovery) -> dict[str, Tool]:
        """``search_tools``, ``describe_tools`` and ``execute``, by name."""
        taken = discovery.published()
        search, describe, run = free_names(taken, code=True)
        modules = sorted({place.module for place in self.places(discovery).values()})
        shown = ", ".join(modules[:12]) + (
            f" and {len(modules) - 12} more" if len(modules) > 12 else ""
        )
        about = discovery.about
        limits = self.limits
        mode = self

        def search_tools(query: str, limit: int = 10, caller: Caller | None = None) -> str:
            """Search the tools.

            Args:
                query: What you want done, in words ("median of some numbers"), or a
                    tool's name, or a module's name for all of its tools.
                limit: How many tools to give at most (1 to 100).
            """
            found = [entry["name"] for entry in discovery.search(query, limit, caller)]
            return mode.stubs(discovery, found, caller)

        def describe_tools(names: list[str], caller: Caller | None = None) -> str:
            """Describe tools as Python.

            Args:
                names: The tools, as module.name (or as search_tools gives them).
            """
            check_names(names)
            return mode.stubs(discovery, names, caller)

        async def execute(code: str, injected: Injected) -> ToolResult:
            """Run Python code that calls the tools.

            Args:
                code: Python (a sandboxed subset: no files, no network, no imports but the
                    tools' modules and json, re, math, datetime, collections). The tools'
                    modules are imported already: call a tool as module.name(...).
            """
            caller = injected.get(Caller)
            assert caller is None or isinstance(caller, Caller)

            async def call(name: str, arguments: dict[str, Any], number: int) -> ToolResult:
                return await mode.call(name, arguments, NestedCall(injected, number))

            flag = typing.cast("Cancelled | None", injected.get(Cancelled))
            span = typing.cast("SpanMaker | None", injected.get(NESTED_SPAN))
            return await run_code(
                code,
                mode.modules(discovery, caller),
                call,
                limits=limits,
                carried=typing.cast("Carried | None", injected.get(CARRIED)),
                cancelled=flag.is_set if flag is not None else lambda: False,
                span=span,
            )

        texts = {
            search: (
                f"Find tools of {about} ({len(taken)} tools in Python modules: {shown}; "
                f"not listed here: search first). Gives each tool found as a Python stub "
                f"(its signature and what it does), grouped by module. Then call them from "
                f"code with {run}, after {describe} for more stubs."
            ),
            describe: (
                f"The Python stubs of tools of {about.split(':', 1)[0]}: each name given "
                f"(module.name, as {search} gives them), its signature and what it does."
            ),
            run: (
                f"Run Python code that calls the tools of {about.split(':', 1)[0]} as "
                f"functions (module.name(...), as {search} and {describe} show them; the "
                "modules are imported already), and get back what it prints and the value "
                f"of its last expression: chain calls in one run rather than one call each. "
                f"A sandboxed Python subset: no files, no network, no other imports; at most "
                f"{limits.calls} tool calls and {limits.time:g} s of running a run."
            ),
        }
        return meta_tools(
            {
                search: (search_tools, texts[search], True),
                describe: (describe_tools, texts[describe], True),
                run: (execute, texts[run], None),
            }
        )
