"""Byte streams for serving: stdin/stdout, file descriptors, files, anyio streams.

:func:`byte_source` and :func:`byte_sink` turn whatever the user passed as
``input=``/``output=`` into two coroutine functions, ``receive() -> bytes``
(``b""`` at end of stream) and ``send(bytes)``. :class:`StdoutGuard` keeps file
descriptor 1 for the protocol alone while serving, and after: everything else written
to it (``print``, C code, child processes, ``atexit`` handlers) lands on stderr.
:class:`StdinGuard` does much the same for file descriptor 0 while serving: the
protocol reads a copy of it, and everything else that reads stdin (``input()``,
``sys.stdin``, ``os.read(0, n)``, child processes) finds it at end of file.
"""

from __future__ import annotations

import contextlib
import io
import os
import select
import stat
import sys
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, TypeVar

import anyio
import anyio.abc
import anyio.lowlevel
import anyio.to_thread

__all__ = [
    "ByteSink",
    "ByteSource",
    "StdinGuard",
    "StdoutGuard",
    "byte_sink",
    "byte_source",
    "is_stdout",
    "plain_fd",
]

ByteSource = Callable[[], Awaitable[bytes]]
ByteSink = Callable[[bytes], Awaitable[None]]
_CHUNK = 1 << 16
T = TypeVar("T")


def byte_source(stream: object) -> ByteSource:
    """A ``receive()`` for a file descriptor, a binary or text file, or an anyio byte stream."""
    if isinstance(stream, anyio.abc.ByteReceiveStream):
        return _anyio_receive(stream)
    if isinstance(stream, io.TextIOBase) and hasattr(stream, "buffer"):
        stream = stream.buffer
    fd = _fileno(stream)
    if fd is not None:
        return _fd_source(fd)
    reader = getattr(stream, "read1", None) or getattr(stream, "read", None)
    if reader is None:
        raise TypeError(f"cannot read bytes from {stream!r}")

    async def receive_file() -> bytes:
        data = await _in_io_thread(reader, _CHUNK)
        return data.encode() if isinstance(data, str) else bytes(data)

    return receive_file


def byte_sink(stream: object) -> ByteSink:
    """A ``send(data)`` for a file descriptor, a binary or text file, or an anyio byte stream."""
    if isinstance(stream, anyio.abc.ByteSendStream):
        return stream.send
    if isinstance(stream, io.TextIOBase) and hasattr(stream, "buffer"):
        stream.flush()
        stream = stream.buffer
    fd = _fileno(stream)
    if fd is not None:
        return _fd_sink(fd)
    writer: Any = stream
    if not callable(getattr(writer, "write", None)):
        raise TypeError(f"cannot write bytes to {stream!r}")

    text = isinstance(stream, io.TextIOBase)

    def write_file(data: bytes) -> None:
        writer.write(data.decode() if text else data)
        flush = getattr(writer, "flush", None)
        if flush is not None:
            flush()

    async def send_file(data: bytes) -> None:
        await _in_io_thread(write_file, data)

    return send_file


_io_limiter: anyio.lowlevel.RunVar[anyio.CapacityLimiter] = anyio.lowlevel.RunVar("objmcp_io")


async def _in_io_thread(function: Callable[..., T], *args: object) -> T:
    """Run blocking I/O in a thread of its own limiter, so that busy tools never delay it."""
    try:
        limiter = _io_limiter.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(4)
        _io_limiter.set(limiter)
    return await anyio.to_thread.run_sync(function, *args, limiter=limiter, abandon_on_cancel=True)


def plain_fd(stream: object) -> int | None:
    """The file descriptor that reading or writing ``stream`` comes down to, on POSIX; None
    for anything else (an anyio stream, an object with no descriptor, another OS)."""
    if os.name != "posix" or isinstance(stream, anyio.abc.ByteStream):
        return None
    if isinstance(stream, io.TextIOBase) and hasattr(stream, "buffer"):
        stream.flush()
        stream = stream.buffer
    return _fileno(stream)


def is_stdout(stream: object) -> bool:
    """Whether ``stream`` writes to the process's stdout (file descriptor 1, or the same file)."""
    fd = _fileno(stream)
    if fd is None:
        return False
    if fd == 1:
        return True
    stdout = StdoutGuard.taken if StdoutGuard.taken is not None else 1
    try:
        mine, theirs = os.fstat(fd), os.fstat(stdout)
    except OSError:
        return False
    return (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino) and not stat.S_ISREG(
        mine.st_mode
    )


def _pollable(fd: int) -> bool:
    """Pipes and sockets can wait on the event loop instead of in a worker thread."""
    if os.name != "posix":
        return False
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _fd_source(fd: int) -> ByteSource:
    if _pollable(fd):

        async def receive_polled() -> bytes:
            while True:
                await anyio.wait_readable(fd)
                try:
                    return os.read(fd, _CHUNK)
                except BlockingIOError:
                    continue

        return receive_polled

    async def receive_in_thread() -> bytes:
        return await _in_io_thread(os.read, fd, _CHUNK)

    return receive_in_thread


def _fd_sink(fd: int) -> ByteSink:
    pollable = _pollable(fd)

    def write_all(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]

    async def send(data: bytes) -> None:
        if pollable and len(data) <= select.PIPE_BUF:
            # Once writable, a pipe takes PIPE_BUF bytes at once: no need for a thread,
            # nor (mostly) for the event loop's wait.
            if not _writable_now(fd):
                await anyio.wait_writable(fd)
            write_all(data)
        else:
            await _in_io_thread(write_all, data)

    return send


def _writable_now(fd: int) -> bool:
    return bool(select.select((), (fd,), (), 0)[1])


def _anyio_receive(stream: anyio.abc.ByteReceiveStream) -> ByteSource:
    async def receive() -> bytes:
        try:
            return await stream.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            return b""

    return receive


def _fileno(stream: object) -> int | None:
    if isinstance(stream, int):
        return stream
    fileno = getattr(stream, "fileno", None)
    if fileno is None:
        return None
    try:
        fd = fileno()
    except (OSError, ValueError, io.UnsupportedOperation):
        return None
    if isinstance(stream, io.BufferedIOBase) and not isinstance(stream, io.BufferedReader):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    return fd if isinstance(fd, int) else None


class _FdGuard:
    """A standard file descriptor (:attr:`FD`) kept for the protocol while active: its copy
    is :attr:`protocol_fd`, and :attr:`FD` points elsewhere. Restored on exit."""

    FD = -1

    def __init__(self) -> None:
        self.protocol_fd = -1
        self._active = False

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if not self._active:
            return
        self._release()
        os.dup2(self.protocol_fd, self.FD)
        os.close(self.protocol_fd)
        self._active = False

    def _release(self) -> None:
        """What to undo before the descriptor is put back."""


class StdoutGuard:
    """While active, file descriptor 1 points at stderr; :attr:`protocol_fd` is the real stdout.

    Not given back on exit: fd 1 stays on stderr for the rest of the process, so that what
    runs once serving ended (``atexit`` handlers: OpenTelemetry's last spans, logging's
    flush, C libraries) never writes into the client's pipe, which outlives serving until
    the process ends. A later guard serves on the same copy (:attr:`taken`). Use as a
    context manager.
    """

    taken: int | None = None
    """The real stdout, once a guard took it (a copy of the client's pipe, not inheritable):
    fd 1 never points at it again."""

    def __init__(self) -> None:
        self.protocol_fd = -1

    def __enter__(self) -> StdoutGuard:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        if StdoutGuard.taken is None:
            taken = os.dup(1)
            try:
                os.dup2(2, 1)
            except OSError:  # no stderr: send stray output nowhere
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.close(devnull)
            StdoutGuard.taken = taken
        self.protocol_fd = StdoutGuard.taken
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        with contextlib.suppress(Exception):
            sys.stdout.flush()  # what was printed while serving: to stderr, where fd 1 is


class StdinGuard(_FdGuard):
    """While active, file descriptor 0 and ``sys.stdin`` are at end of file (``os.devnull``);
    :attr:`protocol_fd` is a copy of the real stdin, for the protocol alone.

    Served code that reads stdin (``input()``, ``sys.stdin.read()``, ``os.read(0, n)``, a
    child process that inherits it) gets end of file instead of the client's requests.
    Restored on exit. Use as a context manager. With no stdin to copy, :attr:`protocol_fd`
    is 0 and nothing is changed.
    """

    FD = 0

    def __init__(self) -> None:
        super().__init__()
        self.protocol_fd = 0
        self._stdin: Any = None
        self._empty: io.TextIOWrapper | None = None

    def __enter__(self) -> StdinGuard:
        try:
            protocol_fd = os.dup(0)  # not inheritable: child processes never get it
        except OSError:  # no stdin: nothing to keep from anyone
            return self
        try:
            devnull = os.open(os.devnull, os.O_RDONLY)
            try:
                os.dup2(devnull, 0)
            finally:
                os.close(devnull)
        except OSError:
            os.close(protocol_fd)
            return self
        self.protocol_fd = protocol_fd
        self._stdin = sys.stdin
        # A fresh stream on the new fd 0: nothing the old one may have buffered is read.
        encoding = getattr(self._stdin, "encoding", None) or "utf-8"
        self._empty = open(0, encoding=encoding, closefd=False)  # closed on exit
        sys.stdin = self._empty
        self._active = True
        return self

    def _release(self) -> None:
        sys.stdin = self._stdin
        if self._empty is not None:
            with contextlib.suppress(Exception):
                self._empty.close()
