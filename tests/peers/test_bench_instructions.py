"""The counted HTTP bench (``bench/http_instructions.py``, issue 41), smoke-run: objmcp's
ASGI app and the floor each serve real calls of both eras under valgrind's callgrind, and
the table gives each a positive count of instructions a call and a ratio to the floor. No
figure is compared with a bound (tests never assert speed)."""

from __future__ import annotations

import re
import shutil
import subprocess

from conftest import PYTHON, ROOT


def test_the_counted_bench_gives_instructions_a_call_and_ratios_to_the_floor() -> None:
    assert shutil.which("valgrind"), "valgrind is missing: scripts/test.sh installs it"
    done = subprocess.run(
        [str(PYTHON), "bench/http_instructions.py", "--servers", "objmcp,floor", "--calls", "20"],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {
        line.split(" | ")[0]: line.split(" | ")[1:]
        for line in done.stdout.splitlines()
        if " | " in line and not line.startswith("server")
    }
    assert set(rows) == {"objmcp", "floor"}
    for name, cells in rows.items():
        counts, ratios = cells[:2], cells[2:]
        assert all(int(count.replace(",", "")) > 0 for count in counts), (name, cells)
        assert all(re.fullmatch(r"\d+\.\d\dx", ratio) for ratio in ratios), (name, cells)
    assert rows["floor"][2:] == ["1.00x", "1.00x"]
