"""``objmcp run --http --port``: a number that is no port is a usage error, a port in use
is said before anything claims to serve there; through real processes."""

from __future__ import annotations

import argparse
import socket
import subprocess
from pathlib import Path

import pytest
from conftest import PYTHON, server_env
from hypothesis import given
from hypothesis import strategies as st

from objmcp.cli.http_port import port

NOTES = '''
class Notes:
    """Notes kept in memory."""

    def add(self, text: str) -> str:
        """Add a note."""
        return text
'''


def run_http(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``objmcp run --http ARGS notes.py:Notes`` to its end."""
    (tmp_path / "notes.py").write_text(NOTES)
    return subprocess.run(
        [PYTHON, "-m", "objmcp", "run", "--http", *args, "notes.py:Notes"],
        input="",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=server_env(),
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("given_port", ["99999", "65536", "0", "-1", "eighty"])
def test_a_port_out_of_range_is_a_usage_error(tmp_path: Path, given_port: str) -> None:
    done = run_http(tmp_path, "--port", given_port)
    assert done.returncode == 2
    assert f"argument --port: {given_port!r}" in done.stderr or (
        f"argument --port: {given_port} is not a port" in done.stderr
    ), done.stderr
    assert "give 1 to 65535" in done.stderr
    assert "Traceback" not in done.stderr
    assert "serving" not in done.stderr


def test_a_port_in_use_is_said_before_serving_and_exits_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        number = taken.getsockname()[1]
        done = run_http(tmp_path, "--port", str(number))
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
