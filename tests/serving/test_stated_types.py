"""Types a library states that objmcp once did not read, served: ``objmcp run`` of
``servers/buffers.py`` in a real process over raw pipes. A bytes-like hint (``ByteString``,
``Buffer``, typeshed's ``SizedBuffer`` and ``WriteableBuffer`` in a stub) takes what a
``bytes`` parameter takes, and the value arrives as bytes (a ``bytearray`` for a buffer the
library writes into, a ``memoryview`` for one); a parameter its description's leading phrase
types (``A byte string to be armored``) is typed by it; a C function whose stub names its
parameter otherwise than the C code (``sys.getsizeof``'s ``obj``) is called with it by
position. The rules, with property tests: ``model/test_bytes_like_hints.py`` and
``model/test_described_types.py``."""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ROOT, RawServer

BUFFERS = str(ROOT / "tests" / "servers" / "buffers.py")


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    served = RawServer("-m", "objmcp", "run", BUFFERS)
    served.initialize()
    yield served
    served.close()


def said(server: RawServer, request_id: int, tool: str, **arguments: Any) -> Any:
    """What a call that succeeded returns, read back from its text."""
    result = server.call_tool(request_id, tool, **arguments)
    assert result["isError"] is False, result
    text = result["content"][0]["text"]
    return json.loads(text) if text.startswith("[") else text


def takes_bytes(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` is a bytes parameter's: a text, or ``{"base64": ...}``."""
    options = schema.get("anyOf", [])
    return {"type": "string"} in options and any(
        "base64" in option.get("properties", {}) for option in options
    )


def test_bytes_like_hints_take_what_bytes_take(server: RawServer) -> None:
    tools = server.tools()
    for tool, name in [("tag", "data"), ("view", "data"), ("view", "extra"), ("either", "data")]:
        assert takes_bytes(tools[tool]["inputSchema"]["properties"][name]), (tool, name)
    for tool, name in [("digest", "data"), ("measure", "data"), ("fill", "buffer")]:
        assert takes_bytes(tools[tool]["inputSchema"]["properties"][name]), (tool, name)
    raw = base64.b64encode(b"\x00\xff").decode("ascii")
    assert said(server, 1, "tag", data="hi") == "bytes 6869"
    assert said(server, 2, "view", data="hi", extra={"base64": raw}) == [
        "bytes 6869",
        "memoryview 00ff",
    ]
    assert said(server, 3, "either", data="hi") == "str hi"
    assert said(server, 4, "either", data={"base64": raw}) == "bytes 00ff"
    assert said(server, 5, "digest", data="hé") == "bytes " + "hé".encode().hex()
    assert said(server, 6, "measure", data={"base64": raw}) == "bytes 00ff"
    assert said(server, 7, "fill", buffer="hi") == "bytearray 6869"


def test_a_description_s_leading_phrase_types_the_parameter(server: RawServer) -> None:
    properties = server.tools()["armor"]["inputSchema"]["properties"]
    assert properties["type_name"]["type"] == "string"
    assert takes_bytes(properties["der_bytes"])
    headers = [o for o in properties["headers"]["anyOf"] if o.get("type") == "object"]
    assert headers, properties["headers"]
    lines = [o for o in properties["lines"]["anyOf"] if o.get("type") == "array"]
    assert lines and takes_bytes(lines[0]["items"]), properties["lines"]
    assert "type" not in properties["width"] and "anyOf" not in properties["width"]
    answer = said(
        server, 8, "armor", type_name="KEY", der_bytes="hi", headers={"a": "b"}, lines=["x"]
    )
    assert answer == ["str", "bytes 6869", "a=b", "bytes 78", "None"]


def test_a_c_function_s_required_parameters_go_by_position(server: RawServer) -> None:
    properties = server.tools()["size_of"]["inputSchema"]["properties"]
    assert "obj" in properties  # typeshed's name, not the C code's ``object``
    assert said(server, 9, "size_of", obj=12345) == str(sys.getsizeof(12345))
    assert said(server, 10, "size_of", obj="x", default=0) == str(sys.getsizeof("x", 0))
