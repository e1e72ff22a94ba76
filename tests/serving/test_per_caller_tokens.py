"""``per="caller"`` keeps callers whose tokens name no user apart, as their sessions and
tasks are: by a digest of the token. Two apps whose tokens ``verify=`` finds good (True),
or two tokens whose claims name a client and no subject, never share an object; one token
finds its own object again in either era (``tests/servers/per_notes.py``, over HTTP)."""

from __future__ import annotations

from pathlib import Path

from http_helpers import call, post
from hypothesis import given
from hypothesis import strategies as st
from test_per_served import modern_call, notes, per_caller, session_of

from objmcp import Caller
from objmcp.model.calling.caller import caller_key


def test_tokens_that_name_nobody_each_get_their_own_object(tmp_path: Path) -> None:
    server = per_caller(tmp_path / "ends.jsonl")
    try:
        url = server.url
        first = notes(modern_call(url, "add", "app-one", text="one's"))
        second = notes(modern_call(url, "read", "app-two"))
        assert second["notes"] == [] and second["object"] != first["object"]
        again = notes(post(url, call(2, "read"), **session_of(url, "app-one")))
        assert again == first  # the same token, in a session of the handshake era

        client = notes(modern_call(url, "add", "client-x", text="x's"))
        other = notes(modern_call(url, "read", "client-y"))  # the same client id, no subject
        assert client["object"] not in (first["object"], second["object"])
        assert other["notes"] == [] and other["object"] != client["object"]
        assert notes(modern_call(url, "read", "client-x")) == client
    finally:
        server.stop()


@given(
    st.tuples(st.none() | st.text(max_size=8), st.text(min_size=1, max_size=8)),
    st.tuples(st.none() | st.text(max_size=8), st.text(min_size=1, max_size=8)),
)
def test_two_callers_share_a_key_only_as_one_user_or_one_token(
    one: tuple[str | None, str], other: tuple[str | None, str]
) -> None:
    (subject, token), (other_subject, other_token) = one, other
    same = (
        subject == other_subject
        if subject is not None
        else (other_subject is None and token == other_token)
    )
    assert (caller_key(subject, token) == caller_key(other_subject, other_token)) is same
    assert Caller(subject=subject).key == caller_key(subject)
