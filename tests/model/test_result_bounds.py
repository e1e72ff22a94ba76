"""A result's bounds (issue 22), in the object model: the iterators and generators a call
returns give at most ``max_items`` items all together, and the result says it was cut
exactly when some iterator went on; a result text over ``max_result`` characters is an
error result. Property tests over ``Toolbox`` calls, sync and async."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp


def cut(result: objmcp.ToolResult) -> bool:
    """Whether the result says it was cut (its last block a note after the JSON)."""
    return result.content is not None and "cut at" in result.content[-1]["text"]


def items_of(result: objmcp.ToolResult) -> object:
    assert not result.is_error, result.text
    text = result.content[0]["text"] if result.content is not None else result.text
    assert json.loads(text) == result.value
    return result.value


class Source:
    """Tools that give back ``n`` items in the ways a method can."""

    def generator(self, n: int) -> Iterator[int]:
        return (number for number in range(n))

    def iterator(self, n: int) -> Iterator[int]:
        return iter(list(range(n)))

    def listed(self, n: int) -> list[int]:
        return list(range(n))

    def nested(self, sizes: list[int]) -> dict[str, list[Iterator[int]]]:
        return {"parts": [iter(range(size)) for size in sizes]}

    async def agen(self, n: int) -> AsyncIterator[int]:
        for number in range(n):
            yield number

    async def returned(self, n: int) -> Iterator[int]:
        return iter(range(n))


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 60),
    k=st.integers(1, 60),
    tool=st.sampled_from(["generator", "iterator", "agen", "returned"]),
)
def test_an_iterator_of_n_items_gives_min_n_k_and_says_cut_iff_n_over_k(
    n: int, k: int, tool: str
) -> None:
    result = objmcp.Toolbox(Source(), max_items=k).call(tool, {"n": n})
    assert items_of(result) == list(range(min(n, k)))
    assert cut(result) is (n > k)
    if n > k:
        assert f"cut at {k} items" in result.text and "max_items" in result.text


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(0, 20), max_size=5), k=st.integers(1, 50))
def test_nested_iterators_share_one_bound(sizes: list[int], k: int) -> None:
    result = objmcp.Toolbox(Source(), max_items=k).call("nested", {"sizes": sizes})
    parts = items_of(result)["parts"]  # type: ignore[index]
    left, expected = k, []
    for size in sizes:  # in order, each as much as is left of the bound
        expected.append(list(range(min(size, left))))
        left -= min(size, left)
    assert parts == expected
    assert cut(result) is (sum(sizes) > k)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(0, 60), k=st.integers(1, 30))
def test_a_list_is_no_iterator_and_is_never_cut(n: int, k: int) -> None:
    result = objmcp.Toolbox(Source(), max_items=k).call("listed", {"n": n})
    assert result.value == list(range(n)) and result.content is None


class Sizes:
    def text(self, n: int) -> str:
        return "x" * n

    def data(self, n: int) -> dict[str, str]:
        return {"x": "x" * n}


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 300), bound=st.integers(1, 300))
def test_a_text_over_max_result_is_an_error_naming_both_sizes(n: int, bound: int) -> None:
    toolbox = objmcp.Toolbox(Sizes(), max_result=bound)
    for tool, length in (("text", n), ("data", n + len('{"x":""}'))):
        result = toolbox.call(tool, {"n": n})
        assert result.is_error is (length > bound), (tool, n, bound, result.text)
        if length > bound:
            assert f"{length:,} characters" in result.text, result.text
            assert f"max_result of {bound:,}" in result.text, result.text


@pytest.mark.parametrize("bad", [0, -1, 1.5, "10"])
def test_the_bounds_are_positive_integers(bad: object) -> None:
    with pytest.raises(ValueError, match="max_items"):
        objmcp.Toolbox(Source(), max_items=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_result"):
        objmcp.Toolbox(Source(), max_result=bad)  # type: ignore[arg-type]


def test_the_server_passes_its_bounds_to_its_tools() -> None:
    server = objmcp.Server("s", Source(), limits=objmcp.Limits(max_items=7, max_result=99))
    limits = server.toolbox.limits
    assert (limits.max_items, limits.max_result) == (7, 99)
    default = objmcp.Toolbox(Source()).limits
    assert (default.max_items, default.max_result) == (10_000, 16 * 1024 * 1024)
