"""The package as it is shipped (issue 40): the wheel and the sdist that ``uv build`` makes
pass ``twine check --strict``, carry full metadata (one version, the license, classifiers
PyPI knows, the project's URLs) and the changelog and contributing guide; and the wheel runs
as a newcomer would run it, with ``uvx --from`` and ``pipx run --spec``, each with homes and
caches of its own under a temporary folder (never the user's), reaching the package index."""

from __future__ import annotations

import email.message
import email.parser
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import trove_classifiers
from conftest import ROOT, server_env

import objmcp

BIN = Path(sys.executable).parent
SUPPORTED = ["3.10", "3.11", "3.12", "3.13"]
URLS = {"Homepage", "Documentation", "Repository", "Issues", "Changelog"}


@dataclass(frozen=True)
class Dist:
    """A wheel and an sdist built from one source tree."""

    wheel: Path
    sdist: Path


def tool(name: str) -> str:
    """A command installed beside this interpreter (``scripts/test.sh`` installs them)."""
    found = shutil.which(name, path=str(BIN))
    assert found, f"{name} is not in {BIN}: bash scripts/test.sh installs it (the test extra)"
    return found


def isolated_env(home: Path) -> dict[str, str]:
    """This environment with every cache, tool home and data folder of uv, pipx and pip
    under ``home``; the index settings (``PIP_*``, ``UV_*INDEX*``, the config files) kept so
    the package index stays in reach; and no ``PYTHONPATH``, so only the wheel is imported."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT"}
    }
    folders = {
        "UV_CACHE_DIR": "uv-cache",
        "UV_TOOL_DIR": "uv-tools",
        "UV_TOOL_BIN_DIR": "uv-bin",
        "UV_PYTHON_INSTALL_DIR": "uv-python",
        "PIPX_HOME": "pipx",
        "PIPX_BIN_DIR": "pipx-bin",
        "PIPX_MAN_DIR": "pipx-man",
        "PIPX_SHARED_LIBS": "pipx-shared",
        "XDG_CACHE_HOME": "cache",
        "XDG_DATA_HOME": "data",
        "XDG_STATE_HOME": "state",
    }
    for key, folder in folders.items():
        (home / folder).mkdir(parents=True, exist_ok=True)
        env[key] = str(home / folder)
    return env


def build(source: Path, out: Path, home: Path) -> Dist:
    """``uv build`` of ``source``: the sdist, then the wheel built from that sdist."""
    done = subprocess.run(
        [tool("uv"), "build", "--out-dir", str(out), str(source)],
        capture_output=True,
        env=isolated_env(home),
        cwd=out,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    (wheel,) = out.glob("objmcp-*.whl")
    (sdist,) = out.glob("objmcp-*.tar.gz")
    return Dist(wheel, sdist)


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    """The wheel and sdist of this source tree, built once for the module."""
    return build(ROOT, tmp_path_factory.mktemp("dist"), tmp_path_factory.mktemp("build-home"))


def wheel_metadata(wheel: Path) -> email.message.Message:
    """The wheel's ``METADATA``, as the core metadata's email-header form."""
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return email.parser.BytesParser().parsebytes(archive.read(name))


def sdist_files(sdist: Path) -> set[str]:
    """The sdist's file names, below its top folder."""
    with tarfile.open(sdist) as archive:
        return {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}


def test_twine_check_strict_passes_on_the_wheel_and_the_sdist(dist: Dist) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(dist.wheel), str(dist.sdist)],
        capture_output=True,
        env=server_env(),
        check=False,
    )
    output = done.stdout.decode() + done.stderr.decode()
    assert done.returncode == 0, output
    assert output.count("PASSED") == 2, output


def test_the_wheel_has_the_package_version(dist: Dist) -> None:
    assert wheel_metadata(dist.wheel)["Version"] == objmcp.__version__
    assert dist.wheel.name == f"objmcp-{objmcp.__version__}-py3-none-any.whl"
    assert dist.sdist.name == f"objmcp-{objmcp.__version__}.tar.gz"


def test_the_version_has_one_source(tmp_path: Path) -> None:
    """A tree whose ``__version__`` alone is changed builds a wheel of that version."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    cached = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "objmcp", source / "objmcp", ignore=cached)
    init = source / "objmcp" / "__init__.py"
    text, count = re.subn(
        r'^__version__ = "[^"]*"', '__version__ = "9.8.7"', init.read_text(), flags=re.MULTILINE
    )
    assert count == 1
    init.write_text(text)
    (tmp_path / "out").mkdir()
    built = build(source, tmp_path / "out", tmp_path / "home")
    assert wheel_metadata(built.wheel)["Version"] == "9.8.7"
    assert built.sdist.name == "objmcp-9.8.7.tar.gz"


def test_the_changelog_names_the_package_version_first() -> None:
    releases = re.findall(r"^## \[([^\]]+)\]", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert releases and releases[0] == objmcp.__version__, releases


def test_the_license_is_one_expression_with_its_file(dist: Dist) -> None:
    metadata = wheel_metadata(dist.wheel)
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    # PEP 639: a license expression and a license classifier may not both be given
    assert not [c for c in metadata.get_all("Classifier") or [] if c.startswith("License ::")]
    with zipfile.ZipFile(dist.wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert archive.read(name) == (ROOT / "LICENSE").read_bytes()


def test_the_classifiers_are_pypis_and_name_the_supported_pythons(dist: Dist) -> None:
    metadata = wheel_metadata(dist.wheel)
    classifiers = metadata.get_all("Classifier") or []
    unknown = [c for c in classifiers if c not in trove_classifiers.classifiers]
    assert not unknown, unknown
    prefix = "Programming Language :: Python :: "
    versions = [c.removeprefix(prefix) for c in classifiers if re.fullmatch(r".*3\.\d+", c)]
    assert versions == SUPPORTED
    assert metadata["Requires-Python"] == f">={SUPPORTED[0]}"
    for kind in ("Operating System", "Topic", "Environment", "Framework", "Intended Audience"):
        assert any(c.startswith(f"{kind} :: ") for c in classifiers), kind


def test_the_project_urls_are_all_given(dist: Dist) -> None:
    urls = dict(
        entry.split(", ", 1) for entry in wheel_metadata(dist.wheel).get_all("Project-URL") or []
    )
    assert set(urls) == URLS
    assert all(url.startswith("https://") for url in urls.values()), urls
    assert urls["Changelog"].endswith("/CHANGELOG.md")


def test_the_sdist_has_the_changelog_and_contributing_guide(dist: Dist) -> None:
    files = sdist_files(dist.sdist)
    wanted = {"CHANGELOG.md", "CONTRIBUTING.md", "README.md", "LICENSE", "pyproject.toml"}
    assert wanted <= files, wanted - files
    assert "objmcp/__init__.py" in files and "objmcp/py.typed" in files


INSPECT = ["objmcp", "inspect", "statistics"]


def source_inspect_statistics() -> str:
    """``objmcp inspect statistics`` from the source tree, the table the wheel must print."""
    done = subprocess.run(
        [sys.executable, "-m", *INSPECT],
        capture_output=True,
        env=server_env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def assert_runs_inspect_statistics(runner: list[str], home: Path) -> None:
    """``runner`` followed by ``objmcp inspect statistics``, from a folder with no objmcp
    in it and no ``PYTHONPATH``, prints the source tree's table of statistics' tools."""
    done = subprocess.run(
        [*runner, *INSPECT], capture_output=True, env=isolated_env(home), cwd=home, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    table = done.stdout.decode()
    names = {line.split()[0] for line in table.splitlines()[1:] if line.strip()}
    assert {"mean", "median", "stdev", "NormalDist"} <= names, table
    assert table == source_inspect_statistics()


def test_uvx_runs_the_wheel(dist: Dist, tmp_path: Path) -> None:
    uvx = [tool("uvx"), "--python", sys.executable, "--from", str(dist.wheel)]
    assert_runs_inspect_statistics(uvx, tmp_path)


def test_pipx_runs_the_wheel(dist: Dist, tmp_path: Path) -> None:
    pipx = [sys.executable, "-m", "pipx", "run", "--python", sys.executable]
    assert_runs_inspect_statistics([*pipx, "--spec", str(dist.wheel)], tmp_path)
