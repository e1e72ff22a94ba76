"""``objmcp config --write`` writes no client file through a symbolic link: a project's
``.vscode/mcp.json`` that links to ``~/.claude.json`` would copy that file's secrets into
the project (and into its ``.bak``), and a ``.bak`` that links elsewhere would overwrite
what it points to. Through the real command, with a HOME of the test's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import server_env
from test_cli import objmcp

SECRETS = {"mcpServers": {"mine": {"command": "x", "env": {"API_KEY": "sk-secret"}}}}


@pytest.mark.parametrize("linked", ["mcp.json", "mcp.json.bak"])
def test_config_write_refuses_a_symlinked_project_file(tmp_path: Path, linked: str) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    (project / ".vscode").mkdir(parents=True)
    home.mkdir()
    private = home / ".claude.json"
    private.write_text(json.dumps(SECRETS))
    if linked == "mcp.json.bak":
        (project / ".vscode" / "mcp.json").write_text('{"servers": {}}')
    (project / ".vscode" / linked).symlink_to(private)
    before = {path.name: path.is_symlink() for path in (project / ".vscode").iterdir()}
    env = {**server_env(), "HOME": str(home), "USERPROFILE": str(home)}

    done = objmcp("config", "vscode", "statistics", "--write", cwd=project, env=env)

    assert done.returncode == 2, done.stderr.decode()
    said = done.stderr.decode()
    assert f"{linked} is a symbolic link" in said and "left as it is" in said
    assert json.loads(private.read_text()) == SECRETS
    after = {path.name: path.is_symlink() for path in (project / ".vscode").iterdir()}
    assert after == before  # nothing written, no backup made
    assert "sk-secret" not in "".join(
        path.read_text() for path in (project / ".vscode").iterdir() if not path.is_symlink()
    )
