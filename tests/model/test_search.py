"""The search of progressive discovery: names split into words, terms stemmed and made one
with their synonyms, and the ranking's invariants, property-tested with hypothesis."""

from __future__ import annotations

import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.model.calling.tool import make_tool
from objmcp.model.discovery.search import SearchIndex, tool_groups
from objmcp.model.discovery.words import acronyms, split_words, stem, term, terms
from objmcp.model.finding.publish import ToolOptions

QUICK = settings(max_examples=40, deadline=None)

lower_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
word_lists = st.lists(lower_words, min_size=1, max_size=4)


def test_names_split_as_code_writes_them() -> None:
    assert split_words("shortest_path") == ["shortest", "path"]
    assert split_words("shortestPath") == ["shortest", "path"]
    assert split_words("getHTTPResponse2") == ["get", "http", "response", "2"]
    assert split_words("numpy.linalg.norm") == ["numpy", "linalg", "norm"]
    assert split_words("Remove a file, now!") == ["remove", "a", "file", "now"]


@QUICK
@given(st.lists(lower_words.filter(lambda word: len(word) > 1), min_size=1, max_size=4))
def test_snake_and_camel_case_split_into_the_same_words(words: list[str]) -> None:
    # (one-letter words run together in camel case are ambiguous: aBC is a, bc)
    snake = "_".join(words)
    camel = words[0] + "".join(word.capitalize() for word in words[1:])
    assert split_words(snake) == words
    assert split_words(camel) == words


@QUICK
@given(st.text(max_size=40))
def test_words_are_lower_case_letters_and_digits(text: str) -> None:
    for word in split_words(text):
        assert word and word == word.lower() and word.isascii() and word.isalnum()


def test_stems_and_synonyms_meet() -> None:
    assert stem("files") == stem("file")
    assert stem("sorted") == stem("sort") == stem("sorting")
    assert stem("density") == stem("dense")
    assert term("average") == term("mean") == term("avg")
    assert term("delete") == term("remove") == term("deleting")
    assert term("folder") == term("directory")
    assert terms("number of nodes") == terms("count nodes")
    assert terms("the median of some numbers") == [term("median"), term("numbers")]
    assert "gcd" in acronyms("greatest common divisor")


def _tool(name: str, description: str = "", parameters: str = "x") -> objmcp.Tool:
    def function(x: int = 0) -> int:
        return x

    return make_tool(name, function, ToolOptions(description=description))


names = st.lists(
    word_lists.map("_".join).filter(lambda name: len(name) <= 64),
    min_size=1,
    max_size=25,
    unique=True,
)


@QUICK
@given(names, st.data())
def test_a_tools_exact_name_finds_it_first(tool_names: list[str], data: st.DataObject) -> None:
    index = SearchIndex(_tool(name, f"Does {name.replace('_', ' ')}.") for name in tool_names)
    wanted = data.draw(st.sampled_from(tool_names))
    assert index.search(wanted, 5)[0] == wanted


@QUICK
@given(names, st.text(max_size=30), st.integers(min_value=-3, max_value=30))
def test_results_are_real_tools_at_most_the_limit_without_repeats(
    tool_names: list[str], query: str, limit: int
) -> None:
    index = SearchIndex(_tool(name, "A tool.") for name in tool_names)
    found = index.search(query, limit)
    assert len(found) <= max(limit, 0)
    assert set(found) <= set(tool_names)
    assert len(found) == len(set(found))


@QUICK
@given(names, st.text(max_size=30))
def test_a_larger_limit_only_adds_to_the_end(tool_names: list[str], query: str) -> None:
    index = SearchIndex(_tool(name, "A tool.") for name in tool_names)
    assert index.search(query, 3) == index.search(query, 10)[:3]


def test_words_in_the_request_find_the_tool_that_says_them() -> None:
    index = SearchIndex(objmcp.Toolbox(statistics).values())
    assert index.search("median of some numbers", 3)[0] == "median"
    assert "mean" in index.search("average of a list", 5)
    assert index.search("standard deviation", 2)[0] in ("stdev", "pstdev")
    assert index.search("a request about nothing here: zebra giraffe", 5) == []


class Geometry:
    """Shapes."""

    def area(self, width: float, height: float) -> float:
        """The area of a rectangle."""
        return width * height


class Words:
    """Text."""

    def count_words(self, text: str) -> int:
        """How many words a text has."""
        return len(text.split())

    def shout(self, text: str) -> str:
        return text.upper()


def test_a_query_naming_a_class_finds_all_of_its_tools() -> None:
    toolbox = objmcp.Toolbox({"geometry": Geometry(), "words": Words()})
    index = SearchIndex(toolbox.values())
    assert index.search("Words", 10) == ["words_count_words", "words_shout"]
    assert "Words" in tool_groups(toolbox["words_shout"])
    assert index.search("number of words", 1) == ["words_count_words"]  # from its docstring
    assert index.search("uppercase", 1) == []  # an undocumented tool: found by its name only
    assert index.search("shout", 1) == ["words_shout"]


def test_untyped_undocumented_code_is_found_by_its_names() -> None:
    def shortestPath(graph, source, target):  # noqa: N802 - as libraries write it
        return [source, target]

    def remove_item(collection, item):
        return collection

    index = SearchIndex(
        make_tool(function.__name__, function) for function in (shortestPath, remove_item)
    )
    assert index.search("shortest route", 1) == ["shortestPath"]
    assert index.search("delete an item", 1) == ["remove_item"]
    assert index.search("graph source", 1) == ["shortestPath"]  # its parameters' names
