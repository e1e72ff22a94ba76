"""A target whose making raises, through real processes: the user's error with the user's
own frames, and what objmcp was making."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import PYTHON, server_env

BAD_PY = '''
class Bad:
    def __init__(self) -> None:
        self.connect()

    def connect(self) -> None:
        raise ValueError("no database configured")

    def ping(self) -> str:
        """Answer."""
        return "pong"
'''


@pytest.mark.parametrize(
    "args",
    [("inspect", "bad.py:Bad"), ("run", "bad.py:Bad"), ("call", "bad.py:Bad", "ping")],
)
def test_an_init_that_raises_shows_the_users_frames_only(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    (tmp_path / "bad.py").write_text(BAD_PY)
    done = subprocess.run(
        [PYTHON, "-m", "objmcp", *args],
        input=b"",
        capture_output=True,
        cwd=tmp_path,
        env=server_env(),
        timeout=120,
        check=False,
    )
    error = done.stderr.decode()
    assert done.returncode == 2, error
    assert "Making Bad() for bad.py:Bad" in error  # what was being made
    assert "ValueError: no database configured" in error
    frames = [line for line in error.splitlines() if line.lstrip().startswith("File ")]
    assert frames, error
    assert all("bad.py" in frame for frame in frames), error  # the user's own, no objmcp's
    assert [frame.rsplit(" in ", 1)[1] for frame in frames] == ["__init__", "connect"]
