"""Counting a JSON text's values before it is parsed (:mod:`objmcp.model.values.jsoncount`): what
``max_values`` holds request bodies and arguments sent as JSON text to. Property-based:
the count from the text is the count of the value it parses into, however its strings
are written and its blanks laid out."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp.model.values.jsoncount import count_values, small, values_over
from objmcp.model.values.validate import Validator

TRICKY = st.text(alphabet=st.sampled_from('ab,[]{}:"\\ \n\u00e9\u2028'), max_size=8)
"""Strings full of what a counter must not take for structure."""
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | TRICKY,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(TRICKY, inner, max_size=5),
    max_leaves=40,
)
LAYOUTS = st.sampled_from(
    [
        {},
        {"separators": (",", ":")},
        {"indent": 2},
        {"ensure_ascii": False},
        {"indent": "\t", "ensure_ascii": False},
    ]
)


def values_in(value: Any) -> int:
    """The values a parsed JSON value holds: itself, its items and members, however deep."""
    if isinstance(value, list):
        return 1 + sum(values_in(item) for item in value)
    if isinstance(value, dict):
        return 1 + sum(values_in(item) for item in value.values())
    return 1


@settings(max_examples=150, deadline=None)
@given(JSON, LAYOUTS, st.integers(min_value=1, max_value=60))
def test_the_text_counts_what_it_parses_into(value: Any, layout: Any, limit: int) -> None:
    text = json.dumps(value, **layout)
    expected = values_in(json.loads(text))
    assert count_values(text) == expected
    assert count_values(text.encode()) == expected
    assert values_over(text, limit) == (expected if expected > limit else None)
    assert values_over(text.encode(), limit) == (expected if expected > limit else None)


@settings(max_examples=80, deadline=None)
@given(st.lists(JSON, max_size=6), st.integers(min_value=1, max_value=30))
def test_a_json_text_argument_is_read_exactly_when_it_holds_at_most_max_values(
    items: list[Any], limit: int
) -> None:
    validator = Validator({"type": "object", "properties": {"items": {"type": "array"}}})
    text = json.dumps(items)
    try:
        read = validator.check({"items": text}, max_values=limit)
    except ValueError as error:  # ArgumentError
        assert values_in(items) > limit
        assert f"over the server's max_values of {limit:,}" in str(error)
    else:
        assert values_in(items) <= limit
        assert read == {"items": json.loads(text)}


def weight(value: Any) -> int:
    """What :func:`small` weighs: every value below the top, a string's 256-character
    runs too."""
    if isinstance(value, str):
        return len(value) >> 8
    if isinstance(value, list):
        return len(value) + sum(weight(item) for item in value)
    if isinstance(value, dict):
        return len(value) + sum(weight(item) for item in value.values())
    return 0


@settings(max_examples=100, deadline=None)
@given(
    JSON | st.lists(st.text(min_size=200, max_size=600), max_size=4),
    st.integers(min_value=0, max_value=40),
)
def test_small_says_whether_the_weight_is_within_the_budget(value: Any, budget: int) -> None:
    assert small(value, budget) == (weight(value) <= budget)
