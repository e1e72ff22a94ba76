"""The testing guide's test file passes under pytest as the page says to run it
(``pytest -q test_cart.py``, which the docs' checker only syntax-checks: pytest is not in the
wheel's venv), with its module beside it, in a process of its own (issue 40: the async tests
needed ``@pytest.mark.anyio``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from blocks import blocks_of
from conftest import ROOT

PAGE = ROOT / "docs" / "guides" / "testing.md"


def test_the_guides_test_file_passes_under_pytest(tmp_path: Path) -> None:
    files = {block.title: block.text for block in blocks_of(PAGE.read_text()) if block.title}
    assert {"cart.py", "test_cart.py"} <= set(files), "the page has its module and its tests"
    for name, text in files.items():
        (tmp_path / name).write_text(text + "\n")
    tests = len(re.findall(r"^(?:async )?def test_", files["test_cart.py"], re.M))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_cart.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{tests} passed" in done.stdout, done.stdout
