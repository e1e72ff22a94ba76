"""What a module target serves (issue 37), beyond its functions.

A public class of the module's own package that a model can make (concrete, its
constructor written, what it makes has a form to answer with) is a tool of its name that
makes one and answers with its JSON form; an enum makes a member from its value. A class
whose instances hold something open (a file, a socket, a process) or are threads is
withheld unless named. With an ``__all__``, a module serves it and, as PEP 8 reads a
module, the public functions and classes it defines itself, not what it imports. Property
tests over classes and modules made here; a real server of ``tests/servers/makers.py``.
"""

from __future__ import annotations

import abc
import collections
import dataclasses
import datetime
import enum
import json
import logging
import pathlib
import socket
import subprocess
import tempfile
import threading
import types
import zipfile
from collections.abc import Callable
from typing import Any, Protocol

import pytest
from conftest import ROOT, RawServer
from http_helpers import call
from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.model.finding.danger import danger_of
from objmcp.model.finding.introspect import discover
from objmcp.model.finding.makers import has_a_form, makes_a_value

MAKERS = str(ROOT / "tests" / "servers" / "makers.py")
QUICK = settings(max_examples=60, deadline=None)


def _repr(self: object) -> str:
    return "shown"


def _public(self: object, value: int = 0) -> None:
    self.value = value  # type: ignore[attr-defined]


def _private(self: object, value: int = 0) -> None:
    self._value = value  # type: ignore[attr-defined]


def _area(self: object) -> float:
    return 0.0


TRAITS = ("repr", "public", "private", "dataclass", "abstract", "exception", "protocol")


def made_class(traits: set[str]) -> type:
    """A class with the chosen traits, its constructor ``(value=0)``."""
    body: dict[str, Any] = {"__init__": lambda self, value=0: None}
    if "private" in traits:
        body["__init__"] = _private
    if "public" in traits:
        body["__init__"] = _public
    if "repr" in traits:
        body["__repr__"] = _repr
    bases: tuple[type, ...] = ()
    if "abstract" in traits:
        body["area"] = abc.abstractmethod(_area)
        bases = (abc.ABC,)
    if "exception" in traits:
        bases = (*bases, Exception)
    if "protocol" in traits:
        body["__annotations__"] = {"value": int}
        bases = (Protocol,)
    made = types.new_class("Made", bases, {}, lambda namespace: namespace.update(body))
    if "dataclass" in traits and not ({"protocol", "exception"} & traits):
        made = dataclasses.dataclass(made)
    return made


@QUICK
@given(st.sets(st.sampled_from(TRAITS)))
def test_a_class_makes_a_value_when_it_is_concrete_and_what_it_makes_has_a_form(
    traits: set[str],
) -> None:
    made = made_class(traits)
    refused = {"abstract", "exception", "protocol"} & traits
    protocol = "protocol" in traits  # made_class gives a protocol no other base
    dataclass = "dataclass" in traits and not ({"protocol", "exception"} & traits)
    exception = "exception" in traits and not protocol  # an exception has a text (its args)
    form = bool({"repr", "public"} & traits) or dataclass or exception
    assert has_a_form(made) == form
    assert makes_a_value(made) == (form and not refused)


def test_an_enum_makes_a_member_from_its_value_and_answers_with_the_value() -> None:
    class Level(enum.IntEnum):
        LOW = 1
        HIGH = 2

    class Empty(enum.Enum):
        pass

    module = module_of({"Level": here(Level), "Empty": here(Empty)})
    tools = objmcp.Toolbox(module)
    assert list(tools) == ["Level"]  # an enum with no member makes nothing
    schema = tools["Level"].input_schema["properties"]["value"]
    assert schema["enum"] == [1, 2]
    assert tools.call("Level", {"value": 2}).text == "2"


def module_of(members: dict[str, Any], exported: list[str] | None = None) -> types.ModuleType:
    """A module named ``made_here`` holding ``members``."""
    module = types.ModuleType("made_here")
    for name, value in members.items():
        setattr(module, name, value)
    if exported is not None:
        module.__all__ = exported  # type: ignore[attr-defined]
    return module


def here(cls: type) -> type:
    """``cls`` as if the module ``made_here`` defined it."""
    cls.__module__ = "made_here"
    return cls


def _function(name: str, home: str) -> types.FunctionType:
    def function(word: str) -> str:
        return word

    function.__name__ = function.__qualname__ = name
    function.__module__ = home
    return function


NAMES = st.sampled_from(["alpha", "beta", "gamma", "delta", "_hidden", "epsilon"])


@QUICK
@given(
    st.dictionaries(NAMES, st.booleans(), max_size=6),
    st.none() | st.sets(NAMES),
)
def test_a_module_serves_its_all_and_the_public_functions_it_defines_not_what_it_imports(
    functions: dict[str, bool], exported: set[str] | None
) -> None:
    """``functions``: name to whether the module defines it (else it imports it)."""
    members = {
        name: _function(name, "made_here" if defined else "elsewhere")
        for name, defined in functions.items()
    }
    listed = None if exported is None else sorted(exported & set(members))
    module = module_of(members, listed)
    served = {member.name for member in discover(module)}
    defined = {name for name, own in functions.items() if own and not name.startswith("_")}
    assert served == defined | {n for n in listed or () if not n.startswith("_")}


def test_a_module_with_all_serves_the_classes_of_its_package_not_a_re_export() -> None:
    @dataclasses.dataclass
    class Point:
        x: int

    module = module_of({"Point": here(Point), "Path": pathlib.Path}, ["Path", "Point"])
    assert [member.name for member in discover(module)] == ["Point"]  # not pathlib's


def test_a_function_wins_the_name_of_a_class() -> None:
    @dataclasses.dataclass
    class Point:
        x: int

    module = module_of({"Point": here(Point), "locate": _function("locate", "made_here")})
    tools = objmcp.Toolbox(module, tools={"locate": {"name": "Point"}})
    assert list(tools) == ["Point"]
    assert tools.call("Point", {"word": "here"}).text == "here"


def test_what_the_standard_library_serves_of_its_classes() -> None:
    tools = objmcp.Toolbox(datetime)
    # not tzinfo (abstract); timezone, whose offset is a timedelta built from JSON in turn
    assert set(tools) == {"date", "datetime", "time", "timedelta", "timezone"}
    zone = tools.call("timezone", {"offset": {"hours": -3}, "name": "BRT"}).text
    assert zone == "BRT"
    assert tools.call("date", {"year": 2024, "month": 1, "day": 5}).text == "2024-01-05"
    assert tools.call("timedelta", {"days": 1, "hours": 2}).text == "1 day, 2:00:00"
    assert "Counter" in objmcp.Toolbox(collections)
    counted = objmcp.Toolbox(collections).call("Counter", {"iterable": "abba"}).text
    assert json.loads(counted) == dict(collections.Counter("abba"))  # a mapping: its items


def test_a_class_that_holds_something_open_or_is_a_thread_is_withheld_unless_named() -> None:
    for module, name in (
        (subprocess, "Popen"),
        (logging, "FileHandler"),
        (zipfile, "ZipFile"),
        (tempfile, "TemporaryDirectory"),
        (socket, "socket"),
        (threading, "Thread"),
    ):
        tools = objmcp.Toolbox(module)
        assert name not in tools and name in tools.withheld, (module.__name__, name)
        assert name in objmcp.Toolbox(module, include=[name]), (module.__name__, name)
    assert danger_of(pathlib.Path) is None  # a value: its __enter__ (before 3.13) does nothing


def listed(server: RawServer) -> dict[str, Any]:
    server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    return {tool["name"]: tool for tool in server.read()["result"]["tools"]}


def text(server: RawServer, request_id: int, tool: str, **arguments: Any) -> Any:
    server.send(call(request_id, tool, **arguments))
    result = server.read()["result"]
    assert result["isError"] is False, result
    return result["content"][0]["text"]


def test_a_served_module_makes_its_classes_and_serves_what_it_defines() -> None:
    server = RawServer("-m", "objmcp", "run", MAKERS)
    server.initialize()
    tools = listed(server)
    assert set(tools) == {"shout", "dedent", "whisper", "Point", "Colour", "Money", "Tag"}
    assert tools["Colour"]["inputSchema"]["properties"]["value"]["enum"] == [1, 2]
    assert json.loads(text(server, 2, "Point", x=1.5, y=-2)) == {"x": 1.5, "y": -2}
    assert text(server, 3, "Colour", value=2) == "2"
    assert text(server, 4, "Money", amount=12) == "12 EUR"
    assert json.loads(text(server, 5, "Tag", name="urgent")) == {"name": "urgent"}
    assert text(server, 6, "whisper", word="QUIET") == "quiet"
    _, err, status = server.close()
    assert status == 0
    assert b"Journal" in err and b"holds something open" in err  # withheld, and said
    assert b"Hook" not in err  # a class JSON cannot make is no tool, and no fault


def test_a_withheld_class_is_served_when_named() -> None:
    server = RawServer("-m", "objmcp", "run", "--include", "Journal", MAKERS)
    server.initialize()
    assert set(listed(server)) == {"Journal"}
    assert json.loads(text(server, 2, "Journal", path="notes.txt")) == {"path": "notes.txt"}
    server.close()


def test_a_class_json_cannot_make_is_left_out_quietly_unless_named(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Hook:
        """Made from a function."""

        def __init__(self, callback: Callable[[], None]) -> None:
            self.callback = callback

    module = module_of({"Hook": here(Hook)})
    with caplog.at_level(logging.WARNING, logger="objmcp"):
        assert list(objmcp.Toolbox(module)) == []
    assert "Hook" not in caplog.text
    with caplog.at_level(logging.WARNING, logger="objmcp"):
        assert list(objmcp.Toolbox(module, include=["Hook"])) == []
    assert "'Hook' left out" in caplog.text  # named: why it is not served is said
