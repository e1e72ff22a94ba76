"""The calls of ``pexpect`` (rank 155, tuning).

Written from Pexpect's documentation (the "pexpect module" API page: its utilities
``which(filename, env=None)`` and ``split_command_line(command_line)``), each answer computed by
calling Pexpect itself. Pexpect's own purpose, ``run`` and ``spawn``, starts programs: those are
withheld and no call here makes one; ``which`` only looks along the ``PATH`` it is given (or the
process's), on the machine the calls run on.

More calls (issue 37), taken by the rule of the README's "More tuning calls":
``is_executable_file`` (twice), the one function left (the classes are exceptions and the
``Expecter`` of a spawned process), and one more ``which`` with an ``env`` object.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

LS = 'ls -l "My Documents" /tmp'
GREP = r"grep -r 'foo bar' src\ dir"
SYSTEM_PATH = {"PATH": "/usr/bin:/bin"}
NO_PATH = {"PATH": "/nonexistent"}


def _pexpect() -> Any:
    return importlib.import_module("pexpect")


TARGETS: tuple[Target, ...] = (
    Target(
        "pexpect",
        (
            Call(
                "split_command_line",
                {"command_line": LS},
                lambda: _pexpect().split_command_line(LS),
            ),
            Call(
                "split_command_line",
                {"command_line": GREP},
                lambda: _pexpect().split_command_line(GREP),
            ),
            Call(
                "which",
                {"filename": "ls", "env": SYSTEM_PATH},
                lambda: _pexpect().which("ls", env=SYSTEM_PATH),
            ),
            Call(
                "which",
                {"filename": "python3", "env": NO_PATH},
                lambda: _pexpect().which("python3", env=NO_PATH),
            ),
            Call(
                "is_executable_file",
                {"path": "/bin/sh"},
                lambda: _pexpect().is_executable_file("/bin/sh"),
            ),
            Call(
                "is_executable_file",
                {"path": "/etc/passwd"},
                lambda: _pexpect().is_executable_file("/etc/passwd"),
            ),
            Call(
                "which",
                {"filename": "sh", "env": {"PATH": "/nonexistent:/bin"}},
                lambda: _pexpect().which("sh", env={"PATH": "/nonexistent:/bin"}),
            ),
        ),
        withheld=("run", "runu", "spawn", "spawnu"),
    ),
)
