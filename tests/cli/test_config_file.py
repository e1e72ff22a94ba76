"""A deployment in one file (issue 41): ``--config FILE``, every flag a key, through real
``objmcp`` processes. The command line wins over the file; a key no verb takes, or a value
its flag would refuse, is an error naming the file and the key."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest
from conftest import PYTHON, ROOT, server_env

TOOLS = '''
class Counter:
    """Counts."""

    def __init__(self) -> None:
        self.count = 0

    def bump(self) -> int:
        """Add one."""
        self.count += 1
        return self.count

    def reset(self) -> str:
        """Start again."""
        self.count = 0
        return "reset"
'''


def objmcp(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "objmcp", *args],
        input="",
        capture_output=True,
        text=True,
        cwd=str(cwd),
        env=server_env(),
        timeout=120,
        check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "tools.py").write_text(TOOLS)
    return tmp_path


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def test_a_file_serves_a_target_with_its_options(project: Path) -> None:
    write(
        project,
        "objmcp.toml",
        """
        target = "tools.py:Counter"
        include = ["bump"]
        call-timeout = 5
        """,
    )
    listed = objmcp("call", "--config", "objmcp.toml", cwd=project)  # no TOOL: which?
    assert "has 1 tool: bump." in listed.stderr, listed.stderr
    called = objmcp("call", "--config", "objmcp.toml", "bump", cwd=project)
    assert (called.returncode, called.stdout.strip()) == (0, "1"), called.stderr


def test_pyproject_s_tool_objmcp_table_is_read(project: Path) -> None:
    write(
        project,
        "pyproject.toml",
        """
        [project]
        name = "counter"

        [tool.objmcp]
        target = "tools.py:Counter"
        exclude = ["bump"]
        """,
    )
    shown = objmcp("inspect", "--config", "pyproject.toml", "--json", cwd=project)
    assert shown.returncode == 0, shown.stderr
    assert [tool["name"] for tool in json.loads(shown.stdout)["tools"]] == ["reset"]


def test_the_command_line_wins_and_the_child_server_is_given_the_file_s_options(
    project: Path,
) -> None:
    write(
        project,
        "objmcp.toml",
        """
        target = "tools.py:Counter"
        name = "from-file"
        max-calls = 7
        task-after = "off"
        jobs = true
        logger = ["mylib"]
        """,
    )
    done = objmcp("config", "cursor", "--config", "objmcp.toml", "--max-calls", "9", cwd=project)
    assert done.returncode == 0, done.stderr
    (entry,) = json.loads(done.stdout)["mcpServers"].values()
    words = entry["args"]
    assert words[words.index("--max-calls") + 1] == "9"
    assert words[words.index("--task-after") + 1] == "off"
    assert words[words.index("--name") + 1] == "from-file"
    assert words[words.index("--logger") + 1] == "mylib"
    assert "--jobs" in words
    served = subprocess.run(
        [entry["command"], *words],
        input="",
        capture_output=True,
        text=True,
        cwd=str(ROOT),
        env={**server_env(), **entry.get("env", {})},
        timeout=60,
        check=False,
    )
    assert served.returncode == 0, served.stderr


def test_a_key_of_run_keeps_its_meaning_for_a_verb_with_an_option_of_that_name(
    project: Path,
) -> None:
    write(
        project,
        "objmcp.toml",
        """
        target = "tools.py:Counter"
        scope = ["notes:read"]
        watch = ["elsewhere"]
        """,
    )
    done = objmcp("config", "vscode", "--config", "objmcp.toml", cwd=project)
    assert done.returncode == 0, done.stderr  # scope is run's JWT scope, not a client's file
    assert "servers" in json.loads(done.stdout)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('target = "tools.py:Counter"\nmax-call = 3\n', "'max-call' is not an option of objmcp"),
        ('target = "tools.py:Counter"\nmax-calls = "many"\n', "max-calls: cannot read 'many'"),
        ('target = "tools.py:Counter"\ndiscovery = "always"\n', "'always' is not one of"),
        ('target = "tools.py:Counter"\njobs = "yes"\n', "jobs: takes true or false"),
        ('target = "tools.py:Counter"\nmax-calls = 0\n', "--max-calls must be a positive"),
        ("target = [\n", "not TOML"),
    ],
)
def test_a_file_a_flag_would_refuse_is_refused_naming_the_key(
    project: Path, text: str, said: str
) -> None:
    (project / "objmcp.toml").write_text(text)
    done = objmcp("run", "--config", "objmcp.toml", cwd=project)
    assert done.returncode == 2
    assert said in done.stderr and done.stdout == ""


def test_a_misspelt_key_is_answered_with_the_closest_one(project: Path) -> None:
    (project / "objmcp.toml").write_text('target = "tools.py:Counter"\nmax-call = 3\n')
    done = objmcp("run", "--config", "objmcp.toml", cwd=project)
    assert "max-calls" in done.stderr


def test_a_pyproject_without_the_table_is_refused(project: Path) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n')
    done = objmcp("run", "--config", "pyproject.toml", cwd=project)
    assert done.returncode == 2 and "no [tool.objmcp] table" in done.stderr


def test_with_no_target_anywhere_the_verb_says_so(project: Path) -> None:
    (project / "objmcp.toml").write_text("max-calls = 3\n")
    done = objmcp("run", "--config", "objmcp.toml", cwd=project)
    assert done.returncode == 2 and "a TARGET is needed" in done.stderr
