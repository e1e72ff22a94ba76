"""The box, made from outside: the ``bwrap`` (bubblewrap) command line that runs a program in
it, from a :class:`~objmcp.Sandbox`.

The program runs:

- in its own namespaces (``--unshare-all``): no network (an empty one: loopback only,
  where nothing of the host listens), its own processes (the host's are not seen), its own
  IPC; no capabilities, no new privileges, a session of its own, and it dies with its parent;
- on a filesystem read-only and limited to what the code needs: the system's libraries (not
  its programs), Python's prefix and the environment's packages (every folder on
  ``sys.path``), the program's own folder, and each ``readable`` folder; writable only
  where ``writable`` says; a private ``/tmp``, ``/proc`` and ``/dev`` of its own;
- with an empty environment but what ``--setenv`` gives it: :data:`~objmcp.serving.box.BOX_ENV`
  says what the box is, and the program sets the rest up in itself
  (:func:`objmcp.serving.box.enter`: its memory cap, a seccomp filter that refuses
  ``execve`` for good, refusals said as the box's);
- each ``allow_net`` address is reached through a Unix socket served outside the box
  (:mod:`objmcp.serving.box_net`), in :attr:`BoxedRun.net_folder`.

Where bubblewrap is missing, or the system is not Linux, :func:`box_command` raises
:class:`~objmcp.TargetError`, saying so: there is no fallback that would run unboxed.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn, Protocol

from .._exceptions import TargetError
from .box import BOX_ENV, Box
from .box_net import NET_FOLDER, Allowed, allowed, hosts_file


class Sandbox(Protocol):
    """What a box lets its program reach (:class:`objmcp.Sandbox`)."""

    @property
    def readable(self) -> Collection[str]: ...
    @property
    def writable(self) -> Collection[str]: ...
    @property
    def allow_net(self) -> Collection[str]: ...
    @property
    def memory(self) -> int | None: ...


__all__ = [
    "DEFAULT_MEMORY",
    "BoxedRun",
    "box_command",
    "run_again_boxed",
    "run_boxed",
    "system_libraries",
]

DEFAULT_MEMORY = 4 << 30
"""The box's address space unless the sandbox says otherwise (4 GiB: a numerical
library's threads reserve much more than they use)."""

_LIBRARIES = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/etc/ld.so.cache")


def system_libraries() -> list[str]:
    """The system's shared libraries (and the loader's cache) the interpreter needs."""
    return [path for path in _LIBRARIES if os.path.exists(path)]


@dataclass(frozen=True)
class BoxedRun:
    """The ``bwrap`` command that runs the program in the box, and the addresses the box may
    reach through the Unix sockets of ``net_folder`` (which the caller, outside, serves:
    :func:`objmcp.serving.box_net.forward_outside`)."""

    command: list[str]
    allowed: list[Allowed]
    net_folder: str | None


def box_command(
    sandbox: Sandbox,
    program: Sequence[str],
    folder: str | None,
    *,
    chdir: str | None = None,
    fronted: bool = False,
) -> BoxedRun:
    """The ``bwrap`` command that runs ``program`` in the box ``sandbox`` describes, its
    ``folder`` readable (None: none of its own), in ``chdir`` (else ``folder``, else ``/``);
    ``fronted``: a server in front of it speaks to it over a pipe. Raises
    :class:`TargetError` where no box can be made, or for a folder or an address refused."""
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
    writable = [_folder(path, "--writable") for path in sandbox.writable]
    readable = [_folder(path, "--readable") for path in sandbox.readable]
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
        reachable = allowed(list(sandbox.allow_net))
    except ValueError as error:
        raise TargetError(str(error)) from None
    net_folder = None
    if reachable:  # the Unix sockets served outside, and the names of the hosts
        net_folder = tempfile.mkdtemp(prefix="objmcp-net-")
        hosts = Path(net_folder) / "hosts"
        hosts.write_text(hosts_file(reachable))
        command += ["--ro-bind", net_folder, NET_FOLDER, "--ro-bind", str(hosts), "/etc/hosts"]
        if any(address.port < 1024 for address in reachable):  # listened to in its own network
            command += ["--cap-add", "CAP_NET_BIND_SERVICE"]
    memory = sandbox.memory if sandbox.memory is not None else DEFAULT_MEMORY
    box = Box(tuple(shown), tuple(writable), memory, tuple(reachable), fronted)
    command += ["--setenv", BOX_ENV, box.to_env(), "--setenv", "HOME", "/tmp"]
    command += ["--setenv", "LANG", "C.UTF-8", "--chdir", chdir or folder or "/"]
    if os.environ.get("PYTHONPATH"):
        command += ["--setenv", "PYTHONPATH", os.environ["PYTHONPATH"]]
    command += ["--", *program]
    return BoxedRun(command, reachable, net_folder)


def run_boxed(run: BoxedRun) -> NoReturn:
    """Run ``run``'s program in its box, with this process's stdin, stdout and stderr, and
    exit with its status: this process becomes bubblewrap, or (when the box may reach an
    address) stays outside as its parent, serving the way out."""
    sys.stderr.flush()
    # bubblewrap stays in the box as its first process: it gets no environment (its
    # /proc/1/environ would show the secrets of this one), the program only what --setenv says
    if not run.allowed:
        os.execve(run.command[0], run.command, {})
    import subprocess

    from .box_net import forward_outside

    assert run.net_folder is not None
    try:
        listening = forward_outside(run.net_folder, run.allowed)
        boxed = subprocess.Popen(run.command, env={})  # stdin and stdout are the box's
        try:
            status = boxed.wait()
        except KeyboardInterrupt:
            status = 130
        for server in listening:
            server.close()
    finally:
        shutil.rmtree(run.net_folder, ignore_errors=True)
    sys.exit(status)


def run_again_boxed(sandbox: Sandbox) -> NoReturn:
    """Run this Python program again from the top, with its arguments, in the box
    ``sandbox`` describes (``python FILE`` or ``python -m MODULE``; its folder, or the
    current one for a module, readable in the box). Raises :class:`TargetError` for a
    program that cannot be run again (``python -c``, an interactive interpreter)."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    script = sys.argv[0] if sys.argv else ""
    if spec is not None and spec.name:
        folder = os.getcwd()
        name = spec.name.removesuffix(".__main__")
        program = [sys.executable, "-m", name, *sys.argv[1:]]
    elif script not in ("", "-c") and os.path.isfile(script):
        folder = os.path.dirname(os.path.abspath(script))
        program = [sys.executable, os.path.abspath(script), *sys.argv[1:]]
    else:
        raise TargetError(
            "sandbox= runs the program again in the box, from the top: start it as "
            "'python FILE' or 'python -m MODULE' (not -c, nor interactively)"
        )
    run_boxed(box_command(sandbox, program, folder))


def _folder(path: str, flag: str) -> str:
    """``path`` as an absolute folder that exists (else the flag is refused)."""
    found = Path(path).expanduser().resolve()
    if not found.is_dir():
        raise TargetError(f"{flag} {path}: no such folder")
    return str(found)
