"""The command line's parser: each verb's options, built from the option records.

:func:`_parser` makes ``objmcp``'s parser and one sub-parser a verb (``run``,
``inspect``, ``call``, ``config``, ``dev``, ``bundle``): TARGET and the tools picked
from it, ``--config``, the served TARGET's own options and every server record's
flags (grouped under :data:`_RECORD_TITLES`), and ``run``'s HTTP options (uvicorn's,
:data:`_HTTP_FLAGS`, and the HTTP records'). What a verb does with them is
:mod:`objmcp.cli.main`'s part, which sets each verb's handler.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._options import SERVER_RECORDS, Discovery
from ..serving.http_options import HTTP_RECORDS
from ..serving.option_fields import Flag
from .flags import (
    SERVING_FLAGS,
    UVICORN_DEFAULTS,
    UVICORN_FLAGS,
    add_flags,
    add_record_flags,
)
from .http_port import port

__all__: list[str] = []

_TARGET_HELP = (
    "path/to/file.py[:name], package.module[:name]; name() calls a factory, a class is "
    "instantiated when it needs no arguments"
)


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
    """The command line's parser, and each verb's (without its handler: see
    :func:`objmcp.cli.main.main`)."""
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

    worker = verbs.add_parser(
        "worker",
        help="run the calls fronts put on the queue in Redis at URL (--tasks URL --queue TOOL)",
        description="Take the calls 'objmcp run --http --tasks URL' fronts put on the queue "
        "at URL (their tools' that are always a task, and --queue TOOL's) and run them, each "
        "as the task the front answered with. Give TARGET as the fronts serve it, and their "
        "state key in $OBJMCP_STATE_KEY (it seals the queued calls and the tasks).",
    )
    worker.add_argument("store", metavar="URL", help="the Redis the fronts' --tasks names")
    _serving_options(worker)
    worker.add_argument(
        "--at-once", type=int, default=10, metavar="N", help="queued calls run at once (10)"
    )

    inspect = verbs.add_parser("inspect", help="show the tools TARGET would serve")
    _target_options(inspect)
    inspect.add_argument("--json", action="store_true", help='print {"tools": [...]} exactly')
    add_record_flags(inspect, {"discovery": Discovery}, _RECORD_TITLES)

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
    config.add_argument(
        "--dev",
        action="store_true",
        help="the entry runs 'objmcp dev' (restarting the server when its Python files "
        "change) instead of 'objmcp run': while you work on TARGET",
    )
    config.add_argument("--write", action="store_true", help="merge it into the config file")
    config.add_argument("--file", help="the config file to write instead of the usual one")

    dev = verbs.add_parser(
        "dev",
        help="serve TARGET over stdio, restarting it when its Python files change",
    )
    _serving_options(dev)
    dev.add_argument(
        "--watch", action="append", metavar="PATH", help="watch these files or folders too"
    )
    dev.add_argument("--interval", type=float, default=0.5, help="seconds between looks")

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
    return parser, {
        "run": run,
        "worker": worker,
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
