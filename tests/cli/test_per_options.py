"""``objmcp run --per``: the options reach the server, ``config`` and ``dev`` pass them
on, and a TARGET that would be called (``module:factory()``) or that is no factory is
refused before serving, with a clear message."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import PYTHON, ROOT, server_env

NOTES = ROOT / "tests" / "servers" / "per_notes.py"


def objmcp(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m objmcp ARGS`` to its end, with nothing on stdin."""
    return subprocess.run(
        [PYTHON, "-m", "objmcp", *args],
        input=b"",
        capture_output=True,
        cwd=str(cwd),
        env=server_env(),
        timeout=120,
        check=False,
    )


def test_config_passes_the_per_options_on(tmp_path: Path) -> None:
    done = objmcp(
        "config", "claude", f"{NOTES}:Notes",
        "--per", "caller", "--max-objects", "5", "--object-idle", "60",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    (entry,) = json.loads(done.stdout)["mcpServers"].values()
    words = entry["args"]
    for flag, value in (("--per", "caller"), ("--max-objects", "5"), ("--object-idle", "60")):
        assert words[words.index(flag) + 1] == value, words
    assert "--per" in objmcp("dev", "--help", cwd=tmp_path).stdout.decode()


def test_run_serves_per_session_and_says_its_tools(tmp_path: Path) -> None:
    done = objmcp("run", "--per", "session", f"{NOTES}:Notes", cwd=tmp_path)
    said = done.stderr.decode()
    assert done.returncode == 0, said
    assert "3 tools" in said and "one object per session, made by Notes" in said, said


def test_a_factory_called_in_the_target_or_no_factory_is_refused(tmp_path: Path) -> None:
    called = objmcp("run", "--per", "session", f"{NOTES}:make()", cwd=tmp_path)
    assert called.returncode == 2
    assert "name the class or the factory without ()" in called.stderr.decode()
    module = objmcp("run", "--per", "caller", "statistics", cwd=tmp_path)
    assert module.returncode == 2
    assert "per='session' or 'caller' serves a class" in module.stderr.decode()
