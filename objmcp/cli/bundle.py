"""``objmcp bundle TARGET``: an MCP Bundle (``.mcpb``) that Claude Desktop installs with one click.

The bundle is a zip of a ``manifest.json`` (manifest version 0.4), a ``pyproject.toml``
and a ``server/`` folder: ``server/main.py`` runs ``objmcp run TARGET`` on stdio, beside
a copy of objmcp's own package and, in ``server/target/``, for a file TARGET (or a module
found only in the current directory), a copy of its file or package and of the modules it
imports that no distribution installs. Only modules under the current folder or the
TARGET's are copied (others are named on stderr), and of a folder neither symlinks nor
dot-files, dot-folders, virtual environments or caches. An installed module is named as
an import, and its distribution listed as a dependency.

The server type is ``uv``: the host runs ``uv run`` on the bundle's ``pyproject.toml``,
which lists objmcp's dependencies, the distributions the target's import brought in
(pinned to the versions installed here) and those given with ``--with``. So the bundle
stays small (objmcp's source and the target's, no dependency vendored), holds nothing
built for one platform or one Python (objmcp's dependencies include compiled ones), and the
user's machine needs no Python of its own: the host's uv brings one, and the
dependencies, at the first start.

The manifest names the server, its version, description and author, the command
(``uv run --project ${__dirname} ${__dirname}/server/main.py``) and the tools, as objmcp's
own inspection of the target lists them. :mod:`objmcp.cli.serverjson` describes the same
target for the MCP registry.
"""

from __future__ import annotations

import functools
import getpass
import importlib.metadata
import inspect
import json
import logging
import re
import sys
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .._exceptions import TargetError
from .listing import load_toolbox
from .logform import labelled
from .targets import default_name, parse_target
from .wording import counted

__all__ = [
    "MANIFEST_VERSION",
    "Bundled",
    "describe_target",
    "manifest",
    "project_name",
    "pyproject",
    "toml_string",
    "write_bundle",
]

MANIFEST_VERSION = "0.4"
"""The newest manifest version ``@anthropic-ai/mcpb`` validates, the first with ``uv``."""

_REQUIRES_PYTHON = ">=3.10"
_ENTRY_POINT = "server/main.py"
_TARGET_FOLDER = "target"
"""The folder under ``server/`` the user's code goes in, apart from ``main.py`` and objmcp."""
_LEFT_OUT = frozenset({"venv", "site-packages", "__pycache__", "node_modules"})
"""Folders a copy leaves out, with every name that starts with a dot."""
_COMMAND = ["run", "--project", "${__dirname}", "${__dirname}/" + _ENTRY_POINT]
"""``uv``'s arguments; the host replaces ``${__dirname}`` with the bundle's folder."""


@dataclass
class Bundled:
    """What ``objmcp bundle`` learned of a TARGET: what to copy, what to name, what to list."""

    spec: str
    """The TARGET as the bundled server names it (a path relative to ``server/target/``,
    or an import)."""
    relative: bool
    """``spec`` is a path under ``server/target/``, made absolute when the server starts."""
    name: str
    """The server's name (``--name``, else the one ``objmcp run`` gives it)."""
    version: str
    """``--version``, else the installed distribution's, else 1.0.0."""
    description: str
    """``--description``, else the first paragraph of the target's docstring."""
    author: str
    """``--author``, else the distribution's author, else the login name."""
    distribution: str | None
    """The installed distribution the target's module comes from (None: a file, a local
    module, the standard library)."""
    copies: dict[str, Path] = field(default_factory=dict)
    """Where under ``server/target/`` each file or folder of the target goes."""
    dependencies: list[str] = field(default_factory=list)
    """What uv installs, as pip writes requirements."""
    tools: list[dict[str, Any]] = field(default_factory=list)
    """Each tool's name and the first paragraph of its description."""


def describe_target(
    spec: str,
    include: Sequence[str] | None,
    exclude: Sequence[str] | None,
    *,
    name: str | None = None,
    version: str | None = None,
    description: str | None = None,
    author: str | None = None,
    requirements: Sequence[str] = (),
) -> Bundled:
    """Load the TARGET ``spec``, make its tools, and say what a bundle of it holds;
    raises :class:`TargetError` for a target that does not load or make its tools."""
    before = set(sys.modules)
    records: list[logging.LogRecord] = []
    toolbox = load_toolbox(spec, include, exclude, records)
    imported = {module.partition(".")[0] for module in set(sys.modules) - before}
    for record in records:
        if record.levelno >= logging.WARNING:
            sys.stderr.write(labelled("warning", record.getMessage()))
    target = toolbox.target
    parsed = parse_target(spec)
    attribute = f":{parsed.attribute}{'()' if parsed.call else ''}" if parsed.attribute else ""
    top = "" if parsed.is_path else parsed.where.partition(".")[0]
    distribution = _distribution_of(top) if top else None
    copies: dict[str, Path] = {}
    if parsed.is_path:
        path = parsed.path
        copies[path.name] = path
        bundled, relative = f"{path.name}{'/' if path.is_dir() else ''}{attribute}", True
    else:
        imported.add(top)
        bundled, relative = str(parsed), False
    roots = _roots(parsed.path if parsed.is_path else None)
    outside: dict[str, Path] = {}
    for module in sorted(imported):
        if _distribution_of(module) is None:
            for place, source in _local_module(module).items():
                if _under(source, roots):
                    copies[place] = source
                else:
                    outside[module] = source
    if top in outside:
        raise TargetError(
            f"{top} is at {outside[top]}, outside the current folder: objmcp bundle copies "
            "only the code under it; run it from the folder that holds "
            f"{top}, or install {top} as a distribution"
        )
    if outside:
        sys.stderr.write(_left_out(outside, roots))
    metadata = importlib.metadata.metadata(distribution) if distribution else None
    return Bundled(
        spec=bundled,
        relative=relative,
        name=name or default_name(spec),
        version=version or (metadata["Version"] if metadata else None) or "1.0.0",
        description=description
        or _first_paragraph(inspect.getdoc(target) or "")
        or f"The tools of {default_name(spec)}, served by objmcp",
        author=author or _author(metadata) or _login(),
        distribution=distribution,
        copies=copies,
        dependencies=_dependencies(imported, requirements),
        tools=[
            {"name": entry["name"], "description": _first_paragraph(entry.get("description", ""))}
            for entry in toolbox.specs("mcp")
        ],
    )


def write_bundle(bundled: Bundled, server_args: Sequence[str], output: Path, err: TextIO) -> int:
    """Write the ``.mcpb`` of ``bundled`` at ``output``, with ``server_args`` for
    ``objmcp run``; says on ``err`` what it holds. Returns 0."""
    output.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", json.dumps(manifest(bundled), indent=2) + "\n")
        archive.writestr("pyproject.toml", pyproject(bundled))
        archive.writestr(_ENTRY_POINT, _main_py(bundled, server_args))
        for file, inside in _files(_objmcp_folder(), "server/objmcp"):
            archive.write(file, inside)
        copied = []
        for place, source in bundled.copies.items():
            for file, inside in _files(source, f"server/{_TARGET_FOLDER}/{place}"):
                archive.write(file, inside)
                copied.append(inside)
    size = output.stat().st_size
    listed = ", ".join(bundled.dependencies)
    if copied:
        err.write(f"objmcp bundle: copied {counted(len(copied), 'file')}: {', '.join(copied)}\n")
    err.write(
        f"objmcp bundle: wrote {output} ({size // 1024} KiB, "
        f"{counted(len(bundled.tools), 'tool')}). Claude Desktop installs it with a double "
        f"click; at its first start, uv installs {listed} (add more with --with REQUIREMENT)\n"
    )
    return 0


def manifest(bundled: Bundled) -> dict[str, Any]:
    """The ``manifest.json`` of the bundle of ``bundled``."""
    document: dict[str, Any] = {
        "manifest_version": MANIFEST_VERSION,
        "name": bundled.name,
        "display_name": bundled.name,
        "version": bundled.version,
        "description": bundled.description,
        "author": {"name": bundled.author},
        "server": {
            "type": "uv",
            "entry_point": _ENTRY_POINT,
            "mcp_config": {"command": "uv", "args": list(_COMMAND)},
        },
        "tools": [{key: value for key, value in tool.items() if value} for tool in bundled.tools],
        "compatibility": {
            "platforms": ["darwin", "linux", "win32"],
            "runtimes": {"python": _REQUIRES_PYTHON},
        },
    }
    return document


def pyproject(bundled: Bundled) -> str:
    """The bundle's ``pyproject.toml``: the project uv installs before it starts the server."""
    dependencies = "".join(f"    {toml_string(item)},\n" for item in bundled.dependencies)
    return (
        "[project]\n"
        f"name = {toml_string(project_name(bundled.name) + '-mcpb')}\n"
        f"version = {toml_string(bundled.version)}\n"
        f"description = {toml_string(bundled.description)}\n"
        f"requires-python = {toml_string(_REQUIRES_PYTHON)}\n"
        f"dependencies = [\n{dependencies}]\n"
        "\n[tool.uv]\n"
        "package = false\n"
    )


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string."""
    escaped = json.dumps(text, ensure_ascii=False)
    # JSON leaves DEL and the surrogates as they are; TOML takes neither raw
    return re.sub(r"[\x7f\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", escaped)


def project_name(name: str) -> str:
    """``name`` as a valid Python project name (letters, digits, ``.``, ``_``, ``-``
    inside; a letter or digit at each end)."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name)
    cleaned = re.sub(r"^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "", cleaned, flags=re.ASCII)
    return cleaned or "objmcp-server"


# --- what goes in -----------------------------------------------------------------------------


def _main_py(bundled: Bundled, server_args: Sequence[str]) -> str:
    target = f"os.path.join(CODE, {bundled.spec!r})" if bundled.relative else repr(bundled.spec)
    # objmcp comes from HERE; then the user's code alone is found there, so that a module
    # of theirs named main or target is theirs
    return (
        f'"""Serves {bundled.name} with objmcp on stdio: the entry point of an MCP Bundle '
        'made by objmcp bundle."""\n\n'
        "import os\nimport sys\n\n"
        "HERE = os.path.dirname(os.path.abspath(__file__))\n"
        f"CODE = os.path.join(HERE, {_TARGET_FOLDER!r})\n"
        "sys.path.insert(0, HERE)\n\n"
        "from objmcp.cli.main import main  # noqa: E402\n\n"
        "sys.path[:] = [CODE] + [entry for entry in sys.path\n"
        "    if os.path.realpath(entry or os.curdir) != os.path.realpath(HERE)]\n"
        f"sys.exit(main({', '.join(['[' + repr('run'), target, *map(repr, server_args)])}]))\n"
    )


def _objmcp_folder() -> Path:
    return Path(__file__).resolve().parent.parent


def _files(source: Path, inside: str) -> Iterator[tuple[Path, str]]:
    """The files of ``source`` (a file, or a folder's files but symlinks, compiled files
    and what :func:`_left_out_name` names), each with its name in the archive under
    ``inside``."""
    if source.is_file():
        yield source, inside
        return
    for entry in sorted(source.iterdir()):
        if entry.is_symlink() or _left_out_name(entry.name):
            continue
        if entry.is_dir():
            yield from _files(entry, f"{inside}/{entry.name}")
        elif entry.is_file() and entry.suffix != ".pyc":
            yield entry, f"{inside}/{entry.name}"


def _left_out_name(name: str) -> bool:
    """A file or folder a copy leaves out: hidden (``.env``, ``.git``), a virtual
    environment, installed packages, caches."""
    return name.startswith(".") or name in _LEFT_OUT


def _roots(target: Path | None) -> list[Path]:
    """The folders whose code a bundle may copy: the current one, and the one that holds
    a file or folder ``target``."""
    roots = [Path.cwd().resolve()]
    if target is not None:
        roots.append(target.resolve().parent)
    return roots


def _under(source: Path, roots: Sequence[Path]) -> bool:
    """``source`` lies in one of ``roots``, and not in a folder a copy leaves out."""
    resolved = source.resolve()
    return any(
        resolved.is_relative_to(root)
        and not any(_left_out_name(part) for part in resolved.relative_to(root).parts)
        for root in roots
    )


def _left_out(outside: dict[str, Path], roots: Sequence[Path]) -> str:
    """The warning that names the imported modules not copied, and why."""
    where = " or ".join(str(root) for root in dict.fromkeys(roots))
    named = ", ".join(f"{module} ({source})" for module, source in outside.items())
    return labelled(
        "warning",
        f"left out of the bundle, as no distribution installs them and they are not under "
        f"{where}: {named}. If the server needs them, add their distributions with "
        "--with REQUIREMENT",
    )


def _local_module(top: str) -> dict[str, Path]:
    """The file or package folder of the imported module ``top`` (one of the user's,
    installed nowhere: copied into the bundle), or nothing for the standard library,
    objmcp, a target file itself and a module with no file."""
    if top in sys.stdlib_module_names or top == "objmcp" or top.startswith("_objmcp_target_"):
        return {}
    file = getattr(sys.modules.get(top), "__file__", None)
    if not file:
        return {}
    path = Path(file).resolve()
    return {path.parent.name: path.parent} if path.name == "__init__.py" else {path.name: path}


def _distribution_of(top: str) -> str | None:
    """The installed distribution that provides the top-level module ``top``."""
    if top in sys.stdlib_module_names:
        return None
    names = _by_module().get(top, [])
    return names[0] if names else None


@functools.cache
def _by_module() -> dict[str, list[str]]:
    """The installed distributions of each top-level module (read once: it reads them all)."""
    return dict(importlib.metadata.packages_distributions())


def _dependencies(imported: set[str], requirements: Sequence[str]) -> list[str]:
    """objmcp's own dependencies, the distributions of the ``imported`` top-level modules
    (the target's, those its import brought in) at the versions installed here, then
    ``requirements``."""
    try:
        own = importlib.metadata.requires("objmcp") or []
    except importlib.metadata.PackageNotFoundError:
        raise TargetError(
            "objmcp bundle lists objmcp's dependencies from its installed metadata, and "
            "objmcp is not installed here: pip install objmcp (or pip install -e . in a clone)"
        ) from None
    needed = [item for item in own if "extra ==" not in item.replace('"', " ").replace("'", " ")]
    taken = {_requirement_name(item) for item in needed} | {"objmcp"}
    found = [
        name
        for top in sorted(imported)
        if top not in sys.stdlib_module_names
        for name in _by_module().get(top, [])
    ]
    for name in dict.fromkeys(found):
        if _requirement_name(name) not in taken:
            taken.add(_requirement_name(name))
            needed.append(f"{name}=={importlib.metadata.version(name)}")
    return [*needed, *requirements]


def _requirement_name(requirement: str) -> str:
    """The normalized project name a requirement starts with."""
    match = re.match(r"\s*([A-Za-z0-9._-]+)", requirement)
    return re.sub(r"[-_.]+", "-", match.group(1)).lower() if match else requirement


def _author(metadata: Any) -> str | None:
    """The author a distribution's metadata names."""
    if metadata is None:
        return None
    author = metadata["Author"]
    if author:
        return str(author)
    email = metadata["Author-email"] or ""
    named = re.match(r"\s*\"?([^\"<,]+?)\"?\s*<", email)
    return named.group(1) if named else None


def _login() -> str:
    """The name of the user who runs this (some systems have none to tell)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _first_paragraph(text: str) -> str:
    """The first paragraph of ``text``, on one line."""
    return " ".join(text.strip().split("\n\n", 1)[0].split())
