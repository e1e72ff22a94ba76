"""Serving from a script: the line on stderr when serving starts, a quiet Ctrl-C, and a
TARGET whose module serves when imported, refused with what to do; through real processes."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PYTHON, RawServer, server_env

NOTES_CLASS = '''
import objmcp


class Notes:
    """Notes kept in memory."""

    def add(self, text: str) -> str:
        """Add a note."""
        return text

    def count(self) -> int:
        """How many notes."""
        return 0
'''

GUARDED = (
    NOTES_CLASS
    + """

if __name__ == "__main__":
    objmcp.start("notes", Notes())
"""
)

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}


def objmcp(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``python -m objmcp ARGS`` in ``cwd``, stdin at its end."""
    return subprocess.run(
        [PYTHON, "-m", "objmcp", *args],
        input="",
        capture_output=True,
        text=True,
        cwd=cwd,
        env=server_env(),
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_start_says_what_it_serves_on_stderr_and_ctrl_c_ends_it_quietly(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(GUARDED)
    server = RawServer(str(script))
    server.send(INITIALIZE)
    assert server.read()["result"]["serverInfo"]["name"] == "notes"  # stdout: the protocol's
    server.process.send_signal(signal.SIGINT)  # Ctrl-C
    _, err = server.process.communicate(timeout=60)
    lines = err.decode().splitlines()
    assert lines[0].startswith("objmcp: serving notes on stdio: 2 tools"), lines
    assert "Traceback" not in err.decode(), err.decode()
    assert server.process.returncode == 130


@pytest.mark.parametrize(
    "serving",
    [
        'objmcp.start("notes", Notes())',
        'objmcp.Server("notes", Notes()).run()',
        'import anyio; anyio.run(objmcp.serve, "notes", Notes())',
    ],
)
@pytest.mark.parametrize(
    "command",
    [
        ["inspect", "server.py:Notes"],
        ["inspect", "server:Notes"],
        ["call", "server.py:Notes", "add", "text=hi"],
        ["config", "claude", "server.py:Notes"],
        ["run", "server.py:Notes"],
    ],
)
def test_a_target_that_serves_when_imported_is_refused_with_what_to_do(
    tmp_path: Path, serving: str, command: list[str]
) -> None:
    (tmp_path / "server.py").write_text(NOTES_CLASS + "\n" + serving + "\n")
    done = objmcp(*command, cwd=tmp_path)
    assert done.returncode == 2, done
    assert "starts serving when it is imported" in done.stderr
    assert 'if __name__ == "__main__":' in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_a_target_that_serves_only_as_a_script_loads(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(GUARDED)
    done = objmcp("inspect", "server.py:Notes", cwd=tmp_path)
    assert done.returncode == 0, done
    assert "add" in done.stdout


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
@pytest.mark.parametrize(
    ("how", "where", "status"),
    [([], "on stdio", 130), (["--http", "--port", str(free_port())], "at http://", 0)],
)
def test_objmcp_run_says_where_it_serves_and_ctrl_c_ends_it_quietly(
    tmp_path: Path, how: list[str], where: str, status: int
) -> None:
    (tmp_path / "server.py").write_text(GUARDED)
    server = RawServer("-m", "objmcp", "run", *how, str(tmp_path / "server.py:Notes"))
    assert server.process.stderr is not None
    line = server.process.stderr.readline().decode()
    while line.startswith("WARNING:"):  # the class made with no arguments
        line = server.process.stderr.readline().decode()
    assert line.startswith(f"objmcp: serving Notes {where}"), line
    server.process.send_signal(signal.SIGINT)  # Ctrl-C
    _, err = server.process.communicate(timeout=60)
    assert "Traceback" not in err.decode(), err.decode()
    assert server.process.returncode == status
