"""Tools for the holes of issue 27 ("An attacker's afternoon"), for
tests/serving/test_afternoon.py: a close that leaves a trace, a huge answer, a tool that
forks, a library that logs a credential, and a child process that shows its environment.

``$AFTERNOON_TRACE``, when set, is the file ``close()`` appends ``closed`` to (and ``nap``
``napping``, as it begins).
"""

from __future__ import annotations

import logging
import os
import subprocess
import time

import objmcp

logger = logging.getLogger(__name__)


class Afternoon:
    """Calls an attacker (or a careless library) would make."""

    def add(self, a: int, b: int) -> int:
        """a + b."""
        return a + b

    def nap(self, seconds: float) -> str:
        """Sleep ``seconds``, then say so (``napping`` goes to the trace first)."""
        _trace("napping")
        time.sleep(seconds)
        return f"slept {seconds}"

    def big(self, megabytes: float) -> str:
        """A string of ``megabytes`` million characters."""
        return "x" * int(megabytes * 1_000_000)

    @objmcp.tool  # named: what it does is what the test is about
    def fork(self) -> str:
        """Fork: the child returns ``child <its pid>`` (nobody waits for it), the parent
        ``parent of <the child's pid>``."""
        pid = os.fork()
        if pid == 0:
            return f"child {os.getpid()}"
        return f"parent of {pid}"

    def fetch(self, log: objmcp.Log) -> str:
        """Log as a library does (an HTTP request's headers, at debug), as this module
        does, and through the injected ``log``."""
        logging.getLogger("urllib3.connectionpool").debug("Authorization: Bearer s3cr3t")
        logging.getLogger().warning("root: Authorization: Bearer s3cr3t")
        logger.info("own record")
        log.info("injected record")
        return "fetched"

    @objmcp.tool  # named: what it does is what the test is about
    def child_env(self) -> list[str]:
        """The names of the environment variables a child process gets that start with
        ``OBJMCP``."""
        done = subprocess.run(["env"], capture_output=True, text=True, timeout=10, check=True)
        names = (line.partition("=")[0] for line in done.stdout.splitlines())
        return sorted(name for name in names if name.startswith("OBJMCP"))

    def close(self) -> None:
        """Append ``closed`` to ``$AFTERNOON_TRACE``."""
        _trace("closed")


def _trace(event: str) -> None:
    """Append ``event`` to ``$AFTERNOON_TRACE``, when set."""
    trace = os.environ.get("AFTERNOON_TRACE")
    if trace:
        with open(trace, "a") as file:
            file.write(f"{event}\n")
