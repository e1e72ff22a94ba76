"""Modules served whole: a package's own re-exports, and an order that does not change
from one start to the next (issue 22, section 2)."""

from __future__ import annotations

import json
import subprocess

import more_itertools
from conftest import PYTHON, ROOT, server_env

from objmcp import Toolbox


def test_a_package_serves_what_its_init_imports_from_its_own_submodules() -> None:
    tools = Toolbox(more_itertools)
    assert {"chunked", "first", "padded", "windowed"} <= set(tools)
    assert all(tool.function.__module__.startswith("more_itertools") for tool in tools.values()), (
        "a function from another package is served"
    )


def test_a_function_imported_from_another_package_is_not_the_packages_own() -> None:
    tools = Toolbox(json)  # json imports from its own submodules, nothing callable from others
    assert "loads" in tools and "dumps" in tools
    assert not any(name.startswith("_") for name in tools)


def tool_names(seed: str) -> list[str]:
    probe = (
        "import json, numpy, objmcp\n"
        "print(json.dumps(list(objmcp.Toolbox(numpy, include=['a*', 's*']))))"
    )
    env = {**server_env(), "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [PYTHON, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    )
    return list(json.loads(done.stdout.splitlines()[-1]))


def test_the_tool_order_is_the_same_from_one_start_to_the_next() -> None:
    first, second = tool_names("1"), tool_names("2")
    assert first and first == second
    assert first == sorted(first)
