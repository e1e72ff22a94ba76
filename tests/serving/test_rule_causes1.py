"""Issue 37's causes already seen, served: ``objmcp run`` of ``servers/kinds.py`` in a real
process over raw pipes, one process for the module. Subclasses of standard kinds arrive as
instances of the subclass (a value the subclass refuses is an error that says so, and the
server goes on); a union of a date and a time kind takes a date-time; a result declared
``bytes`` comes as structured content in the form a bytes argument takes: its text when
it is UTF-8, else ``{"base64": ...}``. The rules themselves, with property
tests: ``model/test_standard_subclasses.py``."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ROOT, RawServer

KINDS = f"{ROOT / 'tests' / 'servers' / 'kinds.py'}:Kinds"


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    served = RawServer("-m", "objmcp", "run", KINDS)
    served.initialize()
    yield served
    served.close()


def answer(server: RawServer, request_id: int, tool: str, **arguments: Any) -> dict[str, Any]:
    """The result of calling ``tool`` (a call's answer, never another message)."""
    return server.call_tool(request_id, tool, **arguments)


def listed(server: RawServer) -> dict[str, Any]:
    return server.tools()


def test_subclasses_of_standard_kinds_are_typed_and_arrive_as_themselves(
    server: RawServer,
) -> None:
    properties = listed(server)["classes"]["inputSchema"]["properties"]
    assert properties["stamp"]["format"] == "date-time"
    assert properties["day"]["format"] == "date"
    assert properties["key"]["format"] == "uuid"
    assert properties["count"]["type"] == "integer"
    assert properties["name"]["type"] == "string"
    key = "12345678-1234-5678-1234-567812345678"
    arguments = {
        "stamp": "2026-12-06T01:02:03Z",
        "day": "2026-12-06",
        "amount": "1.10",
        "ratio": "3/4",
        "key": key,
        "name": "Ada",
        "count": 3,
    }
    result = answer(server, 1, "classes", **arguments)
    assert result["isError"] is False, result
    assert result["structuredContent"] == {
        "stamp": "Stamp 2026-12-06 01:02:03+00:00",
        "day": "Day 2026-12-06",
        "amount": "Amount 1.10",
        "ratio": "Ratio 3/4",
        "key": f"Key {key}",
        "name": "Name Ada",
        "count": "Count 3",
    }
    refused = answer(server, 2, "connect", port=70000)
    assert refused["isError"] is True
    assert "Port refused it: 70000 is no port number" in refused["content"][0]["text"]
    assert answer(server, 3, "connect", port=8080)["content"][0]["text"] == "Port 8080"
    wrong = answer(server, 4, "classes", **{**arguments, "stamp": "tomorrow"})
    assert wrong["isError"] is True and "date-time" in wrong["content"][0]["text"]
    assert answer(server, 5, "ping")["content"][0]["text"] == "pong"


def test_a_union_of_a_date_and_a_time_kind_takes_a_date_time(server: RawServer) -> None:
    schema = listed(server)["instant"]["inputSchema"]["properties"]["moment"]
    formats = {option.get("format") for option in schema["anyOf"]}
    assert {"date-time", "date", "time"} <= formats
    texts = {
        "2026-12-06T01:02:03+01:00": "datetime 2026-12-06 01:02:03+01:00",
        "2026-12-06": "date 2026-12-06",
        "01:02:03": "time 01:02:03",
        1.5: "float 1.5",
        None: "NoneType None",
    }
    for number, (moment, said) in enumerate(texts.items(), start=10):
        result = answer(server, number, "instant", moment=moment)
        assert result["isError"] is False and result["content"][0]["text"] == said, result


def held(sent: object) -> bytes:
    """The bytes a result's bytes form holds: a text's UTF-8, or ``{"base64": ...}``'s."""
    if isinstance(sent, str):
        return sent.encode()
    assert isinstance(sent, dict) and list(sent) == ["base64"], sent
    return base64.b64decode(sent["base64"], validate=True)


def test_a_result_declared_bytes_comes_in_its_argument_form_in_structured_content(
    server: RawServer,
) -> None:
    for number, (tool, digits) in enumerate(
        [("raw", "ff00"), ("raw", "6869"), ("raw_or_none", "00ff"), ("raw_or_none", None)],
        start=20,
    ):
        result = answer(server, number, tool, hex_digits=digits)
        assert result["isError"] is False, result
        sent = result["structuredContent"]["result"]
        want = None if digits is None else bytes.fromhex(digits)
        assert (None if sent is None else held(sent)) == want
        assert not isinstance(sent, str) or digits == "6869"  # only "hi" is text
    named = {"a": "ff", "b": "6869"}
    result = answer(server, 30, "raws", named=named)
    assert result["structuredContent"] == {"a": {"base64": "/w=="}, "b": "hi"}
    assert {k: held(v) for k, v in result["structuredContent"].items()} == {
        name: bytes.fromhex(digits) for name, digits in named.items()
    }


def test_a_bytes_parameter_takes_a_string_as_its_text_and_other_bytes_as_base64(
    server: RawServer,
) -> None:
    schema = listed(server)["spell"]["inputSchema"]["properties"]
    kinds = [option["type"] for option in schema["data"]["anyOf"]]
    assert kinds == ["string", "object"]
    assert schema["data"]["anyOf"][1]["required"] == ["base64"]
    assert [option["type"] for option in schema["either"]["anyOf"]] == ["string", "object"]
    calls = [
        ({"data": "correct horse"}, {"data": b"correct horse".hex()}),
        ({"data": "salt"}, {"data": b"salt".hex()}),  # valid base64, yet text
        ({"data": "héllo ✓"}, {"data": "héllo ✓".encode().hex()}),
        ({"data": {"base64": "/wA="}}, {"data": "ff00"}),
        (
            {"data": "", "pieces": ["aGk=", {"base64": "aGk="}]},
            {"pieces": [b"aGk=".hex(), b"hi".hex()]},
        ),
        ({"data": "", "either": "aGk="}, {"either": "str 'aGk='"}),
        ({"data": "", "either": {"base64": "aGk="}}, {"either": "bytes b'hi'"}),
    ]
    for number, (arguments, said) in enumerate(calls, start=40):
        result = answer(server, number, "spell", **arguments)
        assert result["isError"] is False, result
        assert {key: result["structuredContent"][key] for key in said} == said
    for number, wrong in enumerate([{"base64": "not base64!"}, 5], start=60):
        refused = answer(server, number, "spell", data=wrong)
        assert refused["isError"] is True
        assert "Invalid argument 'data'" in refused["content"][0]["text"], refused
    assert answer(server, 70, "ping")["content"][0]["text"] == "pong"
