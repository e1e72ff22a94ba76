"""Serving starts: the line on stderr that says what is served and how, a quiet Ctrl-C, a
TARGET whose module serves when imported refused with what to do, and ``--port``s that are
no port or are in use said before anything claims to serve there; through real processes."""

from __future__ import annotations

import argparse
import signal
import socket
import sys
import time
from pathlib import Path

import pytest
from conftest import RawServer
from conftest import objmcp_cli as objmcp
from hypothesis import given
from hypothesis import strategies as st

from objmcp.cli.http_port import port

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


def served(number: int) -> None:
    """Return once ``127.0.0.1:number`` takes connections."""
    while True:
        try:
            socket.create_connection(("127.0.0.1", number)).close()
            return
        except OSError:
            time.sleep(0.05)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
@pytest.mark.parametrize("http", [False, True])
def test_objmcp_run_says_where_it_serves_and_ctrl_c_ends_it_quietly_with_130(
    tmp_path: Path, http: bool
) -> None:
    (tmp_path / "server.py").write_text(GUARDED)
    number = free_port()
    how = ["--http", "--port", str(number)] if http else []
    server = RawServer("-m", "objmcp", "run", *how, str(tmp_path / "server.py:Notes"))
    assert server.process.stderr is not None
    line = server.process.stderr.readline().decode()
    while line.startswith("objmcp: warning:"):  # what the object model says first, if anything
        line = server.process.stderr.readline().decode()
    where = f"at http://127.0.0.1:{number}/mcp" if http else "on stdio"
    assert line.startswith(f"objmcp: serving Notes {where}: 2 tools"), line
    if http:
        served(number)  # uvicorn's own shutdown on Ctrl-C, not Python's before it listens
    server.process.send_signal(signal.SIGINT)  # Ctrl-C
    _, err = server.process.communicate(timeout=60)
    assert "Traceback" not in err.decode(), err.decode()
    assert server.process.returncode == 130


@pytest.mark.parametrize("given_port", ["99999", "65536", "0", "-1", "eighty"])
def test_a_port_out_of_range_is_a_usage_error(tmp_path: Path, given_port: str) -> None:
    (tmp_path / "server.py").write_text(GUARDED)
    done = objmcp("run", "--http", "--port", given_port, "server.py:Notes", cwd=tmp_path)
    assert done.returncode == 2
    assert f"argument --port: {given_port!r}" in done.stderr or (
        f"argument --port: {given_port} is not a port" in done.stderr
    ), done.stderr
    assert "give 1 to 65535" in done.stderr
    assert "Traceback" not in done.stderr
    assert "serving" not in done.stderr


def test_a_port_in_use_is_said_before_serving_and_exits_2(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(GUARDED)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        number = taken.getsockname()[1]
        done = objmcp("run", "--http", "--port", str(number), "server.py:Notes", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"cannot serve at 127.0.0.1:{number}" in done.stderr
    assert "choose another --port" in done.stderr
    assert "serving" not in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


@given(st.integers(min_value=-(10**6), max_value=10**6))
def test_port_takes_exactly_the_numbers_a_port_can_be(number: int) -> None:
    if 1 <= number <= 65535:
        assert port(str(number)) == number
        assert port(f" {number} ") == number
    else:
        with pytest.raises(argparse.ArgumentTypeError, match="give 1 to 65535"):
            port(str(number))


def not_a_whole_number(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return True
    return False


@given(st.text().filter(not_a_whole_number))
def test_port_refuses_what_is_not_a_number(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="is not a port"):
        port(text)
