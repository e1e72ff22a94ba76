"""Inside the box of ``objmcp run --sandbox``: what the boxed server process sets up in
itself before it imports the target, and how a refused action is said.

bubblewrap (:mod:`objmcp.cli.sandbox`) made the box: its own namespaces (no network,
its own processes), only the paths the code needs, read-only but for ``--writable``,
no capabilities, no new privileges. In it the server, first thing, caps its address
space (``RLIMIT_AS``, the box's memory) and installs a seccomp filter that refuses
``execve`` and ``execveat`` to every thread it will have: no program can be started in
the box, whatever is on its paths (the interpreter it runs included); ``ptrace`` and
``process_vm_readv``/``writev`` are refused too. Then an error a
tool raises because the box refused it is said as the box's: ``sandbox: cannot write
/home/...: read-only``, with the error itself after it.
"""

from __future__ import annotations

import errno
import json
import os
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from ..model.values.content import say_refusals_by

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..model.calling.caller import Caller
    from ..model.calling.tool import Tool
    from .box_net import Allowed

__all__ = [
    "BOX_ENV",
    "FRONT_CALLER",
    "FRONT_TOOL",
    "Box",
    "enter",
    "forbid_programs",
    "fronted_caller",
    "refusal",
    "shown_to_front",
]

BOX_ENV = "OBJMCP_BOX"
"""The environment variable that tells a server it runs boxed, and how (JSON)."""
FRONT_CALLER = "objmcp.box/caller"
"""The key, in a request's ``_meta``, of the caller a boxed server's front checked: read
only by a server whose box says it has a front (:attr:`Box.fronted`), whose stdin the
front alone holds."""
FRONT_TOOL = "objmcp.box/tool"
"""The key, in a boxed server's ``tools/list`` entries' ``_meta``, of what its front must
know of each tool that no revision's ``Tool`` says: its ``task``, ``needs`` and ``scopes``
(:func:`shown_to_front`)."""


@dataclass(frozen=True)
class Box:
    """What the box lets the code reach: ``readable`` and ``writable`` paths (beside
    Python's own), and ``memory`` bytes of address space (None: no cap)."""

    readable: tuple[str, ...] = ()
    writable: tuple[str, ...] = ()
    memory: int | None = None
    net: tuple[Allowed, ...] = ()
    """The addresses it may reach (``--allow-net``)."""
    fronted: bool = False
    """A server in front of it (over HTTP) speaks to it and names each request's caller
    (:data:`FRONT_CALLER`)."""

    def to_env(self) -> str:
        """The box as :data:`BOX_ENV` carries it."""
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls, text: str) -> Box:
        """The box :meth:`to_env` wrote."""
        from .box_net import Allowed

        found = json.loads(text)
        net = tuple(Allowed(**address) for address in found.get("net", ()))
        return cls(
            tuple(found["readable"]),
            tuple(found["writable"]),
            found["memory"],
            net,
            bool(found.get("fronted")),
        )


def fronted_caller(message: object) -> Caller | None:
    """The caller a boxed server's front named in ``message`` (a request), taken out of its
    ``_meta``; None when it names none."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict) or FRONT_CALLER not in meta:
        return None
    from ..model.calling.caller import caller_from

    return caller_from(meta.pop(FRONT_CALLER))


def shown_to_front(tools: Iterable[Tool]) -> None:
    """Put in each tool's ``_meta`` (:data:`FRONT_TOOL`) what its front must know of it, and
    leave its tasks to the front (its calls here are plain): a boxed server's tools are made
    for the one front that lists them."""
    for tool in tools:  # frozen, but made for this alone
        said = {"task": tool.task, "needs": list(tool.needs), "scopes": list(tool.scopes)}
        object.__setattr__(tool, "meta", {**tool.meta, FRONT_TOOL: said})
        object.__setattr__(tool, "task", None)


def enter(box: Box) -> None:
    """Set the box up in this process: its memory cap, no program started, and refusals
    said as the box's."""
    import resource

    if box.memory is not None:
        resource.setrlimit(resource.RLIMIT_AS, (box.memory, box.memory))
    if box.net:
        from .box_net import forward_inside

        forward_inside(list(box.net))
    forbid_programs()
    say_refusals_by(lambda error: refusal(box, error))


# seccomp: the classic BPF program, and the numbers of the calls it refuses, by machine
_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
_REFUSED_CALLS = {  # execve, execveat; ptrace, process_vm_readv, process_vm_writev
    "x86_64": (59, 322, 101, 310, 311),
    "aarch64": (221, 281, 117, 270, 271),
}
_SECCOMP_CALL = {"x86_64": 317, "aarch64": 277}
_X32_BIT = 0x40000000  # x86_64's x32 calls carry it: refused, as another ABI's
_LD_W_ABS, _JEQ_K, _JGE_K, _RET_K = 0x20, 0x15, 0x35, 0x06
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000


def forbid_programs() -> None:
    """Refuse ``execve`` and ``execveat`` (EPERM) to every thread of this process and its
    children, for good, and ``ptrace`` and reading or writing another process's memory;
    OSError where the kernel refuses the filter."""
    import ctypes
    import platform
    import struct

    machine = platform.machine()
    if machine not in _AUDIT_ARCH:
        raise OSError(f"the sandbox knows no seccomp numbers for {machine}")
    refused = _REFUSED_CALLS[machine]
    refuse = _ERRNO | errno.EPERM
    program = [
        (_LD_W_ABS, 0, 0, 4),  # the call's architecture
        (_JEQ_K, 1, 0, _AUDIT_ARCH[machine]),
        (_RET_K, 0, 0, refuse),  # another ABI's calls: refused
        (_LD_W_ABS, 0, 0, 0),  # the call's number
        (_JGE_K, len(refused) + 1, 0, _X32_BIT),
    ]
    for left, number in enumerate(refused):  # each jumps to the last instruction
        program.append((_JEQ_K, len(refused) - left, 0, number))
    program += [(_RET_K, 0, 0, _ALLOW), (_RET_K, 0, 0, refuse)]
    code = b"".join(struct.pack("HBBI", *instruction) for instruction in program)
    filters = ctypes.create_string_buffer(code)

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Program(len(program), ctypes.addressof(filters))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    set_mode_filter, all_threads = 1, 1  # SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC
    done = libc.syscall(_SECCOMP_CALL[machine], set_mode_filter, all_threads, ctypes.byref(fprog))
    if done != 0:
        raise OSError(ctypes.get_errno(), "seccomp(SECCOMP_SET_MODE_FILTER) failed")


def refusal(box: Box, error: BaseException) -> str | None:
    """What the box refused, when ``error`` is its doing (``sandbox: cannot ...``), or
    an error it led to (a library's error that wraps it: ``urllib``'s ``URLError``, raised
    while handling the socket's, or holding it as its ``reason``); None for any other."""
    seen: set[int] = set()
    found: BaseException | None = error
    while found is not None and id(found) not in seen:
        seen.add(id(found))
        if isinstance(found, OSError) and (said := _refused(box, found)) is not None:
            return said
        reason = getattr(found, "reason", None)
        found = (
            reason if isinstance(reason, BaseException) else (found.__cause__ or found.__context__)
        )
    return None


def _refused(box: Box, error: OSError) -> str | None:
    """What the box refused, when ``error`` itself is its doing."""
    path = error.filename if isinstance(error.filename, str) else None
    code = error.errno
    if _starting_a_program(error):
        return f"sandbox: cannot run {path or 'a program'}: no program may be started in the box"
    reach = ", ".join(f"{a.host}:{a.port}" for a in box.net)
    network = f"it reaches only {reach}" if reach else "the box has no network"
    import socket

    if isinstance(error, socket.gaierror) or code in (errno.ENETUNREACH, errno.EADDRNOTAVAIL):
        return f"sandbox: cannot connect: {network}"
    if isinstance(error, ConnectionRefusedError):
        return f"sandbox: cannot connect: {network} (nothing else listens in the box)"
    if code == errno.EROFS:
        return f"sandbox: cannot write {path or 'there'}: read-only"
    if code in (errno.EACCES, errno.EPERM) and path is not None:
        return f"sandbox: cannot reach {path}: not allowed in the box"
    if code == errno.ENOENT and path is not None and not _shown(box, path):
        return f"sandbox: cannot read {path}: outside what the box shows"
    return None


_STARTERS = frozenset({"subprocess.py", "os.py"})


def _starting_a_program(error: OSError) -> bool:
    """Whether ``error`` was raised starting a program (``subprocess``, ``os.exec*``,
    ``os.spawn*``, ``os.posix_spawn``): refused by the box's filter, or not found on its
    paths, which hold none."""
    if error.errno not in (errno.EPERM, errno.ENOENT, errno.EACCES):
        return False
    frame = error.__traceback__
    while frame is not None:
        code = frame.tb_frame.f_code
        if os.path.basename(code.co_filename) in _STARTERS and (
            "exec" in code.co_name or "spawn" in code.co_name or code.co_name == "__init__"
        ):
            return True
        frame = frame.tb_next
    return False


def _shown(box: Box, path: str) -> bool:
    """Whether ``path`` is under a folder the box shows of the host's (so that its absence
    is real); not its own ``/tmp``, ``/proc`` and ``/dev``, where what the host has is
    not."""
    from pathlib import PurePosixPath

    resolved = PurePosixPath(os.path.realpath(path))  # where a link leads, in the box
    shown = (*box.readable, *box.writable)
    return any(resolved.is_relative_to(PurePosixPath(root)) for root in shown)
