"""The task store bench's CI run (issue 42): ``bench/tasks.py --only store --quick`` on a
real Redis, with real fronts and workers: a task round with the store against in memory,
tasks a second with 1 and 2 workers, and a load run of 40 tasks through 2 fronts and 2
workers, none lost and none run twice. Counts and the presence of every figure are
checked, never a duration."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

from conftest import PYTHON, ROOT, start_redis

LOAD = 40  # the load run's tasks in --quick


def test_the_store_phase_loses_no_task_and_runs_none_twice(tmp_path: Path) -> None:
    redis, url = start_redis(tmp_path)
    figures = tmp_path / "store.json"
    command = [PYTHON, str(ROOT / "bench" / "tasks.py"), "--only", "store", "--quick"]
    try:
        done = subprocess.run(
            [*command, "--redis", url, "--json", str(figures)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    finally:
        redis.terminate()
        redis.wait(timeout=20)
    said = done.stdout[-4000:] + "\n" + done.stderr[-4000:]
    assert done.returncode == 0, said
    assert "== task store (Redis) and queue" in done.stdout, said
    assert "none lost, none run twice" in done.stdout, said
    store = json.loads(figures.read_text())["store"]
    assert "skipped" not in store and store["problems"] == [], store.get("problems")

    load = store["load"]
    assert load["tasks"] == load["completed"] == LOAD, load
    assert load["lost"] == 0 and load["run_twice"] == 0, load
    assert load["distinct_task_ids"] is True and load["run_never_called"] == []
    assert load["calls_by_front"] == {"0": LOAD // 2, "1": LOAD // 2}  # both fronts called
    assert sum(load["runs_by_worker"]) == LOAD and len(load["runs_by_worker"]) <= 2
    assert load["worker_tracebacks"] == 0

    rounds = store["round"]
    for kind in ("memory", "store"):
        assert rounds[kind]["polls_per_round"] >= 1, rounds
        assert all(value > 0 for value in rounds[kind].values()), rounds
    ratios = dict(rounds["ratios"])
    assert {"task_round store/memory", "task_handle store/memory"} <= set(ratios)
    assert {through["at_once"] for through in store["throughput"]} == {1, 10}
    for through in store["throughput"]:
        for workers in ("1", "2"):
            assert through["tasks_per_second"][workers] > 0, through
            for run in through["runs"][workers]:
                assert run["lost"] == 0 and run["run_twice"] == 0, run
        ratios |= through["ratios"]
    assert len(ratios) == 2 + 3 * 2, ratios
    for name, value in ratios.items():
        assert isinstance(value, float) and math.isfinite(value) and value > 0, name
        assert name in done.stdout, name  # every ratio is in the report
