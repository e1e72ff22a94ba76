"""The zoo (issue 22): the standard library and real libraries from PyPI, served as they
are by ``objmcp run`` in a real process, listed and called through the official SDK's
client with the calls a model would make, each answer checked against what the library
itself gives when called directly (``bench/zoo_cases.py``)."""

from __future__ import annotations

import importlib
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))

from zoo_cases import TARGETS, Target
from zoo_figures import serve_and_call

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("target", TARGETS, ids=[target.spec for target in TARGETS])
async def test_every_sample_call_gives_what_the_library_gives(target: Target) -> None:
    tools, outcomes = await serve_and_call(target)
    assert tools or not target.calls, f"{target.spec} serves no tools"
    failures = [f"{o.tool}: {o.detail}" for o in outcomes if not o.passed]
    assert not failures, "\n".join(failures)
    assert len(outcomes) == len(target.calls)


DANGEROUS = [target for target in TARGETS if target.withheld]


@pytest.mark.parametrize("target", DANGEROUS, ids=[target.spec for target in DANGEROUS])
async def test_nothing_dangerous_is_served_unless_named(target: Target) -> None:
    module = importlib.import_module(target.spec.split(":")[0])
    present = [name for name in target.withheld if callable(getattr(module, name, None))]
    assert present, f"{target.spec} has none of {target.withheld}: the check proves nothing"
    served, _ = await serve_and_call(Target(target.spec, ()))
    assert not {tool["name"] for tool in served} & set(target.withheld)
    named = await serve_and_call(Target(target.spec, (), ("--include", present[0])))
    assert [tool["name"] for tool in named[0]] == [present[0]]
