"""Standard kinds a model sends as text, served: ``objmcp run`` of ``servers/spoken.py`` in a
real process over raw pipes. A ``timedelta`` takes ISO 8601 duration text, seconds or its
fields; a ``tzinfo`` an IANA name, ``"UTC"`` or an offset (a ``ZoneInfo`` a name, a
``timezone`` an offset); an ``ast`` node its source text; an XML element answers with its
XML, a syntax tree with its source, a zone with its name. The rules themselves, with property
tests: ``model/test_spoken_kinds.py``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ROOT, RawServer

SPOKEN = f"{ROOT / 'tests' / 'servers' / 'spoken.py'}:Spoken"


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    served = RawServer("-m", "objmcp", "run", SPOKEN)
    served.initialize()
    yield served
    served.close()


def text(server: RawServer, request_id: int, tool: str, **arguments: Any) -> str:
    """The text of a call's answer, which must be no error."""
    result = server.call_tool(request_id, tool, **arguments)
    assert result["isError"] is False, result
    answer: str = result["content"][0]["text"]
    return answer


def refusal(server: RawServer, request_id: int, tool: str, **arguments: Any) -> str:
    """The text of a call's error."""
    result = server.call_tool(request_id, tool, **arguments)
    assert result["isError"] is True, result
    said: str = result["content"][0]["text"]
    return said


def test_a_duration_is_iso_8601_text_seconds_or_its_fields(server: RawServer) -> None:
    schema = server.tools()["seconds"]["inputSchema"]["properties"]["delta"]
    forms = {option.get("format", option["type"]) for option in schema["anyOf"]}
    assert forms == {"duration", "number", "object"}
    assert text(server, 1, "seconds", delta="PT4H3M2.001S") == "14582.001"
    assert text(server, 2, "seconds", delta="-P1W") == "-604800.0"
    assert text(server, 3, "seconds", delta=90) == "90.0"
    assert text(server, 4, "seconds", delta={"hours": 1, "minutes": 1}) == "3660.0"
    assert text(server, 5, "doubled", delta="P1DT0.5S") == "2 days, 0:00:01"
    doubled = server.tools()["doubled"]["inputSchema"]["properties"]["delta"]
    assert doubled["default"] == "PT1H30M"
    assert text(server, 6, "doubled") == "3:00:00"
    said = refusal(server, 7, "seconds", delta="P1Y2M")
    assert "years and months have no fixed length" in said


def test_a_time_zone_is_a_name_utc_or_an_offset(server: RawServer) -> None:
    assert text(server, 11, "local_noon", zone="Europe/Paris") == (
        "2026-07-01T12:00:00+02:00 ZoneInfo"
    )
    assert text(server, 12, "local_noon", zone="UTC") == "2026-07-01T12:00:00+00:00 timezone"
    assert text(server, 13, "local_noon", zone="-03:30") == "2026-07-01T12:00:00-03:30 timezone"
    assert text(server, 14, "named_zone", zone="America/New_York") == "America/New_York"
    assert text(server, 15, "fixed_zone", zone="+05:45") == "UTC+05:45"
    assert text(server, 16, "fixed_zone", zone="UTC+05:45") == "UTC+05:45"
    assert "named zone" in refusal(server, 17, "named_zone", zone="+01:00")
    assert "no time zone is named 'Mars/Olympus'" in refusal(
        server, 18, "local_noon", zone="Mars/Olympus"
    )


def test_an_xml_element_answers_with_its_xml(server: RawServer) -> None:
    document = "<root><item id='1'>apple</item><item id='2'>pear</item></root>"
    answer = text(server, 21, "parsed", text=document)
    assert answer == '<root><item id="1">apple</item><item id="2">pear</item></root>'
    atom = '<feed xmlns="http://www.w3.org/2005/Atom"><title>News</title></feed>'
    assert "0x" not in text(server, 22, "parsed", text=atom)
    own = text(server, 23, "listing", items=["a", "b & c"])
    assert own == '<list kind="plain"><item>a</item><item>b &amp; c</item></list>'


def test_a_syntax_tree_is_its_source_text_both_ways(server: RawServer) -> None:
    properties = server.tools()["names"]["inputSchema"]["properties"]
    assert properties["node"]["type"] == "string"
    assert text(server, 31, "names", node="d[x] + f(y)") == '["d","f","x","y"]'
    assert text(server, 32, "statement", node="x = 1") == "Assign"
    assert text(server, 33, "swapped", node="a - b * c") == "c * b - a"
    assert text(server, 34, "module", tree="import os\nx = 1\n") == "2"
    assert "not Python source of an expression" in refusal(server, 35, "names", node="d[")
    assert "expected one statement, got 2" in refusal(server, 36, "statement", node="x=1\ny=2")
