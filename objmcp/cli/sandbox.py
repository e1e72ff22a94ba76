"""``objmcp run --sandbox``: the served code in a box made by bubblewrap (``bwrap``).

On stdio the whole server runs in the box (objmcp keeps no secret there: the box's
environment is emptied, a state key made up inside). :func:`boxed_command` is the
``bwrap`` command line that runs ``objmcp run TARGET`` again, inside:

- its own namespaces (``--unshare-all``): no network (an empty one: loopback only, where
  nothing of the host listens), its own processes (the host's are not seen), its own IPC;
  no capabilities, no new privileges, a session of its own, and it dies with its parent;
- the filesystem: read-only, and only what the code needs: the system's libraries (not
  its programs), Python's prefix and the environment's packages (every folder on
  ``sys.path``), the target's own folder, and each ``--readable DIR``; writable only where
  ``--writable DIR`` says; a private ``/tmp``, ``/proc`` and ``/dev`` of its own;
- inside, before it imports the target, the server caps its memory (``--box-memory``)
  and refuses ``execve`` to itself for good (:mod:`objmcp.serving.box`): no program can be
  started, the interpreter included;
- each ``--allow-net HOST:PORT`` is reached through a Unix socket objmcp serves outside the
  box (:mod:`objmcp.serving.box_net`): then objmcp stays outside as bubblewrap's parent,
  its secrets with it, and the box sees only what ``--setenv`` gives it.

Where bubblewrap is missing, or the system is not Linux, ``--sandbox`` is refused at
start, saying so: there is no fallback that would serve unboxed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .._exceptions import TargetError
from ..model.finding.publish import ToolOptions
from ..serving.box import BOX_ENV, Box
from ..serving.box_net import NET_FOLDER, Allowed, allowed, hosts_file

__all__ = [
    "DEFAULT_MEMORY",
    "FRONT_LEAVES",
    "BoxedRun",
    "boxed_command",
    "boxed_front",
    "system_libraries",
]

DEFAULT_MEMORY = 4 << 30
"""The box's address space unless ``--box-memory`` says otherwise (4 GiB: a numerical
library's threads reserve much more than they use)."""

_LIBRARIES = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/etc/ld.so.cache")


def system_libraries() -> list[str]:
    """The system's shared libraries (and the loader's cache) the interpreter needs."""
    return [path for path in _LIBRARIES if os.path.exists(path)]


@dataclass(frozen=True)
class BoxedRun:
    """The ``bwrap`` command that serves in the box, and the addresses the box may reach
    through the Unix sockets of ``net_folder`` (which objmcp, outside, must serve)."""

    command: list[str]
    allowed: list[Allowed]
    net_folder: str | None


def boxed_command(
    options: argparse.Namespace, target: str, serving: list[str], *, fronted: bool = False
) -> BoxedRun:
    """The ``bwrap`` command that serves ``target`` (``serving``: its ``objmcp run``
    options) in the box ``options`` describe (``fronted``: to a front over a pipe)."""
    if not sys.platform.startswith("linux"):
        raise TargetError(
            f"--sandbox boxes the server with bubblewrap, which runs on Linux only "
            f"(this is {sys.platform}); nothing was served"
        )
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise TargetError(
            "--sandbox needs bubblewrap (bwrap): apt-get install bubblewrap (Debian, "
            "Ubuntu) or dnf install bubblewrap (Fedora); nothing was served"
        )
    writable = [_folder(path, "--writable") for path in options.writable or ()]
    readable = [_folder(path, "--readable") for path in options.readable or ()]
    folder = _target_folder(target)
    python = [sys.base_prefix, sys.prefix, sys.exec_prefix]
    python += [entry for entry in sys.path if entry and os.path.isdir(entry)]
    shown = list(dict.fromkeys([*python, *([folder] if folder else []), *readable]))
    command = [bwrap, "--unshare-all", "--die-with-parent", "--new-session"]
    command += ["--cap-drop", "ALL", "--clearenv", "--proc", "/proc", "--dev", "/dev"]
    command += ["--tmpfs", "/tmp"]
    for path in system_libraries():
        command += ["--ro-bind", path, path]
    for path in shown:
        command += ["--ro-bind", path, path]
    for path in writable:
        command += ["--bind", path, path]
    try:
        reachable = allowed(options.allow_net or [])
    except ValueError as error:
        raise TargetError(str(error)) from None
    net_folder = None
    if reachable:  # the Unix sockets objmcp serves outside, and the names of the hosts
        net_folder = tempfile.mkdtemp(prefix="objmcp-net-")
        hosts = Path(net_folder) / "hosts"
        hosts.write_text(hosts_file(reachable))
        command += ["--ro-bind", net_folder, NET_FOLDER, "--ro-bind", str(hosts), "/etc/hosts"]
        if any(address.port < 1024 for address in reachable):  # listened to in its own network
            command += ["--cap-add", "CAP_NET_BIND_SERVICE"]
    memory = options.box_memory if options.box_memory is not None else DEFAULT_MEMORY
    box = Box(tuple(shown), tuple(writable), memory, tuple(reachable), fronted)
    command += ["--setenv", BOX_ENV, box.to_env(), "--setenv", "HOME", "/tmp"]
    command += ["--setenv", "LANG", "C.UTF-8", "--chdir", folder or "/"]
    if os.environ.get("PYTHONPATH"):
        command += ["--setenv", "PYTHONPATH", os.environ["PYTHONPATH"]]
    served = target if folder is None else _absolute_target(target)
    command += ["--", sys.executable, "-m", "objmcp", "run", *serving, served]
    return BoxedRun(command, reachable, net_folder)


FRONT_LEAVES = ("tasks.", "telemetry.", "objects.", "discovery.")
"""The options the front keeps to itself, never given to its boxed children: tasks (the
store's address), traces, whose object a call runs on (the front's children are its
objects) and search (over the children's tools)."""


def boxed_front(
    options: argparse.Namespace, per: str, name: str
) -> tuple[object, dict[str, ToolOptions]]:
    """The target of the server in front of TARGET's boxed children, and its tools'
    options (:func:`objmcp.serving.boxed_front.front_target`): the children are served
    TARGET by ``objmcp run`` in the box ``options`` describe."""
    import atexit

    from .. import __version__
    from ..serving.box_net import forward_outside
    from ..serving.boxed_front import front_target
    from .flags import serving_pairs

    serving = [
        word
        for dest, words in serving_pairs(options)
        if not dest.startswith(FRONT_LEAVES)
        for word in words
    ]
    if per != "shared":  # each child is one session's or one caller's object
        serving += ["--per", "session"]
    run = boxed_command(options, options.target, [*serving, "--for-call"], fronted=True)
    if run.net_folder is not None:
        listening = forward_outside(run.net_folder, run.allowed)
        atexit.register(_stop_forwarding, listening, run.net_folder)
    client = {"name": "objmcp-front", "version": __version__}
    return front_target(run.command, per, name, client)


def _stop_forwarding(listening: list[socket.socket], folder: str) -> None:
    for server in listening:
        server.close()
    shutil.rmtree(folder, ignore_errors=True)


def _folder(path: str, flag: str) -> str:
    """``path`` as an absolute folder that exists (else the flag is refused)."""
    found = Path(path).expanduser().resolve()
    if not found.is_dir():
        raise TargetError(f"{flag} {path}: no such folder")
    return str(found)


def _target_folder(target: str) -> str | None:
    """The folder of a file or folder target (``path.py``, ``path.py:Name``, ``pkg/``: the
    folder that goes on ``sys.path``), or the current one for a module there; None: an
    installed module, found on ``sys.path``."""
    from .targets import parse_target

    parsed = parse_target(target)
    if parsed.is_path:
        return str(parsed.path.parent)
    local = Path.cwd() / parsed.where.partition(".")[0]
    if local.is_dir() or local.with_suffix(".py").is_file():
        return str(Path.cwd())
    return None


def _absolute_target(target: str) -> str:
    """``target`` with its path made absolute (the box starts in its folder)."""
    from .targets import Target, parse_target

    parsed = parse_target(target)
    if not parsed.is_path:
        return target
    return str(Target(str(parsed.path), parsed.attribute, parsed.call))
