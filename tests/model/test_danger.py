"""Safe by default: dangerous callables are withheld unless named, and a tool's name gives
its annotations' defaults (issue 22, section 1)."""

from __future__ import annotations

import builtins
import json
import logging
import math
import os
import pathlib
import pickle
import shutil
import subprocess
import sys
from typing import Any

import pytest
from conftest import RawServer
from hypothesis import given
from hypothesis import strategies as st

import objmcp
from objmcp import Toolbox
from objmcp.model.finding.danger import danger_of, inferred_hints


@pytest.mark.parametrize(
    ("function", "why"),
    [
        (os.system, "runs other programs"),
        (os.popen, "runs other programs"),
        (os.kill, "signals"),
        (subprocess.getoutput, "runs other programs"),
        (subprocess.run, "runs other programs"),
        (builtins.eval, "evaluates code"),
        (builtins.exec, "evaluates code"),
        (pickle.loads, "can run code"),
        (shutil.rmtree, "deletes files"),
        (os.unlink, "deletes files"),
        (pathlib.Path("/nonexistent").unlink, "deletes files"),
        (os.chmod, "permissions"),
        (os.putenv, "environment"),
        (sys.exit, "ends"),
        (shutil.move, "moves"),
        (os.rename, "moves"),
        (os.truncate, "overwrites"),
        (os.close, "file descriptors"),
    ],
)
def test_known_dangers_are_known_however_they_are_reached(function: object, why: str) -> None:
    found = danger_of(function)
    assert found is not None and why in found.reason, (function, found)


@pytest.mark.parametrize(
    "function", [os.getcwd, os.path.join, math.sqrt, json.loads, shutil.which, str.upper]
)
def test_harmless_callables_are_not_withheld(function: object) -> None:
    assert danger_of(function) is None


def test_a_module_served_whole_hands_over_no_shell(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="objmcp"):
        tools = Toolbox(os)
    for name in ("system", "popen", "kill", "remove", "rmdir", "chmod", "putenv", "execv"):
        assert name not in tools and name in tools.withheld, name
    assert "getcwd" in tools and "listdir" in tools
    said = " ".join(record.getMessage() for record in caplog.records)
    assert "system" in said and "runs other programs" in said and "--include" in said


def test_an_explicit_name_always_wins_and_a_glob_does_not() -> None:
    assert list(Toolbox(subprocess, include=["getoutput"])) == ["getoutput"]
    assert "getoutput" not in Toolbox(subprocess, include=["get*", "*"])
    named = Toolbox(subprocess, tools={"getoutput": {"title": "Run a shell command"}})
    assert "getoutput" in named and "run" not in named
    assert "eval" in Toolbox(builtins, include=["eval", "len"])


def test_pandas_evaluating_strings_is_withheld_as_its_documentation_warns() -> None:
    import pandas

    found = danger_of(pandas.eval)
    assert found is not None and "evaluates code" in found.reason
    frame = Toolbox(pandas.DataFrame({"a": [1, 2]}))
    assert {"eval", "query"} <= set(frame.withheld)
    assert "head" in frame and "query" not in frame


def test_a_served_object_keeps_its_dangerous_methods_to_itself() -> None:
    tools = Toolbox(pathlib.Path("/nonexistent"))
    assert {"unlink", "rmdir", "chmod"} <= set(tools.withheld)
    assert "exists" in tools and "unlink" not in tools


def test_a_class_made_with_no_arguments_says_what_was_made(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="objmcp"):
        Toolbox(pathlib.Path)
    said = [r.getMessage() for r in caplog.records if "made with no arguments" in r.getMessage()]
    assert len(said) == 1 and "Path('.')" in said[0], said
    assert [r.levelno for r in caplog.records if r.getMessage() in said] == [logging.INFO]


class Notes:
    """Notes, with names that say what their methods do."""

    def delete_note(self, key: str) -> None:
        """Delete a note."""

    def get_note(self, key: str) -> str:
        """Read a note."""
        return key

    def isEmpty(self) -> bool:  # noqa: N802 (a camelCase name, as libraries have)
        """Whether there are no notes."""
        return True

    def add_note(self, key: str) -> None:
        """Add a note."""

    @objmcp.tool(read_only=False)
    def get_and_bump(self) -> int:
        """Read a counter, and move it on."""
        return 1


def annotations_of(tools: Toolbox) -> dict[str, dict[str, Any]]:
    return {spec["name"]: spec.get("annotations", {}) for spec in tools.specs("mcp")}


def test_names_give_the_hints_and_the_author_overrides_them() -> None:
    found = annotations_of(Toolbox(Notes(), tools={"delete_note": {"destructive": False}}))
    assert found["get_note"] == {"readOnlyHint": True}
    assert found["isEmpty"] == {"readOnlyHint": True}
    assert found["add_note"] == {}
    assert found["get_and_bump"] == {"readOnlyHint": False}  # the decorator wins
    assert found["delete_note"] == {"readOnlyHint": False, "destructiveHint": False}
    plain = annotations_of(Toolbox(Notes()))
    assert plain["delete_note"] == {"readOnlyHint": False, "destructiveHint": True}


DESTRUCTIVE = ["delete", "remove", "drop", "kill", "write", "unlink", "truncate", "purge"]
READ_ONLY = ["get", "list", "find", "is", "has", "read", "search", "count"]
RESTS = st.lists(st.from_regex(r"[a-z][a-z0-9]{0,8}", fullmatch=True), max_size=3)


@given(verb=st.sampled_from(DESTRUCTIVE + READ_ONLY), rest=RESTS, camel=st.booleans())
def test_the_first_word_decides(verb: str, rest: list[str], camel: bool) -> None:
    name = verb + "".join(w.capitalize() for w in rest) if camel else "_".join([verb, *rest])
    read_only, destructive = inferred_hints(name)
    if verb in DESTRUCTIVE:
        assert (read_only, destructive) == (False, True), name
    else:
        assert (read_only, destructive) == (True, None), name


@given(
    first=st.from_regex(r"[a-z]{1,10}", fullmatch=True),
    rest=RESTS,
    camel=st.booleans(),
)
def test_only_the_first_word_counts(first: str, rest: list[str], camel: bool) -> None:
    name = first + "".join(w.capitalize() for w in rest) if camel else "_".join([first, *rest])
    assert inferred_hints(name) == inferred_hints(first), name


def listed_tools(server: RawServer) -> set[str]:
    server.initialize()
    listed = server.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    return {tool["name"] for tool in listed["result"]["tools"]}


def test_serving_subprocess_from_the_command_line_runs_nothing_unnamed() -> None:
    server = RawServer("-m", "objmcp", "run", "subprocess")
    try:
        # what it serves runs nothing: a function that quotes, the class of a finished run
        assert listed_tools(server) == {"list2cmdline", "CompletedProcess"}
        for name, arguments in (("getoutput", {"cmd": "echo pwned"}), ("Popen", {"args": "id"})):
            call = {"name": name, "arguments": arguments}
            refused = server.request(
                {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call}
            )
            assert refused["error"]["code"] == -32602 and name in refused["error"]["message"]
    finally:
        _, stderr, _ = server.close()
    assert b"getoutput" in stderr and b"runs other programs" in stderr
    named = RawServer("-m", "objmcp", "run", "subprocess", "--include", "getoutput")
    try:
        assert listed_tools(named) == {"getoutput"}
    finally:
        named.close()
