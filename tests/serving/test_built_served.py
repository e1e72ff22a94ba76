"""A library's own classes as parameters, served: ``objmcp run`` of ``servers/solver.py`` in
real processes over raw pipes (its ``Solver``, a stateful object, and the module itself).
A variable named twice is one variable of the served object; an options object comes by
its arguments; a class refusing its constructor comes from its factory; a class is chosen
by name; what nothing builds is left out once per class. The rules, with property tests:
``model/test_built_values.py``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ROOT, RawServer

SOLVER = ROOT / "tests" / "servers" / "solver.py"


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    served = RawServer("-m", "objmcp", "run", f"{SOLVER}:Solver")
    served.initialize()
    yield served
    served.close()


def value(result: dict[str, Any]) -> object:
    assert not result.get("isError"), result
    if "structuredContent" in result:
        return result["structuredContent"]["result"]
    return json.loads(result["content"][0]["text"])


def test_a_variable_named_twice_is_one_variable_of_the_served_object(server: RawServer) -> None:
    schema = server.tools()["suggest"]["inputSchema"]["properties"]["variable"]
    assert {"type": "string"} in schema["anyOf"]
    assert value(server.call_tool(1, "add_edit", variable="xm", strength={"weight": 2.5})) == 1
    assert value(server.call_tool(2, "suggest", variable="xm", value=60)) is True
    assert value(server.call_tool(3, "has_edit", variable="xm")) is True
    assert value(server.call_tool(4, "has_edit", variable="ym")) is False
    assert value(server.call_tool(5, "weight", variable="xm")) == 2.5
    assert value(server.call_tool(6, "same", first="xm", second="xm")) is True
    assert value(server.call_tool(7, "same", first="xm", second="ym")) is False


def test_a_refused_construction_is_an_error_naming_the_class(server: RawServer) -> None:
    result = server.call_tool(10, "add_edit", variable="zz", strength={"weight": -1})
    assert result["isError"] is True
    assert "Strength refused it" in result["content"][0]["text"]
    assert "weight is not negative" in result["content"][0]["text"]
    assert value(server.call_tool(11, "has_edit", variable="zz")) is False  # the server goes on


def test_docstring_classes_are_built_and_a_factory_makes_what_refuses_its_constructor(
    server: RawServer,
) -> None:
    tools = server.tools()
    newer = tools["newer"]["inputSchema"]["properties"]
    assert {"type": "string"} in newer["version"]["anyOf"]
    assert value(server.call_tool(20, "newer", version="1.10", than="1.9")) is True
    assert value(server.call_tool(21, "newer", version={"text": "1.2"}, than="1.3")) is False
    assert tools["is_in"]["inputSchema"]["properties"]["value_set"]["type"] == "array"
    assert value(server.call_tool(22, "is_in", value="a", value_set=["a", "c"])) is True


def test_a_class_is_chosen_by_name(server: RawServer) -> None:
    encoder = server.tools()["encode"]["inputSchema"]["properties"]["encoder"]
    assert encoder["enum"] == ["Encoder", "HexEncoder", "Base64Encoder"]
    assert encoder["default"] == "HexEncoder"
    assert value(server.call_tool(30, "encode", text="hi")) == "HexEncoder: 6869"
    assert value(server.call_tool(31, "encode", text="hi", encoder="Base64Encoder")) == (
        "Base64Encoder: aGk="
    )


def test_what_nothing_builds_is_left_out_and_said_once() -> None:
    served = RawServer("-m", "objmcp", "run", f"{SOLVER}:Solver")
    try:
        served.initialize()
        total = served.tools()["total"]["inputSchema"]
        assert list(total["properties"]) == ["values"]
        assert value(served.call_tool(40, "total", values=[1.5, 2])) == 3.5
    finally:
        _, stderr, _ = served.close()
    said = [line for line in stderr.decode().splitlines() if "Pool are left out" in line]
    assert len(said) == 1, said  # two parameters of class Pool: one warning


def test_a_modules_functions_build_afresh() -> None:
    served = RawServer("-m", "objmcp", "run", str(SOLVER), "--include", "same")
    try:
        served.initialize()
        assert value(served.call_tool(1, "same", first="xm", second="xm")) is False
    finally:
        served.close()
