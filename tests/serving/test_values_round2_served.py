"""Classes built from JSON and bytes in results, round 2 (issue 37), served: ``objmcp run
altlib.api`` (a package the test writes, ``tests/altlib_source.py``) in a real process
over raw pipes. A class needing two values takes one by its ``from_*`` class methods; a
generic class's parameter (``Resource[Any]``) is built by its alternate; a compiled
class its module re-exports is a maker tool typed by its stub; a standard class whose
stub types ``__new__`` by another class (``timezone(offset: timedelta)``) takes its
arguments (and, a standard kind now, its offset's text); bytes inside a result are text
when UTF-8, else ``{"base64": ...}``, whether or not the return type says bytes (round 4).
The rules, with property tests: ``model/test_alternate_makers.py`` and
``model/test_nested_bytes.py``."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from altlib_source import write_altlib
from conftest import ROOT, RawServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawServer]:
    folder = write_altlib(tmp_path_factory.mktemp("altlib"))
    path = os.pathsep.join([str(ROOT), str(folder), os.environ.get("PYTHONPATH", "")])
    served = RawServer("-m", "objmcp", "run", "altlib.api", env={"PYTHONPATH": path})
    served.initialize()
    yield served
    served.close()


def text(result: dict[str, Any]) -> str:
    assert not result.get("isError"), result
    return str(result["content"][0]["text"])


def test_a_class_needing_two_values_comes_as_one_by_its_from_methods(server: RawServer) -> None:
    schema = server.tools()["describe"]["inputSchema"]["properties"]["document"]
    assert {"type": "string"} in schema["anyOf"]
    assert text(server.call_tool(1, "describe", document="hello")) == "text: hello"
    fields = server.call_tool(2, "describe", document={"a": "1", "b": "2"})
    assert text(fields) == "fields: a=1, b=2"
    named = server.call_tool(3, "describe", document={"body": "x", "kind": "memo"})
    assert text(named) == "memo: x"


def test_a_generic_class_is_built_by_its_alternate(server: RawServer) -> None:
    result = server.call_tool(10, "root_id", resource={"$schema": "draft", "$id": "urn:a"})
    assert text(result) == "draft urn:a"


def test_an_alternate_that_gives_no_instance_is_refused(server: RawServer) -> None:
    result = server.call_tool(20, "odd", value=[1, 2])
    assert result["isError"] is True
    assert "from_list gave a tuple, not a Odd" in result["content"][0]["text"]
    assert text(server.call_tool(21, "odd", value={"a": 1, "b": 2})) == "3"


def test_a_compiled_class_re_exported_is_a_maker_typed_by_its_stub(server: RawServer) -> None:
    tool = server.tools()["Numbers"]
    assert tool["inputSchema"]["properties"] == {
        "e": {"type": "integer"},
        "n": {"type": "integer"},
    }
    assert text(server.call_tool(30, "Numbers", e=3, n=33)) == "Numbers(e=3, n=33)"


def test_a_standard_class_is_built_from_a_class_built_from_json(server: RawServer) -> None:
    zone = server.tools()["shifted"]["inputSchema"]["properties"]["zone"]
    arguments = next(form for form in zone["anyOf"] if form["type"] == "object")
    offset = arguments["properties"]["offset"]["anyOf"]
    assert next(form for form in offset if form["type"] == "object")["title"] == "timedelta"
    result = server.call_tool(
        40, "shifted", when="2024-01-01T12:00:00+00:00", zone={"offset": {"hours": 2}}
    )
    assert text(result) == "2024-01-01T14:00:00+02:00"
    said = server.call_tool(41, "shifted", when="2024-01-01T12:00:00+00:00", zone="+02:00")
    assert text(said) == "2024-01-01T14:00:00+02:00"


def test_bytes_in_a_result_are_text_when_utf8_else_a_base64_object(
    server: RawServer,
) -> None:
    files = json.loads(text(server.call_tool(50, "files")))
    assert files == {"/a.txt": "hello", "/b.bin": {"base64": "//4="}, "/c.txt": "aGk="}
    assert json.loads(text(server.call_tool(51, "ranges"))) == ["he", "world"]
    typed = server.call_tool(52, "typed_files")
    assert typed["structuredContent"] == {"/a.txt": "hello", "/b.bin": {"base64": "//4="}}
    assert json.loads(text(typed)) == typed["structuredContent"]
