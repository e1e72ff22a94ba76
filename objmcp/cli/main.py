"""The command line: ``objmcp VERB TARGET [options]``, also ``python -m objmcp``.

Verbs: ``run`` (serve TARGET over stdio), ``inspect`` (the tools a client would
list), ``call`` (one call through a real server process), ``config`` (a client's
configuration entry), ``dev`` (serve, restarting on file changes), ``bundle`` (an MCP
Bundle for Claude Desktop, or a ``server.json`` for the MCP registry). A verb is
recognised only in the first position and a bare TARGET means ``run``, so
``objmcp statistics`` serves the stdlib module and ``objmcp run inspect``
serves the module ``inspect``. TARGET is read by :mod:`objmcp.cli.targets`. Only
``run`` and ``dev`` serve, and nothing here writes to stdout while serving.
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
from collections.abc import Sequence
from typing import Any

from .._exceptions import TargetError
from .._options import SERVER_RECORDS, Discovery
from ..serving.http_options import HTTP_RECORDS
from ..serving.option_fields import Flag
from .config_file import config_path, use_config
from .flags import (
    SERVING_FLAGS,
    UVICORN_DEFAULTS,
    UVICORN_FLAGS,
    add_flags,
    add_record_flags,
    records_from,
    server_arguments,
)
from .http_port import port

if typing.TYPE_CHECKING:
    from .._server import Server
    from ..model.calling.toolbox import Toolbox
    from ..serving.asgi import McpApp

__all__ = ["VERBS", "main", "server_arguments"]

VERBS = ("run", "inspect", "call", "config", "dev", "bundle")
_TARGET_HELP = (
    "path/to/file.py[:name], package.module[:name]; name() calls a factory, a class is "
    "instantiated when it needs no arguments"
)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (``sys.argv[1:]`` when None), run the verb; returns the exit status.

    0 when done, 1 when ``call`` got an error result, 2 for a command that could
    not be carried out (usage, a target that does not load), 130 after Ctrl-C.
    """
    words = list(sys.argv[1:] if argv is None else argv)
    bare = bool(words) and words[0] not in VERBS and words[0] not in ("-h", "--help", "--version")
    if bare:
        words.insert(0, "run")
    parser, verbs = _parser()
    if not words:
        parser.print_help(sys.stderr)
        return 2
    try:
        path = config_path(words)
        if path is not None and words[0] in verbs:
            table = use_config(verbs[words[0]], path, verbs["run"], verbs.values())
            if words[0] == "call" and "target" in table:  # the words that follow are TOOL's
                words.insert(1, str(table["target"]))
        options, extra = parser.parse_known_args(words)
        if extra:
            parser.error(_unrecognized(extra, words[1] if bare else None))
        if getattr(options, "target", "") is None:
            verbs[words[0]].error("a TARGET is needed, on the command line or in --config")
        status: int = options.handler(options)
    except TargetError as error:
        sys.stderr.write(f"objmcp: {error}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    return status


def _unrecognized(extra: Sequence[str], bare: str | None) -> str:
    """What is wrong with words left over, the first word ``bare`` when it was taken as
    a TARGET (no verb given): a misspelt verb is named as one, with the closest verbs."""
    from .wording import did_you_mean

    hint = did_you_mean(bare, VERBS) if bare is not None else ""
    if hint:
        return f"{bare!r} is not a verb. {hint} (the verbs: {', '.join(VERBS)})"
    return f"unrecognized arguments: {' '.join(extra)}"


# --- the parser -------------------------------------------------------------------------------


_RECORD_TITLES = {
    "limits": "limits",
    "waiting": "calls waiting for the client",
    "tasks": "tasks and jobs",
    "discovery": "progressive discovery",
    "objects": "per-session and per-caller objects",
    "telemetry": "telemetry",
    "http": "the HTTP endpoint",
    "auth": "who may call over HTTP",
}

_HTTP_FLAGS = {
    "http": Flag("--http", "serve Streamable HTTP at /mcp", switch=True),
    "host": Flag("--host", "address to bind"),
    "port": Flag("--port", "port to bind", port),
    "workers": Flag(
        "--workers",
        "worker processes (they share $OBJMCP_STATE_KEY, made up when unset; the processes "
        "tools start never see it, nor the token)",
        int,
        "N",
    ),
    **UVICORN_FLAGS,
}
"""The options of ``run --http`` that are uvicorn's, not the app's."""

_HTTP_DEFAULTS: dict[str, Any] = {
    "host": "127.0.0.1",
    "port": 8000,
    "workers": 1,
    **UVICORN_DEFAULTS,
}


def _parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The command line's parser, and each verb's."""
    parser = argparse.ArgumentParser(
        prog="objmcp",
        description="Serve a Python object as an MCP server, inspect it, call it, configure "
        "a client for it. A bare TARGET means 'run TARGET'.",
        epilog="TARGET: path/to/file.py (its functions), path/to/file.py:Notes (a class, "
        "instantiated when it needs no arguments), package.module, package.module:obj, "
        "package.module:make_service() (a factory, called), statistics (a module as it is). "
        "'objmcp VERB --help' for each verb's options; '--config FILE' reads them from a "
        "TOML file (a flag is a key: task-after = 0.5).",
    )
    parser.add_argument("--version", action="version", version=_version())
    verbs = parser.add_subparsers(title="verbs", metavar="VERB")

    run = verbs.add_parser(
        "run", help="serve TARGET over stdio (the default verb), or over HTTP with --http"
    )
    _serving_options(run)
    # objmcp call's server: no start line, and no log of what the call's result carries
    run.add_argument("--for-call", action="store_true", help=argparse.SUPPRESS)
    uvicorn = run.add_argument_group("HTTP (needs uvicorn: pip install 'objmcp[http]')")
    add_flags(uvicorn, _HTTP_FLAGS, _HTTP_DEFAULTS)
    add_record_flags(run, HTTP_RECORDS, _RECORD_TITLES)
    run.set_defaults(handler=_run)

    inspect = verbs.add_parser("inspect", help="show the tools TARGET would serve")
    _target_options(inspect)
    inspect.add_argument("--json", action="store_true", help='print {"tools": [...]} exactly')
    add_record_flags(inspect, {"discovery": Discovery}, _RECORD_TITLES)
    inspect.set_defaults(handler=_inspect)

    call = verbs.add_parser(
        "call",
        help="call one tool through a real server process and print its result",
        description=(
            "Start 'objmcp run TARGET' and call TOOL through the MCP protocol. Arguments are "
            "read by the tool's input schema: key=value is the text as written for a parameter "
            """that takes a string (text=42 is "42"; s='{"a": 1}' stays a string even where any """
            "value is taken), except a number, true or false the parameter also takes (n=42 is "
            "42 for int | str; null too where any value is taken); for a parameter that takes "
            """no string it is read as JSON, else as text (tags='["a"]'). key:=json is always """
            """read as JSON (point:='{"x": 1}'). Exit status 1 when the result is an error. """
            "A call that becomes a task is followed to its end; Ctrl-C cancels it."
        ),
    )
    _serving_options(call)
    call.add_argument("tool", nargs="?", help="the tool's name (none: the tools listed)")
    call.add_argument(
        "arguments",
        nargs="*",
        metavar="key=value",
        help="the tool's arguments: key=value, or key:=json for a JSON value",
    )
    call.add_argument("--json", action="store_true", help="print the whole result as JSON")
    call.set_defaults(handler=_call)

    config = verbs.add_parser(
        "config",
        help="print (or --write) a client's configuration entry for TARGET",
    )
    config.add_argument("client", choices=("claude", "claude-code", "vscode", "cursor"))
    _serving_options(config)
    config.add_argument(
        "--scope",
        choices=("user", "project", "local"),
        help="which of a client's files: user (every project; the default but for vscode), "
        "project (a file in this folder; vscode's default, .vscode/mcp.json), local "
        "(claude-code: this folder only, kept in ~/.claude.json)",
    )
    config.add_argument("--write", action="store_true", help="merge it into the config file")
    config.add_argument("--file", help="the config file to write instead of the usual one")
    config.set_defaults(handler=_config)

    dev = verbs.add_parser(
        "dev",
        help="serve TARGET over stdio, restarting it when its Python files change",
    )
    _serving_options(dev)
    dev.add_argument(
        "--watch", action="append", metavar="PATH", help="watch these files or folders too"
    )
    dev.add_argument("--interval", type=float, default=0.5, help="seconds between looks")
    dev.set_defaults(handler=_dev)

    bundle = verbs.add_parser(
        "bundle",
        help="build an MCP Bundle (.mcpb) of TARGET for Claude Desktop, or its server.json "
        "for the MCP registry",
        description="Build NAME.mcpb: Claude Desktop installs it with a double click and runs "
        "'objmcp run TARGET' from it with uv, which brings Python and the dependencies "
        "(objmcp's, the target's distributions at the versions installed here, --with's). "
        "A file TARGET is copied in; an installed module is named as an import.",
    )
    _serving_options(bundle)
    bundle.add_argument(
        "-o", "--output", metavar="PATH", help="the file to write (./NAME.mcpb, ./server.json)"
    )
    bundle.add_argument(
        "--with",
        action="append",
        dest="requirements",
        metavar="REQUIREMENT",
        help="one more dependency to install, as pip writes it (repeat)",
    )
    bundle.add_argument("--description", help="what the server does (default: TARGET's docstring)")
    bundle.add_argument(
        "--author", help="who made it (default: the distribution's author, else you)"
    )
    bundle.add_argument(
        "--server-json",
        action="store_true",
        help="write the server.json of the MCP registry instead: --name in reverse DNS "
        "(io.github.YOU/tools), run with uvx from the PyPI package --package",
    )
    bundle.add_argument(
        "--package",
        metavar="NAME",
        help="with --server-json: the PyPI package (default: the one TARGET is installed from)",
    )
    bundle.set_defaults(handler=_bundle)
    return parser, {
        "run": run,
        "inspect": inspect,
        "call": call,
        "config": config,
        "dev": dev,
        "bundle": bundle,
    }


def _target_options(parser: argparse.ArgumentParser) -> None:
    """TARGET, the tools picked from it, and ``--config``."""
    parser.add_argument("target", nargs="?", help=_TARGET_HELP)
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="read options from a TOML file (pyproject.toml: its "
        "[tool.objmcp] table), every flag a key; the command line wins",
    )
    add_flags(parser, {key: SERVING_FLAGS[key] for key in ("include", "exclude")})


def _serving_options(parser: argparse.ArgumentParser) -> None:
    """The options of a served TARGET: its own, and every server record's."""
    _target_options(parser)
    add_flags(parser, {k: v for k, v in SERVING_FLAGS.items() if k not in ("include", "exclude")})
    parser.add_argument(
        "--version",
        nargs="?",
        action=_VersionOrServerVersion,
        metavar="VERSION",
        help="print objmcp's version (with a VERSION: deprecated, use --server-version)",
    )
    add_record_flags(parser, SERVER_RECORDS, _RECORD_TITLES)


def _version() -> str:
    from .. import __version__

    return f"objmcp {__version__}"


class _VersionOrServerVersion(argparse.Action):
    """``--version`` after a verb: alone, objmcp's version (as before a verb, what a user
    typing it means); with a value, the server's version, the old spelling of
    ``--server-version``, taken with a deprecation note on stderr."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        if values is None:
            sys.stdout.write(_version() + "\n")
            parser.exit()
        sys.stderr.write(
            f"objmcp: --version {values} is deprecated for the server's version: "
            f"use --server-version {values}\n"
        )
        namespace.server_version = values


# --- the verbs --------------------------------------------------------------------------------


def _run(options: argparse.Namespace) -> int:
    _log_to_stderr(options.log_level, for_call=options.for_call)
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
            if not options.for_call:
                _say_serving(server.info.name, "on stdio", server.toolbox, server.jobs is not None)
            server.run()
    return 0


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
        # Every worker must open the request states the others seal.
        os.environ.setdefault("OBJMCP_STATE_KEY", secrets.token_hex(32))
        os.environ[_HTTP_RUN] = json.dumps(
            {k: v for k, v in vars(options).items() if k != "handler"}
        )
        # a target that cannot be served fails here, once
        grace = _make_server(options).limits.grace
        limits = uvicorn_limits(options)
        sys.stderr.write(f"objmcp: serving at {where} with {workers} workers\n")
        uvicorn.run(
            "objmcp.cli.main:http_app_from_environment",
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


def _inspect(options: argparse.Namespace) -> int:
    from .listing import inspect_target

    discovery = records_from(options, {"discovery": Discovery})["discovery"]
    return inspect_target(
        options.target,
        options.include,
        options.exclude,
        options.json,
        discovery=(discovery.mode, discovery.threshold),
    )


def _call(options: argparse.Namespace) -> int:
    from .client import call_tool

    # the tool is called by its name: every tool listed, not the search tools of a large target
    server = [*server_arguments(options), "--discovery", "off"]
    return call_tool(options.target, options.tool, options.arguments, server, options.json)


def _config(options: argparse.Namespace) -> int:
    from .clientconfig import configure

    return configure(
        options.client,
        options.target,
        name=options.name,
        server_args=server_arguments(options),
        scope=options.scope,
        write=options.write,
        file=options.file,
        out=sys.stdout,
        err=sys.stderr,
    )


def _dev(options: argparse.Namespace) -> int:
    from .reload import develop

    return develop(options.target, server_arguments(options), options.watch or [], options.interval)


def _bundle(options: argparse.Namespace) -> int:
    from pathlib import Path

    from .bundle import describe_target, project_name, write_bundle
    from .serverjson import server_json, write_server_json

    bundled = describe_target(
        options.target,
        options.include,
        options.exclude,
        name=options.name,
        version=options.server_version,
        description=options.description,
        author=options.author,
        requirements=options.requirements or (),
    )
    server = server_arguments(options)
    if not options.server_version:  # the version the manifest says is the one served
        server += ["--server-version", bundled.version]
    if options.server_json:
        document = server_json(
            bundled, options.name or "", options.package, options.server_version, server
        )
        return write_server_json(document, Path(options.output or "server.json"), sys.stderr)
    output = Path(options.output or f"{project_name(bundled.name)}.mcpb")
    return write_bundle(bundled, server, output, sys.stderr)
