"""Lists in a stable order (2026-07-28's changelog): the same target lists its tools,
resources and prompts in the same order in every process, whatever its hash seed, and
``add``/``remove`` keep the order of what stays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import objmcp
from objmcp.model.calling.toolbox import Toolbox

ROOT = Path(objmcp.__file__).resolve().parents[1]
LISTING = (
    "import json, sys\n"
    "from objmcp.model.calling.toolbox import Toolbox\n"
    "from objmcp.cli.targets import load_target\n"
    "tools = Toolbox(load_target(sys.argv[1]))\n"
    "print(json.dumps([list(tools), list(tools.resources), list(tools.prompts)]))\n"
)


def listed(spec: str, seed: str) -> list[list[str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-c", LISTING, spec],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=ROOT,
    )
    found: list[list[str]] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize("spec", ["os", "numpy.linalg", "tests/servers/shelf.py:Shelf"])
def test_the_same_target_lists_in_the_same_order_in_every_process(spec: str) -> None:
    first, second = listed(spec, "1"), listed(spec, "2")
    assert first[0], f"{spec} lists no tools: nothing is compared"
    assert first == second


class Base:
    """Three tools."""

    def alpha(self) -> str:
        return "a"

    def beta(self) -> str:
        return "b"

    def gamma(self) -> str:
        return "c"


class Extra:
    """Two more."""

    def delta(self) -> str:
        return "d"

    def epsilon(self) -> str:
        return "e"


def test_adding_and_removing_keep_the_order_of_what_stays() -> None:
    tools = Toolbox(Base())
    before = list(tools)
    tools.add(Extra())
    assert list(tools) == [*before, "delta", "epsilon"]
    tools.remove("beta")
    assert list(tools) == ["alpha", "gamma", "delta", "epsilon"]
    assert list(tools) == list(tools)  # and again
