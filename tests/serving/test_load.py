"""Load (issue 8): a thousand calls at once on one connection, every one answered and
matched to its id, with worker threads bounded; and a short run of the soak in ``bench/``,
whose figures must stay flat."""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from conftest import PYTHON, ROOT
from http_helpers import call
from test_limits import loaded


def threads_of(pid: int) -> int:
    """The number of threads process ``pid`` has now."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise AssertionError("no Threads line")


def test_a_thousand_concurrent_calls_are_all_answered_with_bounded_threads() -> None:
    server = loaded("--max-threads", "8")
    server.initialize()
    pid = server.process.pid
    idle_threads = threads_of(pid)
    plan: dict[int, tuple[str, dict[str, Any], str]] = {}
    kinds = [
        ("sync_nap", lambda n: {"seconds": 0.01}, lambda n: "slept 0.01"),
        ("nap", lambda n: {"seconds": 0.2}, lambda n: "napped 0.2"),
        ("echo", lambda n: {"value": n}, str),
        ("length", lambda n: {"text": "x" * n}, str),
    ]
    for number in range(1, 1001):
        tool, arguments, answer = kinds[number % len(kinds)]
        plan[number] = (tool, arguments(number), answer(number))
    for number in range(1001, 1011):  # a few slow sync calls hold threads for longer
        plan[number] = ("sync_nap", {"seconds": 0.5}, "slept 0.5")
    order = list(plan)
    random.Random(8).shuffle(order)
    most = [idle_threads]
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            most.append(threads_of(pid))
            time.sleep(0.005)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    server.write(
        b"".join((json.dumps(call(n, plan[n][0], **plan[n][1])) + "\n").encode() for n in order)
    )
    answers: dict[int, Any] = {}
    while len(answers) < len(plan):
        message = server.read()
        assert message["id"] not in answers, f"two answers to {message['id']}"
        answers[message["id"]] = message
    done.set()
    watcher.join()
    for number, (tool, _, expected) in plan.items():
        result = answers[number]["result"]
        assert result["isError"] is False, (tool, answers[number])
        assert result["content"][0]["text"] == expected, (tool, answers[number])
    # 8 worker threads for calls at most, and at most 4 for the pipe's blocking writes,
    # beside those the server had before the load
    assert max(most) <= idle_threads + 8 + 4, (idle_threads, max(most))
    assert max(most) > idle_threads  # the watcher did see the workers
    _, _, status = server.close()
    assert status == 0


def test_the_soak_stays_flat(tmp_path: Path) -> None:
    figures = tmp_path / "soak.json"
    run = subprocess.run(
        [
            PYTHON,
            str(ROOT / "bench" / "soak.py"),
            "--calls",
            "4000",
            "--sample",
            "500",
            "--json",
            str(figures),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(figures.read_text())
    assert report["calls"] == 4000 and report["flat"] is True
    assert report["cancelled"] >= 40  # one call cancelled in every window of 100
    assert len(report["samples"]) >= 8
    assert "flat" in run.stdout


def test_the_soak_says_when_a_server_misbehaves(tmp_path: Path) -> None:
    # the soak's own checks can fail: a server whose async add is off by one is caught
    broken = tmp_path / "servers"
    broken.mkdir()
    source = (ROOT / "bench" / "servers" / "objmcp_soak.py").read_text()
    (broken / "objmcp_soak.py").write_text(
        source.replace(
            "        return a + b\n\n    def pad", "        return a + b + 1\n\n    def pad"
        )
    )
    bench = tmp_path / "soak.py"
    bench.write_text((ROOT / "bench" / "soak.py").read_text())
    (tmp_path / "figures.py").write_text((ROOT / "bench" / "figures.py").read_text())
    run = subprocess.run(
        [PYTHON, str(bench), "--calls", "400"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 2, run.stdout + run.stderr
    assert "soak failed: a wrong answer" in run.stderr
