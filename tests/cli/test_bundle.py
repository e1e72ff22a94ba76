"""``objmcp bundle``: an MCP Bundle checked by the official ``mcpb`` CLI and served from its
unpacked folder as Claude Desktop starts it; ``--server-json`` checked against the MCP
registry's published schema (tests/bundle/README.md says where both come from)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import tomllib
from conftest import NOTES, ROOT, _npm_ci, _tool, server_env
from hypothesis import given
from hypothesis import strategies as st
from mcp import Client, StdioServerParameters
from test_cli import objmcp

from objmcp._exceptions import TargetError
from objmcp.cli.bundle import Bundled, project_name, toml_string
from objmcp.cli.serverjson import SCHEMA, server_json

BUNDLE = ROOT / "tests" / "bundle"
MCPB_PACKAGE = BUNDLE / "node_modules" / "@anthropic-ai" / "mcpb" / "package.json"
REGISTRY_SCHEMA = json.loads(
    (BUNDLE / "registry" / "server.schema.2025-12-11.json").read_text(encoding="utf-8")
)

TOOLS_PY = '''
"""Sums and greetings."""

from helpers import shout


def add(a: int, b: int) -> int:
    """Add two numbers.

    Longer words that stay out of the manifest.
    """
    return a + b


def greet(name: str) -> str:
    """Greet someone, loudly."""
    return shout(f"hello {name}")
'''

HELPERS_PY = """
def shout(text: str) -> str:
    return text.upper() + "!"
"""


@pytest.fixture(scope="module")
def mcpb() -> list[str]:
    """The command of the pinned ``mcpb`` CLI (tests/bundle), installed when missing."""
    node = _tool("node")
    _npm_ci(BUNDLE, MCPB_PACKAGE)
    cli = json.loads(MCPB_PACKAGE.read_text())["bin"]
    return [node, str(MCPB_PACKAGE.parent / (cli if isinstance(cli, str) else cli["mcpb"]))]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A folder with a tools module that imports a neighbour of its own."""
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "tools.py").write_text(TOOLS_PY)
    (folder / "helpers.py").write_text(HELPERS_PY)
    return folder


def run_mcpb(mcpb: list[str], *args: str, cwd: Path) -> str:
    """Run ``mcpb ARGS``; its output, the test failing with it when it fails."""
    done = subprocess.run(
        [*mcpb, *args], capture_output=True, text=True, cwd=cwd, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def bundle(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``objmcp bundle ARGS``, succeeding."""
    done = objmcp("bundle", *args, cwd=cwd)
    assert done.returncode == 0, done.stderr.decode()
    return done


def unpacked(path: Path, into: Path) -> dict[str, Any]:
    """Unzip the bundle at ``path`` into ``into``; its manifest."""
    with zipfile.ZipFile(path) as archive:
        archive.extractall(into)
    manifest: dict[str, Any] = json.loads((into / "manifest.json").read_text())
    return manifest


def uv() -> str:
    """uv, as Claude Desktop runs it for a ``uv`` bundle (the test venv has it)."""
    found = shutil.which("uv") or str(Path(sys.executable).parent / "uv")
    assert Path(found).exists(), "uv is not installed: pip install uv"
    return found


def as_the_host_starts(manifest: dict[str, Any], folder: Path) -> StdioServerParameters:
    """The manifest's command, ``${__dirname}`` replaced by the bundle's folder as the host
    does, in this environment (its certificates and proxies reach the index) but for
    ``PYTHONPATH``: only the bundle's objmcp is there. uv is told to use this interpreter
    rather than fetch one."""
    config = manifest["server"]["mcp_config"]
    assert config["command"] == "uv"

    def placed(text: str) -> str:
        return text.replace("${__dirname}", str(folder))

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update({k: placed(v) for k, v in config.get("env", {}).items()})
    return StdioServerParameters(
        command=uv(),
        args=[placed(arg) for arg in config["args"]],
        env={**env, "UV_PYTHON": sys.executable},
        cwd=str(folder.parent),
    )


async def listed_and_called(
    params: StdioServerParameters, tool: str, arguments: dict[str, Any], version: str
) -> tuple[list[str], str]:
    """The tools the server lists, and the text of one call; the server must report
    ``version``, the bundle's."""
    async with Client(params, mode="legacy") as client:
        assert client.server_info.version == version
        names = [entry.name for entry in (await client.list_tools()).tools]
        result = await client.call_tool(tool, arguments)
    assert not result.is_error, result
    return names, str(result.content[0].text)


# --- the bundle -------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_the_example_bundle_passes_mcpb_and_serves_as_claude_desktop_starts_it(
    mcpb: list[str], tmp_path: Path
) -> None:
    done = bundle(f"{NOTES}:Notes", "--name", "notes", cwd=tmp_path)
    path = tmp_path / "notes.mcpb"
    assert "wrote notes.mcpb (" in done.stderr.decode()
    folder = tmp_path / "unpacked"
    manifest = unpacked(path, folder)

    assert manifest["manifest_version"] == "0.4"
    assert manifest["server"]["type"] == "uv"
    assert (manifest["name"], manifest["version"]) == ("notes", "1.0.0")
    assert manifest["description"] == "A tiny notebook."
    assert manifest["tools"][0] == {"name": "add", "description": "Add a note."}
    run_mcpb(mcpb, "validate", str(folder / "manifest.json"), cwd=tmp_path)
    assert "notes.mcpb" in run_mcpb(mcpb, "info", str(path), cwd=tmp_path)
    run_mcpb(mcpb, "pack", str(folder), str(tmp_path / "repacked.mcpb"), cwd=tmp_path)

    names, text = await listed_and_called(
        as_the_host_starts(manifest, folder),
        "add",
        {"title": "milk", "body": "2 l"},
        manifest["version"],
    )
    assert names == [tool["name"] for tool in manifest["tools"]]
    assert json.loads(text)["title"] == "milk"


@pytest.mark.anyio
async def test_a_file_target_is_copied_in_with_the_modules_of_its_folder_it_imports(
    mcpb: list[str], project: Path, tmp_path: Path
) -> None:
    bundle("tools.py", "-o", str(tmp_path / "out" / "sums.mcpb"), cwd=project)
    folder = tmp_path / "unpacked"
    manifest = unpacked(tmp_path / "out" / "sums.mcpb", folder)
    assert (folder / "server" / "main.py").is_file()
    assert sorted(p.name for p in (folder / "server" / "target").glob("*.py")) == [
        "helpers.py",
        "tools.py",
    ]
    assert manifest["description"] == "Sums and greetings."
    assert manifest["tools"] == [
        {"name": "add", "description": "Add two numbers."},
        {"name": "greet", "description": "Greet someone, loudly."},
    ]
    run_mcpb(mcpb, "validate", str(folder / "manifest.json"), cwd=tmp_path)
    names, text = await listed_and_called(
        as_the_host_starts(manifest, folder), "greet", {"name": "ada"}, manifest["version"]
    )
    assert names == ["add", "greet"]
    assert text == "HELLO ADA!"


@pytest.mark.anyio
async def test_an_installed_module_is_installed_by_uv_though_the_server_is_named_like_it(
    tmp_path: Path,
) -> None:
    # the server's name is the distribution's: a project of that name would be its own
    # dependency to uv, which then installs nothing of it (astral-sh/uv#7731)
    bundle("docstring_parser", "-o", str(tmp_path / "dp.mcpb"), cwd=tmp_path)
    folder = tmp_path / "unpacked"
    manifest = unpacked(tmp_path / "dp.mcpb", folder)
    assert not (folder / "server" / "target").exists()
    names, text = await listed_and_called(
        as_the_host_starts(manifest, folder), "parse", {"text": "Short words."}, manifest["version"]
    )
    assert "parse" in names
    assert "Short words." in text


@pytest.mark.anyio
async def test_a_file_target_named_main_py_does_not_replace_the_entry_point(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "main.py").write_text(TOOLS_PY.replace("from helpers import shout", "shout = str"))
    done = bundle(
        "main.py", "-o", str(tmp_path / "m.mcpb"), "--server-version", "4.5.6", cwd=folder
    )
    with zipfile.ZipFile(tmp_path / "m.mcpb") as archive:
        names = archive.namelist()
    assert len(names) == len(set(names))
    manifest = unpacked(tmp_path / "m.mcpb", tmp_path / "unpacked")
    _, text = await listed_and_called(
        as_the_host_starts(manifest, tmp_path / "unpacked"), "add", {"a": 2, "b": 3}, "4.5.6"
    )
    assert text == "5"
    assert "copied 1 file: server/target/main.py" in done.stderr.decode()


def archived(path: Path) -> list[str]:
    """The names in the zip at ``path``, but objmcp's own copy."""
    with zipfile.ZipFile(path) as archive:
        return [name for name in archive.namelist() if not name.startswith("server/objmcp/")]


def test_a_folder_target_is_copied_without_secrets_environments_caches_or_symlinks(
    tmp_path: Path,
) -> None:
    package = tmp_path / "project" / "kit"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text('"""A kit."""\n\nfrom .sub.ops import add\n')
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "ops.py").write_text("def add(a: int, b: int) -> int:\n    return a + b\n")
    (package / ".env").write_text("TOKEN=secret\n")
    (package / ".git").mkdir()
    (package / ".git" / "config").write_text("[remote]\n")
    for environment in (".venv", "venv"):
        (package / environment / "lib").mkdir(parents=True)
        (package / environment / "lib" / "x.py").write_text("")
    (package / "site-packages").mkdir()
    (package / "site-packages" / "y.py").write_text("")
    (package / "sub" / "__pycache__").mkdir()
    (package / "sub" / "__pycache__" / "ops.cpython-311.pyc").write_bytes(b"")
    outside = tmp_path / "outside.txt"
    outside.write_text("not yours\n")
    (package / "linked.txt").symlink_to(outside)
    (package / "linked").symlink_to(tmp_path / "project", target_is_directory=True)

    done = bundle("kit", "-o", str(tmp_path / "kit.mcpb"), cwd=package.parent)
    names = archived(tmp_path / "kit.mcpb")
    assert sorted(names) == [
        "manifest.json",
        "pyproject.toml",
        "server/main.py",
        "server/target/kit/__init__.py",
        "server/target/kit/sub/__init__.py",
        "server/target/kit/sub/ops.py",
    ]
    said = done.stderr.decode()
    assert "copied 3 files: server/target/kit/__init__.py, " in said


def test_a_module_from_outside_the_folders_is_left_out_and_named(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "secretpkg").mkdir(parents=True)
    (elsewhere / "secretpkg" / "__init__.py").write_text("KEY = 'secret'\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "tools.py").write_text(
        "import secretpkg\n\n\ndef add(a: int) -> int:\n    return a\n"
    )
    env = server_env()
    env["PYTHONPATH"] += os.pathsep + str(elsewhere)

    done = objmcp("bundle", "tools.py", "-o", str(tmp_path / "t.mcpb"), cwd=project, env=env)
    assert done.returncode == 0, done.stderr.decode()
    assert not any("secretpkg" in name for name in archived(tmp_path / "t.mcpb"))
    assert archived(tmp_path / "t.mcpb")[-1] == "server/target/tools.py"
    said = done.stderr.decode()
    assert "left out of the bundle" in said
    assert f"secretpkg ({elsewhere / 'secretpkg'})" in said
    assert "--with REQUIREMENT" in said

    refused = objmcp("bundle", "secretpkg", cwd=project, env=env)
    assert refused.returncode == 2
    assert "secretpkg is at" in refused.stderr.decode()
    assert not list(project.glob("*.mcpb"))


def test_the_dependencies_are_objmcps_and_the_installed_ones_the_target_imports(
    project: Path, tmp_path: Path
) -> None:
    import hypothesis as installed

    (project / "tools.py").write_text("import hypothesis\n" + TOOLS_PY)
    bundle("tools.py:add", "--with", "humanize>=4", "-o", str(tmp_path / "t.mcpb"), cwd=project)
    with zipfile.ZipFile(tmp_path / "t.mcpb") as archive:
        project_toml = tomllib.loads(archive.read("pyproject.toml").decode())
        main_py = archive.read("server/main.py").decode()
    dependencies = project_toml["project"]["dependencies"]
    assert f"hypothesis=={installed.__version__}" in dependencies
    assert dependencies[-1] == "humanize>=4"
    assert any(item.startswith("anyio") for item in dependencies)
    assert not any(item.startswith(("objmcp", "helpers")) for item in dependencies)
    assert "'tools.py:add'" in main_py


def test_a_target_that_does_not_load_writes_no_bundle(project: Path) -> None:
    done = objmcp("bundle", "tool.py", cwd=project)
    assert done.returncode == 2
    assert "Did you mean 'tools.py'" in done.stderr.decode()
    assert not list(project.glob("*.mcpb"))


@given(st.text())
def test_a_toml_string_reads_back_as_the_text(text: str) -> None:
    assert tomllib.loads(f"value = {toml_string(text)}")["value"] == text


@given(st.text())
def test_a_project_name_is_a_valid_python_project_name(name: str) -> None:
    assert re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?", project_name(name))


# --- server.json ------------------------------------------------------------------------------


def test_server_json_is_valid_for_the_registry_and_runs_the_target_with_uvx(
    project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "server.json"
    args = ("--name", "io.github.someone/sums", "--package", "sums-mcp", "--version", "1.2.0")
    done = bundle("tools:add", "--server-json", *args, "-o", str(out), cwd=project)
    document = json.loads(out.read_text())
    jsonschema.Draft7Validator(REGISTRY_SCHEMA).validate(document)
    assert document["$schema"] == REGISTRY_SCHEMA["$id"] == SCHEMA
    (package,) = document["packages"]
    assert (package["registryType"], package["identifier"], package["version"]) == (
        "pypi",
        "sums-mcp",
        "1.2.0",
    )
    assert (package["runtimeHint"], package["transport"]) == ("uvx", {"type": "stdio"})
    values = [argument["value"] for argument in package["packageArguments"]]
    assert values[:2] == ["run", "tools:add"]
    said = done.stderr.decode()
    assert "mcp-name: io.github.someone/sums" in said
    assert 'sums-mcp = "objmcp.__main__:main"' in said


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("tools", "--name", "sums", "--package", "p", "--version", "1"), "reverse DNS"),
        (("tools.py", "--name", "io.github.a/b", "--package", "p", "--version", "1"), "not a file"),
        (("tools", "--name", "io.github.a/b"), "--package NAME"),
        (("tools", "--name", "io.github.a/b", "--package", "p"), "--server-version"),
    ],
)
def test_server_json_says_what_is_missing(project: Path, args: tuple[str, ...], said: str) -> None:
    done = objmcp("bundle", "--server-json", *args, cwd=project)
    assert done.returncode == 2
    assert said in done.stderr.decode()
    assert not (project / "server.json").exists()


@given(
    description=st.text(min_size=1),
    short=st.from_regex(r"[a-zA-Z0-9._-]{1,150}", fullmatch=True),
    version=st.from_regex(r"[0-9]{1,3}(\.[0-9]{1,3}){0,2}", fullmatch=True),
    extra=st.lists(st.text(), max_size=3),
)
def test_every_server_json_is_valid_for_the_registry(
    description: str, short: str, version: str, extra: list[str]
) -> None:
    bundled = Bundled(
        spec="tools:add",
        relative=False,
        name="tools",
        version=version,
        description=description,
        author="someone",
        distribution="sums-mcp",
    )
    document = server_json(bundled, f"io.github.someone/{short}", None, None, extra)
    jsonschema.Draft7Validator(REGISTRY_SCHEMA).validate(document)
    assert len(document["description"]) <= 100
    if len(description) <= 100:
        assert document["description"] == description


def test_the_mcpb_cli_is_pinned() -> None:
    lock = json.loads((BUNDLE / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/@anthropic-ai/mcpb"]["version"] == "2.1.2"


@given(
    name=st.text(max_size=30)
    | st.from_regex(r"[a-z0-9.\-]{1,12}/[a-zA-Z0-9._\- !@]{1,12}", fullmatch=True)
)
def test_a_name_is_refused_or_valid_for_the_registry(name: str) -> None:
    bundled = Bundled(
        spec="tools:add",
        relative=False,
        name="tools",
        version="1.0.0",
        description="Sums.",
        author="someone",
        distribution="sums-mcp",
    )
    try:
        document = server_json(bundled, name, None, None, [])
    except TargetError as refused:
        assert "reverse DNS" in str(refused)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.Draft7Validator(REGISTRY_SCHEMA).validate(
                {**server_json(bundled, "io.a/b", None, None, []), "name": name}
            )
    else:
        jsonschema.Draft7Validator(REGISTRY_SCHEMA).validate(document)
