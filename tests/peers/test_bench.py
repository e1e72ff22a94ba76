"""The benchmark's one command (issue 9): ``bench/all.py --quick`` runs every phase against
every server and writes its figures as JSON and as a PNG. No figure is compared with
anything (tests never assert durations): only that every section, every server and
every ratio is there."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path
from typing import Any

from conftest import PYTHON, ROOT

STDIO_SERVERS = {"objmcp", "sdk", "fastmcp", "floor"}
HTTP_SERVERS = {"objmcp", "sdk", "sdk-json", "floor"}
SECTIONS = {"meta", "stdio", "payloads", "framing", "scaling", "http", "targets"}


def ratios_of(section: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A section's ratios, each pair's figures by name."""
    found: dict[str, dict[str, Any]] = section["ratios"]
    return found


# Figures that are a difference of two timings (a start-up over anyio's own): a few
# milliseconds, which the noise of a busy machine can turn to zero or below in a quick run.
DIFFERENCES = {"own_start_ms"}


def assert_positive_ratios(name: str, section: dict[str, Any], pairs: set[str]) -> None:
    """Every ratio of ``section`` is there, for each of ``pairs``, and a positive number
    (a finite one, for a ratio of :data:`DIFFERENCES`)."""
    ratios = ratios_of(section)
    assert set(ratios) == pairs, (name, sorted(ratios))
    for pair, values in ratios.items():
        assert values, (name, pair)
        for key, value in values.items():
            assert isinstance(value, (int, float)), (name, pair, key, value)
            assert math.isfinite(value), (name, pair, key, value)
            assert key in DIFFERENCES or value > 0, (name, pair, key, value)


def test_the_one_bench_command_measures_every_phase_and_server(tmp_path: Path) -> None:
    figures, plot = tmp_path / "bench.json", tmp_path / "bench.png"
    # lighter than --quick alone: the test proves the command runs every phase, not speed
    light = ["--calls", "60", "--payload-mb", "2", "--http-calls", "60", "--http-duration", "0.5"]
    command = [PYTHON, str(ROOT / "bench" / "all.py"), "--quick", *light]
    done = subprocess.run(
        [*command, "--json", str(figures), "--png", str(plot)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + "\n" + done.stderr[-4000:]
    for heading in ("== stdio", "== framing", "== scaling", "== http", "== targets"):
        assert heading in done.stdout

    found = json.loads(figures.read_text())
    assert set(found) >= SECTIONS, sorted(found)
    assert found["meta"]["problems"] == []

    stdio = found["stdio"]["servers"]
    assert set(stdio) == STDIO_SERVERS
    for key, server in stdio.items():
        assert server["available"] and server["payload_error"] is None, (key, server)
        figures = server["figures"]
        alone = {"bare_import_ms", "own_start_ms", "anyio_start_ms"}
        measured = {k: v for k, v in figures.items() if k not in alone}
        assert all(value is not None for value in measured.values()), (key, server)
        # only objmcp leaves parts of itself for their first use: its bare import is timed
        assert (figures["bare_import_ms"] is not None) == (key == "objmcp"), key
        # every server but the floor runs on anyio: its start-up over anyio's is timed
        assert (figures["own_start_ms"] is not None) == (key != "floor"), key
        assert (figures["anyio_start_ms"] is not None) == (key != "floor"), key
        assert server["rtt_percentiles_us"], key
    assert_positive_ratios(
        "stdio", found["stdio"], {f"objmcp/{key}" for key in STDIO_SERVERS - {"objmcp"}}
    )

    payloads = found["payloads"]
    assert set(payloads["servers"]) == STDIO_SERVERS
    for key, server in payloads["servers"].items():
        assert server["error"] is None, (key, server)
        assert server["argument_mb_s"] > 0 and server["result_mb_s"] > 0, (key, server)
        assert server["argument_faults"] >= 0 and server["result_faults"] >= 0, (key, server)
    assert_positive_ratios("payloads", payloads, set(ratios_of(found["stdio"])))

    framing = found["framing"]
    assert framing["available"], framing["error"]
    assert set(framing["figures"]) == {"newline", "content-length"}
    for figures in framing["figures"].values():
        assert all(value is not None for value in figures.values()), figures
    assert_positive_ratios("framing", framing, {"content-length/newline"})

    scaling = found["scaling"]
    assert scaling["available"], scaling["error"]
    assert [row["methods"] for row in scaling["rows"]] == [10, 100, 1000]
    assert_positive_ratios("scaling", scaling, {"100/10", "1000/10"})

    http = found["http"]["servers"]
    assert set(http) == HTTP_SERVERS
    for key, server in http.items():
        assert server["available"], (key, server["error"])
    assert_positive_ratios(
        "http", found["http"], {f"objmcp/{key}" for key in HTTP_SERVERS - {"objmcp"}}
    )

    assert found["targets"], "no target was checked"
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_tasks_bench_measures_a_task_round_and_the_memory_of_live_tasks(
    tmp_path: Path,
) -> None:
    # objmcp only, stdio and HTTP (the SDK's start-up alone would take seconds): counts,
    # never durations; the store's phase has its own test (test_bench_task_store.py)
    figures = tmp_path / "tasks.json"
    light = ["--servers", "objmcp", "--tasks", "200", "--ttl", "0.1", "--no-store"]
    done = subprocess.run(
        [PYTHON, str(ROOT / "bench" / "tasks.py"), "--quick", *light, "--json", str(figures)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + "\n" + done.stderr[-4000:]
    found = json.loads(figures.read_text())
    for trips in (found["round_trips"]["objmcp"], found["http"]):
        assert all(value > 0 for value in trips.values()), trips
        assert trips["polls_per_round"] >= 1
    for name, value in found["ratios"].items():
        assert isinstance(value, float) and math.isfinite(value) and value > 0, name
    memory = found["memory"]["objmcp_tasks"]
    assert memory["forgotten_after_ttl"] is True
    assert memory["beyond_max_tasks"] == {"calls": 220, "tasks": 200, "plain": 20}
    assert found["memory"]["objmcp_held_calls"]["calls"] == 200
    inside = found["in_process"]
    assert inside["tasks"] == 200 and inside["tasks_kept_after_expiry"] == 0
    assert inside["bound"] == {"max_tasks": 20, "calls": 200, "tasks": 20}


def test_the_sandbox_bench_compares_the_box_with_none(tmp_path: Path) -> None:
    # bench/sandbox.py --quick: start-up and round trips with and without --sandbox, real
    # processes in a real box (bubblewrap, which scripts/test.sh installs); never durations
    figures = tmp_path / "sandbox.json"
    done = subprocess.run(
        [PYTHON, str(ROOT / "bench" / "sandbox.py"), "--quick", "--json", str(figures)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(figures.read_text())
    assert found["starts"] == 3 and found["calls"] == 200, found
    for where in (found, found["http"]):
        assert set(where["ratios"]) == {"start_ms", "round_us"}
        for name, ratio in where["ratios"].items():
            assert isinstance(ratio, float) and math.isfinite(ratio) and ratio > 0, (name, ratio)
            assert set(where["medians"][name]) == {"plain", "boxed"}
    assert "--sandbox" in done.stdout and "HTTP: start-up" in done.stdout
