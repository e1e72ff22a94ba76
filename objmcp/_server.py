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
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

import anyio

from ._import_guard import refuse_serving_on_import
from ._options import (
    DEFAULT_TASK_AFTER,
    About,
    Discovery,
    Limits,
    Objects,
    Tasks,
    Telemetry,
    Waiting,
)
from .model.calling.hooks import Hook
from .model.calling.toolbox import Changes, Toolbox
from .model.finding.publish import PromptOptions, ResourceOptions, ToolOptions
from .model.values.printed import printed_kept
from .protocol.extensions import declared
from .protocol.modern import server_meta
from .protocol.session import ServerInfo, Session
from .protocol.state import StateSeal
from .protocol.tasks.extension import TASKS, TaskStore
from .protocol.tasks.jobs import JobTools
from .protocol.tasks.kept import KeptTasks
from .serving.byte_stream import loop_connection
from .serving.reader import fd_connection
from .serving.runner import Runner
from .serving.settings import Channel, Hub, Member, Settings, Waits
from .serving.signals import sigterm_ends_input
from .serving.tracing import find_tracer
from .transport.forks import kept_from_children
from .transport.framing import FrameDecoder, Framing
from .transport.stdio import StdinGuard, StdoutGuard, byte_sink, byte_source, is_stdout, plain_fd

if TYPE_CHECKING:
    from .serving.shared_tasks import SharedTasks
    from .serving.task_queue import TaskQueue

__all__ = ["Server", "ServerOptions"]

logger = logging.getLogger("objmcp")

_UNKNOWN = object()  # the tracer, before it is looked for


_OWN = Channel()  # a connection of its own

RecordT = TypeVar("RecordT")


def _record(name: str, given: RecordT | None, record: type[RecordT]) -> RecordT:
    """The option ``name`` as given (its record's defaults when None); TypeError for
    anything but its record."""
    if given is None:
        return record()
    if not isinstance(given, record):
        raise TypeError(f"{name} takes an objmcp.{record.__name__}(...), not {given!r}")
    return given


class ServerOptions(TypedDict, total=False):
    """The keywords of :class:`Server` besides its name, its target and its streams: what
    a helper that makes the server for you (``objmcp.testing.connect``) passes on."""

    version: str
    title: str | None
    instructions: str | None
    framing: Framing
    include: Collection[str] | None
    exclude: Collection[str] | None
    tools: Mapping[str, ToolOptions | Mapping[str, Any]] | None
    resources: Mapping[str, str | ResourceOptions | Mapping[str, Any]] | None
    prompts: Mapping[str, PromptOptions | Mapping[str, Any]] | Sequence[str] | None
    hooks: Sequence[Hook]
    limits: Limits | None
    waiting: Waiting | None
    tasks: Tasks | None
    discovery: Discovery | None
    objects: Objects | None
    about: About | None
    telemetry: Telemetry | None


class Server:
    """An MCP server for one object.

    ``name`` is the server's name for clients; ``target`` is what to serve (an instance,
    class, module, callable, or a dict of them). ``version``, ``title`` and
    ``instructions`` are what it tells clients of itself; ``framing`` is ``"auto"``,
    ``"newline"`` or ``"content-length"``; ``include``/``exclude`` pick tools by name or
    glob; ``tools``, ``resources`` and ``prompts`` say how members are published, by name,
    for code that cannot carry decorators: the options of ``@objmcp.tool``,
    ``@objmcp.resource(uri)`` and ``@objmcp.prompt`` (``{"method": "notes://{id}"}``,
    ``["method"]``); ``hooks`` are :class:`objmcp.Hook` objects run around every tool call,
    in order; ``input``/``output`` are the streams served (stdin/stdout when not given).
    The rest are records (None: each with its defaults): :class:`~objmcp.Limits`,
    :class:`~objmcp.Waiting`, :class:`~objmcp.Tasks`, :class:`~objmcp.Discovery`,
    :class:`~objmcp.Objects`, :class:`~objmcp.About` and :class:`~objmcp.Telemetry`.
    """

    def __init__(
        self,
        name: str,
        target: object,
        *,
        version: str = "1.0.0",
        title: str | None = None,
        instructions: str | None = None,
        framing: Framing = "auto",
        include: Collection[str] | None = None,
        exclude: Collection[str] | None = None,
        tools: Mapping[str, ToolOptions | Mapping[str, Any]] | None = None,
        resources: Mapping[str, str | ResourceOptions | Mapping[str, Any]] | None = None,
        prompts: Mapping[str, PromptOptions | Mapping[str, Any]] | Sequence[str] | None = None,
        hooks: Sequence[Hook] = (),
        limits: Limits | None = None,
        waiting: Waiting | None = None,
        tasks: Tasks | None = None,
        discovery: Discovery | None = None,
        objects: Objects | None = None,
        about: About | None = None,
        telemetry: Telemetry | None = None,
        input: object = None,
        output: object = None,
    ) -> None:
        FrameDecoder(framing)  # checks the option now, not at the first byte
        limits = _record("limits", limits, Limits)
        waiting = _record("waiting", waiting, Waiting)
        tasks = _record("tasks", tasks, Tasks)
        discovery = _record("discovery", discovery, Discovery)
        objects = _record("objects", objects, Objects)
        about = _record("about", about, About)
        telemetry = _record("telemetry", telemetry, Telemetry)
        self.info = ServerInfo(
            name,
            version,
            title,
            instructions,
            about.description,
            about.website_url,
            server_meta(about.meta) if about.meta is not None else {},
        )
        self.limits, self.waiting, self.tasks = limits, waiting, tasks
        self.discovery, self.objects, self.about, self.telemetry = (
            discovery,
            objects,
            about,
            telemetry,
        )
        self.extensions = declared(about.extensions, own={TASKS: {}})
        """The MCP extensions the server declares (``capabilities.extensions``)."""
        self.toolbox = Toolbox(
            target,
            include=include,
            exclude=exclude,
            concurrency=limits.concurrency,
            max_threads=limits.max_threads,
            tools=tools,
            resources=resources,
            prompts=prompts,
            lenient=limits.lenient,
            max_items=limits.max_items,
            max_result=limits.max_result,
            max_values=limits.max_values,
            discovery=discovery.mode,
            discovery_threshold=discovery.threshold,
            about=instructions,
            hooks=hooks,
            per=objects.per,
            max_objects=objects.max_objects,
            object_idle=objects.idle,
            shared_process=objects.shared_process,
            code_limits=discovery.code_limits(),
        )
        """The tools, resources and prompts served, and the objects they run on."""
        self.framing: Framing = framing
        self.seal = StateSeal(waiting.state_key)
        self.kept_tasks = KeptTasks(tasks.max_tasks, tasks.max_results)
        """The ended tasks every session keeps, bounded in all."""
        self.jobs = JobTools(tasks.after or DEFAULT_TASK_AFTER) if tasks.jobs else None
        """The job tools, when jobs are on (``job_result`` waits ``tasks.after`` seconds, 5
        when it is off)."""
        self.waits = Waits(waiting.max_waiting_total)
        """The calls waiting for their clients' answers, on every connection."""
        self.shared_tasks = _shared_tasks(tasks, self.seal.key)
        """Where tasks' answers are published for every process (``Tasks.store``)."""
        self.task_queue = _task_queue(tasks, self.shared_tasks)
        """Where calls that are tasks from the start go for workers to run (``Tasks.queue``;
        None: they run in this process, as a queue's worker runs them)."""
        self.fronted = False
        """Each request on its streams names its caller in ``_meta``: a boxed server's, whose
        front checked the caller (``objmcp run --http --sandbox`` sets it in the box)."""
        self._tracer: Any | None = _UNKNOWN
        self.input = input
        self.output = output
        self._handler: Runner | None = None  # the runner of handle()
        self._handled: list[Any] = []  # what it sent
        self.hub = Hub()
        """The connections being served, which hear of changes."""

    def __repr__(self) -> str:
        return f"Server({self.info.name!r}, tools={list(self.toolbox)})"

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
        changes = self.toolbox.add(
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
        changes = self.toolbox.remove(name)
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
        return self.toolbox.serve_shared()

    def settings(self) -> Settings:
        """What a connection runs by: the server's options as they are now, frozen."""
        return Settings(
            tools=self.toolbox,
            make_session=self.session,
            hub=self.hub,
            waits=self.waits,
            max_waiting=self.waiting.max_waiting,
            framing=self.framing,
            max_frame=self.limits.max_frame,
            call_timeout=self.limits.call_timeout,
            grace=self.limits.grace,
            park_timeout=self.waiting.park_timeout,
            task_after=self.tasks.after,
            jobs=self.jobs is not None,
            shared=self.shared_tasks,
            queue=self.task_queue,
            loggers=None if (names := self.telemetry.loggers) is None else tuple(names),
            tracer=self.tracer,
            fronted=self.fronted,
        )

    @property
    def tracer(self) -> Any | None:
        """The OpenTelemetry tracer of the calls' spans: the global provider's, when
        ``opentelemetry-api`` is installed and ``tracing`` is on (and ``OTEL_SDK_DISABLED``
        is not ``true``); else None, and OpenTelemetry is never imported."""
        if self._tracer is _UNKNOWN:
            self._tracer = find_tracer(self.telemetry.tracing)
        return self._tracer

    def session(self, channel: Channel = _OWN) -> Session:
        """A new sans-IO session for one connection, whose client is reached as ``channel``
        says."""
        return Session(
            self.toolbox,
            self.info,
            seal=self.seal,
            page_size=self.limits.page_size,
            cache=self.about.cache,
            declare=self.about.declare,
            max_calls=self.limits.max_calls,
            max_depth=self.limits.max_depth,
            max_string=self.limits.max_string,
            max_parked=self.waiting.max_parked,
            max_surfaced=self.discovery.max_surfaced,
            extensions=self.extensions,
            tasks=TaskStore(
                self.tasks.max_tasks,
                self.tasks.ttl,
                route=channel.task_route,
                kept=self.kept_tasks,
                published=self.shared_tasks is not None and channel.publishes_tasks,
            ),
            jobs=self.jobs,
            keeps_tasks=channel.keeps_tasks,
            reachable=channel.reachable,
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
            # it waits for every call: no job is needed
            channel = Channel(cannot_ask="Server.handle has no client to ask", lasting=False)
            self._handler = Runner(
                self.settings(), lambda message, _: sent.append(message), channel
            )
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
                loop_connection(settings, source, sink)
                if input_fd is None or output_fd is None
                else fd_connection(settings, sink, input_fd, output_fd)
            )
            try:
                if self.input is None:  # the process's stdin: MCP's stdio shutdown sends SIGTERM
                    async with sigterm_ends_input(connection.end_input):
                        await connection.run()
                else:
                    await connection.run()
            finally:
                # A close that waits on a call stuck in its thread would wait forever.
                limit = self.limits.grace if self.toolbox.abandoned else math.inf
                with anyio.move_on_after(limit, shield=True) as scope:
                    await self.toolbox.aclose()
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
            if not self.toolbox.abandoned:
                raise
        deadline = time.monotonic() + (0 if interrupted else self.limits.grace)
        while self.toolbox.abandoned and time.monotonic() < deadline:
            time.sleep(0.02)  # a cancelled call that checks its flag ends soon
        if self.toolbox.abandoned:
            logger.warning(
                "%d call(s) still running in threads; leaving without them",
                self.toolbox.abandoned,
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


def _task_queue(tasks: Tasks, shared: SharedTasks | None) -> TaskQueue | None:
    """The queue of the store ``shared`` (None: no store)."""
    if shared is None:
        return None
    from .serving.task_queue import TaskQueue

    return TaskQueue(shared, tasks.queue)


def _shared_tasks(tasks: Tasks, state_key: bytes) -> SharedTasks | None:
    """The store ``tasks.store`` names, sealed with ``state_key`` (None: no store)."""
    if tasks.store is None:
        return None
    from .serving.shared_tasks import SharedTasks

    return SharedTasks(tasks.store, state_key, ttl=tasks.ttl, max_tasks=max(1, tasks.max_tasks))
