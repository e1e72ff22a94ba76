"""Tools that try what ``objmcp run --sandbox`` refuses, and what it allows: files,
programs, the network, the environment, and escapes from the box."""

from __future__ import annotations

import ctypes
import os
import pathlib
import shutil
import socket
import subprocess


def read(path: str) -> str:
    """The text of the file ``path``."""
    return pathlib.Path(path).read_text()


def write(path: str, text: str) -> str:
    """Write ``text`` to the file ``path``."""
    pathlib.Path(path).write_text(text)
    return f"wrote {path}"


def copy(source: str, destination: str) -> str:
    """Copy a file (shutil)."""
    return str(shutil.copyfile(source, destination))


def link(target: str, path: str) -> str:
    """Make ``path`` a symbolic link to ``target``."""
    os.symlink(target, path)
    return f"linked {path}"


def run(program: str) -> str:
    """Run ``program`` (subprocess) and answer what it printed."""
    ran = subprocess.run(
        [program, "-c", "print('ran')"], capture_output=True, text=True, check=False
    )
    return ran.stdout


def connect(port: int) -> str:
    """Connect to 127.0.0.1:``port``."""
    socket.create_connection(("127.0.0.1", port), timeout=5).close()
    return "connected"


def fetch(port: int) -> str:
    """GET http://127.0.0.1:``port``/ with urllib (which wraps what the socket raised)."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
        return str(answer.status)


def environment() -> dict[str, str]:
    """This process's environment."""
    return dict(os.environ)


def parent() -> int:
    """This process's parent's id."""
    return os.getppid()


def descriptors() -> list[str]:
    """The file descriptors this process holds, and what each is."""
    found = []
    for name in sorted(os.listdir("/proc/self/fd"), key=int):
        try:
            found.append(f"{name} {os.readlink(f'/proc/self/fd/{name}')}")
        except OSError:
            found.append(name)
    return found


def trace(pid: int) -> int:
    """ptrace(PTRACE_ATTACH) the process ``pid``: its result, or -errno."""
    libc = ctypes.CDLL(None, use_errno=True)
    done = libc.ptrace(16, pid, None, None)
    return done if done == 0 else -ctypes.get_errno()


def echo(host: str, port: int, text: str) -> str:
    """Send ``text`` to ``host``:``port`` and answer what comes back."""
    with socket.create_connection((host, port), timeout=5) as connected:
        connected.sendall(text.encode())
        connected.shutdown(socket.SHUT_WR)
        back = b""
        while chunk := connected.recv(4096):
            back += chunk
    return back.decode()
