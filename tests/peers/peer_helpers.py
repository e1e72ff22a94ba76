"""What the real-peer tests share.

- The Python clients of other projects (the MCP SDK 1.x, LangChain's adapters, the OpenAI
  Agents SDK, Pydantic AI) cannot be imported here: each has a driver in ``tests/clients/``
  that runs under ``.venv-clients/bin/python`` and prints one JSON report. ``drive`` runs one,
  ``served_report`` points one at ``tests/servers/clients.py`` over stdio or Streamable HTTP,
  ``step`` reads what a step observed.
- The official TypeScript SDK: the ``tests/js`` drivers (the ``node`` fixture, in the root
  ``conftest.py``, finds node and installs the pinned SDK), run by ``drive_js`` and
  ``run_script``; ``text_of`` and ``is_error`` read a recorded call result. Its client 2.x
  has its own folder, ``tests/js2`` (the ``node2`` fixture), whose driver ``drive_js`` runs
  the same way.

Importable as ``peer_helpers`` from the test modules of ``tests/peers/`` (pytest puts a test
module's folder on ``sys.path`` before importing it)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import JS, PYTHON, ROOT, server_env
from http_helpers import HttpServer

# -- the Python clients, in .venv-clients --------------------------------------------------------

CLIENTS_PYTHON = ROOT / ".venv-clients" / "bin" / "python"
CLIENTS = ROOT / "tests" / "clients"
FIXTURE = ROOT / "tests" / "servers" / "clients.py"
# The tools of FIXTURE's Desk, the object every client is pointed at.
TOOLS = {"add", "scale", "tag", "place", "paint", "median", "fail", "ask", "count"}

# Generous: a cold start of several interpreters on a slow, busy machine. Never a measure of speed.
CLIENT_TIMEOUT = 300.0

Report = dict[str, Any]


def drive(driver: Path, *arguments: str) -> Report:
    """Run ``driver`` (a file of tests/clients) with ``arguments`` under .venv-clients; its one
    JSON report, decoded."""
    if not CLIENTS_PYTHON.exists():
        pytest.fail(
            f"{CLIENTS_PYTHON} is missing: make it with `python3 -m venv .venv-clients && "
            ".venv-clients/bin/pip install -r tests/clients/requirements.txt` "
            "(scripts/test.sh does)",
            pytrace=False,
        )
    # The driver's own interpreter and packages only: nothing of this environment's path, and
    # -P so that the driver's folder does not head sys.path (no file there shadows a package).
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run(
        [str(CLIENTS_PYTHON), "-P", str(driver), *arguments],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=ROOT,
        timeout=CLIENT_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, f"driver exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    lines = done.stdout.strip().split("\n")
    assert len(lines) == 1, f"the driver must print one report line:\n{done.stdout}"
    report: Report = json.loads(lines[0])
    return report


@contextmanager
def served_report(
    driver: Path, transport: str, objects: tuple[str, ...] = ("Desk",)
) -> Iterator[Report]:
    """The report of ``driver`` over ``transport``: ``stdio`` (the driver spawns ``objmcp run``
    itself), or ``http`` / ``http-stateless`` (``objmcp run --http`` of each of FIXTURE's
    ``objects``, started here, ``--stateless`` for the latter, and living as long as the
    report is in use)."""
    if transport == "stdio":
        yield drive(driver, "stdio", PYTHON, str(ROOT))
        return
    options = ("--stateless",) if transport == "http-stateless" else ()
    with ExitStack() as servers:
        urls = []
        for name in objects:
            server = HttpServer(*options, target=f"{FIXTURE}:{name}")
            servers.callback(server.stop)
            urls.append(server.url)
        yield drive(driver, "http", *urls)


def step(report: Report, name: str) -> dict[str, Any]:
    """What step ``name`` observed, failing with the exception it raised, if it did."""
    steps: dict[str, Any] = report["steps"]
    assert name in steps, f"the driver did not report {name!r}: {sorted(steps)}"
    outcome: dict[str, Any] = steps[name]
    error = outcome.get("error")
    assert error is None, f"{name}: {error['type']}: {error['message']} (code {error['code']})"
    return outcome


# -- the TypeScript SDK, in tests/js ------------------------------------------------------------

# Generous: a cold start of node and Python on a slow, busy machine. Never a measure of speed.
JS_TIMEOUT = 180.0


def drive_js(
    node: str, driver: Path, script: dict[str, Any], *arguments: str
) -> tuple[dict[str, Any], str]:
    """Run a TS driver (with ``arguments``, ``script`` on its stdin); returns the one
    report line it must print, decoded, and its stderr."""
    done = subprocess.run(
        [node, str(driver), *arguments],
        input=json.dumps(script),
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=server_env(),
        cwd=JS,
        timeout=JS_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, f"driver exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    # Split on "\n" only: JSON.stringify leaves U+2028/U+2029 raw and splitlines() breaks there.
    lines = done.stdout.split("\n")
    assert len(lines) == 2 and lines[1] == "", f"expected one report line, got:\n{done.stdout}"
    report: dict[str, Any] = json.loads(lines[0])
    return report, done.stderr


def run_script(
    node: str, driver: Path, server: Path, script: dict[str, Any], *server_args: str
) -> tuple[dict[str, Any], str]:
    """Run a TS driver against ``server`` with ``script``; returns its one report and stderr."""
    report, stderr = drive_js(node, driver, script, PYTHON, str(server), *server_args)
    assert len(report["calls"]) == len(script.get("calls", []))
    return report, stderr


def text_of(entry: dict[str, Any]) -> str:
    """The single text block of a recorded call result."""
    assert "result" in entry, f"the call threw: {entry}"
    content = entry["result"]["content"]
    assert len(content) == 1 and content[0]["type"] == "text", content
    text: str = content[0]["text"]
    return text


def is_error(entry: dict[str, Any]) -> bool:
    """Whether a recorded call result is a tool error (isError true)."""
    assert "result" in entry, f"the call threw: {entry}"
    return bool(entry["result"].get("isError", False))
