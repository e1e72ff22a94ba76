"""Issue 37's causes in data libraries' words, served: ``objmcp run`` of
``servers/tallies.py`` in a real process over raw pipes, one process for the module.
"Array-like or scalar-like" and "Array" take strings as well as numbers (only words that
say numbers narrow them, and a string there is refused with a clear error, the server
going on); a library's scalar objects that are numbers by Python's protocols come back as
JSON numbers, and a mapping's keys as an array. The rules themselves, with property tests:
``model/test_doc_types.py`` and ``model/test_real_numbers.py``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ROOT, RawServer
from test_rule_causes1 import answer, listed

TALLIES = f"{ROOT / 'tests' / 'servers' / 'tallies.py'}:Tallies"


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    served = RawServer("-m", "objmcp", "run", TALLIES)
    served.initialize()
    yield served
    served.close()


def value(result: dict[str, Any]) -> Any:
    assert result["isError"] is False, result
    return json.loads(result["content"][0]["text"])


def text(result: dict[str, Any]) -> str:
    assert result["isError"] is False, result
    return str(result["content"][0]["text"])


def test_array_like_words_take_arrays_of_strings(server: RawServer) -> None:
    assert value(answer(server, 1, "is_in", values=["a", "b", "c"], value_set=["a", "c"])) == [
        True,
        False,
        True,
    ]
    assert value(answer(server, 2, "is_in", values="b", value_set=[1, "b", None])) == [True]
    assert value(answer(server, 3, "value_counts", array=["a", "b", "a"])) == {"a": 2, "b": 1}
    assert value(answer(server, 7, "distinct", array=["b", "a", "b", 1])) == ["b", "a", 1]


def test_numeric_words_hold_numbers_and_scalars_come_back_as_numbers(server: RawServer) -> None:
    assert value(answer(server, 4, "mean", array=[3, 1, 2])) == {"min": 1, "max": 3, "mean": 2.0}
    refused = answer(server, 5, "mean", array=[3, "one"])
    assert refused["isError"] is True
    assert "array[1]" in refused["content"][0]["text"] and "number" in refused["content"][0]["text"]
    assert value(answer(server, 6, "value_counts", array=[1.5, 1.5])) == {"1.5": 2}


def test_a_sentence_after_a_type_on_its_line_is_the_parameters_text(server: RawServer) -> None:
    schema = listed(server)["repeat"]["inputSchema"]["properties"]
    assert schema["text"] == {"type": "string", "description": "The text to repeat."}
    assert {"type": "integer"} in schema["times"]["anyOf"]
    assert schema["times"]["description"] == "How many times to repeat it\n(default: twice)."
    assert text(answer(server, 8, "repeat", text="ab", times=3)) == "ababab"
    refused = answer(server, 9, "repeat", text="ab", times="three")
    assert refused["isError"] is True and "times" in refused["content"][0]["text"]
    assert text(answer(server, 10, "repeat", text="ab")) == "abab"


def test_a_union_with_a_class_json_cannot_carry_takes_its_other_members(
    server: RawServer,
) -> None:
    schema = listed(server)["bracketed"]["inputSchema"]["properties"]["style"]
    assert schema["type"] == "string"
    assert text(answer(server, 11, "bracketed", text="a", style="<>")) == "<a>"
    refused = answer(server, 12, "bracketed", text="a", style={"brackets": "<>"})
    assert refused["isError"] is True and "style" in refused["content"][0]["text"]
    assert text(answer(server, 13, "bracketed", text="a")) == "[a]"
