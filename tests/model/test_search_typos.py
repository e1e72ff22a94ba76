"""The search's text rules of issue 39: a query word one typo from the index's words finds
them, and operators written alone are words of their own; property-tested with hypothesis
against plain reference definitions."""

from __future__ import annotations

import math
import operator

from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.model.discovery.search import SearchIndex
from objmcp.model.discovery.words import edits, operators, terms, within_one

QUICK = settings(max_examples=300, deadline=None)
letters = st.text(alphabet="abcdefg", min_size=0, max_size=7)


def typo_distance(left: str, right: str) -> int:
    """The optimal string alignment distance: insertions, deletions, substitutions and
    swaps of neighbours, each one (the textbook dynamic programme)."""
    rows = [[0] * (len(right) + 1) for _ in range(len(left) + 1)]
    for i in range(len(left) + 1):
        rows[i][0] = i
    for j in range(len(right) + 1):
        rows[0][j] = j
    for i in range(1, len(left) + 1):
        for j in range(1, len(right) + 1):
            cost = left[i - 1] != right[j - 1]
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            swap = i > 1 and j > 1 and left[i - 1] == right[j - 2] and left[i - 2] == right[j - 1]
            if swap:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[len(left)][len(right)]


@QUICK
@given(letters, letters)
def test_within_one_is_a_typo_distance_of_at_most_one(left: str, right: str) -> None:
    assert within_one(left, right) == (typo_distance(left, right) <= 1)


@QUICK
@given(letters, st.data())
def test_words_one_typo_apart_share_an_edit(word: str, data: st.DataObject) -> None:
    """What the index looks up: every word one typo from ``word`` meets it in
    :func:`edits`, whichever typo it is."""
    kind = data.draw(st.sampled_from(["drop", "add", "change", "swap"]))
    at = data.draw(st.integers(0, len(word)))
    letter = data.draw(st.sampled_from("abcdefgh"))
    if kind == "drop" and word:
        typo = word[: min(at, len(word) - 1)] + word[min(at, len(word) - 1) + 1 :]
    elif kind == "swap" and len(word) >= 2:
        i = min(at, len(word) - 2)
        typo = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    elif kind == "change" and word:
        i = min(at, len(word) - 1)
        typo = word[:i] + letter + word[i + 1 :]
    else:
        typo = word[:at] + letter + word[at:]
    assert within_one(word, typo)
    assert edits(word) & edits(typo) or kind == "swap"  # a swap meets through a change
    if kind != "swap":
        assert edits(word) & edits(typo)


@QUICK
@given(
    st.sampled_from(
        [
            "+",
            "-",
            "*",
            "/",
            "//",
            "%",
            "**",
            "&",
            "|",
            "^",
            "~",
            "<<",
            ">>",
            "<",
            "<=",
            ">",
            ">=",
            "==",
            "!=",
            "@",
            "+=",
            "/=",
            "|=",
            "**=",
        ]
    ),
    st.text(alphabet="abcxyz ", max_size=10),
)
def test_an_operator_written_alone_is_a_term(symbol: str, words: str) -> None:
    found = operators(f"{words} a {symbol} b {words}")
    assert found == [f"op:{symbol}"]
    assert f"op:{symbol}" in terms(f"Same as a {symbol} b.")


@QUICK
@given(st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=6), min_size=2, max_size=4))
def test_an_operator_inside_a_word_or_number_is_none(words: list[str]) -> None:
    for joiner in "-/+*&|":
        assert operators(joiner.join(words)) == []
    assert operators("in-place sort of -3.7 at /tmp/x") == []


def test_a_request_with_typos_finds_its_tool() -> None:
    index = SearchIndex(objmcp.Toolbox(math).values())
    assert index.search("factorail of a number", 3)[0] == "factorial"
    assert "gcd" in index.search("gretaest common divisor", 5)
    assert index.search("xq", 5) == []  # a short word is too many typos from too many


def test_an_operator_finds_the_function_that_is_it() -> None:
    index = SearchIndex(objmcp.Toolbox(operator).values())
    assert index.search("a function that does a /= b", 1) == ["itruediv"]
    assert index.search("the & of two numbers", 3)[0] in {"and_", "iand"}
    assert index.search("a ** b as a function", 2)[0] in {"pow", "ipow"}


def test_a_ufunc_is_described_by_its_summary_not_its_signature() -> None:
    """numpy's ufuncs open their docstring with their call (``add(x1, x2, /, out=None,
    ...)``), though they have a signature of their own: the description, the search's
    summary and what ``search_tools`` shows, starts at the summary."""
    import numpy

    tools = objmcp.Toolbox(numpy, include=["add", "sqrt", "einsum"])
    assert tools["add"].description.startswith("Add arguments element-wise.")
    assert tools["sqrt"].description.startswith("Return the non-negative square-root")
    assert tools["einsum"].description.startswith("Evaluates the Einstein summation")
