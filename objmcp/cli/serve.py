"""Serving TARGET from the command line: the ``run`` verb, over stdio or Streamable HTTP.

:func:`serve` makes TARGET's server from the options (its records, ``--per``, the
state key), logs to stderr, says on stderr where it serves, and runs it: on stdio
(stdout the protocol's from before the target is imported), or with ``--http`` as
an ASGI app under uvicorn, in one process or ``--workers N``, each worker making
its own app (:func:`http_app_from_environment`) from the options and the secrets
left in its environment, which are then taken out of it. Serving beyond loopback
needs a token, or ``--no-auth`` said out loud.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import secrets
import sys
import typing

from .._exceptions import TargetError
from .._options import OFF, SERVER_RECORDS
from ..serving.box import BOX_ENV, Box, enter, shown_to_front
from ..serving.http_options import HTTP_RECORDS
from .flags import records_from
from .parser import _HTTP_DEFAULTS

if typing.TYPE_CHECKING:
    from .._server import Server
    from ..model.calling.toolbox import Toolbox
    from ..serving.asgi import McpApp

__all__ = ["http_app_from_environment", "serve", "work"]


def serve(options: argparse.Namespace) -> int:
    """The ``run`` verb: serve TARGET over stdio, or over HTTP with ``--http``, until its
    client (or Ctrl-C) ends it; returns the exit status."""
    _log_to_stderr(options.log_level, for_call=options.for_call)
    boxed = os.environ.get(BOX_ENV)
    box = None
    if boxed is not None:  # in the box: closed before the target is imported
        box = Box.from_env(boxed)
        enter(box)
    elif getattr(options, "sandbox", False) and not options.http:
        _serve_boxed(options)
    if getattr(options, "auth.token") is None:
        setattr(options, "auth.token", os.environ.get("OBJMCP_TOKEN") or None)
    if options.http:
        from .ctrl_c import ctrl_c_raises

        with ctrl_c_raises():  # status 130, as on stdio
            _serve_http(options)
    else:
        from ..transport.stdio import StdoutGuard

        # stdout is the protocol's from before the target is imported: what its module
        # prints then goes to stderr, as what it prints while serving does
        with StdoutGuard():
            server = _make_server(options, _take_secrets().get("OBJMCP_STATE_KEY"))
            if box is not None and box.fronted:  # its front names each request's caller
                server.fronted = True
                shown_to_front(server.toolbox.values())
            if not options.for_call:
                _say_serving(server.info.name, "on stdio", server.toolbox, server.jobs is not None)
            server.run()
    return 0


def _serve_boxed(options: argparse.Namespace) -> typing.NoReturn:
    """Serve TARGET again, in the box ``--sandbox`` describes (this process becomes
    bubblewrap's: its stdin and stdout are the box's)."""
    from ..serving.bwrap import run_boxed
    from .flags import server_arguments
    from .sandbox import boxed_command

    serving = [*server_arguments(options), *(["--for-call"] if options.for_call else [])]
    run_boxed(boxed_command(options, options.target, serving))


def work(options: argparse.Namespace) -> int:
    """The ``worker`` verb: run the calls fronts put on the queue at ``options.store``,
    until Ctrl-C; returns the exit status."""
    import anyio

    from .._options import STORE_SCHEMES
    from ..serving.asgi import McpApp
    from ..serving.queue_worker import QueueWorker
    from .ctrl_c import ctrl_c_raises

    _log_to_stderr(options.log_level)
    if not options.store.startswith(STORE_SCHEMES):
        raise TargetError(f"objmcp worker: URL is Redis's ({', '.join(STORE_SCHEMES)}...)")
    state_key = _take_secrets().get("OBJMCP_STATE_KEY")
    if state_key is None:
        raise TargetError(
            "objmcp worker needs the fronts' state key in $OBJMCP_STATE_KEY: it seals the "
            "queued calls and the tasks"
        )
    setattr(options, "tasks.store", options.store)
    options.http = True  # its callers share the process, as a front's do
    server = _make_server(options, state_key)
    server.task_queue = None  # it runs the queued calls: none goes on the queue again
    try:
        worker = QueueWorker(McpApp(server), options.at_once)
    except (ValueError, ImportError) as error:
        raise TargetError(f"objmcp worker: {error}") from None
    where = options.store.rpartition("@")[2]  # no password said

    async def serve() -> Exception | None:
        try:
            await worker.shared.renew()  # reachable, or said now rather than each second
        except Exception as error:
            return error
        sys.stderr.write(
            f"objmcp: worker {server.info.name} running the queued calls of {where} "
            f"({worker.concurrency} at once)\n"
        )
        await worker.serve()
        return None

    with ctrl_c_raises():
        unreachable = anyio.run(serve)
    if unreachable is not None:
        raise TargetError(f"objmcp worker: Redis at {where} cannot be reached ({unreachable})")
    return 0


def _say_queued(server: Server, target: str) -> None:
    """Say which tools' calls go on the queue, and what runs them; refuse a ``--queue``
    that names no tool."""
    queue = server.task_queue
    if queue is None:
        return
    unknown = sorted(name for name in queue.tools if server.toolbox.get(name) is None)
    if unknown:
        raise TargetError(f"--queue {unknown[0]}: {target} has no such tool")
    queued = sorted(
        name
        for name in server.toolbox
        if name in queue.tools or server.toolbox[name].task == "always"
    )
    if queued:
        store = queue.shared.url.rpartition("@")[2]  # no password said
        sys.stderr.write(
            f"objmcp: the calls of {', '.join(queued)} go on the queue at {store}, to a "
            "client with the tasks extension: run 'objmcp worker URL TARGET' (the same "
            "state key) to have them run\n"
        )


def _say_serving(name: str, where: str, tools: Toolbox, jobs: bool) -> None:
    from .._startline import serving_line

    sys.stderr.write(serving_line(name, where, tools, jobs))


def _log_to_stderr(log_level: str | None, for_call: bool = False) -> None:
    """Log records of ``log_level`` and above to stderr, as the CLI says a warning; for
    ``objmcp call``'s server, not those its error results carry (unless at DEBUG)."""
    from .logform import CarriedByResult, LineFormatter

    level = (log_level or "WARNING").upper()
    if not isinstance(logging.getLevelName(level), int):
        raise TargetError(f"--log-level {log_level!r} is not a level: use DEBUG, INFO, ...")
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setLevel(level)
    stderr.setFormatter(LineFormatter())
    if for_call and stderr.level > logging.DEBUG:
        stderr.addFilter(CarriedByResult())
    logging.getLogger().addHandler(stderr)
    logging.getLogger().setLevel(logging.DEBUG)  # what reaches clients is their own choice


def _make_server(options: argparse.Namespace, state_key: str | None = None) -> Server:
    from .._options import Objects, Waiting
    from .._server import Server
    from ..model.calling.toolbox import MadeBy
    from .targets import default_name, making_error, parse_target, target_maker

    records = records_from(options, SERVER_RECORDS)
    if state_key is not None:
        records["waiting"] = dataclasses.replace(records["waiting"], state_key=state_key)
    if options.http:  # every client shares the process
        records["objects"] = dataclasses.replace(records["objects"], shared_process=True)
    assert isinstance(records["waiting"], Waiting) and isinstance(records["objects"], Objects)
    per = records["objects"].per
    target: object
    if getattr(options, "sandbox", False) and os.environ.get(BOX_ENV) is None:
        return _make_front(options, records)
    if per == "shared":
        target = MadeBy(target_maker(options.target))  # made where its calls will run
    elif parse_target(options.target).call:
        raise TargetError(
            f"--per {per} makes the objects itself: name the class or the factory "
            f"without (), not {options.target}"
        )
    else:
        target = target_maker(options.target)()  # the class or the factory, not called
    try:
        return Server(
            options.name or default_name(options.target),
            target,
            version=options.server_version or "1.0.0",
            framing=options.framing or "auto",
            include=options.include,
            exclude=options.exclude,
            **records,
        )
    except TargetError:
        raise
    except Exception as error:
        raise making_error(options.target, error) from None


def _make_front(options: argparse.Namespace, records: dict[str, typing.Any]) -> Server:
    """The server in front of TARGET's boxed children (``--sandbox`` over HTTP, and a
    queue's boxed worker): its secrets stay here; the served code runs in the box."""
    from .._server import Server
    from .sandbox import boxed_front
    from .targets import default_name

    name = options.name or default_name(options.target)
    target, tools = boxed_front(options, records["objects"].per, name)
    return Server(
        name,
        target,
        version=options.server_version or "1.0.0",
        framing=options.framing or "auto",
        tools=tools,
        **records,
    )


def _make_app(options: argparse.Namespace, state_key: str | None = None) -> McpApp[Server]:
    from ..serving.asgi import McpApp

    records = records_from(options, HTTP_RECORDS)
    server = _make_server(options, state_key)
    try:
        return McpApp(server, **records)
    except (ValueError, ImportError) as error:  # options that do not go together
        raise TargetError(f"objmcp run --http: {error}") from None


_HTTP_RUN = "OBJMCP_HTTP_RUN"
"""Where ``run --http --workers N`` leaves its options for the worker processes."""


_SECRETS = (_HTTP_RUN, "OBJMCP_STATE_KEY", "OBJMCP_TOKEN")
"""The environment variables that carry secrets (the token, the state key): taken out of
a serving process's environment once read, so that the processes its tools start do not
inherit them."""


def _take_secrets() -> dict[str, str]:
    """The secrets of the environment (:data:`_SECRETS`), taken out of it."""
    return {name: value for name in _SECRETS if (value := os.environ.pop(name, None)) is not None}


def http_app_from_environment() -> McpApp[Server]:
    """The app of one worker of ``objmcp run --http --workers N`` (a uvicorn factory): its
    options and the shared state key are read, then taken out of its environment."""
    taken = _take_secrets()
    options = argparse.Namespace(**json.loads(taken[_HTTP_RUN]))
    _log_to_stderr(options.log_level)
    return _make_app(options, state_key=taken.get("OBJMCP_STATE_KEY"))


def _tasks_off_across_workers(options: argparse.Namespace, workers: int) -> None:
    """Answer no call as a task nobody else could find: with ``workers`` processes on one
    port, a task lives in the worker that made it, and the next request for it may reach
    another, which would answer "Task not found". With no shared store (``--tasks``) no
    call is a task; jobs, which no store holds yet, are off in any case. A start-up line
    says so."""
    shared = getattr(options, "tasks.store", None) is not None
    if shared and not getattr(options, "tasks.jobs", False):
        return
    setattr(options, "tasks.jobs", False)
    if shared:
        sys.stderr.write(
            f"objmcp: jobs are off with --workers {workers}: a job lives in the worker that "
            "made it, and the shared task store does not hold jobs yet\n"
        )
        return
    setattr(options, "tasks.after", OFF)
    setattr(options, "tasks.max_tasks", 0)
    sys.stderr.write(
        f"objmcp: tasks and jobs are off with --workers {workers}: a task would live in the "
        "worker that made it, and a poll may reach another; keep them in Redis with --tasks "
        "redis://HOST:PORT/0 (objmcp[redis]), or serve with one worker, to have them\n"
    )


def _serve_http(options: argparse.Namespace) -> None:
    try:
        import uvicorn
    except ImportError:
        raise TargetError("objmcp run --http needs uvicorn: pip install 'objmcp[http]'") from None
    from .http_limits import uvicorn_limits
    from .http_port import check_free

    host: str = options.host or _HTTP_DEFAULTS["host"]
    port: int = options.port or _HTTP_DEFAULTS["port"]
    workers: int = options.workers or _HTTP_DEFAULTS["workers"]
    where = f"http://{host}:{port}/mcp"
    _check_exposure(options, host, where)
    check_free(host, port)  # before anything says it serves there
    if workers > 1:
        _tasks_off_across_workers(options, workers)
        # Every worker must open the request states the others seal.
        os.environ.setdefault("OBJMCP_STATE_KEY", secrets.token_hex(32))
        os.environ[_HTTP_RUN] = json.dumps(
            {k: v for k, v in vars(options).items() if k != "handler"}
        )
        # a target that cannot be served fails here, once
        checked = _make_server(options)
        if options.sandbox:  # each worker starts boxed children of its own
            import anyio

            anyio.run(checked.toolbox.aclose)
        grace = checked.limits.grace
        limits = uvicorn_limits(options)
        sys.stderr.write(f"objmcp: serving at {where} with {workers} workers\n")
        _say_queued(checked, options.target)
        uvicorn.run(
            "objmcp.cli.serve:http_app_from_environment",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="warning",
            timeout_graceful_shutdown=int(grace),
            **limits,
        )
        return
    app = _make_app(options, _take_secrets().get("OBJMCP_STATE_KEY"))
    _say_serving(app.name, f"at {where}", app.settings.tools, app.settings.jobs)
    _say_queued(app.server, options.target)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        # calls parked for a retry hold their request open: they get the grace, no more
        timeout_graceful_shutdown=int(app.settings.grace),
        **uvicorn_limits(options),
    )


def _check_exposure(options: argparse.Namespace, host: str, where: str) -> None:
    """Refuse to serve beyond loopback with no token, unless ``--no-auth`` says so
    (then say it loudly)."""
    from ..serving.http_checks import is_loopback

    checked = ("auth.token", "auth.jwks_url", "auth.jwt_key")
    if any(getattr(options, name) for name in checked) or is_loopback(host):
        return
    if not getattr(options, "auth.no_auth"):
        raise TargetError(
            f"--host {host} serves every machine that can reach it, and there is "
            "no token: give one (--token or $OBJMCP_TOKEN), or say --no-auth to serve "
            "anyone who reaches it"
        )
    from .logform import labelled

    sys.stderr.write(
        labelled(
            "warning",
            f"serving {where} with no token (--no-auth): anyone who can reach this "
            "address can call every tool",
        )
    )
