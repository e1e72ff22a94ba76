"""The code-mode benchmark (``bench/code_mode.py``, issue 44) runs: ``--quick`` does two tasks in
every mode through Pydantic AI (in ``.venv-clients``) and times ``execute``; its figures have
every part. No figure is compared with a goal and no duration with anything."""

from __future__ import annotations

import json
import math
import subprocess
from typing import Any

import pytest
from conftest import PYTHON, ROOT
from peer_helpers import CLIENT_TIMEOUT, CLIENTS_PYTHON

MODES = ("plain", "search", "code")


@pytest.fixture(scope="module")
def figures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The figures of one run of ``bench/code_mode.py --quick``, its servers run by this
    Python."""
    if not CLIENTS_PYTHON.exists():
        pytest.fail(f"{CLIENTS_PYTHON} is missing (scripts/test.sh makes it)", pytrace=False)
    written = tmp_path_factory.mktemp("code_mode") / "code_mode.json"
    command = [str(CLIENTS_PYTHON), str(ROOT / "bench" / "code_mode.py"), "--quick"]
    done = subprocess.run(
        [*command, "--json", str(written), "--python", PYTHON],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=CLIENT_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + "\n" + done.stderr[-4000:]
    assert "== tuning half" in done.stdout and "code/plain bytes" in done.stdout
    found: dict[str, Any] = json.loads(written.read_text())
    return found


def test_the_quick_run_gives_every_figure(figures: dict[str, Any]) -> None:
    tasks = figures["tasks"]
    assert len(tasks) == 2 and {task["half"] for task in tasks} == {"tuning"}
    for task in tasks:
        for mode in MODES:
            run = task["runs"][mode]
            assert run["sent"] > 0 and run["calls"], (task["task"], mode)
            assert run["right"], (task["task"], mode, run)  # the library's own answer
        assert task["runs"]["code"]["calls"][-1] == "execute"
        assert task["runs"]["code"]["calls"].count("execute") == 1
    assert set(figures["halves"]) == {"tuning", "all"}
    for half in figures["halves"].values():
        for mode in MODES:
            assert half[mode]["bytes"] > 0 and half[mode]["bytes_per_task"] > 0, mode
        for pair in ("code/plain", "search/plain"):
            for value in half[pair].values():
                assert isinstance(value, float) and math.isfinite(value), (pair, half[pair])
            assert half[pair]["ratio"] > 0


def test_the_quick_run_times_execute_against_direct_calls(figures: dict[str, Any]) -> None:
    spent = figures["overhead"]
    assert [row["calls"] for row in spent["rows"]] == [0, 1, 4, 8, 32]
    for row in spent["rows"]:
        for key in ("execute_ms", "direct_ms", "added_ms", "ratio"):
            assert isinstance(row[key], float) and math.isfinite(row[key]), (key, row)


def test_the_stubs_bench_measures_both_halves_of_the_ci_sample() -> None:
    # bench/code_mode_stubs.py over the chosen zoo's CI sample (installed by scripts/test.sh):
    # each half has tools, and every share is a percentage
    done = subprocess.run(
        [PYTHON, str(ROOT / "bench" / "code_mode_stubs.py"), "--sample", "--markdown"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=CLIENT_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    rows = [line.strip("|").split("|") for line in done.stdout.splitlines()[2:]]
    assert [row[0].strip(" *") for row in rows] == ["tuning", "held-out"]
    for _, tools, *shares in rows:
        assert int(tools) > 0
        assert all(0 <= int(share.strip().rstrip("%")) <= 100 for share in shares)
