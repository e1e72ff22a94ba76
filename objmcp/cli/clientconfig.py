"""``objmcp config CLIENT TARGET``: the entry that makes a client start TARGET as a server.

The entry runs this interpreter (``sys.executable``, an absolute path) with
``-m objmcp run TARGET``: a file TARGET is made absolute; a module TARGET is
kept, and when the module (or objmcp itself) is found only because of the
current directory or ``PYTHONPATH``, the entry's ``env`` sets ``PYTHONPATH`` to
the folders it needs, since clients start servers in a directory of their
choosing. The target is loaded first, so a typo is reported now, not by the
client later.

The files (``--scope`` picks one where a client has several; ``--file``
overrides):

============  ==========================================================  ==================
client        file                                                        servers under
============  ==========================================================  ==================
claude        ``claude_desktop_config.json`` in ``~/Library/Application    ``mcpServers``
              Support/Claude`` (macOS), ``%APPDATA%\\Claude`` (Windows),
              ``~/.config/Claude`` (Linux)
claude-code   user: ``~/.claude.json``; project: ``./.mcp.json``;          ``mcpServers``
              local: ``~/.claude.json`` under ``projects`` / this folder   (``type: stdio``)
vscode        project (default): ``./.vscode/mcp.json``; user: the         ``servers``
              profile's ``mcp.json`` (``Code/User`` in the folder above)   (``type: stdio``)
cursor        user: ``~/.cursor/mcp.json``; project: ``./.cursor/mcp.json``  ``mcpServers``
============  ==========================================================  ==================

``--write`` merges the entry into the file: every other entry and key is kept,
an entry of the same name is replaced (and said so), the old file is copied to
``<file>.bak``, and the new one replaces it in one step. A file that is not
plain JSON (VS Code allows comments) is left alone, with the snippet to add by hand.
Neither the file nor its ``.bak`` may be a symbolic link: a project's ``.vscode/mcp.json``
that links to ``~/.claude.json`` would otherwise copy that file's secrets into the
project. Such a file is left alone, and the command says which link to remove.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from .targets import default_name, load_target, parse_target

__all__ = ["config_path", "configure", "merge_entry", "server_entry", "snippet"]

CLIENTS = ("claude", "claude-code", "vscode", "cursor")
_DEFAULT_SCOPE = {"claude": "user", "claude-code": "user", "vscode": "project", "cursor": "user"}


def configure(
    client: str,
    spec: str,
    *,
    name: str | None,
    server_args: Sequence[str],
    verb: str = "run",
    scope: str | None,
    write: bool,
    file: str | None,
    out: TextIO,
    err: TextIO,
) -> int:
    """Print ``client``'s entry for the TARGET ``spec`` (served by ``objmcp VERB``: run or
    dev) on ``out`` and notes on ``err``; with ``write``, merge it into the file."""
    scope = scope or _DEFAULT_SCOPE[client]
    try:
        # absolute, not resolved: a link given is seen (and refused), not followed
        path = Path(file).expanduser().absolute() if file else config_path(client, scope)
    except ValueError as error:
        err.write(f"objmcp config: {error}\n")
        return 2
    name = name or default_name(spec)
    entry = server_entry(client, spec, server_args, verb)
    keys = _keys(client, scope)
    out.write(json.dumps(snippet(keys, name, entry), indent=2, ensure_ascii=False) + "\n")
    out.flush()
    if not write:
        err.write(f"objmcp config: add this to {path} (or run again with --write)\n")
        return 0
    try:
        replaced, backup = merge_entry(path, keys, name, entry)
    except (OSError, ValueError) as error:
        err.write(f"objmcp config: {error}\n")
        return 2
    what = "replaced the entry" if replaced else "added the entry"
    saved = f"; the old file is {backup}" if backup else ""
    err.write(f"objmcp config: {what} {name!r} in {path}{saved}\n")
    return 0


def config_path(client: str, scope: str) -> Path:
    """Where ``client`` reads its servers for ``scope``; raises ``ValueError`` for a scope
    the client does not have."""
    home = Path.home()
    cwd = Path.cwd()
    places: dict[str, dict[str, Path]] = {
        "claude": {"user": _app_folder("Claude") / "claude_desktop_config.json"},
        "claude-code": {
            "user": home / ".claude.json",
            "local": home / ".claude.json",
            "project": cwd / ".mcp.json",
        },
        "vscode": {
            "user": _app_folder("Code") / "User" / "mcp.json",
            "project": cwd / ".vscode" / "mcp.json",
        },
        "cursor": {"user": home / ".cursor" / "mcp.json", "project": cwd / ".cursor" / "mcp.json"},
    }
    try:
        return places[client][scope]
    except KeyError:
        raise ValueError(
            f"{client} has no {scope!r} scope: use {' or '.join(places[client])}"
        ) from None


def _app_folder(app: str) -> Path:
    """An application's settings folder on this system."""
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / app
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        return (Path(appdata) if appdata else Path.home() / "AppData" / "Roaming") / app
    config = os.environ.get("XDG_CONFIG_HOME")
    return (Path(config) if config else Path.home() / ".config") / app


def _keys(client: str, scope: str) -> list[str]:
    """The path of keys to the servers' object in the client's file."""
    if client == "vscode":
        return ["servers"]
    if client == "claude-code" and scope == "local":
        return ["projects", str(Path.cwd()), "mcpServers"]
    return ["mcpServers"]


def snippet(keys: Sequence[str], name: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The entry under ``name`` inside the keys that lead to it."""
    document: dict[str, Any] = {name: entry}
    for key in reversed(keys):
        document = {key: document}
    return document


def server_entry(
    client: str, spec: str, server_args: Sequence[str], verb: str = "run"
) -> dict[str, Any]:
    """The server entry that starts the TARGET ``spec`` with this interpreter, served by
    ``objmcp VERB`` (``run``, or ``dev`` to restart it as its files change)."""
    load_target(spec)  # a target that does not load is reported now
    target = parse_target(spec)
    folders: list[str] = []
    if target.is_path:
        where = str(target.path)
        spec = (
            f"{where}:{target.attribute}{'()' if target.call else ''}"
            if target.attribute
            else where
        )
    else:
        folders.append(_import_root(target.where.partition(".")[0]))
    folders.append(_import_root("objmcp"))
    needed = _not_on_default_path([f for f in dict.fromkeys(folders) if f])
    entry: dict[str, Any] = {"type": "stdio"} if client in ("claude-code", "vscode") else {}
    entry["command"] = sys.executable
    entry["args"] = ["-m", "objmcp", verb, spec, *server_args]
    if needed:
        entry["env"] = {"PYTHONPATH": os.pathsep.join(needed)}
    return entry


def _import_root(top: str) -> str:
    """The ``sys.path`` folder the (already imported) top-level module ``top`` came from."""
    module = sys.modules.get(top)
    if module is None:
        return ""
    file = getattr(module, "__file__", None)
    if file:
        path = Path(file).resolve()
        return str(path.parent.parent if path.name == "__init__.py" else path.parent)
    locations = list(getattr(module, "__path__", []))  # a namespace package
    return str(Path(locations[0]).resolve().parent) if locations else ""


def _not_on_default_path(folders: list[str]) -> list[str]:
    """The folders a fresh run of this interpreter, in another directory, would not search."""
    probe = subprocess.run(
        [sys.executable, "-E", "-c", "import sys, json; print(json.dumps(sys.path[1:]))"],
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        default = {str(Path(entry).resolve()) for entry in json.loads(probe.stdout)}
    except ValueError:
        default = set()
    return [folder for folder in folders if str(Path(folder).resolve()) not in default]


def merge_entry(
    path: Path, keys: Sequence[str], name: str, entry: dict[str, Any]
) -> tuple[bool, Path | None]:
    """Put ``entry`` under ``name`` in the JSON file ``path`` (created with its folders if
    need be), keeping everything else; returns whether an entry was replaced and the
    backup made of the old file. Raises ``ValueError`` for a file that is not a JSON object,
    or for ``path`` or its backup being a symbolic link (never followed, never replaced)."""
    backup = path.with_name(path.name + ".bak")
    for place in (path, backup):
        _refuse_link(place)
    old = _read_unfollowed(path)
    document: Any = {}
    if old is not None:
        try:
            text = old[0].decode("utf-8")
            document = json.loads(text) if text.strip() else {}
        except ValueError as error:
            raise ValueError(
                f"{path} is not plain JSON ({error}; comments?), so it is left as it is: "
                "add the entry above by hand"
            ) from None
        if not isinstance(document, dict):
            raise ValueError(f"{path} holds a JSON {type(document).__name__}, not an object")
    node: dict[str, Any] = document
    for depth, key in enumerate(keys):
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            where = ".".join(keys[: depth + 1])
            raise ValueError(f"{path}: {where} is a {type(child).__name__}, not an object")
        node = child
    replaced = name in node
    node[name] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()
    if old is None:
        _replace(path, data, None)
        return replaced, None
    content, mode = old
    _replace(backup, content, mode)
    _replace(path, data, mode)
    return replaced, backup


def _refuse_link(path: Path) -> None:
    """Raise ``ValueError`` when ``path`` is a symbolic link."""
    if path.is_symlink():
        raise ValueError(_linked(path))


def _linked(path: Path) -> str:
    try:
        target = f" (to {os.readlink(path)})"
    except OSError:
        target = ""
    return (
        f"{path} is a symbolic link{target}, so it is left as it is: "
        "objmcp writes no client file through a link, which could copy another file's "
        "secrets here; remove the link, or pass the file it points to with --file"
    )


def _read_unfollowed(path: Path) -> tuple[bytes, int] | None:
    """The bytes and the permission bits of the file ``path``, read without following a
    link (None when there is no file); raises ``ValueError`` for a link."""
    try:
        # no waiting on a FIFO put there: it is refused below, as anything but a file is
        fd = os.open(
            path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:  # a link, made since it was looked at
            raise ValueError(_linked(path)) from None
        raise
    with os.fdopen(fd, "rb") as stream:
        mode = os.fstat(stream.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError(f"{path} is not a regular file, so it is left as it is")
        return stream.read(), stat.S_IMODE(mode)


def _replace(path: Path, data: bytes, mode: int | None) -> None:
    """Make ``path`` hold ``data`` in one step, through a new file beside it: a link put at
    ``path`` meanwhile is replaced, not written through. ``mode``: the old file's
    permission bits (None: a new file's, as the umask says)."""
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
