"""The object model's front: a :class:`Toolbox` holds the tools of an object.

:class:`Toolbox` publishes what a target offers (found, made and named in
:mod:`objmcp.model.finding.collect`, kept in :mod:`objmcp.model.calling.catalog`), changes
it while it is served (:meth:`Toolbox.add` and :meth:`Toolbox.remove`, which say what
changed as :class:`Changes`), and calls it (:mod:`objmcp.model.calling.toolcalls`): sync
methods in worker threads, async ones on the loop, every outcome made a
:class:`~objmcp.ToolResult` by :mod:`objmcp.model.calling.outcome`; it reads resources and
renders prompts the same way (:mod:`objmcp.model.calling.reading`), and closes the served
objects (:mod:`objmcp.model.calling.closing`). Nothing here knows a protocol.
"""

from __future__ import annotations

from collections.abc import (
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
from typing import TYPE_CHECKING, Any, Literal

import anyio

from ..._exceptions import UnknownResourceError, UnknownToolError
from ..describe.specs import SpecFormat, specs
from ..discovery.metatools import (
    DEFAULT_THRESHOLD,
    Discovery,
    DiscoveryMode,
    about_target,
    check_mode,
)
from ..finding.collect import collect
from ..finding.prompts import Prompt
from ..finding.publish import PromptOptions, ResourceOptions, ToolOptions
from ..finding.resources import Resource
from ..values.content import DEFAULT_LIMITS, ResultLimits, ToolResult
from .catalog import Catalog
from .closing import close_logged
from .headers import ParamHeader
from .hooks import CallInfo, Hook
from .madeby import MadeBy, made_and_collected
from .outcome import tool_result
from .owned import OwnObjects
from .per import DEFAULT_MAX_OBJECTS, DEFAULT_OBJECT_IDLE, PER_VALUES, Objects, Per
from .reading import prompt_result, resource_contents
from .threads import DEFAULT_LIMIT, ThreadRunner
from .tool import Tool, make_tool
from .toolcalls import call_from_loop, call_in_this_thread, checked_hooks, injections

if TYPE_CHECKING:
    from ..discovery.code import CodeLimits

__all__ = [
    "Changes",
    "Concurrency",
    "DiscoveryMode",
    "MadeBy",
    "Toolbox",
    # re-exported from where they are defined: MadeBy for the command line, the rest for tests
    "make_tool",
    "tool_result",
]

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
        code_limits: CodeLimits | None = None,
    ) -> None:
        check_mode(discovery, discovery_threshold)
        if per not in PER_VALUES:
            raise ValueError(f"per must be 'shared', 'session' or 'caller', not {per!r}")
        self.hooks: tuple[Hook, ...] = checked_hooks(hooks)
        """The hooks run around every tool call, in order."""
        if concurrency not in ("threads", "serial"):
            raise ValueError(f"concurrency must be 'threads' or 'serial', not {concurrency!r}")
        self.target = target
        self.concurrency: Concurrency = concurrency
        self.lenient = lenient
        self.limits = ResultLimits(max_items, max_result, max_values)
        """How big a call may be (``max_items``, ``max_result``, ``max_values``)."""
        self._threads = ThreadRunner(serial=concurrency == "serial", limit=max_threads)
        self._catalog = Catalog(shared_process)
        self.per: Per = per
        """``"shared"``, ``"session"`` or ``"caller"``: whose object a call runs on."""
        self.objects: Objects | None = None
        """The objects of each session or caller (None when ``per="shared"``)."""
        self._owned: OwnObjects | None = None
        if per != "shared":
            self._owned = OwnObjects(
                per, target, self._threads, max_objects=max_objects, idle=object_idle
            )
            self.objects, target = self._owned.objects, self._owned.shape
        self.target, found = made_and_collected(
            target,
            lambda made: collect(
                made, include, exclude, tools, resources, prompts, lenient, shared_process
            ),
            self._threads,
        )
        if (owned := self._owned) is not None:
            self.target = owned.objects.factory.cls  # what is served: the shape stays inside
            owned.bind(found)
        self._catalog.merge(found)
        self.discovery_mode: DiscoveryMode = discovery
        """``"off"``, ``"search"`` or ``"auto"``: see :attr:`searching`."""
        self.discovery_threshold = discovery_threshold
        catalog = self._catalog
        code = None
        if discovery == "code":
            from ..discovery.code import DEFAULT_CODE_LIMITS
            from ..discovery.codemode import CodeMode
            from ..discovery.stubs import module_name

            code = CodeMode(  # each call from the code with the execute call's injected values
                lambda name, arguments, injected: self.acall(name, arguments, injected=injected),
                module_name(self.target),
                code_limits or DEFAULT_CODE_LIMITS,
            )
        self.discovery = Discovery(
            lambda: catalog.tools,
            lambda: catalog.generation,
            about_target(self.target) + (f" {about}" if about else ""),
            code,
        )
        """The meta-tools and the search index of progressive discovery."""

    @property
    def resources(self) -> Mapping[str, Resource]:
        """The resources and resource templates, by URI (template)."""
        return self._catalog.resources

    @property
    def prompts(self) -> Mapping[str, Prompt]:
        """The prompts, by name."""
        return self._catalog.prompts

    @property
    def generation(self) -> int:
        """How many times :meth:`add` and :meth:`remove` changed what is published."""
        return self._catalog.generation

    @property
    def withheld(self) -> Mapping[str, str]:
        """Callables left out because they are dangerous and nobody named them (with
        ``include=``, by the exact name): why, by tool name."""
        return self._catalog.withheld

    @property
    def dangers(self) -> Mapping[str, str]:
        """Tools served although they do something dangerous (named, or changing a
        process-wide setting where no other caller shares the process): why, by name."""
        return self._catalog.dangers

    @property
    def shared_process(self) -> bool:
        """Whether callers share this process: tools that change a process-wide setting
        are then withheld unless named (:meth:`serve_shared`)."""
        return self._catalog.shared_process

    @property
    def searching(self) -> bool:
        """Whether the tools are found by search: ``"search"`` or ``"code"`` mode, or
        ``"auto"`` with more tools than the threshold."""
        mode = self.discovery_mode
        tools = self._catalog.tools
        if mode in ("search", "code"):
            return True
        return mode == "auto" and len(tools) > self.discovery_threshold

    def listed(self) -> list[Tool]:
        """The tools a client lists: the meta-tools when :attr:`searching`, else all."""
        if self.searching:
            return list(self.discovery.meta_tools.values())
        return list(self._catalog.tools.values())

    def resolve(self, name: str, arguments: object) -> tuple[str, object]:
        """The call that ``name`` with ``arguments`` stands for: through ``call_tool``
        (when :attr:`searching`), the tool it names with its arguments; else as given."""
        if self.searching and name not in self._catalog.tools:
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
        _, found = made_and_collected(
            target,
            lambda made: collect(
                made, include, exclude, tools, resources, prompts, self.lenient, self.shared_process
            ),
            self._threads,
        )
        self._catalog.add(found)
        return Changes(tuple(found.tools), tuple(found.resources), tuple(found.prompts))

    def serve_shared(self) -> tuple[str, ...]:
        """From now on, callers share this process (as over HTTP): withhold the tools
        served only because none did (those that change a process-wide setting and
        nobody named), and those added later; returns their names. Safe to call from
        any thread."""
        return self._catalog.serve_shared()

    def remove(self, name: str) -> Changes:
        """Stop publishing the tool or prompt called ``name``, or the resource whose URI
        (template) it is; returns what was removed. Raises :class:`KeyError` when
        nothing has that name. Safe to call from any thread."""
        return Changes(*self._catalog.remove(name))

    def find_resource(self, uri: str) -> tuple[Resource, dict[str, str]] | None:
        """The resource ``uri`` names (a static one first, then templates in order), and
        its variables' values; None when it names none."""
        return self._catalog.find_resource(uri)

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
        limits, threads, owned = self.limits, self._threads, self._owned
        return await resource_contents(resource, uri, values, injected, limits, threads, owned)

    async def get_prompt(
        self, name: str, arguments: object, *, injected: Mapping[object, object] | None = None
    ) -> dict[str, Any]:
        """The result of ``prompts/get``: the prompt's messages (and description), bounded
        as a tool's result is. Raises :class:`ArgumentError`, :class:`TooBig` and whatever
        the method raises; a TypeError for what is not messages. ``injected`` as for
        :meth:`read_resource`."""
        prompt = self.prompts[name]
        limits, threads, owned = self.limits, self._threads, self._owned
        return await prompt_result(prompt, arguments, injected, limits, threads, owned)

    def __getitem__(self, name: str) -> Tool:
        return self._catalog.tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._catalog.tools)

    def __len__(self) -> int:
        return len(self._catalog.tools)

    def values(self) -> ValuesView[Tool]:
        """The tools, as published when asked (a later change leaves this view be)."""
        return self._catalog.tools.values()

    def items(self) -> ItemsView[str, Tool]:
        """The tools by name, as published when asked."""
        return self._catalog.tools.items()

    def __repr__(self) -> str:
        return f"Toolbox({', '.join(self._catalog.tools)})"

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
            return self._catalog.tools[name]
        except (KeyError, TypeError):
            pass
        if self.searching and isinstance(name, str) and name in self.discovery.meta_tools:
            return self.discovery.meta_tools[name]
        return self._catalog.by_api_name(name)

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
        ``elicit(message, wanted)`` answers the questions of the parameters that ask the
        user (``objmcp.Elicit``): it returns the answer (read as a client's would be,
        converted into the type asked for) or an :class:`ElicitResult`; without it,
        asking is an error result. ``progress`` is given to the parameters that report
        progress (``objmcp.Progress``; a no-op without it). ``sample(messages,
        **options)`` gives the completions of those that ask a model (``objmcp.Sample``):
        a string, a :class:`SampleResult` or the raw result. ``injected`` maps
        any marker (``objmcp.Roots``...) to what its parameters get; ``info`` is what
        the :attr:`hooks` see of the call (made here when not given). Sync tools
        run in the calling thread (on the dedicated one when
        ``concurrency="serial"``), async ones in an event loop of their own.
        Raises :class:`UnknownToolError`; every other failure is an error result.
        """
        name, arguments = self.resolve(name, arguments)
        tool = self.tool(name)
        injected = injections(elicit, progress, sample, injected, tool.is_async)
        if tool.is_async or self.concurrency == "serial" or self.objects is not None:
            return anyio.run(lambda: self.acall(name, arguments, injected=injected, info=info))
        return call_in_this_thread(tool, name, arguments, injected, self.hooks, self.limits, info)

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
        injected = injections(elicit, progress, sample, injected, tool.is_async)
        hooks, limits, threads, owned = self.hooks, self.limits, self._threads, self._owned
        return await call_from_loop(
            tool, name, arguments, injected, hooks, limits, info, threads, owned
        )

    async def aclose(self) -> None:
        """Close the served objects (``aclose()``, ``close()``, ``__aexit__`` or ``__exit__``).

        Errors are logged, not raised. Sync closing runs where the calls ran. With
        ``per=``, every session's or caller's object too.
        """
        try:
            if self.objects is not None:
                await self.objects.aclose()
            for owner in self._catalog.owners.values():
                await close_logged(owner, self._threads)
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

    def close(self) -> None:
        """Synchronous :meth:`aclose`."""
        anyio.run(self.aclose)


@dataclass(frozen=True)
class Changes:
    """What :meth:`Toolbox.add` or :meth:`Toolbox.remove` changed: tool names, resource
    URIs (templates) and prompt names."""

    tools: tuple[str, ...] = ()
    resources: tuple[str, ...] = ()
    prompts: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.tools or self.resources or self.prompts)
