"""The command line: ``objmcp VERB TARGET [options]``, also ``python -m objmcp``.

Verbs: ``run`` (serve TARGET over stdio), ``inspect`` (the tools a client would
list), ``call`` (one call through a real server process), ``config`` (a client's
configuration entry), ``dev`` (serve, restarting on file changes), ``bundle`` (an MCP
Bundle for Claude Desktop, or a ``server.json`` for the MCP registry). A verb is
recognised only in the first position and a bare TARGET means ``run``, so
``objmcp statistics`` serves the stdlib module and ``objmcp run inspect``
serves the module ``inspect``. TARGET is read by :mod:`objmcp.cli.targets`. Only
``run`` and ``dev`` serve, and nothing here writes to stdout while serving.

This module reads the words and hands them to the verb's handler, each a call into
the module that does it; the parser is :mod:`objmcp.cli.parser`'s, and serving
(``run``) :mod:`objmcp.cli.serve`'s.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .._exceptions import TargetError
from .._options import Discovery
from .config_file import config_path, use_config
from .flags import records_from, server_arguments
from .parser import _parser

__all__ = ["VERBS", "main", "server_arguments"]

VERBS = ("run", "worker", "inspect", "call", "config", "dev", "bundle")


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
    for verb, handler in _HANDLERS.items():
        verbs[verb].set_defaults(handler=handler)
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


# --- the verbs --------------------------------------------------------------------------------


def _run(options: argparse.Namespace) -> int:
    from .serve import serve

    return serve(options)


def _worker(options: argparse.Namespace) -> int:
    from .serve import work

    return work(options)


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
        verb="dev" if options.dev else "run",
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


_HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "run": _run,
    "worker": _worker,
    "inspect": _inspect,
    "call": _call,
    "config": _config,
    "dev": _dev,
    "bundle": _bundle,
}
"""What each verb does with its options, for its exit status."""
