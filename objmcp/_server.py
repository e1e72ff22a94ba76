"""The server: a :class:`~objmcp.Toolbox`, and a sans-IO :class:`Session` per
connection run by a :class:`~objmcp.serving.byte_stream.StreamConnection` on a pair of
byte streams (stdin/stdout unless given).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import sys
import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import anyio

from ._import_guard import refuse_serving_on_import
from .model.calling.hooks import Hook
from .model.calling.per import DEFAULT_MAX_OBJECTS, DEFAULT_OBJECT_IDLE, Per
from .model.calling.threads import DEFAULT_LIMIT
from .model.calling.toolbox import Changes, Concurrency, Toolbox
from .model.discovery.metatools import DEFAULT_THRESHOLD, DiscoveryMode
from .model.finding.publish import PromptOptions, ResourceOptions, ToolOptions, checked_meta
from .model.values.content import DEFAULT_LIMITS
from .model.values.printed import printed_kept
from .protocol.extensions import Extensions, declared
from .protocol.limits import (
    DEFAULT_MAX_CALLS,
    DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_STRING,
    check_limits,
    check_seconds,
)
from .protocol.modern import server_meta
from .protocol.session import (
    CacheHint,
    ServerInfo,
    Session,
    check_declare,
    check_listing,
)
from .protocol.state import StateSeal
from .protocol.surfaced import DEFAULT_SURFACED, Surfaced
from .protocol.tasks.extension import DEFAULT_KEEP, DEFAULT_MAX_TASKS, TASKS, TaskStore
from .protocol.tasks.jobs import JobTools
from .protocol.tasks.kept import DEFAULT_MAX_TASK_RESULTS, KeptTasks
from .serving.byte_stream import StreamConnection
from .serving.reader import ReaderConnection
from .serving.runner import Runner
from .serving.settings import (
    DEFAULT_MAX_WAITING,
    DEFAULT_MAX_WAITING_TOTAL,
    Hub,
    Member,
    Settings,
    Waits,
)
from .serving.signals import sigterm_ends_input
from .serving.tracing import find_tracer
from .transport.forks import kept_from_children
from .transport.framing import DEFAULT_MAX_FRAME, FrameDecoder, Framing
from .transport.stdio import StdinGuard, StdoutGuard, byte_sink, byte_source, is_stdout, plain_fd

__all__ = ["Server"]

logger = logging.getLogger("objmcp")

_UNKNOWN = object()  # the tracer, before it is looked for


DEFAULT_TASK_AFTER = 5.0
"""Seconds after which a 2026-07-28 call still running becomes a task (``task_after``)."""


class Server:
    """An MCP server for one object.

    ``name`` is the server's name for clients; ``target`` is what to serve (an
    instance, class, module, callable, or a dict of them). Options:
    ``version``, ``title``, ``instructions``, ``description`` and ``website_url``
    (for revisions that carry them), ``framing`` (``"auto"``,
    ``"newline"``, ``"content-length"``), ``include``/``exclude`` (tool names
    or globs), ``concurrency`` (``"threads"`` or ``"serial"``),
    ``max_threads`` (sync calls running at once; a call waiting for the
    client's answer does not count; more wait their turn), ``max_calls``
    (requests running at once on one connection; more are refused, "Server
    busy"), ``max_frame`` (bytes of one message), ``max_depth`` (levels of
    nesting in one message), ``max_string`` (characters in one string),
    ``call_timeout`` (seconds a call may run, waits for the client's answers not
    counted; then it is stopped and answered with an error; None: no limit), ``grace`` (seconds
    calls may finish after end of input), ``state_key`` (seals the modern era's
    request states; else the ``OBJMCP_STATE_KEY`` environment variable, else a
    random key), ``max_parked`` and ``park_timeout`` (modern era: how many calls
    may wait suspended for the client's retry, 64, and for how many seconds, 300; beyond
    either, the retry runs the method again from the start, answering its earlier
    questions from the state; a 2026-07-28 task's call waiting for ``tasks/update`` is
    counted with them, and its question fails at once when there is no room; each caller
    has its share: ``max_parked`` divided by the callers with calls waiting, one at
    least), ``task_after``, ``max_tasks``, ``task_ttl`` and ``max_task_results``
    (2026-07-28, to a client with the tasks extension: seconds after which a call still
    running is answered as a task, 5, None for only the tools that say ``task=``; tasks
    alive at once in a session, 1,000, beyond which a call is answered as a plain call,
    each caller its share: ``max_tasks`` divided by the callers with tasks alive, one at
    least; seconds an ended task is kept for the client to fetch, 600; and, in all, at
    most ``max_tasks`` ended tasks are kept, with at most ``max_task_results``
    characters of results, 64 Mi: beyond either, the oldest ended tasks, those of the
    callers over their share first, are forgotten early and answer as expired ones),
    ``jobs`` (False; True: the same
    call from a client with no tasks, in any revision, is answered with a text naming a
    job, and the tools ``job_status``, ``job_result`` and ``job_cancel`` are listed, for
    the model to come back for it), ``max_waiting`` and ``max_waiting_total``
    (how many calls may wait for the client's answer at once: in one handshake-era
    session, 64, and in all, 1,000, parked calls and tasks' calls that ask counted;
    each may keep a worker thread: beyond either, the
    question raises :class:`~objmcp.InteractionUnavailable` in the call, which
    answers with an error unless it catches it), ``tools`` (how members are published, by name:
    the options of ``@objmcp.tool``, for code that cannot carry decorators),
    ``resources`` and ``prompts`` (the same for ``@objmcp.resource(uri)`` and
    ``@objmcp.prompt``: ``{"method": "notes://{id}"}``, ``["method"]``),
    ``page_size`` (lists longer than this come in pages with a cursor; one page
    when None), ``cache`` (modern era: ``{"tools/list": (60_000, "public")}``,
    the ``ttlMs`` and ``cacheScope`` of a cacheable method's results; ``(0,
    "private")`` unless given), ``declare`` (``["prompts"]``: capabilities to declare
    while nothing is published for them yet, for a server that adds some later; a
    handshake-era client keeps the capabilities it was told at ``initialize``),
    ``lenient`` (True: an argument sent as JSON text where the schema wants an array,
    an object, a number or a boolean is read, as some clients send them; False:
    refused), ``max_items`` (items read from the iterators and generators a call, a
    resource read or a prompt returns, all together, 10,000: the rest is cut and the
    result says so), ``max_result`` (characters of a result's text, of a resource's
    contents or of a prompt's messages, 16 Mi: a longer one is an error) and
    ``max_values`` (JSON values an argument sent as JSON text may hold, counted before
    it is read, 2,000,000: beyond, an error names the argument; :func:`asgi_app`'s
    ``max_values``, which bounds a request's body, bounds these too), ``loggers``
    (the loggers whose records, with their children's, go to the client during a call;
    None, the default: those of the top-level packages the served object's tools come
    from, ``mylib`` for a class of ``mylib.sub``; an injected ``objmcp.Log`` always
    reaches it), ``discovery`` (``"auto"``, the default: search above
    ``discovery_threshold`` tools, 40; ``"search"``; ``"off"``): in search mode
    ``tools/list`` gives the meta-tools ``search_tools``, ``describe_tools`` and
    ``call_tool`` (their descriptions say ``instructions`` when given, else the
    target's docstring), and the tools a
    session's searches find join its list, at most ``max_surfaced`` (32), with
    ``notifications/tools/list_changed``; ``hooks`` (:class:`objmcp.Hook` objects run
    around every tool call, in order), ``tracing`` (True, the default: every call is an
    OpenTelemetry span when ``opentelemetry-api`` is installed; see :attr:`tracer`);
    ``per`` (``"shared"``, the default: ``target`` is the object everyone calls;
    ``"session"``: ``target`` is a class, or a function annotated with the class it makes,
    that may take the caller, and each session gets its own object, made at its first
    call and closed when the session ends: a connection on stdio, a handshake-era session
    over HTTP; a 2026-07-28 request over HTTP, which belongs to no session, gets an error
    result saying so rather than an object that never ends or one it would share;
    ``"caller"``: one object per :attr:`objmcp.Caller.key` (the user the token names,
    else the token itself, by a digest, as sessions and tasks are kept), shared by its
    sessions, closed after ``object_idle`` seconds unused, 3,600; with no caller, one for the local
    caller), ``max_objects`` (objects kept at once, 1,000: beyond, the least recently used
    is closed, after the calls using it end);
    ``shared_process`` (False; True says callers share this process, as over HTTP, where
    :func:`objmcp.asgi_app` and every :class:`objmcp.McpApp` make it so: a tool that
    changes a process-wide setting, served otherwise, is then withheld unless named);
    ``meta`` (the ``_meta`` of the ``initialize`` and ``server/discover`` results);
    ``extensions`` (the MCP extensions the server declares, SEP-2133:
    ``{"com.example/maps": {...settings}}``, in ``capabilities.extensions`` from
    2025-06-18 on; a call sees those its client declared too in
    :attr:`objmcp.Context.extensions`); and ``input``/``output`` streams
    (stdin/stdout when not given).
    """

    def __init__(
        self,
        name: str,
        target: object,
        *,
        version: str = "1.0.0",
        title: str | None = None,
        instructions: str | None = None,
        description: str | None = None,
        website_url: str | None = None,
        framing: Framing = "auto",
        include: Collection[str] | None = None,
        exclude: Collection[str] | None = None,
        concurrency: Concurrency = "threads",
        max_threads: int = DEFAULT_LIMIT,
        max_frame: int = DEFAULT_MAX_FRAME,
        max_calls: int = DEFAULT_MAX_CALLS,
        max_depth: int = DEFAULT_MAX_DEPTH,
        max_string: int = DEFAULT_MAX_STRING,
        call_timeout: float | None = None,
        grace: float = 5.0,
        state_key: str | bytes | None = None,
        max_parked: int = 64,
        park_timeout: float = 300.0,
        task_after: float | None = DEFAULT_TASK_AFTER,
        max_tasks: int = DEFAULT_MAX_TASKS,
        task_ttl: float = DEFAULT_KEEP,
        max_task_results: int = DEFAULT_MAX_TASK_RESULTS,
        jobs: bool = False,
        max_waiting: int = DEFAULT_MAX_WAITING,
        max_waiting_total: int = DEFAULT_MAX_WAITING_TOTAL,
        tools: Mapping[str, ToolOptions | Mapping[str, Any]] | None = None,
        resources: Mapping[str, str | ResourceOptions | Mapping[str, Any]] | None = None,
        prompts: Mapping[str, PromptOptions | Mapping[str, Any]] | Sequence[str] | None = None,
        page_size: int | None = None,
        cache: Mapping[str, CacheHint] | None = None,
        declare: Collection[str] = (),
        lenient: bool = True,
        max_items: int = DEFAULT_LIMITS.max_items,
        max_result: int = DEFAULT_LIMITS.max_result,
        max_values: int = DEFAULT_LIMITS.max_values,
        loggers: Collection[str] | None = None,
        discovery: DiscoveryMode = "auto",
        discovery_threshold: int = DEFAULT_THRESHOLD,
        max_surfaced: int = DEFAULT_SURFACED,
        hooks: Sequence[Hook] = (),
        tracing: bool = True,
        per: Per = "shared",
        max_objects: int = DEFAULT_MAX_OBJECTS,
        object_idle: float | None = DEFAULT_OBJECT_IDLE,
        shared_process: bool = False,
        meta: Mapping[str, Any] | None = None,
        extensions: Extensions | None = None,
        input: object = None,
        output: object = None,
    ) -> None:
        FrameDecoder(framing)  # checks the option now, not at the first byte
        self.info = ServerInfo(name, version, title, instructions, description, website_url)
        if meta is not None:
            self.info.meta = server_meta(checked_meta(meta, "meta"))
        self.extensions = declared(extensions, own={TASKS: {}})
        """The MCP extensions the server declares (``capabilities.extensions``)."""
        self.tools = Toolbox(
            target,
            include=include,
            exclude=exclude,
            concurrency=concurrency,
            max_threads=max_threads,
            tools=tools,
            resources=resources,
            prompts=prompts,
            lenient=lenient,
            max_items=max_items,
            max_result=max_result,
            max_values=max_values,
            discovery=discovery,
            discovery_threshold=discovery_threshold,
            about=instructions,
            hooks=hooks,
            per=per,
            max_objects=max_objects,
            object_idle=object_idle,
            shared_process=shared_process,
        )
        Surfaced(max_surfaced)  # checks the option now, not at the first connection
        self.max_surfaced = max_surfaced
        self.framing: Framing = framing
        check_limits(
            max_frame=max_frame, max_calls=max_calls, max_depth=max_depth, max_string=max_string
        )
        check_seconds(call_timeout=call_timeout)
        self.max_frame = max_frame
        self.max_calls = max_calls
        self.max_depth = max_depth
        self.max_string = max_string
        self.call_timeout = call_timeout
        self.grace = grace
        self.seal = StateSeal(state_key)
        if max_parked < 0 or park_timeout < 0:
            raise ValueError("max_parked and park_timeout cannot be negative")
        self.max_parked = max_parked
        self.park_timeout = park_timeout
        check_seconds(task_after=task_after)
        TaskStore(max_tasks, task_ttl)  # checks the options now, not at the first connection
        self.task_after = task_after
        self.max_tasks = max_tasks
        self.task_ttl = task_ttl
        self.kept_tasks = KeptTasks(max_tasks, max_task_results)
        """The ended tasks every session keeps, bounded in all."""
        if not isinstance(jobs, bool):
            raise TypeError(f"jobs takes True or False, not {jobs!r}")
        self.jobs = JobTools(task_after or DEFAULT_TASK_AFTER) if jobs else None
        """The job tools, when jobs are on (``job_result`` waits ``task_after`` seconds, 5
        when it is off)."""
        if max_waiting < 0:
            raise ValueError("max_waiting cannot be negative")
        self.max_waiting = max_waiting
        self.waits = Waits(max_waiting_total)
        """The calls waiting for their clients' answers, on every connection."""
        self.page_size = page_size
        self.cache = dict(cache or {})
        check_listing(page_size)
        check_declare(declare)
        self.declare = tuple(declare)
        self.tracing = tracing
        self._tracer: Any | None = _UNKNOWN
        if isinstance(loggers, str):
            raise TypeError("loggers takes a list of logger names, not one string")
        self.loggers = None if loggers is None else tuple(loggers)
        self.input = input
        self.output = output
        self._handler: Runner | None = None  # the runner of handle()
        self._handled: list[Any] = []  # what it sent
        self.hub = Hub()
        """The connections being served, which hear of changes."""

    def __repr__(self) -> str:
        return f"Server({self.info.name!r}, tools={list(self.tools)})"

    def add(
        self,
        target: object,
        *,
        include: Collection[str] | None = None,
        exclude: Collection[str] | None = None,
        tools: Mapping[str, ToolOptions | Mapping[str, Any]] | None = None,
        resources: Mapping[str, str | ResourceOptions | Mapping[str, Any]] | None = None,
        prompts: Mapping[str, PromptOptions | Mapping[str, Any]] | Sequence[str] | None = None,
    ) -> Changes:
        """Serve the tools, resources and prompts of ``target`` too, while serving or
        before (options as for the server); clients that listen hear the lists
        changed. Returns what was added; raises :class:`~objmcp.TargetError`, adding
        nothing, when a name or URI is taken. Safe to call from any thread."""
        changes = self.tools.add(
            target,
            include=include,
            exclude=exclude,
            tools=tools,
            resources=resources,
            prompts=prompts,
        )
        self.hub.broadcast(lambda session: session.changed(changes))
        return changes

    def remove(self, name: str) -> Changes:
        """Stop serving the tool or prompt ``name``, or the resource whose URI (template)
        it is; clients that listen hear the list changed. Raises :class:`KeyError`
        when nothing has that name. Safe to call from any thread."""
        changes = self.tools.remove(name)
        self.hub.broadcast(lambda session: session.changed(changes))
        return changes

    def notify_resource_updated(self, uri: str) -> None:
        """Tell the clients that subscribed to the resource ``uri`` that it changed
        (``notifications/resources/updated``). Safe to call from any thread; a method
        can take an :class:`~objmcp.ResourceUpdated` parameter to do the same."""
        if not isinstance(uri, str):
            raise TypeError(f"notify_resource_updated takes the resource's URI, not {uri!r}")
        self.hub.broadcast(lambda session: session.resource_updated(uri))

    @property
    def connections(self) -> set[Member]:
        """The connections being served."""
        return self.hub.members

    def serve_shared(self) -> tuple[str, ...]:
        """From now on, callers share this process (an HTTP app serves it): the tools
        that change a process-wide setting, served because nobody else would see the
        change, are withheld unless named (:meth:`objmcp.Toolbox.serve_shared`);
        returns their names."""
        return self.tools.serve_shared()

    def settings(self) -> Settings:
        """What a connection runs by: the server's options as they are now, frozen."""
        return Settings(
            tools=self.tools,
            make_session=self.session,
            hub=self.hub,
            waits=self.waits,
            max_waiting=self.max_waiting,
            framing=self.framing,
            max_frame=self.max_frame,
            call_timeout=self.call_timeout,
            grace=self.grace,
            park_timeout=self.park_timeout,
            task_after=self.task_after,
            jobs=self.jobs is not None,
            loggers=self.loggers,
            tracer=self.tracer,
        )

    @property
    def tracer(self) -> Any | None:
        """The OpenTelemetry tracer of the calls' spans: the global provider's, when
        ``opentelemetry-api`` is installed and ``tracing`` is on (and ``OTEL_SDK_DISABLED``
        is not ``true``); else None, and OpenTelemetry is never imported."""
        if self._tracer is _UNKNOWN:
            self._tracer = find_tracer(self.tracing)
        return self._tracer

    def session(self) -> Session:
        """A new sans-IO session for one connection."""
        return Session(
            self.tools,
            self.info,
            seal=self.seal,
            page_size=self.page_size,
            cache=self.cache,
            declare=self.declare,
            max_calls=self.max_calls,
            max_depth=self.max_depth,
            max_string=self.max_string,
            max_parked=self.max_parked,
            max_surfaced=self.max_surfaced,
            extensions=self.extensions,
            tasks=TaskStore(self.max_tasks, self.task_ttl, kept=self.kept_tasks),
            jobs=self.jobs,
        )

    async def handle(self, message: object) -> Any:
        """Answer one decoded message on the server's own session, calls run to their end.

        Returns the response (a dict, or a list for a batch) or None for a
        notification. Meant for tests and embedding: the calls run as they do when
        serving (injected parameters, ``call_timeout``), but cannot ask the client
        anything, since nobody is there to answer, and the notifications they send
        (progress, log records) go nowhere.
        """
        if self._handler is None:
            sent = self._handled
            self._handler = Runner(self.settings(), lambda message, _: sent.append(message))
            self._handler.cannot_ask = "Server.handle has no client to ask"
            self._handler.lasting = False  # it waits for every call: no job is needed
        runner, sent = self._handler, self._handled
        runner.bind()
        try:
            async with anyio.create_task_group() as calls:
                runner.calls = calls
                runner.perform(runner.handle(message), calls)
        finally:
            runner.calls = runner.loop_token = None
        answers = [answer for answer in sent if not _is_notification(answer)]
        sent.clear()
        return answers[0] if len(answers) == 1 else (answers or None)

    async def serve(self) -> None:
        """Serve until end of input: on stdin/stdout unless ``input``/``output`` were given.

        Serving the process's stdin (from its main thread), SIGTERM is taken as the end of
        input: calls in flight get ``grace`` seconds, and the served object is closed."""
        refuse_serving_on_import("Server.serve()")  # a TARGET's module serving on import
        with contextlib.ExitStack() as guards:
            output = self.output
            if output is None or is_stdout(output):
                output = guards.enter_context(StdoutGuard()).protocol_fd
            guards.enter_context(printed_kept())  # a call's printed text: its answer
            # The process's stdin is the protocol's alone: served code finds it at end of file.
            stream = self.input
            if stream is None:
                stream = guards.enter_context(StdinGuard()).protocol_fd
            source, sink = byte_source(stream), byte_sink(output)
            input_fd, output_fd = plain_fd(stream), plain_fd(output)
            # A child a tool forks must not read the requests, nor answer, nor hold them open.
            protocol_fds = (fd for fd in (input_fd, output_fd) if fd is not None)
            guards.enter_context(kept_from_children(*protocol_fds))
            settings = self.settings()
            connection = (
                StreamConnection(settings, source, sink)
                if input_fd is None or output_fd is None
                else ReaderConnection(settings, source, sink, input_fd, output_fd)
            )
            try:
                if self.input is None:  # the process's stdin: MCP's stdio shutdown sends SIGTERM
                    async with sigterm_ends_input(connection.end_input):
                        await connection.run()
                else:
                    await connection.run()
            finally:
                # A close that waits on a call stuck in its thread would wait forever.
                limit = self.grace if self.tools.abandoned else math.inf
                with anyio.move_on_after(limit, shield=True) as scope:
                    await self.tools.aclose()
                if scope.cancelled_caught:
                    logger.warning("closing the served object took too long; left unclosed")

    def run(self) -> None:
        """Serve, blocking, until end of input.

        Calls cancelled whose worker threads still run cannot be stopped: they
        get ``grace`` seconds more to end. When serving the process's own
        stdin, the process then exits without them: status 0, or 130 after
        Ctrl-C.
        """
        interrupted = False
        try:
            anyio.run(self.serve)
        except KeyboardInterrupt:
            interrupted = True
            if not self.tools.abandoned:
                raise
        deadline = time.monotonic() + (0 if interrupted else self.grace)
        while self.tools.abandoned and time.monotonic() < deadline:
            time.sleep(0.02)  # a cancelled call that checks its flag ends soon
        if self.tools.abandoned:
            logger.warning(
                "%d call(s) still running in threads; leaving without them",
                self.tools.abandoned,
            )
            if self.input is None:
                for stream in (sys.stdout, sys.stderr):
                    with contextlib.suppress(Exception):
                        stream.flush()
                os._exit(130 if interrupted else 0)
        if interrupted:
            raise KeyboardInterrupt


def _is_notification(message: object) -> bool:
    return isinstance(message, dict) and "id" not in message
