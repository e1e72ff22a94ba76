"""How a refused argument says what was expected (``objmcp.model.values.validate``): each
kind a union takes once, however its schema repeats it (``statistics.median``'s items are
``number``, ``number | string`` and ``number | string`` again: "number or string")."""

from __future__ import annotations

import statistics

from hypothesis import given
from hypothesis import strategies as st

from objmcp import Toolbox
from objmcp.model.values.validate import _expected

PLAIN = ["string", "integer", "number", "boolean", "null"]


@given(st.lists(st.lists(st.sampled_from(PLAIN), min_size=1, max_size=3), min_size=1, max_size=4))
def test_a_union_says_each_kind_it_takes_once(options: list[list[str]]) -> None:
    schema = {
        "anyOf": [{"type": kinds} if len(kinds) > 1 else {"type": kinds[0]} for kinds in options]
    }
    said = _expected(schema).split(" or ")
    assert len(said) == len(set(said))
    assert set(said) == {kind for kinds in options for kind in kinds}
    # the same inside an array
    assert _expected({"type": "array", "items": schema}) == "array of " + " or ".join(said)


def test_a_refused_median_says_number_or_string_once() -> None:
    refused = Toolbox(statistics).call("median", {"data": "three"})
    assert refused.is_error
    assert refused.text.endswith('expected array of number or string, got string "three"')
