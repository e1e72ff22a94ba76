"""Tools that read stdin every way served code can, for tests/serving/test_stdin_guard.py:
``input()``, ``sys.stdin.read()``, ``os.read(0, n)`` and a child process that inherits
file descriptor 0; and ``add``, to see that the requests after them are answered.

Arguments: ``stream`` sends the output through an object with no file descriptor (the
plain stream connection instead of the reader's fast lane); ``explicit`` serves
``input=sys.stdin.buffer``, given explicitly (which is left alone).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import objmcp


class StdinReaders:
    """Tools that read the process's stdin."""

    def ask(self, prompt: str = "") -> str:
        """A line from ``input()``."""
        return input(prompt)

    def read_all(self) -> str:
        """All of ``sys.stdin``."""
        return repr(sys.stdin.read())

    def read_fd(self) -> str:
        """Up to 100 bytes of file descriptor 0."""
        return repr(os.read(0, 100))

    @objmcp.tool  # named: what it does is what the test is about
    def child(self) -> str:
        """What ``cat``, started with the process's stdin, prints."""
        done = subprocess.run(["cat"], capture_output=True, timeout=10, check=False)
        return f"status={done.returncode} out={done.stdout!r}"

    def stdin_kind(self) -> str:
        """What file descriptor 0 is, and whether ``sys.stdin`` is the process's own."""
        mode = os.fstat(0).st_mode
        kind = "fifo" if stat.S_ISFIFO(mode) else "char" if stat.S_ISCHR(mode) else "other"
        return f"fd0={kind} own={sys.stdin is sys.__stdin__}"

    def add(self, a: int, b: int) -> int:
        """a + b."""
        return a + b


class _Output:
    """stdout's bytes through an object with no file descriptor."""

    def write(self, data: bytes) -> None:
        sys.stdout.buffer.write(data)

    def flush(self) -> None:
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    words = set(sys.argv[1:])
    options: dict[str, object] = {}
    if "stream" in words:
        options["output"] = _Output()
    if "explicit" in words:
        options["input"] = sys.stdin.buffer
    objmcp.start("stdin-readers", StdinReaders(), **options)
