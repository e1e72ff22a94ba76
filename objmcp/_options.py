"""The server's options, in typed, frozen records, each checked when it is made.

``Server(name, target, limits=Limits(call_timeout=30), tasks=Tasks(after=1))``: a record
groups the options of one concern, its defaults are the server's, and a value no server
could run by is refused at once (:class:`ValueError`, naming the option). The command line
is built from the same fields (:mod:`objmcp.serving.option_fields`), as are the reference
docs; the HTTP app's records are :class:`~objmcp.Http` and :class:`~objmcp.Auth`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._bounds import Limits, Waiting
from ._bounds import set_checked as _set
from .model.calling.per import DEFAULT_MAX_OBJECTS, DEFAULT_OBJECT_IDLE, PER_VALUES, Per
from .model.discovery.code import DEFAULT_CODE_LIMITS, CodeLimits
from .model.discovery.metatools import DEFAULT_THRESHOLD, DiscoveryMode, check_mode
from .model.finding.publish import checked_meta
from .protocol.actions import CacheHint
from .protocol.extensions import Extensions
from .protocol.features import check_declare
from .protocol.limits import (
    check_limits,
    check_seconds,
)
from .protocol.surfaced import DEFAULT_SURFACED, Surfaced
from .protocol.tasks.extension import DEFAULT_KEEP, DEFAULT_MAX_TASKS
from .protocol.tasks.kept import DEFAULT_MAX_TASK_RESULTS
from .serving.option_fields import Flag, option

if TYPE_CHECKING:  # the command line reads the records before what serves is imported
    pass

__all__ = [
    "DEFAULT_TASK_AFTER",
    "OFF",
    "SERVER_RECORDS",
    "About",
    "Discovery",
    "Limits",
    "Objects",
    "Sandbox",
    "Tasks",
    "Telemetry",
    "Waiting",
    "seconds_or_off",
]

DEFAULT_TASK_AFTER = 5.0
"""Seconds after which a 2026-07-28 call still running becomes a task (:attr:`Tasks.after`)."""


OFF = "off"
"""What the command line writes for a duration that is off (None in its record)."""


def seconds_or_off(text: str) -> float | str:
    """A number of seconds, or :data:`OFF`, as the command line writes them."""
    if text.strip().lower() in ("off", "none"):
        return OFF
    return float(text)


STORE_SCHEMES = ("redis://", "rediss://", "unix://")
"""How a shared task store's URL starts."""


@dataclass(frozen=True, kw_only=True)
class Tasks:
    """Long calls: tasks (2026-07-28, to a client with the tasks extension) and jobs.

    ``after``: seconds after which a call still running is answered as a task (None: only
    the tools that say ``task=``). ``max_tasks``: tasks alive at once in a session (beyond,
    a call is answered as a plain call), each caller its share, ``max_tasks`` divided by the
    callers with tasks alive, one at least; and, in all, at most ``max_tasks`` ended tasks
    are kept. ``ttl``: seconds an ended task is kept for the client to fetch.
    ``max_results``: characters of the results ended tasks keep, in all; beyond it or
    ``max_tasks``, the oldest ended tasks, those of the callers over their share first, are
    forgotten early and answer as expired ones. ``jobs``: the same call from a client with
    no tasks, in any revision, is answered with a text naming a job, and the tools
    ``job_status``, ``job_result`` and ``job_cancel`` are listed for the model to come back
    for it (``job_result`` waits ``after`` seconds, 5 when it is None). ``store``: a Redis
    URL where tasks' answers are kept, for every process of the deployment to answer
    ``tasks/get`` for any task (:mod:`objmcp.serving.shared_tasks`; needs ``objmcp[redis]``).
    ``queue``: with ``store``, the tools whose every call goes on the queue there, answered
    as a task at once and run by ``objmcp worker`` processes
    (:mod:`objmcp.serving.task_queue`); a call of a tool that is always a task goes there too.
    """

    after: float | None = option(
        DEFAULT_TASK_AFTER,
        Flag(
            "--task-after",
            "answer a 2026-07-28 call still running as a task, to a client with the tasks "
            "extension (off: only tools that say task=)",
            seconds_or_off,
            "SECONDS",
        ),
    )
    max_tasks: int = option(
        DEFAULT_MAX_TASKS,
        Flag("--max-tasks", "tasks alive at once, and ended tasks kept in all", int, "N"),
    )
    ttl: float = option(
        DEFAULT_KEEP, Flag("--task-ttl", "seconds an ended task is kept", float, "SECONDS")
    )
    max_results: int = option(
        DEFAULT_MAX_TASK_RESULTS,
        Flag("--max-task-results", "characters of the results ended tasks keep, in all", int, "N"),
    )
    store: str | None = option(
        None,
        Flag(
            "--tasks",
            "keep tasks' answers in Redis at URL (redis://HOST:PORT/DB), where every process "
            "of the deployment answers for them (needs objmcp[redis])",
            str,
            "URL",
        ),
    )
    queue: tuple[str, ...] = option(
        (),
        Flag(
            "--queue",
            "with --tasks: every call of this tool goes on the queue in Redis, run by "
            "`objmcp worker URL TARGET` processes (repeat; tools that are always a task go "
            "there too)",
            metavar="TOOL",
            repeat=True,
        ),
    )
    jobs: bool = option(
        False,
        Flag(
            "--jobs",
            "answer such a call from a client with no tasks (any revision) with a text naming "
            "a job, and list the tools job_status, job_result and job_cancel to come back for it",
            switch=True,
        ),
    )

    def __post_init__(self) -> None:
        check_seconds(after=self.after, ttl=self.ttl)
        for name in ("max_tasks", "max_results"):
            number = getattr(self, name)
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                raise ValueError(f"{name} must be a whole number, 0 or more, not {number!r}")
        if not isinstance(self.jobs, bool):
            raise TypeError(f"jobs takes True or False, not {self.jobs!r}")
        if self.store is not None and not (
            isinstance(self.store, str) and self.store.startswith(STORE_SCHEMES)
        ):
            raise ValueError(
                f"store takes a Redis URL ({', '.join(STORE_SCHEMES)}...), not {self.store!r}"
            )
        if isinstance(self.queue, str) or not all(isinstance(n, str) for n in self.queue):
            raise TypeError(f"queue takes tool names (a list of strings), not {self.queue!r}")
        object.__setattr__(self, "queue", tuple(self.queue))
        if self.queue and self.store is None:
            raise ValueError("queue needs store: the queue is in the Redis the tasks are kept in")


@dataclass(frozen=True, kw_only=True)
class Discovery:
    """Progressive discovery: many tools offered through a search.

    ``mode``: ``"auto"`` (search above ``threshold`` tools), ``"search"``, ``"code"`` or
    ``"off"``. In search mode ``tools/list`` gives the meta-tools ``search_tools``,
    ``describe_tools`` and ``call_tool`` (their descriptions say the server's
    ``instructions`` when given, else the target's docstring), and the tools a session's
    searches find join its list, at most ``max_surfaced``, with
    ``notifications/tools/list_changed``. In code mode (``objmcp[code]``) it gives
    ``search_tools`` and ``describe_tools``, which say the tools as Python stubs, and
    ``execute``, which runs a model's Python that calls them in a sandbox, each run within
    ``code_time`` seconds of running, ``code_memory`` bytes and ``code_calls`` tool calls.
    """

    mode: DiscoveryMode = option(
        "auto",
        Flag(
            "--discovery",
            "list search_tools, describe_tools and call_tool instead of every tool (search), "
            "above --discovery-threshold tools (auto), never (off), or search_tools, "
            "describe_tools and execute, which runs Python that calls the tools (code)",
            choices=("off", "search", "auto", "code"),
        ),
    )
    threshold: int = option(
        DEFAULT_THRESHOLD,
        Flag("--discovery-threshold", "tools above which auto searches", int, "N"),
    )
    max_surfaced: int = option(
        DEFAULT_SURFACED,
        Flag("--max-surfaced", "found tools a session lists at most", int, "N"),
    )

    code_time: float = option(
        DEFAULT_CODE_LIMITS.time,
        Flag("--code-time", "code mode: seconds one execute may run", float, "SECONDS"),
    )
    code_memory: int = option(
        DEFAULT_CODE_LIMITS.memory,
        Flag("--code-memory", "code mode: bytes one execute may hold", int, "BYTES"),
    )
    code_calls: int = option(
        DEFAULT_CODE_LIMITS.calls,
        Flag("--code-calls", "code mode: tool calls one execute may make", int, "N"),
    )

    def __post_init__(self) -> None:
        check_mode(self.mode, self.threshold)
        Surfaced(self.max_surfaced)
        for key in ("code_time", "code_memory", "code_calls"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"{key} must be a positive number, not {value!r}")

    def code_limits(self) -> CodeLimits:
        """What one ``execute`` may take, in code mode."""
        return dataclasses.replace(
            DEFAULT_CODE_LIMITS,
            time=float(self.code_time),
            memory=int(self.code_memory),
            calls=int(self.code_calls),
        )


@dataclass(frozen=True, kw_only=True)
class Objects:
    """Whose object a call runs on.

    ``per``: ``"shared"`` (the target is the object everyone calls); ``"session"`` (the
    target is a class, or a function annotated with the class it makes, that may take the
    caller, and each session gets its own object, made at its first call and closed when the
    session ends: a connection on stdio, a handshake-era session over HTTP; a 2026-07-28
    request over HTTP, which belongs to no session, gets an error result saying so);
    ``"caller"`` (one object per :attr:`objmcp.Caller.key`, shared by its sessions, closed
    after ``idle`` seconds unused; with no caller, one for the local caller).
    ``max_objects``: objects kept at once (beyond, the least recently used is closed, after
    the calls using it end). ``shared_process``: callers share this process, as over HTTP
    (:func:`objmcp.asgi_app` and every :class:`objmcp.McpApp` make it so): a tool that
    changes a process-wide setting, served otherwise, is then withheld unless named.
    """

    per: Per = option(
        "shared",
        Flag(
            "--per",
            "one object for everyone (shared), or TARGET (a class, or a function annotated "
            "with the class it makes) makes one per session or per caller",
            choices=PER_VALUES,
        ),
    )
    max_objects: int = option(
        DEFAULT_MAX_OBJECTS, Flag("--max-objects", "with --per: objects kept at once", int, "N")
    )
    idle: float | None = option(
        DEFAULT_OBJECT_IDLE,
        Flag(
            "--object-idle",
            "with --per caller: close a caller's object unused this long",
            float,
            "SECONDS",
        ),
    )
    shared_process: bool = option(False)

    def __post_init__(self) -> None:
        if self.per not in PER_VALUES:
            raise ValueError(f"per must be 'shared', 'session' or 'caller', not {self.per!r}")
        check_limits(max_objects=self.max_objects)
        check_seconds(idle=self.idle)
        if not isinstance(self.shared_process, bool):
            raise TypeError(f"shared_process takes True or False, not {self.shared_process!r}")


@dataclass(frozen=True, kw_only=True)
class About:
    """What the server says of itself beyond its name, version, title and instructions.

    ``description`` and ``website_url`` (for the revisions that carry them); ``meta`` (the
    ``_meta`` of the ``initialize`` and ``server/discover`` results); ``extensions`` (the
    MCP extensions the server declares, SEP-2133: ``{"com.example/maps": {...settings}}``, in
    ``capabilities.extensions`` from 2025-06-18 on; a call sees those its client declared
    too in :attr:`objmcp.Context.extensions`); ``declare`` (``["prompts"]``: capabilities
    to declare while nothing is published for them yet, for a server that adds some later);
    ``cache`` (the modern era: ``{"tools/list": (60_000, "public")}``, the ``ttlMs`` and
    ``cacheScope`` of a cacheable method's results; ``(0, "private")`` unless given).
    """

    description: str | None = None
    website_url: str | None = None
    meta: Mapping[str, Any] | None = None
    extensions: Extensions | None = None
    declare: Collection[str] = ()
    cache: Mapping[str, CacheHint] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.meta is not None:
            _set(self, "meta", checked_meta(self.meta, "meta"))
        check_declare(self.declare)
        _set(self, "declare", tuple(self.declare))
        _set(self, "cache", dict(self.cache))


@dataclass(frozen=True, kw_only=True)
class Sandbox:
    """The box the served code runs in (bubblewrap, on Linux; :mod:`objmcp.serving.bwrap`):
    its own namespaces (no network, its own processes), no program started in it, no new
    privileges, and a filesystem read-only and limited to Python's prefix, the environment's
    packages and the program's folder, plus:

    ``readable``: folders it may read; ``writable``: folders it may write (nothing else is
    writable but a private ``/tmp``); ``allow_net``: the ``HOST:PORT`` addresses it may
    connect to (by the host's name, or ``127.0.0.1``/``localhost``); ``memory``: its address
    space in bytes (None: 4 GiB)."""

    readable: Collection[str] = ()
    writable: Collection[str] = ()
    allow_net: Collection[str] = ()
    memory: int | None = None

    def __post_init__(self) -> None:
        for key in ("readable", "writable", "allow_net"):
            value = getattr(self, key)
            if isinstance(value, str) or not all(isinstance(item, str) for item in value):
                raise TypeError(f"Sandbox {key} is a list of strings, not {value!r}")
            _set(self, key, tuple(value))
        if self.memory is not None and (not isinstance(self.memory, int) or self.memory <= 0):
            raise ValueError(f"Sandbox memory is a number of bytes, not {self.memory!r}")


@dataclass(frozen=True, kw_only=True)
class Telemetry:
    """What the server tells of its calls.

    ``tracing``: every call is an OpenTelemetry span when ``opentelemetry-api`` is installed
    (and ``OTEL_SDK_DISABLED`` is not ``true``). ``loggers``: the loggers whose records, with
    their children's, go to the client during a call (None: those of the top-level packages
    the served object's tools come from, ``mylib`` for a class of ``mylib.sub``); an
    injected ``objmcp.Log`` always reaches it.
    """

    tracing: bool = option(
        True, Flag("--no-tracing", "make no OpenTelemetry span of a call", switch=False)
    )
    loggers: Collection[str] | None = option(
        None,
        Flag(
            "--logger",
            "a logger whose records (and its children's) go to the client (repeat; default: "
            "the served object's top-level package)",
            metavar="NAME",
            repeat=True,
        ),
    )

    def __post_init__(self) -> None:
        if not isinstance(self.tracing, bool):
            raise TypeError(f"tracing takes True or False, not {self.tracing!r}")
        if isinstance(self.loggers, str):
            raise TypeError("loggers takes a list of logger names, not one string")
        if self.loggers is not None:
            _set(self, "loggers", tuple(self.loggers))


SERVER_RECORDS: dict[str, type] = {
    "limits": Limits,
    "waiting": Waiting,
    "tasks": Tasks,
    "discovery": Discovery,
    "objects": Objects,
    "telemetry": Telemetry,
}
"""The records of :class:`~objmcp.Server` with command-line flags, by keyword."""
