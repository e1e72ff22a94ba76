"""The calls of ``shellingham`` (rank 100, held-out).

Written from shellingham's documentation (its README: ``detect_shell()`` gives the name of the
shell and the command that runs it; ``max_depth`` bounds how many parent processes it looks
through), each answer computed by calling shellingham itself, in JSON's terms (the tuple as a
list). The answer depends on the processes above the caller: the served process and the
process that computes the answer sit under the same shell, and the depths asked for reach it
from both.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]


def _detect(**options: Any) -> Any:
    return expected_json(importlib.import_module("shellingham").detect_shell(**options))


TARGETS: tuple[Target, ...] = (
    Target(
        "shellingham",
        (
            Call("detect_shell", {}, _detect),
            Call("detect_shell", {"max_depth": 10}, lambda: _detect(max_depth=10)),
            Call("detect_shell", {"max_depth": 20}, lambda: _detect(max_depth=20)),
            Call(
                "detect_shell",
                {"pid": None, "max_depth": 50},
                lambda: _detect(pid=None, max_depth=50),
            ),
        ),
    ),
)
