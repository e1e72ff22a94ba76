"""The calls of ``jedi`` (rank 249, held-out, second walk).

Written from Jedi's documentation (its README on PyPI and the package's docstring: ``script =
jedi.Script(source, path='example.py')``, then ``script.complete(line, column)``; the "API"
page, jedi.readthedocs.io docs/api.rst: ``Script``, ``Project``, the "Helpful functions"
``preload_module``), each answer computed by calling Jedi itself.

Jedi's documented main use, a ``Script``'s ``complete``/``infer``/``goto``/``get_names``, is a
method of a ``Script`` made from the code: out of the walk's target's reach (the module serves
``Script`` as a constructor, whose answer is the object, not its completions), and out of any
other target's (``Script()`` with no arguments raises "Must provide at least one of code or
path", so ``jedi:Script`` cannot be served as a class target). The calls are the ones the
module itself offers: ``Script`` and ``Project`` made from their documented arguments, each
answering with its documented text (``<Script: 'example.py' <SameEnvironment: ...>>``, the
docs' own example, which names the running Python's version and prefix; ``<Project: path>``),
and ``preload_module`` (answers None). ``get_default_project`` is not called: its answer
depends on the files above the path it is given. ``Interpreter``'s text is its address.
Withheld: ``set_debug_function`` (prints Jedi's debug output on the process's standard output,
which a stdio server shares with its protocol), ``create_environment``,
``get_system_environment``, ``get_default_environment``, ``find_system_environments`` and
``find_virtualenvs`` (they run Python interpreters found on the machine).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

SOURCE = "import json\njson.lo"
FUNCTION = "def add(a, b):\n    return a + b\n\nadd(1, 2)\n"


def _jedi() -> Any:
    return importlib.import_module("jedi")


TARGETS: tuple[Target, ...] = (
    Target(
        "jedi",
        (
            Call(
                "Script",
                {"code": SOURCE, "path": "example.py"},
                lambda: str(_jedi().Script(SOURCE, path="example.py")),
            ),
            Call("Script", {"code": FUNCTION}, lambda: str(_jedi().Script(FUNCTION))),
            Call(
                "preload_module",
                {"modules": ["json", "os"]},
                lambda: _jedi().preload_module("json", "os"),
            ),
            Call(
                "Project",
                {"path": "/tmp/myproject", "added_sys_path": ["/tmp/myproject/src"]},
                lambda: str(
                    _jedi().Project("/tmp/myproject", added_sys_path=["/tmp/myproject/src"])
                ),
            ),
            Call(
                "Project",
                {"path": "/tmp/myproject", "sys_path": ["/tmp/myproject", "/tmp/lib"]},
                lambda: str(
                    _jedi().Project("/tmp/myproject", sys_path=["/tmp/myproject", "/tmp/lib"])
                ),
            ),
        ),
        withheld=(
            "set_debug_function",
            "create_environment",
            "get_system_environment",
            "get_default_environment",
            "find_system_environments",
            "find_virtualenvs",
        ),
    ),
)
