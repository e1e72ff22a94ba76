"""The object model's front: a :class:`Toolbox` holds the tools of an object.

:class:`Toolbox` publishes what a target offers (found, made and named in
:mod:`objmcp.model.finding.collect`), changes it while it is served (:meth:`Toolbox.add`
and :meth:`Toolbox.remove`, which say what changed as :class:`Changes`), and calls
it: sync methods in worker threads, async ones on the loop, every outcome made a
:class:`~objmcp.ToolResult` by :mod:`objmcp.model.calling.outcome`; it reads resources and
renders prompts the same way, and closes the served objects. Nothing here knows a
protocol.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import threading
from collections.abc import (
    AsyncIterator,
    Callable,
    Collection,
    Hashable,
    ItemsView,
    Iterator,
    Mapping,
    Sequence,
    ValuesView,
)
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import anyio

from ..._exceptions import TargetError, UnknownResourceError, UnknownToolError
from ..describe.specs import SpecFormat, api_name, specs
from ..discovery.metatools import (
    DEFAULT_THRESHOLD,
    Discovery,
    DiscoveryMode,
    about_target,
    check_mode,
)
from ..finding.collect import Found, collect
from ..finding.danger import effects_line, withheld_line
from ..finding.prompts import Prompt, render_messages
from ..finding.publish import PromptOptions, ResourceOptions, ToolOptions
from ..finding.resources import Resource, read_contents
from ..values.content import DEFAULT_LIMITS, ResultLimits, ToolResult, error_result
from ..values.jsonable import Budget
from .caller import Caller
from .headers import ParamHeader
from .hooks import CallInfo, Hook
from .inject import Elicit, Progress, Sample, injected_value
from .outcome import awaited, off_loop, tool_result
from .per import (
    DEFAULT_MAX_OBJECTS,
    DEFAULT_OBJECT_IDLE,
    PER_VALUES,
    Live,
    Objects,
    ObjectUnavailable,
    Per,
    factory_of,
    rebinder,
    shape_of,
)
from .pipeline import call_in_thread, call_on_loop, run_on_loop, settled_on_loop
from .threads import DEFAULT_LIMIT, Place, ThreadRunner
from .tool import Tool, make_tool

__all__ = [
    "Changes",
    "Concurrency",
    "DiscoveryMode",
    "MadeBy",
    "Toolbox",
    # re-exported from where they are defined, for the tests
    "make_tool",
    "tool_result",
]

logger = logging.getLogger("objmcp")

T = TypeVar("T")


@dataclass(frozen=True)
class _Pending:
    """What a sync method of a resource or a prompt returned that must be awaited on the
    event loop (an awaitable, an async generator)."""

    value: object


Concurrency = Literal["threads", "serial"]


class Toolbox(Mapping[str, Tool]):
    """The tools of an object, by name, and the way to call them.

    ``target`` is an instance, a class, a module, a callable, or a mapping of
    names to any of these. ``include`` and ``exclude`` select tools by name or
    fnmatch glob. ``concurrency="serial"`` runs every sync call on one
    dedicated thread, one at a time (for thread-bound objects such as
    ``sqlite3`` connections), and makes the object of a class target there, or
    of a :class:`MadeBy` factory; by default sync calls run in worker threads, at most
    ``max_threads`` at once (more wait their turn; a call waiting for the
    client's answer leaves its turn to others meanwhile). ``tools`` says how
    members are published, by their name (``{"add": {"title": ..., "read_only":
    True}}``, the options of ``@objmcp.tool``, or ``{"hidden": True}``), for code
    that cannot carry decorators. ``lenient`` (the default) accepts an argument
    sent as JSON text where the schema wants an array, an object, a number or a
    boolean, and a JSON array's text for an untyped parameter, as some clients send
    them; ``lenient=False`` refuses them. A result is bounded: at most ``max_items``
    items are read from the iterators and generators a call returns, all together (a
    result cut short says so after its JSON text), and a result text longer than
    ``max_result`` characters is an error result that says so; a resource's contents
    and a prompt's messages are bounded the same way, and made in the worker thread
    of a sync method, as a tool's result is. An argument sent as JSON
    text is read only when it holds at most ``max_values`` JSON values, counted before
    it is parsed (an error names it otherwise); an async tool's arguments, unless small,
    are checked and converted in a worker thread, as a sync tool's are.

    ``discovery="search"`` (or ``"auto"`` with more than ``discovery_threshold``
    tools) lists three meta-tools instead of the tools (:mod:`objmcp.model.discovery.metatools`:
    ``search_tools``, ``describe_tools``, ``call_tool``), whose descriptions say what
    the library is (the target's name and docstring, then ``about``); every tool
    stays callable by its name. ``"off"`` (the default here) lists them all.

    ``hooks`` are :class:`~objmcp.Hook` objects run around every tool call, in order
    (:mod:`objmcp.model.calling.hooks`).

    ``per="session"`` or ``"caller"`` takes a class, or a function annotated with the class
    it makes, and calls each session's or caller's own object (:mod:`objmcp.model.calling.per`):
    the tools come from the class, the objects are kept in :attr:`objects` (at most
    ``max_objects``; a caller's closed after ``object_idle`` seconds unused). ``"shared"``
    (the default) serves the target itself to everyone.

    A callable known or found to be dangerous (:mod:`objmcp.model.finding.danger`) is withheld
    unless named in ``include`` or ``tools``; one that only changes a process-wide
    setting is served unless ``shared_process`` says callers share this process (over
    HTTP): one caller's setting would change the others' answers. What was withheld is
    in :attr:`withheld`, what is served although dangerous in :attr:`dangers`.

    Raises :class:`TargetError` for names that collide or that MCP does not allow.
    """

    def __init__(
        self,
        target: object,
        *,
        include: Collection[str] | str | None = None,
        exclude: Collection[str] | str | None = None,
        concurrency: Concurrency = "threads",
        max_threads: int = DEFAULT_LIMIT,
        tools: Mapping[str, ToolOptions | Mapping[str, Any]] | None = None,
        resources: Mapping[str, str | ResourceOptions | Mapping[str, Any]] | None = None,
        prompts: Mapping[str, PromptOptions | Mapping[str, Any]] | Sequence[str] | None = None,
        lenient: bool = True,
        max_items: int = DEFAULT_LIMITS.max_items,
        max_result: int = DEFAULT_LIMITS.max_result,
        max_values: int = DEFAULT_LIMITS.max_values,
        discovery: DiscoveryMode = "off",
        discovery_threshold: int = DEFAULT_THRESHOLD,
        about: str | None = None,
        hooks: Sequence[Hook] = (),
        per: Per = "shared",
        max_objects: int = DEFAULT_MAX_OBJECTS,
        object_idle: float | None = DEFAULT_OBJECT_IDLE,
        shared_process: bool = False,
    ) -> None:
        check_mode(discovery, discovery_threshold)
        if per not in PER_VALUES:
            raise ValueError(f"per must be 'shared', 'session' or 'caller', not {per!r}")
        self.hooks: tuple[Hook, ...] = _checked_hooks(hooks)
        """The hooks run around every tool call, in order."""
        if concurrency not in ("threads", "serial"):
            raise ValueError(f"concurrency must be 'threads' or 'serial', not {concurrency!r}")
        self.target = target
        self.concurrency: Concurrency = concurrency
        self.lenient = lenient
        self.limits = ResultLimits(max_items, max_result, max_values)
        """How big a call may be (``max_items``, ``max_result``, ``max_values``)."""
        self._threads = ThreadRunner(serial=concurrency == "serial", limit=max_threads)
        # Changes replace these dicts rather than mutate them: a reader on another
        # thread keeps iterating the one it took.
        self._tools: dict[str, Tool] = {}
        self._owners: dict[int, object] = {}
        self._api_names: dict[str, str] | None = None
        self._lock = threading.Lock()
        self.resources: Mapping[str, Resource] = {}
        """The resources and resource templates, by URI (template)."""
        self.prompts: Mapping[str, Prompt] = {}
        """The prompts, by name."""
        self.generation = 0
        """How many times :meth:`add` and :meth:`remove` changed what is published."""
        self.withheld: Mapping[str, str] = {}
        """Callables left out because they are dangerous and nobody named them (with
        ``include=``, by the exact name): why, by tool name."""
        self.dangers: Mapping[str, str] = {}
        """Tools served although they do something dangerous (named, or changing a
        process-wide setting where no other caller shares the process): why, by name."""
        self.shared_process = shared_process
        """Whether callers share this process: tools that change a process-wide setting
        are then withheld unless named (:meth:`serve_shared`)."""
        self._unnamed: frozenset[str] = frozenset()  # of dangers: withheld once shared
        self.per: Per = per
        """``"shared"``, ``"session"`` or ``"caller"``: whose object a call runs on."""
        self.objects: Objects | None = None
        """The objects of each session or caller (None when ``per="shared"``)."""
        self._binders: dict[int, Callable[[object], Any]] = {}  # by the published's id
        self._shaped: list[Tool | Resource | Prompt] = []
        if per != "shared":
            factory = factory_of(target)
            target = shape_of(factory.cls)
            self.objects = Objects(
                per,
                factory,
                make=self._make_object,
                close=self._close_logged,
                max_objects=max_objects,
                idle=object_idle,
            )
        self.target, found = self._made_and_collected(
            target,
            lambda made: collect(
                made, include, exclude, tools, resources, prompts, lenient, shared_process
            ),
        )
        if self.objects is not None:
            self.target = self.objects.factory.cls  # what is served: the shape stays inside
            found.owners.pop(id(target), None)  # never made, never closed
            published_all: list[Tool | Resource | Prompt] = [
                *found.tools.values(),
                *found.resources.values(),
                *found.prompts.values(),
            ]
            for published in published_all:
                binder = rebinder(published.function, target)
                if binder is not None:
                    self._binders[id(published)] = binder
            self._shaped = published_all  # kept alive: no other's id is ever one of these
        self._merge(found)
        self.discovery_mode: DiscoveryMode = discovery
        """``"off"``, ``"search"`` or ``"auto"``: see :attr:`searching`."""
        self.discovery_threshold = discovery_threshold
        self.discovery = Discovery(
            lambda: self._tools,
            lambda: self.generation,
            about_target(self.target) + (f" {about}" if about else ""),
        )
        """The meta-tools and the search index of progressive discovery."""

    @property
    def searching(self) -> bool:
        """Whether the tools are found by search: ``"search"`` mode, or ``"auto"`` with
        more tools than the threshold."""
        mode = self.discovery_mode
        return mode == "search" or (mode == "auto" and len(self._tools) > self.discovery_threshold)

    def listed(self) -> list[Tool]:
        """The tools a client lists: the meta-tools when :attr:`searching`, else all."""
        if self.searching:
            return list(self.discovery.meta_tools.values())
        return list(self._tools.values())

    def resolve(self, name: str, arguments: object) -> tuple[str, object]:
        """The call that ``name`` with ``arguments`` stands for: through ``call_tool``
        (when :attr:`searching`), the tool it names with its arguments; else as given."""
        if self.searching and name not in self._tools:
            return self.discovery.resolve(name, arguments, self.limits.max_values)
        return name, arguments

    def add(
        self,
        target: object,
        *,
        include: Collection[str] | str | None = None,
        exclude: Collection[str] | str | None = None,
        tools: Mapping[str, ToolOptions | Mapping[str, Any]] | None = None,
        resources: Mapping[str, str | ResourceOptions | Mapping[str, Any]] | None = None,
        prompts: Mapping[str, PromptOptions | Mapping[str, Any]] | Sequence[str] | None = None,
    ) -> Changes:
        """Publish the tools, resources and prompts of ``target`` too (options as for the
        constructor); returns what was added. Raises :class:`TargetError`, adding
        nothing, when a name or URI is taken. Safe to call from any thread."""
        _, found = self._made_and_collected(
            target,
            lambda made: collect(
                made, include, exclude, tools, resources, prompts, self.lenient, self.shared_process
            ),
        )
        with self._lock:
            self._merge(found)
            self.generation += 1
        return Changes(tuple(found.tools), tuple(found.resources), tuple(found.prompts))

    def serve_shared(self) -> tuple[str, ...]:
        """From now on, callers share this process (as over HTTP): withhold the tools
        served only because none did (those that change a process-wide setting and
        nobody named), and those added later; returns their names. Safe to call from
        any thread."""
        with self._lock:
            self.shared_process = True
            names = tuple(name for name in self._tools if name in self._unnamed)
            if not names:
                return ()
            moved = {name: self.dangers[name] for name in names}
            self._tools = {key: value for key, value in self._tools.items() if key not in moved}
            self.dangers = {key: value for key, value in self.dangers.items() if key not in moved}
            self.withheld = {**self.withheld, **moved}
            self._api_names = None
            self.generation += 1
        logger.warning("%s", withheld_line(moved))
        return names

    def remove(self, name: str) -> Changes:
        """Stop publishing the tool or prompt called ``name``, or the resource whose URI
        (template) it is; returns what was removed. Raises :class:`KeyError` when
        nothing has that name. Safe to call from any thread."""
        with self._lock:
            removed = Changes(
                (name,) if name in self._tools else (),
                (name,) if name in self.resources else (),
                (name,) if name in self.prompts else (),
            )
            if not removed:
                raise KeyError(f"nothing published is called {name!r}")
            self._tools = {key: value for key, value in self._tools.items() if key != name}
            self.dangers = {key: value for key, value in self.dangers.items() if key != name}
            self.resources = {k: v for k, v in self.resources.items() if k != name}
            self.prompts = {key: value for key, value in self.prompts.items() if key != name}
            self._api_names = None
            self.generation += 1
        return removed

    def _merge(self, found: Found) -> None:
        for kind, new, old in (
            ("tool", found.tools, self._tools),
            ("resource", found.resources, self.resources),
            ("prompt", found.prompts, self.prompts),
        ):
            taken = sorted(set(new) & set(old))
            if taken:
                raise TargetError(f"There is already a {kind} {taken[0]!r}")
        self._tools = {**self._tools, **found.tools}
        self.resources = {**self.resources, **found.resources}
        self.prompts = {**self.prompts, **found.prompts}
        self._owners = {**self._owners, **found.owners}
        self._api_names = None
        if found.withheld:
            self.withheld = {**self.withheld, **found.withheld}
            logger.warning("%s", withheld_line(found.withheld))
        if found.dangers:
            served = {name: danger.reason for name, danger in found.dangers.items()}
            self.dangers = {**self.dangers, **served}
            self._unnamed = self._unnamed | found.unnamed
            logger.warning("%s", effects_line(served))
        for name, why in found.uncallable.items():
            logger.warning("tool %r left out: %s", name, why)

    def _made_and_collected(
        self, target: object, collecting: Callable[[object], Found]
    ) -> tuple[object, Found]:
        """The target, made if it is a :class:`MadeBy`, and what ``collecting`` finds it
        publishes; both where the sync calls run, since finding a class's tools makes its
        instance."""

        def make_and_collect() -> tuple[object, Found]:
            made = target.factory() if isinstance(target, MadeBy) else target
            return made, collecting(made)

        return self._threads.run_blocking(make_and_collect)

    def find_resource(self, uri: str) -> tuple[Resource, dict[str, str]] | None:
        """The resource ``uri`` names (a static one first, then templates in order), and
        its variables' values; None when it names none."""
        static = self.resources.get(uri)
        if static is not None and not static.is_template:
            return static, {}
        for resource in self.resources.values():
            values = resource.match(uri)
            if values is not None and resource.is_template:
                return resource, values
        return None

    async def read_resource(
        self, uri: str, *, injected: Mapping[object, object] | None = None
    ) -> list[dict[str, Any]]:
        """The ``contents`` of the resource ``uri``, bounded as a tool's result is
        (:attr:`limits`). Raises :class:`UnknownResourceError`, :class:`ArgumentError` for
        a URI variable that does not convert, :class:`TooBig` for contents over
        ``max_result``, and whatever the method raises. ``injected`` is what parameters
        such as ``objmcp.Elicit`` get, by marker, as for :meth:`acall`."""
        found = self.find_resource(uri)
        if found is None:
            raise UnknownResourceError(uri)
        resource, values = found
        limits = self.limits

        def contents(value: object, budget: Budget | None) -> list[dict[str, Any]]:
            return read_contents(resource, uri, value, limits, budget)

        return await self._run(resource, resource.arguments(values), injected, contents)

    async def get_prompt(
        self, name: str, arguments: object, *, injected: Mapping[object, object] | None = None
    ) -> dict[str, Any]:
        """The result of ``prompts/get``: the prompt's messages (and description), bounded
        as a tool's result is. Raises :class:`ArgumentError`, :class:`TooBig` and whatever
        the method raises; a TypeError for what is not messages. ``injected`` as for
        :meth:`read_resource`."""
        prompt = self.prompts[name]
        limits = self.limits

        def messages(value: object, budget: Budget | None) -> list[dict[str, Any]]:
            return render_messages(value, limits, budget)

        rendered = await self._run(prompt, prompt.convert(arguments), injected, messages)
        result: dict[str, Any] = {}
        if prompt.description:
            result["description"] = prompt.description
        result["messages"] = rendered
        return result

    async def _run(
        self,
        published: Resource | Prompt,
        arguments: dict[str, object],
        injected: Mapping[object, object] | None,
        convert: Callable[[object, Budget | None], T],
    ) -> T:
        """Call the method of a resource or a prompt, its injected parameters given (on the
        session's or caller's own object, with ``per=``), and ``convert`` what it returned."""
        objects = self.objects
        if objects is None or id(published) not in self._binders:
            return await self._run_on(published, arguments, injected, convert)
        async with self._own_object(injected) as (live, state):
            own = live.rebound(published, self._binders)
            return await self._run_on(own, arguments, injected, convert, state)

    async def _run_on(
        self,
        published: Resource | Prompt,
        arguments: dict[str, object],
        injected: Mapping[object, object] | None,
        convert: Callable[[object, Budget | None], T],
        state: Place | None = None,
    ) -> T:
        """As a tool is run: a sync method and the conversion of its value in a worker
        thread; an async one here, and an iterator it returns read in a worker thread."""
        for parameter, marker in published.injected.items():
            arguments[parameter] = injected_value(marker, injected, published.name)
        function = published.function
        if published.is_async:
            pending = function(**arguments)
        else:

            def run_and_convert() -> T | _Pending:
                value = function(**arguments)
                if inspect.isawaitable(value) or inspect.isasyncgen(value):
                    return _Pending(value)
                return convert(value, None)

            outcome = await self._threads.run(run_and_convert, state)
            if not isinstance(outcome, _Pending):
                return outcome
            pending = outcome.value
        value, budget = await awaited(pending, self.limits)
        if isinstance(value, Iterator):
            iterator = value
            return await off_loop(lambda: convert(iterator, None))
        return convert(value, budget)

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def values(self) -> ValuesView[Tool]:
        """The tools, as published when asked (a later change leaves this view be)."""
        return self._tools.values()

    def items(self) -> ItemsView[str, Tool]:
        """The tools by name, as published when asked."""
        return self._tools.items()

    def __repr__(self) -> str:
        return f"Toolbox({', '.join(self._tools)})"

    @property
    def threads(self) -> ThreadRunner:
        """Where the sync calls run (for servers: a waiting call lends its place out)."""
        return self._threads

    @property
    def abandoned(self) -> int:
        """Calls cancelled while their worker thread still runs (a thread cannot be stopped)."""
        return self._threads.abandoned

    def tool(self, name: str) -> Tool:
        """The tool called ``name`` (or the name :meth:`specs` gave it for an LLM API), a
        meta-tool when :attr:`searching`; raises :class:`UnknownToolError`."""
        try:
            return self._tools[name]
        except (KeyError, TypeError):
            pass
        if self.searching and isinstance(name, str) and name in self.discovery.meta_tools:
            return self.discovery.meta_tools[name]
        if self._api_names is None:
            self._api_names = {api_name(tool): tool for tool in self._tools}
        try:
            return self._tools[self._api_names[name]]
        except (KeyError, TypeError):
            raise UnknownToolError(str(name)) from None

    def param_headers(self, name: str) -> tuple[ParamHeader, ...]:
        """The ``x-mcp-header`` properties of the tool a ``tools/call`` of ``name`` calls
        directly (none for a name no tool has, and for the discovery meta-tools, whose
        own arguments carry the called tool's)."""
        try:
            return self.tool(name).headers
        except UnknownToolError:
            return ()

    def specs(self, format: SpecFormat = "mcp") -> list[dict[str, Any]]:
        """The tools' definitions for an LLM API: ``"mcp"`` (what ``tools/list`` serves),
        ``"anthropic"``, ``"openai"`` (Chat Completions), ``"openai-responses"``,
        ``"gemini"`` or ``"jsonschema"``.

        Names an API does not allow are made to fit (``a.b`` becomes ``a_b``), and
        :meth:`call` accepts them. When :attr:`searching`, the meta-tools.
        """
        return specs(self.listed(), format)

    def call(
        self,
        name: str,
        arguments: object = None,
        *,
        elicit: Callable[..., object] | None = None,
        progress: Callable[..., object] | None = None,
        sample: Callable[..., object] | None = None,
        injected: Mapping[object, object] | None = None,
        info: CallInfo | None = None,
    ) -> ToolResult:
        """Call a tool from synchronous code (not from inside an event loop).

        ``name`` is the tool's name, or the one :meth:`specs` gave it for an LLM
        API; ``arguments`` a dict or its JSON text (as OpenAI hands them over).
        ``elicit`` is given to the parameters that ask the user
        (``objmcp.Elicit``; without it, asking is an error result), ``progress``
        to those that report progress (``objmcp.Progress``; a no-op without it),
        ``sample`` to those that ask a model (``objmcp.Sample``); ``injected`` maps
        any marker (``objmcp.Roots``...) to what its parameters get; ``info`` is what
        the :attr:`hooks` see of the call (made here when not given). Sync tools
        run in the calling thread (on the dedicated one when
        ``concurrency="serial"``), async ones in an event loop of their own.
        Raises :class:`UnknownToolError`; every other failure is an error result.
        """
        name, arguments = self.resolve(name, arguments)
        tool = self.tool(name)
        injected = _injections(elicit, progress, sample, injected)
        if tool.is_async or self.concurrency == "serial" or self.objects is not None:
            return anyio.run(lambda: self.acall(name, arguments, injected=injected, info=info))
        hooks, limits = self.hooks, self.limits
        if hooks:
            info = info or CallInfo(name, arguments)

        def settle_elsewhere(pending: object) -> ToolResult:
            return anyio.run(settled_on_loop, pending, tool, limits)

        return call_in_thread(tool, arguments, injected, limits, hooks, info, settle_elsewhere)

    async def acall(
        self,
        name: str,
        arguments: object = None,
        *,
        elicit: Callable[..., object] | None = None,
        progress: Callable[..., object] | None = None,
        sample: Callable[..., object] | None = None,
        injected: Mapping[object, object] | None = None,
        info: CallInfo | None = None,
    ) -> ToolResult:
        """Call a tool from async code: sync tools in a worker thread, async ones here.

        Arguments as for :meth:`call`. Raises :class:`UnknownToolError`; every
        other failure is an error result.
        """
        name, arguments = self.resolve(name, arguments)
        tool = self.tool(name)
        injected = _injections(elicit, progress, sample, injected)
        hooks = self.hooks
        if hooks:
            info = info or CallInfo(name, arguments)
        return await call_on_loop(hooks, info, lambda: self._acall(tool, arguments, injected))

    async def _acall(
        self, tool: Tool, arguments: object, injected: Mapping[object, object] | None
    ) -> ToolResult:
        objects = self.objects
        if objects is None or id(tool) not in self._binders:
            return await self._acall_on(tool, arguments, injected)
        try:
            async with self._own_object(injected) as (live, state):
                own = live.rebound(tool, self._binders)
                return await self._acall_on(own, arguments, injected, state)
        except ObjectUnavailable as error:
            return error_result(error, tool.name)

    @contextlib.asynccontextmanager
    async def _own_object(
        self, injected: Mapping[object, object] | None
    ) -> AsyncIterator[tuple[Live, Place]]:
        """The object of the call given ``injected`` (``per=``), used while the block runs,
        and the place of the call's sync job: a job abandoned in its thread keeps the object
        from being closed until it ends."""
        objects = self.objects
        assert objects is not None
        state = Place()
        async with objects.lease(injected) as live:
            state.on_abandoned_end = objects.releaser(live)
            try:
                yield live, state
            finally:
                if state.abandoned:  # its thread runs on: the object is closed after it
                    live.running += 1

    async def _acall_on(
        self,
        tool: Tool,
        arguments: object,
        injected: Mapping[object, object] | None,
        state: Place | None = None,
    ) -> ToolResult:
        return await run_on_loop(tool, arguments, injected, self.limits, self._threads, state)

    async def aclose(self) -> None:
        """Close the served objects (``aclose()``, ``close()``, ``__aexit__`` or ``__exit__``).

        Errors are logged, not raised. Sync closing runs where the calls ran. With
        ``per=``, every session's or caller's object too.
        """
        try:
            if self.objects is not None:
                await self.objects.aclose()
            for owner in self._owners.values():
                try:
                    await self._close(owner)
                except Exception:
                    logger.exception("closing %s failed", type(owner).__qualname__)
        finally:
            self._threads.stop()

    def end_session(self, session: Hashable) -> None:
        """With ``per="session"``: ``session`` ended; its object is closed by
        :meth:`close_ended` (or by the end of the last call using it). On the event
        loop only."""
        if self.objects is not None:
            self.objects.end(session)

    async def close_ended(self) -> None:
        """Close the objects of the sessions that ended, and of callers idle too long,
        that no call uses (``per=``; nothing otherwise)."""
        if self.objects is not None:
            await self.objects.close_idle()

    async def _make_object(self, caller: Caller | None) -> object:
        """A new object of the factory, for ``caller``: made where the sync calls run."""
        assert self.objects is not None
        factory = self.objects.factory
        made = await self._threads.run(lambda: factory(caller))
        while inspect.isawaitable(made):  # an async factory
            made = await made
        return made

    async def _close_logged(self, owner: object) -> None:
        try:
            await self._close(owner)
        except Exception:
            logger.exception("closing %s failed", type(owner).__qualname__)

    async def _close(self, owner: object) -> None:
        kind = type(owner)
        for name in ("aclose", "close"):
            if callable(getattr(kind, name, None)):
                method: Callable[[], object] = getattr(owner, name)
                if inspect.iscoroutinefunction(method):
                    await method()
                else:
                    outcome = await self._threads.run(method)
                    if inspect.isawaitable(outcome):
                        await outcome
                return
        if callable(getattr(kind, "__aexit__", None)):
            await owner.__aexit__(None, None, None)  # type: ignore[attr-defined]
        elif callable(getattr(kind, "__exit__", None)):
            exit_method = owner.__exit__  # type: ignore[attr-defined]
            await self._threads.run(lambda: exit_method(None, None, None))

    def close(self) -> None:
        """Synchronous :meth:`aclose`."""
        anyio.run(self.aclose)


@dataclass(frozen=True)
class MadeBy:
    """A target yet to be made: the object ``factory()`` returns, made where the sync calls
    will run (on the one thread of ``concurrency="serial"``, for objects bound to the thread
    that made them). ``objmcp run module:factory()`` serves its factory so."""

    factory: Callable[[], object]


@dataclass(frozen=True)
class Changes:
    """What :meth:`Toolbox.add` or :meth:`Toolbox.remove` changed: tool names, resource
    URIs (templates) and prompt names."""

    tools: tuple[str, ...] = ()
    resources: tuple[str, ...] = ()
    prompts: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.tools or self.resources or self.prompts)


def _checked_hooks(hooks: Sequence[Hook]) -> tuple[Hook, ...]:
    checked = tuple(hooks)
    for hook in checked:
        if not isinstance(hook, Hook):
            raise TypeError(f"a hook is an objmcp.Hook, not {hook!r}")
    return checked


def _injections(
    elicit: Callable[..., object] | None,
    progress: Callable[..., object] | None,
    sample: Callable[..., object] | None,
    injected: Mapping[object, object] | None,
) -> Mapping[object, object] | None:
    pairs: tuple[tuple[object, object], ...] = (
        (Elicit, elicit),
        (Progress, progress),
        (Sample, sample),
    )
    given = {marker: value for marker, value in pairs if value is not None}
    return {**given, **(injected or {})} if given else injected
