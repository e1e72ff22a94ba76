"""The table of effects and the reading of code (issue 38): every public callable of the
seven modules that act on the machine is classified, withheld by its effect, consistently;
a callable nobody named is judged by what its code does."""

from __future__ import annotations

import importlib.util
import inspect
import io
import os
import pathlib
import shutil
import signal
import sys
import tempfile
import types
from typing import Any

import pytest
from conftest import ZOO

from objmcp import Toolbox
from objmcp.model.finding import codereading
from objmcp.model.finding.danger import danger_of
from objmcp.model.finding.effects import (
    CLASSIFIED,
    DELETES,
    DESERIALISES,
    ENVIRONMENT,
    EVALUATES,
    PROCESS_SETTING,
    TABLE,
    Effect,
    effect_of,
)

MODULES: dict[str, types.ModuleType] = {
    "os": os,
    "shutil": shutil,
    "pathlib": pathlib,
    "io": io,
    "sys": sys,
    "signal": signal,
    "tempfile": tempfile,
}


def entries_of(module: str) -> dict[str, Effect | None]:
    return next(dict(names) for modules, names in TABLE.items() if module in modules)


def public_callables(module: types.ModuleType) -> dict[str, object]:
    """Every public callable of ``module`` (its exceptions aside: never served), and for
    ``pathlib`` the public methods of ``Path`` too."""
    found = {
        name: value
        for name, value in vars(module).items()
        if not name.startswith("_")
        and callable(value)
        and not (isinstance(value, type) and issubclass(value, BaseException))
    }
    if module is pathlib:
        found.update(
            (name, getattr(pathlib.Path, name))
            for name in dir(pathlib.Path)
            if not name.startswith("_") and callable(getattr(pathlib.Path, name))
        )
    return found


def test_the_swept_modules_are_the_ones_the_table_classifies() -> None:
    assert set(CLASSIFIED) == set(MODULES)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_public_callable_of_the_module_is_classified(name: str) -> None:
    """A new function in a new Python fails here until the table says what it does."""
    entries = entries_of(name)
    missing = sorted(set(public_callables(MODULES[name])) - set(entries))
    assert not missing, f"{name}: classify {missing} in objmcp/model/finding/effects.py"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_callable_is_known_by_its_entry_however_it_is_reached(name: str) -> None:
    entries = entries_of(name)
    wrong = {
        member: (effect_of(value), entries[member])
        for member, value in public_callables(MODULES[name]).items()
        if entries[member] is not None and effect_of(value) is not entries[member]
    }
    assert not wrong, wrong


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_module_served_whole_is_withheld_by_effect_consistently(name: str) -> None:
    """What a tool does decides, not how its name sounds: every served tool of the module
    does nothing the table withholds everywhere, and every callable that does is withheld."""
    tools = Toolbox(MODULES[name])
    entries = entries_of(name)
    for tool in tools:
        effect = entries.get(tool)
        assert effect is None or not effect.everywhere, (tool, effect)
    for member, effect in entries.items():
        if effect is not None and effect.everywhere and member in tools.withheld:
            assert effect.reason in tools.withheld[member]
        if effect is not None and effect.everywhere:
            assert member not in tools, member


def test_the_gaps_of_the_old_names_are_closed() -> None:
    """Functions that overwrite, rename or truncate files, or cut the protocol's own
    descriptors, were served beside withheld ones of the same effect."""
    tools = Toolbox(os)
    for name in ("rename", "replace", "truncate", "link", "symlink", "open", "write", "close"):
        assert name in tools.withheld and name not in tools, name
    for name in ("dup2", "closerange", "read"):
        assert name in tools.withheld, name
    assert {"copyfile", "copytree", "move", "rmtree"} <= set(Toolbox(shutil).withheld)


def test_a_process_setting_is_served_where_no_one_shares_the_process_and_said() -> None:
    alone = Toolbox(sys)
    shared = Toolbox(sys, shared_process=True)
    assert "setrecursionlimit" in alone and "setrecursionlimit" in alone.dangers
    assert "setrecursionlimit" not in shared and "setrecursionlimit" in shared.withheld
    assert "exit" not in alone and "exit" not in shared
    hints = {spec["name"]: spec.get("annotations", {}) for spec in alone.specs("mcp")}
    assert hints["setrecursionlimit"] == {"readOnlyHint": False, "destructiveHint": False}


def test_serving_shared_later_withholds_what_only_one_caller_may_change() -> None:
    tools = Toolbox(sys)
    assert "setrecursionlimit" in tools.serve_shared()
    assert "setrecursionlimit" not in tools and "setrecursionlimit" in tools.withheld
    assert "setrecursionlimit" not in tools.dangers
    named = Toolbox(sys, include=["setrecursionlimit", "getrecursionlimit"])
    named.serve_shared()
    assert "setrecursionlimit" in named, "a name given in full wins over HTTP too"


def test_every_http_app_serves_the_process_shared() -> None:
    """``asgi_app`` makes its server for a shared process; an ``McpApp`` made around a
    server made for stdio makes it so."""
    import objmcp

    alone = objmcp.Server("sys", sys)
    assert "setrecursionlimit" in alone.toolbox
    for app in (objmcp.asgi_app("sys", sys), objmcp.McpApp(objmcp.Server("sys", sys))):
        assert "setrecursionlimit" not in app.server.toolbox
        assert "setrecursionlimit" in app.server.toolbox.withheld


INNOCENT = ZOO.parent / "innocent.py"


@pytest.fixture(scope="module")
def innocent() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("innocent_library", INNOCENT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["innocent_library"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("name", "effect", "words"),
    [
        ("total", EVALUATES, "calls eval, in total"),
        ("measure", EVALUATES, "calls eval, in total, reached from measure"),
        ("use_currency", PROCESS_SETTING, "sets the global _CURRENCY"),
        ("tidy", DELETES, "calls os.remove, in _sweep, reached from tidy"),
        ("refresh_env", ENVIRONMENT, "changes os.environ"),
        ("load_plugin", EVALUATES, "calls importlib.import_module"),
        ("restore", DESERIALISES, "calls pickle.loads, in restore"),
    ],
)
def test_code_that_does_harm_under_an_innocent_name_is_found(
    innocent: types.ModuleType, name: str, effect: Effect, words: str
) -> None:
    found = danger_of(getattr(innocent, name))
    assert found is not None and found.effect is effect, found
    assert words in found.reason, found.reason


@pytest.mark.parametrize(
    "name",
    ["currency", "price", "rates", "word_length", "json_module_name", "summary", "country_name"],
)
def test_harmless_code_is_not_found_to_do_harm(innocent: types.ModuleType, name: str) -> None:
    """A cache filled from no argument, a memo, an import by a constant name, a public
    function calling another public one (judged as a tool of its own), and the library's
    own data unpickled by a helper are left alone."""
    assert danger_of(getattr(innocent, name)) is None


def test_a_library_calling_its_own_tabled_function_safely_is_read_not_judged() -> None:
    import yaml

    assert danger_of(yaml.load) is not None  # the table: its loader is the caller's choice
    assert danger_of(yaml.safe_load) is None  # read: it calls load with the safe loader


def test_sympy_keeps_its_tools_and_loses_sympify(caplog: pytest.LogCaptureFixture) -> None:
    """A rule that withholds half of a symbolic-math library is wrong: sympify (which
    runs its string) is found, the functions that call it on their arguments are not."""
    import sympy

    tools = Toolbox(sympy, shared_process=True)
    found = {name for name, why in tools.withheld.items() if ": its code " in why}
    assert {"sympify", "parse_expr", "lambdify"} <= found
    assert {"simplify", "solve", "integrate", "factor", "expand"} <= set(tools)
    assert len(found) < len(tools) / 20, sorted(found)


def reader_depths() -> list[int]:
    return [0, 1, codereading.MAX_DEPTH]


@pytest.mark.parametrize("depth", reader_depths())
def test_the_depth_bounds_what_is_read(
    innocent: types.ModuleType, depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(codereading, "MAX_DEPTH", depth)
    codereading._read.cache_clear()
    found = codereading.read_effect(innocent.tidy)
    assert (found is not None) == (depth >= 1), found
    codereading._read.cache_clear()


def test_code_that_cannot_be_read_is_nothing_found() -> None:
    weird: Any = types.FunctionType(compile("lambda: 0", "<x>", "eval").co_consts[0], {})
    assert codereading.read_effect(weird) is None
    assert codereading.read_effect(len) is None
    assert codereading.read_effect(inspect) is None
