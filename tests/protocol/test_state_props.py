"""Property tests of the sealed request state (``objmcp.protocol.state``): what is sealed
opens as it was, answers by key included; any change to the sealed text, any other key,
call or time is refused with a :class:`StateError`, and nothing a client sends makes the
opening fail any other way."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from objmcp.protocol.state import RequestState, StateError, StateSeal, arguments_digest

KEY = b"the property tests' own state key"
SEAL = StateSeal(KEY)
NOW = 1_000_000.0

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=4,
)
keys = st.text(min_size=1, max_size=12)
answers = st.dictionaries(
    keys, st.dictionaries(st.text(max_size=6), json_values, max_size=3), max_size=3
)
states = st.builds(
    lambda tool, arguments, answers, asked, ttl, park, rounds, kept: (
        RequestState(
            tool, arguments_digest(arguments), answers, NOW + ttl, park, asked, rounds, kept
        ),
        arguments,
    ),
    st.text(max_size=10),
    json_values,
    answers,
    st.lists(keys, max_size=4, unique=True).map(tuple),
    st.floats(min_value=0, max_value=1e6),
    st.none() | st.text(max_size=10),
    st.integers(min_value=0, max_value=100),
    st.none() | st.binary(max_size=64),
)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def sealed_body(body: bytes) -> str:
    """``body`` sealed with the right key, whatever it holds."""
    return f"{b64(body)}.{b64(hmac.new(KEY, body, hashlib.sha256).digest())}"


@given(states)
def test_a_sealed_state_opens_as_it_was(made: tuple[RequestState, Any]) -> None:
    state, arguments = made
    opened = SEAL.open(SEAL.seal(state), state.tool, arguments, NOW)
    assert opened.answers == state.answers
    assert opened.asked == state.asked
    assert (opened.tool, opened.digest, opened.expires) == (state.tool, state.digest, state.expires)
    assert (opened.park, opened.rounds, opened.kept) == (state.park, state.rounds, state.kept)


@given(states, st.data())
def test_any_change_to_the_sealed_text_is_refused(
    made: tuple[RequestState, Any], data: st.DataObject
) -> None:
    state, arguments = made
    sealed = SEAL.seal(state)
    at = data.draw(st.integers(min_value=0, max_value=len(sealed) - 1))
    other = data.draw(st.characters(codec="ascii").filter(lambda c: c != sealed[at]))
    changed = sealed[:at] + other + sealed[at + 1 :]
    try:
        opened = SEAL.open(changed, state.tool, arguments, NOW)
    except StateError:
        return
    # base64 may decode a changed last character to the same bytes: then it is the same state
    assert opened.answers == state.answers and opened.asked == state.asked
    assert opened.kept == state.kept


@given(states)
def test_another_key_call_or_time_is_refused(made: tuple[RequestState, Any]) -> None:
    state, arguments = made
    sealed = SEAL.seal(state)
    with pytest.raises(StateError, match="forged or altered"):
        StateSeal(b"another key, long enough to use").open(sealed, state.tool, arguments, NOW)
    with pytest.raises(StateError, match="another call"):
        SEAL.open(sealed, state.tool + "x", arguments, NOW)
    with pytest.raises(StateError, match="another call"):
        SEAL.open(sealed, state.tool, [arguments], NOW)
    with pytest.raises(StateError, match="expired"):
        SEAL.open(sealed, state.tool, arguments, state.expires + 1)


@given(json_values)
def test_a_sealed_body_of_the_wrong_shape_is_unreadable_not_a_crash(body: Any) -> None:
    with pytest.raises(StateError, match="not readable"):
        SEAL.open(sealed_body(json.dumps(body).encode()), "t", {}, NOW)


@given(
    st.fixed_dictionaries(
        {
            "t": st.text(max_size=3) | json_values,
            "d": st.just(arguments_digest({})) | json_values,
            "a": answers | json_values,
            "e": st.just(NOW + 1) | json_values,
            "p": st.none() | json_values,
            "q": st.lists(keys, max_size=2) | json_values,
            "r": st.integers(min_value=0, max_value=3) | json_values,
            "k": st.none() | st.just(b64(b"x\x9c\x03\x00\x00\x00\x00\x01")) | json_values,
        }
    ).flatmap(lambda fields: st.sampled_from([fields, {**fields, "t": "t"}])),
    st.binary(max_size=20),
)
def test_whatever_a_sealed_or_unsealed_text_holds_opening_it_only_says_why_not(
    fields: dict[str, Any], noise: bytes
) -> None:
    texts = [sealed_body(json.dumps(fields).encode()), sealed_body(noise), b64(noise), "a.b.c"]
    for text in texts:
        try:
            state = SEAL.open(text, "t", {}, NOW)
        except StateError:
            continue
        assert isinstance(state.answers, dict) and all(
            isinstance(answer, dict) for answer in state.answers.values()
        )
        assert all(isinstance(key, str) for key in state.asked)
        assert type(state.rounds) is int and state.rounds >= 0
        assert state.kept is None or isinstance(state.kept, bytes)
