"""Bytes in results take the form bytes arguments take (issue 37, round 4), served: a module
the test writes, run by ``objmcp run`` in a real process over raw pipes. Bytes that are
UTF-8 text are that text, others ``{"base64": "..."}``, alone or in containers, in
``structuredContent`` and in the text content alike, and the output schema says so with
the input schema's own form; so whatever bytes a tool answers, a tool taking bytes takes
back unchanged. The rule, with property tests: ``model/test_nested_bytes.py``."""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import ROOT, RawServer

SOURCE = '''
"""Bytes answered and taken back."""


def branches() -> list[bytes]:
    """Branch names, one of them not UTF-8."""
    return [b"feature", b"\\xffmaster", b"aGk="]


def blob() -> bytes:
    """Bytes that are not UTF-8."""
    return b"\\x00\\xff"


def word() -> bytes:
    """Bytes that are UTF-8 text."""
    return b"hello"


def refs() -> dict[bytes, bytes]:
    """Names to bytes."""
    return {b"HEAD": b"\\xff\\x02", b"refs/heads/main": b"abc"}


def untyped():
    return [b"hi", b"\\xfe"]


def hexed(data: bytes) -> str:
    """The bytes taken, in hex."""
    return data.hex()


def hexed_all(items: list[bytes]) -> list[str]:
    """Each of the bytes taken, in hex."""
    return [item.hex() for item in items]


def hexed_keys(table: dict[bytes, bytes]) -> dict[str, str]:
    """The keys and values taken, in hex."""
    return {key.hex(): value.hex() for key, value in table.items()}
'''


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawServer]:
    folder: Path = tmp_path_factory.mktemp("bytesout")
    (folder / "bytesout.py").write_text(textwrap.dedent(SOURCE))
    path = os.pathsep.join([str(ROOT), str(folder), os.environ.get("PYTHONPATH", "")])
    served = RawServer("-m", "objmcp", "run", "bytesout", env={"PYTHONPATH": path})
    served.initialize()
    yield served
    served.close()


def answered(server: RawServer, number: int, tool: str) -> dict[str, Any]:
    """The structured content of calling ``tool``, checked against its output schema and
    against its text content, which holds the same JSON."""
    result = server.call_tool(number, tool)
    assert not result.get("isError"), result
    structured: dict[str, Any] = result["structuredContent"]
    jsonschema.validate(structured, server.tools()[tool]["outputSchema"])
    return structured


def hexes(server: RawServer, number: int, tool: str, **arguments: Any) -> Any:
    """What ``tool`` answers for ``arguments``: its text, read as JSON unless it is a
    hex text."""
    result = server.call_tool(number, tool, **arguments)
    assert not result.get("isError"), result
    text: str = result["content"][0]["text"]
    return text if tool == "hexed" else json.loads(text)


def test_bytes_in_a_list_come_as_text_or_base64_objects_and_go_back(server: RawServer) -> None:
    structured = answered(server, 1, "branches")
    sent = structured["result"]
    assert sent == ["feature", {"base64": "/21hc3Rlcg=="}, "aGk="]
    text = server.call_tool(2, "branches")["content"][0]["text"]
    assert json.loads(text) == sent
    assert hexes(server, 3, "hexed_all", items=sent) == [
        b"feature".hex(),
        b"\xffmaster".hex(),
        b"aGk=".hex(),
    ]


def test_the_output_schema_of_bytes_is_the_input_schemas_form(server: RawServer) -> None:
    tools = server.tools()
    taken = tools["hexed_all"]["inputSchema"]["properties"]["items"]["items"]
    answered_schema = tools["branches"]["outputSchema"]["properties"]["result"]["items"]
    assert answered_schema == taken
    alone = tools["blob"]["outputSchema"]["properties"]["result"]
    assert alone == tools["hexed"]["inputSchema"]["properties"]["data"]


def test_bytes_alone_go_back_from_structured_content_and_from_text(server: RawServer) -> None:
    for number, tool, data in [(10, "blob", b"\x00\xff"), (20, "word", b"hello")]:
        sent = answered(server, number, tool)["result"]
        blocks = server.call_tool(number + 1, tool)["content"]
        shown, note = blocks[0]["text"], blocks[1]["text"]
        assert shown == (sent if isinstance(sent, str) else sent["base64"])
        assert f"{len(data)} bytes" in note
        assert isinstance(sent, str) or '{"base64": "<this text>"}' in note
        assert hexes(server, number + 2, "hexed", data=sent) == data.hex()
    assert answered(server, 30, "blob")["result"] == {"base64": "AP8="}
    assert answered(server, 31, "word")["result"] == "hello"


def test_bytes_keys_and_values_of_a_mapping_go_back(server: RawServer) -> None:
    sent = answered(server, 40, "refs")
    assert sent == {"HEAD": {"base64": "/wI="}, "refs/heads/main": "abc"}
    assert hexes(server, 41, "hexed_keys", table=sent) == {
        b"HEAD".hex(): "ff02",
        b"refs/heads/main".hex(): b"abc".hex(),
    }


def test_a_result_no_schema_describes_holds_bytes_in_the_same_form(server: RawServer) -> None:
    assert "outputSchema" not in server.tools()["untyped"]
    sent = hexes(server, 50, "untyped")
    assert sent == ["hi", {"base64": "/g=="}]
    assert hexes(server, 51, "hexed_all", items=sent) == [b"hi".hex(), "fe"]
