"""Types for the standard library's C functions from typeshed
(``objmcp/model/describe/typeshed.py``,
``sources.py``, ``annotations.py``), read from the copy ``typeshed_client`` bundles: through
re-exports (``posix.stat`` is ``os.stat``), version and platform blocks, a C method's class,
and taken in what JSON can carry."""

from __future__ import annotations

import datetime
import inspect
import json
import math
import os
import posixpath
import sqlite3
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.model.calling.toolbox import Toolbox
from objmcp.model.describe.annotations import stub_hints_of
from objmcp.model.describe.stubsyntax import file_definitions as _definitions
from objmcp.model.describe.typeshed import typeshed_stub

ROOT = Path(__file__).resolve().parents[2]


def properties(target: object, name: str) -> dict[str, object]:
    tools = Toolbox(target, include=[name])
    schema: dict[str, object] = tools[name].input_schema["properties"]
    return schema


def test_a_c_function_takes_its_types_from_typeshed() -> None:
    assert "x" not in getattr(math.sqrt, "__annotations__", {})
    assert properties(math, "sqrt") == {"x": {"type": "number"}}
    assert properties(math, "factorial") == {"n": {"type": "integer"}}
    assert properties(unicodedata, "name")["chr"] == {"type": "string"}
    assert Toolbox(math, include=["sqrt"]).call("sqrt", {"x": 16}).text == "4.0"


def test_a_re_export_is_followed_to_where_typeshed_defines_it() -> None:
    assert os.stat.__module__ == "posix"  # typeshed's posix.pyi: from os import stat as stat
    stat = properties(os, "stat")
    assert stat["path"] == {"anyOf": [{"type": "integer"}, {"type": "string"}]}
    assert stat["follow_symlinks"]["type"] == "boolean"
    assert properties(posixpath, "exists")["path"] == stat["path"]


def test_a_c_method_is_found_by_its_class() -> None:
    connection = sqlite3.connect(":memory:")
    try:
        bound = stub_hints_of(connection.execute)
        assert bound["sql"] is str
        assert stub_hints_of(sqlite3.Connection.execute)["sql"] is str
    finally:
        connection.close()


def test_what_a_stub_says_a_model_cannot_send_leaves_the_parameter_out_or_untyped() -> None:
    walk = properties(os, "walk")
    assert "onerror" not in walk  # Callable[[OSError], object] | None, with a default
    assert walk["top"]["type"] == "string"  # GenericPath: PathLike[str] | str
    dumps = properties(json, "dumps")
    assert "default" not in dumps  # a callable
    assert "JSONEncoder" in dumps["cls"]["anyOf"][0]["enum"]  # a class, chosen by name
    assert stub_hints_of(sqlite3.connect)["database"] is str  # str | bytes | PathLike


def test_a_block_for_another_platform_or_version_is_not_read() -> None:
    path = typeshed_stub("os")
    assert path is not None
    text = Path(path).read_text(encoding="utf-8")
    assert "def startfile(" in text  # for Windows only, in an ``if sys.platform == "win32"``
    read = _definitions(path)
    assert "startfile" not in read and "stat" in read
    if sys.version_info < (3, 12):
        assert "listdrives" not in read  # for 3.12 and later, and Windows


STANDARD = [
    (module, name)
    for module in (math, os, unicodedata, posixpath)
    for name in sorted(vars(module))
    if not name.startswith("_") and inspect.isbuiltin(getattr(module, name))
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(STANDARD))
def test_typeshed_types_only_the_parameters_a_callable_has(case: tuple[object, str]) -> None:
    module, name = case
    function = getattr(module, name)
    try:
        signature = inspect.signature(function)
    except ValueError:
        return  # no text signature: nothing to match the stub's names to
    hints = stub_hints_of(function)
    assert set(hints) <= {*signature.parameters, "return"}


def test_without_typeshed_the_same_tools_are_served_untyped() -> None:
    hide = (
        "import importlib.abc, sys\n"
        "class Hide(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'typeshed_client':\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Hide())\n"
        "import json, math\n"
        "from objmcp.model.calling.toolbox import Toolbox\n"
        "tools = Toolbox(math, include=['sqrt', 'floor'])\n"
        "print(json.dumps({n: t.input_schema['properties'] for n, t in tools.items()}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(objmcp.__file__).parents[1])}
    done = subprocess.run(
        [sys.executable, "-c", hide], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(done.stdout) == {"floor": {"x": {}}, "sqrt": {"x": {}}}


@pytest.mark.parametrize("module", ["numpy", "more_itertools", "not_a_module"])
def test_only_the_standard_library_is_looked_for_in_typeshed(module: str) -> None:
    assert typeshed_stub(module) is None
    assert typeshed_stub("os.path") is not None and typeshed_stub("_typeshed") is not None


def test_a_c_method_inspect_cannot_read_takes_its_signature_from_the_stub() -> None:
    with pytest.raises(ValueError):
        inspect.signature(datetime.datetime.fromisocalendar)  # no text signature
    tools = Toolbox(datetime.datetime, include=["fromisocalendar", "today"])
    schema = tools["fromisocalendar"].input_schema  # inherited from date, in date's stub
    assert schema["properties"] == {name: {"type": "integer"} for name in ("year", "week", "day")}
    assert schema["required"] == ["year", "week", "day"]
    answer = tools.call("fromisocalendar", {"year": 2024, "week": 1, "day": 1})
    assert answer.value == datetime.datetime.fromisocalendar(2024, 1, 1).isoformat()
    assert tools["today"].input_schema["properties"] == {}  # (cls) only: no 'args'
