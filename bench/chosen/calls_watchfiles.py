"""The calls of ``watchfiles`` (rank 117, tuning).

The walk chose the module ``watchfiles``, whose documented API is ``watch`` / ``awatch`` and
``run_process`` / ``arun_process``. None of them can have a call here: ``watch`` and ``awatch``
are generators that wait for changes on disk and never end (with ``yield_on_timeout`` they
yield an empty set every ``rust_timeout`` forever), so no call has a fixed, fast answer; the
``run_process`` pair starts and restarts a program (withheld). The module is listed with no
call, its process-starting functions withheld.

The calls are to ``watchfiles.run``'s ``detect_target_type``, the one function of the API
reference that answers from its argument alone (how ``run_process`` reads a target: a command
or a function's dotted path), each answer computed by calling watchfiles itself. It takes one
string, so no call here has a number, list or object parameter. ``import_string`` (imports
any module by name) is withheld with the process starters.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``watch`` and
``awatch`` never end, so the module's classes in ``dir()`` order: ``BaseFilter`` and
``DefaultFilter`` (their text), and the enum ``Change`` (a member as its value, an integer).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

PROCESSES = ("run_process", "arun_process")


def _watchfiles() -> Any:
    return importlib.import_module("watchfiles")


def _detect(target: str) -> str:
    detected: str = importlib.import_module("watchfiles.run").detect_target_type(target)
    return detected


TARGETS: tuple[Target, ...] = (
    Target(
        "watchfiles",
        (
            Call("BaseFilter", {}, lambda: repr(_watchfiles().BaseFilter())),
            Call("Change", {"value": 1}, lambda: int(_watchfiles().Change(1))),
            Call(
                "DefaultFilter",
                {"ignore_dirs": ["node_modules"]},
                lambda: repr(_watchfiles().DefaultFilter(ignore_dirs=["node_modules"])),
            ),
        ),
        withheld=PROCESSES,
    ),
    Target(
        "watchfiles.run",
        (
            Call("detect_target_type", {"target": "app.main"}, lambda: _detect("app.main")),
            Call("detect_target_type", {"target": "main.py"}, lambda: _detect("main.py")),
            Call(
                "detect_target_type",
                {"target": "python -m http.server"},
                lambda: _detect("python -m http.server"),
            ),
            Call("detect_target_type", {"target": "./deploy.sh"}, lambda: _detect("./deploy.sh")),
        ),
        withheld=(*PROCESSES, "import_string"),
    ),
)
