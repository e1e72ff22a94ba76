"""The keys of a call's questions (``RunningCall.claim``), property-tested against a model:
a name is taken once, an empty one never, and a question not named gets ``q<N>``, N its
place among the call's questions (the next free one when a name took it)."""

from __future__ import annotations

from typing import Any, cast

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from objmcp.serving.running import RunningCall


async def running_call() -> RunningCall:
    """A call's record (its cancel scopes are made on an event loop)."""
    return RunningCall(1, "tool", cast(Any, None))


names = st.none() | st.sampled_from(["", "q0", "q1", "q2", "name", "user_name"]) | st.text()


@given(st.lists(st.lists(names, min_size=1, max_size=3), max_size=6))
def test_each_question_of_a_call_gets_a_key_of_its_own(rounds: list[list[str | None]]) -> None:
    call = anyio.run(running_call)
    used: list[str] = []
    for asked in rounds:
        expected: list[str] = []
        problem = None
        for given_key in asked:
            if given_key is None:
                number = len(used) + len(expected)
                while f"q{number}" in used or f"q{number}" in expected:
                    number += 1
                expected.append(f"q{number}")
            elif given_key == "" or given_key in used or given_key in expected:
                problem = "cannot be empty" if given_key == "" else "is taken"
                break
            else:
                expected.append(given_key)
        if problem is not None:
            with pytest.raises(ValueError, match=problem):
                call.claim(asked)
            assert call.keys == set(used)  # a round refused takes no key
            continue
        assert call.claim(asked) == expected
        used.extend(expected)
        assert call.keys == set(used) and len(used) == len(set(used))


def test_a_key_that_is_no_string_is_a_type_error() -> None:
    call = anyio.run(running_call)
    with pytest.raises(TypeError, match="is a string"):
        call.claim([cast(Any, 5)])
