"""A parameter nothing else types is typed by its description's leading phrase: an article
and a noun of the closed table ``describedtypes.NOUNS`` (``A byte string to be armored``,
``An integer``, ``A list of strings``), named as the docstring's type. A description that
does not start so, or offers another kind after its noun, types nothing; a default of
another kind wins. Served through a real process: ``serving/test_stated_types.py``."""

from __future__ import annotations

import inspect
import re
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from objmcp.model.calling.tool import make_tool
from objmcp.model.describe.describedtypes import NOUNS, described_type

EMPTY: Any = inspect.Parameter.empty

articles = st.sampled_from(["a", "an", "A", "An", "AN"])
nouns = st.sampled_from(sorted(NOUNS))
tails = st.sampled_from(["", ".", ",", ":", " to be armored", " that names it", " of the data"])
words = st.from_regex(r"[A-Za-z][a-z]{0,9}", fullmatch=True)


def cased(noun: str, upper: bool) -> str:
    return noun.upper() if upper else noun


@given(articles, nouns, tails, st.booleans())
def test_a_phrase_of_the_table_types_to_its_kind(
    article: str, noun: str, tail: str, upper: bool
) -> None:
    kind = NOUNS[noun]
    if tail == " of the data" and kind in (list, tuple):
        tail = ""  # items are read after a container: see the next test
    assert described_type(f"{article} {cased(noun, upper)}{tail}") is kind
    assert described_type(f"  {article}  ``{noun}``{tail} or None") is kind


@given(st.sampled_from(["list", "tuple"]), nouns, st.sampled_from(["s", ""]), tails)
def test_a_container_of_a_noun_of_the_table_holds_its_kind(
    container: str, item: str, plural: str, tail: str
) -> None:
    assume(not (plural and item.endswith("s")))
    typed = described_type(f"A {container} of {item}{plural}{tail}")
    expected = NOUNS[item]
    assert typed == (list[expected] if container == "list" else tuple[expected, ...])


@given(articles, nouns, nouns, st.sampled_from(["or", ", or", "and/or"]))
def test_another_kind_after_the_noun_types_nothing(
    article: str, noun: str, other: str, joined: str
) -> None:
    assume(other.lower() != "none")
    assert described_type(f"{article} {noun} {joined} {other}".replace(" ,", ",")) is EMPTY


@given(words, st.text(max_size=30))
def test_a_description_that_does_not_start_with_one_types_nothing(first: str, rest: str) -> None:
    text = f"{first} {rest}"
    starts = re.match(r"(?i)an?\s+(\S+(?:\s+\S+){0,2})", text)
    phrase = starts[1].lower() if starts else ""
    assume(not any(re.match(rf"{re.escape(noun)}(?![\w-])", phrase) for noun in NOUNS))
    assert described_type(text) is EMPTY


@given(articles, nouns, st.from_regex(r"[a-z0-9_-][a-z]{0,5}", fullmatch=True))
def test_a_longer_word_is_not_the_noun(article: str, noun: str, more: str) -> None:
    word = noun + more
    assume(not any(re.match(rf"{re.escape(n)}(?![\w-])", word) for n in NOUNS))
    assert described_type(f"{article} {word} to use") is EMPTY


def tool_parameter(docstring: str, default: str = "") -> tuple[dict[str, Any], str | None]:
    namespace: dict[str, Any] = {}
    doc = f'"""Do it.\n\n    :param value:\n        {docstring}\n    """'
    source = f"def f(value{default}):\n    {doc}"
    exec(source, namespace)
    tool = make_tool("f", namespace["f"])
    (parameter,) = tool.parameters
    return tool.input_schema["properties"]["value"], parameter.type_from


@given(articles, st.sampled_from(["integer", "boolean", "string", "float", "dict"]))
def test_a_tool_names_the_docstring_as_the_source(article: str, noun: str) -> None:
    schema, source = tool_parameter(f"{article} {noun} to use")
    json_type = {"integer": "integer", "boolean": "boolean", "string": "string"}
    assert source == "docstring"
    assert schema["type"] == json_type.get(noun, {"float": "number", "dict": "object"}.get(noun))
    schema, source = tool_parameter("The value to use")
    assert source is None and "type" not in schema


def test_a_default_of_another_kind_wins() -> None:
    schema, source = tool_parameter("An integer count", "='many'")
    assert (schema["type"], source) == ("string", "default")
    assert tool_parameter("An integer count", "=True")[0]["type"] == "boolean"
    schema, source = tool_parameter("A float ratio", "=1.5")
    assert (schema["type"], source) == ("number", "docstring")
