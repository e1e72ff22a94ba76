"""mkdocs hooks: the reference pages that are made from the code, so that they cannot drift.

A page holding ``<!-- generated: options -->`` gets, in its place, every option record
(:data:`objmcp._options.SERVER_RECORDS`, the HTTP records, ``About`` and ``Sandbox``) with
each field's Python keyword, its command-line flag and config key, its default and what it
does, and the command line's own options (those of no record). ``<!-- generated: cli -->``
becomes the ``--help`` of ``objmcp`` and of each of its verbs, as argparse prints it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import io
import os
from typing import Any

MARKERS = ("options", "cli")


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Put the generated reference where a page asks for it."""
    for name in MARKERS:
        marker = f"<!-- generated: {name} -->"
        if marker in markdown:
            made = options_reference() if name == "options" else cli_reference()
            markdown = markdown.replace(marker, made)
    return markdown


def options_reference() -> str:
    """Every option record, a section each."""
    from objmcp._options import SERVER_RECORDS, About, Sandbox
    from objmcp.cli.flags import SERVING_FLAGS, UVICORN_DEFAULTS, UVICORN_FLAGS
    from objmcp.serving.http_options import HTTP_RECORDS

    records = {**SERVER_RECORDS, **HTTP_RECORDS, "about": About, "sandbox": Sandbox}
    parts = []
    for keyword, record in records.items():
        doc = inspect.cleandoc(record.__doc__ or "")
        rows = [
            "| Python | command line (config key) | default |",
            "| --- | --- | --- |",
        ]
        for field in dataclasses.fields(record):
            flag = field.metadata.get("flag")
            where = f"`{flag.name}` (`{flag.key}`)" if flag is not None else "Python only"
            if flag is not None and flag.help:
                where += f": {_escaped(flag.help)}"
            rows.append(f"| `{field.name}` | {where} | {_default(field)} |")
        parts.append(
            f"## `{record.__name__}`\n\n`objmcp.{record.__name__}`, given as "
            f"`{keyword}=objmcp.{record.__name__}(...)`.\n\n{_prose(doc)}\n\n" + "\n".join(rows)
        )
    rows = ["| command line (config key) | what | default |", "| --- | --- | --- |"]
    for name, flag in {**SERVING_FLAGS, **UVICORN_FLAGS}.items():
        default = UVICORN_DEFAULTS.get(name)
        shown = f"`{default!r}`" if default is not None else "-"
        rows.append(f"| `{flag.name}` (`{flag.key}`) | {_escaped(flag.help)} | {shown} |")
    parts.append(
        "## The command line's own options\n\nOptions of `objmcp run` (and the verbs that "
        "start a server) that belong to no record: the served target's, the box's, and "
        "uvicorn's under `--http`.\n\n" + "\n".join(rows)
    )
    return "\n\n".join(parts)


def cli_reference() -> str:
    """``objmcp --help`` and each verb's, as printed."""
    from objmcp.cli.parser import _parser

    os.environ["COLUMNS"] = "100"  # argparse wraps to it: the same text on every machine
    parser, verbs = _parser()
    parts = [f"## `objmcp`\n\n```text\n{_help(parser)}\n```"]
    for name, verb in verbs.items():
        parts.append(f"## `objmcp {name}`\n\n```text\n{_help(verb)}\n```")
    return "\n\n".join(parts)


def _help(parser: Any) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        parser.print_help()
    return out.getvalue().rstrip()


def _default(field: dataclasses.Field[Any]) -> str:
    if field.default is not dataclasses.MISSING:
        value = field.default
    elif field.default_factory is not dataclasses.MISSING:
        value = field.default_factory()
    else:
        return "(required)"
    if not field.repr:
        return "(secret)"
    return f"`{value!r}`".replace("|", "\\|")


def _escaped(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _prose(doc: str) -> str:
    """A record's docstring as Markdown: its reST roles and literals as code."""
    import re

    doc = re.sub(r":(?:class|func|meth|attr|data|mod):`~?([^`]+)`", r"`\1`", doc)
    return doc.replace("``", "`")
