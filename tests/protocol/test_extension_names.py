"""Extension names (SEP-2133: the ``_meta`` key rules, the prefix mandatory), checked when a
server is made: every name the rules allow is taken, and any other text refused with a
ValueError, against a plain reading of the rules written apart from objmcp's; and what a
sans-IO session negotiates, per connection (handshake) or per request (2026-07-28)."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from objmcp import Toolbox
from objmcp.protocol.extensions import declared, negotiated
from objmcp.protocol.session import Send, ServerInfo, Session, StartCall

LETTERS = string.ascii_letters
ALNUM = LETTERS + string.digits


def allowed(name: str) -> bool:
    """The rules, read plainly: ``label(.label)*/name``; a label a letter first, a letter or
    digit last, hyphens inside; the name non-empty, alphanumeric at both ends, ``.``, ``_``
    and ``-`` inside."""
    prefix, slash, rest = name.partition("/")
    if not slash or not rest:
        return False
    for label in prefix.split("."):
        if not label or label[0] not in LETTERS or label[-1] not in ALNUM:
            return False
        if any(c not in ALNUM + "-" for c in label):
            return False
    if rest[0] not in ALNUM or rest[-1] not in ALNUM:
        return False
    return all(c in ALNUM + "._-" for c in rest)


def inner(alphabet: str) -> st.SearchStrategy[str]:
    return st.text(alphabet, max_size=6)


LABEL = st.builds(
    lambda first, middle, last: first + middle + last,
    st.sampled_from(LETTERS),
    inner(ALNUM + "-"),
    st.sampled_from(ALNUM),
) | st.sampled_from(LETTERS)
NAME = st.builds(
    lambda first, middle, last: first + middle + last,
    st.sampled_from(ALNUM),
    inner(ALNUM + "._-"),
    st.sampled_from(ALNUM),
) | st.sampled_from(ALNUM)
VALID = st.builds(
    lambda labels, name: ".".join(labels) + "/" + name,
    st.lists(LABEL, min_size=1, max_size=4),
    NAME,
)
NEAR = st.text(ALNUM + "./-_ é\n", max_size=16)  # mostly the right characters, anyhow placed


@given(VALID)
def test_every_name_the_rules_allow_is_declared(name: str) -> None:
    assert allowed(name)
    assert declared({name: {"n": 1}}) == {name: {"n": 1}}


@given(NEAR | st.text(max_size=12) | VALID)
def test_any_other_text_is_refused_with_a_value_error(name: str) -> None:
    try:
        found = declared({name: {}})
    except ValueError as error:
        assert not allowed(name)
        assert "vendor-prefix/name" in str(error)
    else:
        assert allowed(name) and found == {name: {}}


DECLARED = {"com.example/maps": {}, "io.modelcontextprotocol/ui": {}}
SETTINGS = st.one_of(st.none(), st.integers(), st.just({"x": 1}), st.just({}))


@given(st.dictionaries(NEAR | VALID | st.sampled_from(sorted(DECLARED)), SETTINGS))
def test_a_client_negotiates_only_what_the_server_declares_as_objects(
    offered: dict[str, object],
) -> None:
    server = DECLARED
    found = negotiated(server, {"extensions": offered})
    assert found == {
        name: settings
        for name, settings in offered.items()
        if name in server and isinstance(settings, dict)
    }
    assert negotiated(server, {"extensions": "com.example/maps"}) == {}
    assert negotiated({}, {"extensions": offered}) == {}


MAPS = {"com.example/maps": {"zoom": 2}}


def started(actions: list[object]) -> StartCall:
    [start] = [action for action in actions if isinstance(action, StartCall)]
    return start


def modern_call(request_id: int, capabilities: dict[str, object]) -> dict[str, object]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    }
    params = {"name": "echo", "arguments": {"text": "hi"}, "_meta": meta}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def test_a_session_negotiates_each_modern_request_on_its_own() -> None:
    session = Session(Toolbox({"echo": lambda text: text}), ServerInfo("s"), extensions=DECLARED)
    first = started(session.receive(modern_call(1, {"extensions": MAPS})))
    second = started(session.receive(modern_call(2, {})))
    assert first.context.extensions == MAPS
    assert second.context.extensions == {}


def test_a_handshake_session_negotiates_at_initialize_from_2025_06_18() -> None:
    for version, expected in (("2025-03-26", {}), ("2025-06-18", MAPS)):
        session = Session(
            Toolbox({"echo": lambda text: text}), ServerInfo("s"), extensions=DECLARED
        )
        params = {
            "protocolVersion": version,
            "capabilities": {"extensions": MAPS},
            "clientInfo": {"name": "c", "version": "0"},
        }
        [answer] = session.receive(
            {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}
        )
        assert isinstance(answer, Send) and isinstance(answer.message, dict)
        declared_now = answer.message["result"]["capabilities"].get("extensions")
        assert declared_now == (DECLARED if expected else None)
        call = {"name": "echo", "arguments": {"text": "hi"}}
        request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}
        assert started(session.receive(request)).context.extensions == expected
