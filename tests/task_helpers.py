"""Helpers for the tests of tasks across processes (a shared task store in a real Redis,
the queue's workers, nginx in front): requests that declare the tasks extension, an
``objmcp worker`` process, waiting for a file's lines, Debian's nginx.

Importable as ``task_helpers`` by the tests of ``tests/serving`` and ``tests/peers``
(``tests/``, the folder of the root ``conftest.py``, is on ``sys.path``)."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON, server_env
from http_helpers import MODERN_META, WORKERS, modern

__all__ = ["GUARD", "TASKS", "WITH_TASKS", "QueueWorker", "lines", "nginx", "with_tasks"]

GUARD = 30.0
"""Seconds before a task that never ends fails the test."""
TASKS = "io.modelcontextprotocol/tasks"
WITH_TASKS = {
    **MODERN_META,
    "io.modelcontextprotocol/clientCapabilities": {
        "extensions": {TASKS: {}},
        "elicitation": {"form": {}},
    },
}
"""A 2026-07-28 request's ``_meta`` that declares the tasks extension (and elicitation)."""

TARGET = f"{WORKERS}:Workers"


def with_tasks(method: str, request_id: int | str, **params: Any) -> dict[str, Any]:
    """A 2026-07-28 request that declares the tasks extension."""
    message = modern(method, None, **params)
    message["id"] = request_id
    message["params"]["_meta"] = WITH_TASKS
    return message


class QueueWorker:
    """``objmcp worker URL TARGET`` in a subprocess, until the test ends."""

    def __init__(
        self, url: str, env: dict[str, str], log: Path, *options: str, target: str = TARGET
    ) -> None:
        self.log = log
        command = [PYTHON, "-m", "objmcp", "worker", url, target, "--at-once", "4", *options]
        with log.open("wb") as err:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                env={**server_env(), **env},
            )
        deadline = time.monotonic() + 20
        while "running the queued calls" not in log.read_text():
            assert self.process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        return self.log.read_text()


def lines(path: Path, count: int) -> list[str]:
    """The lines of ``path`` once it has ``count`` of them."""
    deadline = time.monotonic() + GUARD
    while True:
        found = path.read_text().split() if path.exists() else []
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def nginx() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found is None:
        pytest.fail(
            "nginx is not installed: `apt-get install nginx-light` (scripts/test.sh does "
            "this when it runs as root)",
            pytrace=False,
        )
    return found
