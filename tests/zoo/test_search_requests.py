"""The held-out search benchmark's requests hold to their rule (issue 39): one module per
target, 15 requests each, three in each style, the sampled order kept, no request holding
its tool's own name. Needs none of the libraries (their tools are checked by the bench)."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

SEARCH = Path(__file__).resolve().parents[2] / "bench" / "search"
sys.path.insert(0, str(SEARCH))

from chosen_tools import PER_TARGET, TARGETS  # noqa: E402
from labelled import STYLES, Request, half_of, slug  # noqa: E402


def test_every_target_has_its_requests_and_no_module_is_left_over() -> None:
    modules = {path.stem for path in SEARCH.glob("requests_*.py")}
    assert modules == {f"requests_{slug(target)}" for target in TARGETS}


@pytest.mark.parametrize("target", TARGETS)
def test_a_targets_requests_keep_the_rule(target: str) -> None:
    module = importlib.import_module(f"requests_{slug(target)}")
    assert target == module.TARGET
    requests: tuple[Request, ...] = module.REQUESTS
    assert len(requests) == PER_TARGET
    assert [r.style for r in requests] == [STYLES[i % len(STYLES)] for i in range(PER_TARGET)]
    assert Counter(r.style for r in requests) == dict.fromkeys(STYLES, PER_TARGET // len(STYLES))
    for request in requests:
        assert request.answers and all(isinstance(a, str) for a in request.answers)
        words = set(re.findall(r"[A-Za-z0-9_]+", request.text))
        assert request.answers[0] not in words, (request.answers[0], request.text)
        assert len(request.text.split()) < 20, request.text
    assert len({r.answers[0] for r in requests}) == PER_TARGET  # one request a sampled tool


def test_both_halves_have_targets_of_both_zoos() -> None:
    halves = Counter(half_of(target) for target in TARGETS)
    assert halves == {"tuning": 14, "held-out": 10}
    assert sum(half_of(target) == "held-out" for target in TARGETS[:12]) == 6


def test_the_bench_measures_a_target_of_the_first_zoo() -> None:
    """A smoke run of ``bench/search/search_figures.py`` (the whole bench needs the chosen
    zoo's venv): one tuning target, both servers, every figure a share."""
    done = subprocess.run(
        [sys.executable, str(SEARCH / "search_figures.py"), "--target", "math", "--markdown"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    row = next(line for line in done.stdout.splitlines() if line.startswith("| math (tuning)"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[1] == str(PER_TARGET)
    assert all(0.0 <= float(cell) <= 1.0 for cell in cells[2:]), cells
