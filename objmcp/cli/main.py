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
import json
import logging
import os
import secrets
import sys
import typing
from collections.abc import Sequence

from .._exceptions import TargetError
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
    parser = _parser()
    if not words:
        parser.print_help(sys.stderr)
        return 2
    options, extra = parser.parse_known_args(words)
    if extra:
        parser.error(_unrecognized(extra, words[1] if bare else None))
    try:
        status: int = options.handler(options)
    except TargetError as error:
        sys.stderr.write(f"objmcp: {error}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    return status


def server_arguments(options: argparse.Namespace) -> list[str]:
    """The ``objmcp run`` options that serve a target as ``options`` ask, for a child process."""
    words: list[str] = []
    for flag, value in (
        ("--name", options.name),
        ("--server-version", options.server_version),
        ("--concurrency", options.concurrency),
        ("--log-level", options.log_level),
        ("--discovery", getattr(options, "discovery", None)),
        ("--discovery-threshold", getattr(options, "discovery_threshold", None)),
        ("--max-surfaced", getattr(options, "max_surfaced", None)),
        ("--per", getattr(options, "per", None)),
        ("--max-objects", getattr(options, "max_objects", None)),
        ("--object-idle", getattr(options, "object_idle", None)),
    ):
        if value is not None:
            words += [flag, str(value)]
    for flag, values in (
        ("--include", options.include),
        ("--exclude", options.exclude),
        ("--logger", getattr(options, "loggers", None)),
    ):
        for value in values or ():
            words += [flag, value]
    if not getattr(options, "lenient", True):
        words.append("--no-lenient")
    if getattr(options, "jobs", None):
        words.append("--jobs")
    return words


def _unrecognized(extra: Sequence[str], bare: str | None) -> str:
    """What is wrong with words left over, the first word ``bare`` when it was taken as
    a TARGET (no verb given): a misspelt verb is named as one, with the closest verbs."""
    from .wording import did_you_mean

    hint = did_you_mean(bare, VERBS) if bare is not None else ""
    if hint:
        return f"{bare!r} is not a verb. {hint} (the verbs: {', '.join(VERBS)})"
    return f"unrecognized arguments: {' '.join(extra)}"


# --- the parser -------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="objmcp",
        description="Serve a Python object as an MCP server, inspect it, call it, configure "
        "a client for it. A bare TARGET means 'run TARGET'.",
        epilog="TARGET: path/to/file.py (its functions), path/to/file.py:Notes (a class, "
        "instantiated when it needs no arguments), package.module, package.module:obj, "
        "package.module:make_service() (a factory, called), statistics (a module as it is). "
        "'objmcp VERB --help' for each verb's options.",
    )
    parser.add_argument("--version", action="version", version=_version())
    verbs = parser.add_subparsers(title="verbs", metavar="VERB")

    run = verbs.add_parser(
        "run", help="serve TARGET over stdio (the default verb), or over HTTP with --http"
    )
    _target_options(run)
    run.add_argument("--framing", choices=("auto", "newline", "content-length"), default="auto")
    # objmcp call's server: no start line, and no log of what the call's result carries
    run.add_argument("--for-call", action="store_true", help=argparse.SUPPRESS)
    limits = run.add_argument_group("limits")
    limits.add_argument(
        "--call-timeout",
        type=float,
        metavar="SECONDS",
        help="stop a call that runs longer (waits for the client's answers not counted)",
    )
    limits.add_argument(
        "--task-after",
        type=_seconds_or_off,
        metavar="SECONDS",
        help="answer a 2026-07-28 call still running as a task, to a client with the tasks "
        "extension (5; off: only tools that say task=)",
    )
    limits.add_argument(
        "--jobs",
        action="store_true",
        default=None,
        help="answer such a call from a client with no tasks (any revision) with a text "
        "naming a job, and list the tools job_status, job_result and job_cancel to come "
        "back for it (off by default)",
    )
    limits.add_argument(
        "--max-tasks",
        type=int,
        metavar="N",
        help="tasks alive at once, and ended tasks kept in all (1000)",
    )
    limits.add_argument(
        "--task-ttl", type=float, metavar="SECONDS", help="an ended task is kept (600)"
    )
    limits.add_argument(
        "--max-task-results",
        type=int,
        metavar="N",
        help="characters of the results ended tasks keep, in all (64 Mi)",
    )
    limits.add_argument("--max-calls", type=int, metavar="N", help="running at once, each client")
    limits.add_argument("--max-threads", type=int, metavar="N", help="sync calls at once (40)")
    limits.add_argument("--max-frame", type=int, metavar="BYTES", help="one message's size")
    limits.add_argument("--max-depth", type=int, metavar="N", help="one message's nesting")
    limits.add_argument("--max-string", type=int, metavar="N", help="one string's characters")
    limits.add_argument(
        "--page-size", type=int, metavar="N", help="list in pages of N (one page when not given)"
    )
    limits.add_argument(
        "--max-items", type=int, metavar="N", help="items read from a result's iterators (10000)"
    )
    limits.add_argument(
        "--max-waiting",
        type=int,
        metavar="N",
        help="calls of one client waiting for its answers at once (64)",
    )
    limits.add_argument(
        "--max-waiting-total",
        type=int,
        metavar="N",
        help="calls of every client waiting for their answers at once (1000)",
    )
    limits.add_argument("--max-result", type=int, metavar="N", help="a result's characters (16 Mi)")
    _discovery_options(run.add_argument_group("progressive discovery"))
    http = run.add_argument_group("HTTP (needs uvicorn: pip install 'objmcp[http]')")
    http.add_argument("--http", action="store_true", help="serve Streamable HTTP at /mcp")
    http.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
    http.add_argument("--port", type=port, default=8000, help="port to bind (8000)")
    http.add_argument(
        "--stateless", action="store_true", help="handshake-era clients without sessions"
    )
    http.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes (they share $OBJMCP_STATE_KEY, made up when unset; "
        "the processes tools start never see it, nor the token)",
    )
    http.add_argument(
        "--poll-after",
        type=float,
        metavar="SECONDS",
        help="close a 2025-11-25 client's request stream after SECONDS; it resumes it",
    )
    http.add_argument(
        "--authorization-server",
        action="append",
        dest="authorization_servers",
        metavar="URL",
        help="an OAuth authorization server that issues tokens for this endpoint (repeat): "
        "serves its protected-resource metadata",
    )
    http.add_argument(
        "--session-idle",
        type=float,
        default=3600.0,
        metavar="SECONDS",
        help="end a session after SECONDS with no request and no stream read (3600)",
    )
    http.add_argument(
        "--max-sessions",
        type=int,
        default=1000,
        metavar="N",
        help="sessions open at once, shared fairly among the callers (tokens) present; beyond, "
        "the caller's own least recently used idle one ends, else one of a caller above its "
        "share holding no tasks, else 503 (1000)",
    )
    http.add_argument(
        "--max-body",
        type=int,
        default=16 * 1024 * 1024,
        metavar="BYTES",
        help="a POST's body (16 MiB)",
    )
    http.add_argument(
        "--max-values",
        type=int,
        default=2_000_000,
        metavar="N",
        help="JSON values in a POST's body, and in an argument sent as JSON text, "
        "counted before it is parsed (2000000)",
    )
    http.add_argument(
        "--read-timeout",
        type=float,
        metavar="SECONDS",
        help="close a connection whose request (headers and body) takes longer to arrive (30)",
    )
    http.add_argument(
        "--keep-alive",
        type=int,
        metavar="SECONDS",
        help="close a connection idle that long between requests (5)",
    )
    http.add_argument(
        "--max-connections",
        type=int,
        metavar="N",
        help="connections and requests at once; beyond, requests are answered 503 (1000)",
    )
    http.add_argument(
        "--max-header",
        type=int,
        metavar="BYTES",
        help="a request's line and headers; beyond, 400 (16384)",
    )
    http.add_argument(
        "--route",
        metavar="TAG",
        help="start every session id with TAG. (a proxy in front routes sessions by it)",
    )
    http.add_argument(
        "--token",
        default=os.environ.get("OBJMCP_TOKEN"),
        help="a bearer token every request must carry (default: $OBJMCP_TOKEN)",
    )
    http.add_argument(
        "--jwks-url",
        metavar="URL",
        help="check OAuth access tokens as JWTs signed by the keys at URL "
        "(needs objmcp[auth]; with --issuer and --audience)",
    )
    http.add_argument(
        "--jwt-key",
        metavar="FILE",
        help="check JWTs signed by the PEM public key in FILE instead of --jwks-url",
    )
    http.add_argument("--issuer", metavar="URL", help="the iss a JWT must name")
    http.add_argument(
        "--audience",
        metavar="URL",
        help="the aud a JWT must name: this endpoint's own URL (a token for another is refused)",
    )
    http.add_argument(
        "--scope",
        action="append",
        dest="scopes",
        metavar="SCOPE",
        help="a scope every JWT must grant (repeat; 403 otherwise), listed in the metadata",
    )
    http.add_argument(
        "--no-auth",
        action="store_true",
        help="serve a --host beyond loopback with no token (refused otherwise)",
    )
    http.add_argument(
        "--allow-host",
        action="append",
        dest="allowed_hosts",
        metavar="HOST",
        help="a Host name served besides localhost (repeat; '*' for any)",
    )
    http.add_argument(
        "--allow-origin",
        action="append",
        dest="allowed_origins",
        metavar="ORIGIN",
        help="a browser origin allowed (repeat; local origins unless given)",
    )
    run.set_defaults(handler=_run)

    inspect = verbs.add_parser("inspect", help="show the tools TARGET would serve")
    _target_options(inspect, serving=False)
    inspect.add_argument("--json", action="store_true", help='print {"tools": [...]} exactly')
    inspect.add_argument(
        "--discovery",
        choices=("off", "search", "auto"),
        default="auto",
        help="the discovery mode 'objmcp run' would serve with, said on stderr (auto)",
    )
    inspect.add_argument(
        "--discovery-threshold", type=int, default=40, metavar="N", help="as for run (40)"
    )
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
            """read as JSON (point:='{"x": 1}'). Exit status 1 when the result is an error."""
        ),
    )
    _target_options(call)
    call.add_argument("tool", nargs="?", help="the tool's name (none: the tools listed)")
    call.add_argument(
        "arguments",
        nargs="*",
        metavar="key=value",
        help="the tool's arguments: key=value, or key:=json for a JSON value",
    )
    call.add_argument("--json", action="store_true", help="print the whole result as JSON")
    call.add_argument(
        "--task-after",
        type=_seconds_or_off,
        metavar="SECONDS",
        help="the server makes the call a task after this long (5; off: only tools that say "
        "task=); a task is followed to its end, Ctrl-C cancels it",
    )
    call.set_defaults(handler=_call)

    config = verbs.add_parser(
        "config",
        help="print (or --write) a client's configuration entry for TARGET",
    )
    config.add_argument("client", choices=("claude", "claude-code", "vscode", "cursor"))
    _target_options(config)
    config.add_argument(
        "--scope",
        choices=("user", "project", "local"),
        help="which of a client's files: user (every project; the default but for vscode), "
        "project (a file in this folder; vscode's default, .vscode/mcp.json), local "
        "(claude-code: this folder only, kept in ~/.claude.json)",
    )
    config.add_argument("--write", action="store_true", help="merge it into the config file")
    config.add_argument("--file", help="the config file to write instead of the usual one")
    config.add_argument("--jobs", action="store_true", default=None, help="as for run")
    _discovery_options(config.add_argument_group("progressive discovery (as for run)"))
    config.set_defaults(handler=_config)

    dev = verbs.add_parser(
        "dev",
        help="serve TARGET over stdio, restarting it when its Python files change",
    )
    _target_options(dev)
    dev.add_argument(
        "--watch", action="append", metavar="PATH", help="watch these files or folders too"
    )
    dev.add_argument("--interval", type=float, default=0.5, help="seconds between looks")
    dev.add_argument("--jobs", action="store_true", default=None, help="as for run")
    _discovery_options(dev.add_argument_group("progressive discovery (as for run)"))
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
    _target_options(bundle)
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
    bundle.add_argument("--jobs", action="store_true", default=None, help="as for run")
    _discovery_options(bundle.add_argument_group("progressive discovery (as for run)"))
    bundle.set_defaults(handler=_bundle)
    return parser


def _discovery_options(group: argparse._ActionsContainer) -> None:
    """The options of progressive discovery, for ``run`` and the verbs that start it."""
    group.add_argument(
        "--discovery",
        choices=("off", "search", "auto"),
        help="list search_tools, describe_tools and call_tool instead of every tool "
        "(search), above --discovery-threshold tools (auto, the default), or never (off)",
    )
    group.add_argument(
        "--discovery-threshold", type=int, metavar="N", help="tools above which auto searches (40)"
    )
    group.add_argument(
        "--max-surfaced", type=int, metavar="N", help="found tools a session lists at most (32)"
    )


def _target_options(parser: argparse.ArgumentParser, serving: bool = True) -> None:
    parser.add_argument("target", help=_TARGET_HELP)
    parser.add_argument("--include", action="append", help="only these tools (names or globs)")
    parser.add_argument("--exclude", action="append", help="leave these tools out")
    if not serving:
        return
    parser.add_argument("--name", help="the server's name (default: from the target)")
    parser.add_argument(
        "--server-version",
        metavar="VERSION",
        help="the version the server reports (default 1.0.0)",
    )
    parser.add_argument(
        "--version",
        nargs="?",
        action=_VersionOrServerVersion,
        metavar="VERSION",
        help="print objmcp's version (with a VERSION: deprecated, use --server-version)",
    )
    parser.add_argument("--concurrency", choices=("threads", "serial"))
    parser.add_argument(
        "--per",
        choices=("shared", "session", "caller"),
        help="one object for everyone (shared, the default), or TARGET (a class, or a "
        "function annotated with the class it makes) makes one per session or per caller",
    )
    parser.add_argument(
        "--max-objects", type=int, metavar="N", help="with --per: objects kept at once (1000)"
    )
    parser.add_argument(
        "--object-idle",
        type=float,
        metavar="SECONDS",
        help="with --per caller: close a caller's object unused this long (3600)",
    )
    parser.add_argument(
        "--no-lenient",
        dest="lenient",
        action="store_false",
        help="refuse arguments sent as JSON text where the schema wants another kind",
    )
    parser.add_argument("--log-level", help="the level of log records on stderr (WARNING)")
    parser.add_argument(
        "--logger",
        action="append",
        dest="loggers",
        metavar="NAME",
        help="a logger whose records (and its children's) go to the client (repeat; default: "
        "the served object's top-level package)",
    )


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
                _say_serving(server.info.name, "on stdio", server.tools, server.jobs is not None)
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


def _seconds_or_off(text: str) -> float | str:
    """``--task-after``: seconds, or ``off``."""
    if text.strip().lower() in ("off", "none"):
        return "off"
    return float(text)


_LIMITS = (
    "call_timeout",
    "task_after",
    "max_tasks",
    "task_ttl",
    "max_task_results",
    "jobs",
    "max_calls",
    "max_threads",
    "max_frame",
    "max_depth",
    "max_string",
    "page_size",
    "max_items",
    "max_result",
    "max_values",
    "max_waiting",
    "max_waiting_total",
    "discovery",
    "discovery_threshold",
    "max_surfaced",
    "per",
    "max_objects",
    "object_idle",
)
"""The options of ``run`` that go to the server as they are, when given."""


def _make_server(options: argparse.Namespace, state_key: str | None = None) -> Server:
    from .._server import Server
    from ..model.calling.toolbox import MadeBy
    from .targets import default_name, making_error, parse_target, target_maker

    per = getattr(options, "per", None)
    target: object
    if per in (None, "shared"):
        target = MadeBy(target_maker(options.target))  # made where its calls will run
    elif parse_target(options.target).call:
        raise TargetError(
            f"--per {per} makes the objects itself: name the class or the factory "
            f"without (), not {options.target}"
        )
    else:
        target = target_maker(options.target)()  # the class or the factory, not called
    limits = {
        name: getattr(options, name) for name in _LIMITS if getattr(options, name, None) is not None
    }
    if limits.get("task_after") == "off":
        limits["task_after"] = None
    try:
        return Server(
            options.name or default_name(options.target),
            target,
            version=options.server_version or "1.0.0",
            framing=options.framing,
            include=options.include,
            exclude=options.exclude,
            concurrency=options.concurrency or "threads",
            lenient=options.lenient,
            shared_process=bool(getattr(options, "http", False)),
            loggers=getattr(options, "loggers", None),
            state_key=state_key,
            **limits,
        )
    except TargetError:
        raise
    except Exception as error:
        raise making_error(options.target, error) from None


def _make_app(options: argparse.Namespace, state_key: str | None = None) -> McpApp[Server]:
    from ..serving.asgi import LOCAL_HOSTS, McpApp

    hosts = None
    if options.allowed_hosts:
        hosts = [*LOCAL_HOSTS, *options.allowed_hosts]
    server = _make_server(options, state_key)
    try:
        return _app_of(McpApp, server, options, hosts)
    except (ValueError, ImportError) as error:  # options that do not go together
        raise TargetError(f"objmcp run --http: {error}") from None


def _app_of(
    make: type[McpApp[Server]],
    server: Server,
    options: argparse.Namespace,
    hosts: list[str] | None,
) -> McpApp[Server]:
    return make(
        server,
        stateless=options.stateless,
        token=options.token or None,
        allowed_hosts=hosts,
        allowed_origins=options.allowed_origins,
        poll_after=options.poll_after,
        route=options.route,
        session_idle=options.session_idle,
        max_sessions=options.max_sessions,
        max_body=options.max_body,
        max_values=options.max_values,
        authorization_servers=options.authorization_servers or (),
        no_auth=options.no_auth,
        jwks_url=options.jwks_url,
        jwt_key=_read_key(options.jwt_key),
        issuer=options.issuer,
        audience=options.audience,
        scopes=options.scopes or (),
    )


def _read_key(path: str | None) -> str | None:
    """The PEM key in the file ``path``."""
    if path is None:
        return None
    try:
        with open(path, encoding="ascii") as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise TargetError(f"--jwt-key {path}: {error}") from None


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

    where = f"http://{options.host}:{options.port}/mcp"
    _check_exposure(options, where)
    check_free(options.host, options.port)  # before anything says it serves there
    if options.workers > 1:
        # Every worker must open the request states the others seal.
        os.environ.setdefault("OBJMCP_STATE_KEY", secrets.token_hex(32))
        os.environ[_HTTP_RUN] = json.dumps(
            {k: v for k, v in vars(options).items() if k != "handler"}
        )
        grace = _make_server(options).grace  # a target that cannot be served fails here, once
        limits = uvicorn_limits(options)
        sys.stderr.write(f"objmcp: serving at {where} with {options.workers} workers\n")
        uvicorn.run(
            "objmcp.cli.main:http_app_from_environment",
            factory=True,
            host=options.host,
            port=options.port,
            workers=options.workers,
            log_level="warning",
            timeout_graceful_shutdown=int(grace),
            **limits,
        )
        return
    app = _make_app(options, _take_secrets().get("OBJMCP_STATE_KEY"))
    _say_serving(app.name, f"at {where}", app.settings.tools, app.settings.jobs)
    uvicorn.run(
        app,
        host=options.host,
        port=options.port,
        log_level="warning",
        # calls parked for a retry hold their request open: they get the grace, no more
        timeout_graceful_shutdown=int(app.settings.grace),
        **uvicorn_limits(options),
    )


def _check_exposure(options: argparse.Namespace, where: str) -> None:
    """Refuse to serve beyond loopback with no token, unless ``--no-auth`` says so
    (then say it loudly)."""
    from ..serving.http_checks import is_loopback

    if options.token or options.jwks_url or options.jwt_key or is_loopback(options.host):
        return
    if not options.no_auth:
        raise TargetError(
            f"--host {options.host} serves every machine that can reach it, and there is "
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

    return inspect_target(
        options.target,
        options.include,
        options.exclude,
        options.json,
        discovery=(options.discovery, options.discovery_threshold),
    )


def _call(options: argparse.Namespace) -> int:
    from .client import call_tool

    # the tool is called by its name: every tool listed, not the search tools of a large target
    server = [*server_arguments(options), "--discovery", "off"]
    if options.task_after is not None:
        server += ["--task-after", str(options.task_after)]
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
