"""Types from a stub-only package (PEP 561; ``objmcp/model/describe/stubpackages.py``): an untyped
library typed by ``<package>-stubs`` on the path, as ``pip install types-<name>`` installs
typeshed's, through real ``objmcp run`` and ``objmcp inspect`` processes."""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON, ROOT, RawServer, server_env
from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp.model.describe.stubpackages import _paths

LIBRARY = {
    "fooish/__init__.py": """
        import datetime
        def repeat(word, times):
            return word * times
        def weekday(when):
            return when.weekday() if isinstance(when, datetime.date) else repr(when)
        def described(key, value, note, flag):
            return [key, value, note, flag]
        """,
    "fooish/sub.py": "def halve(x):\n    return x / 2 if isinstance(x, int) else repr(x)\n",
    "fooish/sub.pyi": "def halve(x: str) -> str: ...\n",  # the package's own: second to -stubs
}

STUBS = {
    "fooish-stubs/__init__.pyi": """
        import datetime
        from _typeshed import StrPath
        def repeat(word: str, times: int) -> str: ...
        def weekday(when: datetime.date) -> int: ...
        def described(key: StrPath, value: float, note: str, flag: bool) -> list[object]: ...
        """,
    "fooish-stubs/sub.pyi": "def halve(x: int) -> float: ...\n",
}


def _write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return folder


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write(tmp_path_factory.mktemp("library"), LIBRARY)


@pytest.fixture(scope="module")
def stubs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write(tmp_path_factory.mktemp("site"), STUBS)


def _env(*folders: Path) -> dict[str, str]:
    return {"PYTHONPATH": os.pathsep.join([str(ROOT), *map(str, folders)])}


def _served(target: str, *folders: Path) -> tuple[dict[str, Any], list[str]]:
    """The tools of ``objmcp run target`` with ``folders`` on the path, and the answers to
    a few calls."""
    server = RawServer("-m", "objmcp", "run", target, stderr=subprocess.DEVNULL, env=_env(*folders))
    try:
        server.initialize("2025-11-25")
        tools = server.tools()
        calls = (
            [("repeat", {"word": "ab", "times": 3}), ("weekday", {"when": "2024-05-06"})]
            if target == "fooish"
            else [("halve", {"x": 7})]
        )
        answers = [
            server.call_tool(i, name, **arguments) for i, (name, arguments) in enumerate(calls)
        ]
    finally:
        server.close()
    return tools, [a["content"][0]["text"] for a in answers]


def test_a_stub_package_types_an_untyped_module_and_calls_convert_by_it(
    library: Path, stubs: Path
) -> None:
    tools, answers = _served("fooish", library, stubs)
    assert tools["repeat"]["inputSchema"]["properties"] == {
        "word": {"type": "string"},
        "times": {"type": "integer"},
    }
    assert tools["weekday"]["inputSchema"]["properties"]["when"]["format"] == "date"
    described = tools["described"]["inputSchema"]["properties"]
    assert [described[n]["type"] for n in ("key", "value", "note", "flag")] == [
        "string",  # _typeshed's StrPath, read in typeshed's own stub
        "number",
        "string",
        "boolean",
    ]
    assert answers == ["ababab", "0"]  # 2024-05-06 was a Monday: the text made a date


def test_without_the_stub_package_the_same_parameters_are_untyped(library: Path) -> None:
    tools, answers = _served("fooish", library)
    assert tools["repeat"]["inputSchema"]["properties"] == {"word": {}, "times": {}}
    assert answers == ["ababab", "'2024-05-06'"]


def test_a_stub_package_comes_before_the_stub_beside_the_module(library: Path, stubs: Path) -> None:
    tools, answers = _served("fooish.sub", library, stubs)
    assert tools["halve"]["inputSchema"]["properties"] == {"x": {"type": "integer"}}
    assert answers == ["3.5"]
    tools, answers = _served("fooish.sub", library)  # the package's own stub, without
    assert tools["halve"]["inputSchema"]["properties"] == {"x": {"type": "string"}}


def _stub_warnings(*folders: Path) -> list[str]:
    env = {**server_env(), **_env(*folders)}
    done = subprocess.run(
        [PYTHON, "-m", "objmcp", "inspect", "fooish"],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    return [line for line in done.stderr.decode().splitlines() if "stub-only package" in line]


def test_inspect_says_once_that_a_stub_package_would_type_many_untyped_parameters(
    library: Path, stubs: Path
) -> None:
    said = _stub_warnings(library)
    assert said == [
        "objmcp: warning: 7 parameters of fooish's tools have no type: a stub-only package "
        "(fooish-stubs, PEP 561) would type them, if one is published for it; typeshed's are "
        "named types-<distribution> (pip install types-<distribution>)"
    ]
    assert _stub_warnings(library, stubs) == []


_PART = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda part: part not in {"con", "nul", "aux", "prn"}
)


@settings(max_examples=40, deadline=None)
@given(parts=st.lists(_PART, min_size=1, max_size=4), as_package=st.booleans())
def test_a_modules_stub_is_found_where_pep_561_puts_it(
    tmp_path_factory: pytest.TempPathFactory, parts: list[str], as_package: bool
) -> None:
    top, *rest = ["zz" + parts[0], *parts[1:]]  # never a standard library module's name
    folder = tmp_path_factory.mktemp("site")
    stubs = folder / f"{top}-stubs"
    own = (
        stubs.joinpath(*rest, "__init__.pyi")
        if as_package or not rest
        else stubs.joinpath(*rest[:-1], rest[-1] + ".pyi")
    )
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text("")
    (stubs / "__init__.pyi").write_text("")
    found = _paths(".".join([top, *rest]), (str(folder / "empty"), str(folder)))
    package = ".".join([top, *rest] if own.name == "__init__.pyi" else [top, *rest[:-1]])
    assert found[0] == (str(own), package)
    assert found[-1] == (str(stubs / "__init__.pyi"), top)
    assert _paths(".".join([top, *rest]), (str(folder / "empty"),)) == ()
