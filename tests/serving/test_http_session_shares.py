"""Sessions shared fairly among the callers of one app (issue 36, hole 6), through real
HTTP: at ``max_sessions``, a caller's ``initialize`` ends its own idle sessions first; a
caller within its share may end an idle session of a caller above its share, never one
that holds tasks; past its share, with none of its own idle, it is refused 503."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest
from conftest import ZOO
from http_helpers import ACCEPT, PYTHON, HttpServer, call, initialize_message, open_session, post
from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.serving.http_checks import Refusal
from objmcp.serving.http_sessions import SessionStore

COMMONS = ZOO.parent / "commons.py"


@pytest.fixture(scope="module")
def commons() -> Iterator[HttpServer]:
    server = HttpServer(command=[PYTHON, str(COMMONS), "{port}", "4"])
    yield server
    server.stop()


def bearer(user: str) -> dict[str, str]:
    return {"authorization": f"Bearer {user}-token"}


def open_as(url: str, user: str, capabilities: dict[str, Any] | None = None) -> dict[str, str]:
    """A 2025-11-25 session of ``user``: the headers its requests carry."""
    return open_session(url, capabilities, **bearer(user))


def ask(url: str, session: dict[str, str], method: str, **params: Any) -> httpx.Response:
    return post(url, {"jsonrpc": "2.0", "id": 5, "method": method, "params": params}, **session)


def finished_task(url: str, session: dict[str, str]) -> str:
    """The id of a task of ``session`` that ended, its result kept."""
    started = call(2, "quick")
    started["params"]["task"] = {"ttl": 60000}
    task_id: str = post(url, started, **session).json()["result"]["task"]["taskId"]
    for _ in range(200):
        if ask(url, session, "tasks/get", taskId=task_id).json()["result"]["status"] != "working":
            return task_id
    raise AssertionError("the task never ended")


def busy(
    client: httpx.Client, stack: contextlib.ExitStack, url: str, session: dict[str, str]
) -> None:
    """Keep ``session`` busy: a call of its waits for the client's answer."""
    opened = client.stream("POST", url, json=call(9, "ask"), headers={**ACCEPT, **session})
    stream = stack.enter_context(opened)
    line = next(line for line in stream.iter_lines() if line.startswith("data: {"))
    assert json.loads(line[6:])["method"] == "elicitation/create"


def test_a_caller_ends_its_own_sessions_then_others_beyond_their_share_never_their_tasks(
    commons: HttpServer,
) -> None:
    url = commons.url
    alice = [open_as(url, "alice", {"tasks": {"list": {}, "cancel": {}}})]
    task_id = finished_task(url, alice[0])
    alice += [open_as(url, "alice") for _ in range(3)]  # max_sessions: 4, all alice's
    alice.append(open_as(url, "alice"))  # her own idle one goes, not the one with a task
    assert ask(url, alice[1], "ping").status_code == 404
    assert ask(url, alice[0], "ping").status_code == 200
    elicitation = {"elicitation": {"form": {}}}
    with httpx.Client(timeout=20) as client, contextlib.ExitStack() as stack:
        bob = []
        for _ in range(2):  # bob's share: 4 sessions between 2 callers
            bob.append(open_as(url, "bob", elicitation))  # one of alice's beyond her share goes
            busy(client, stack, url, bob[-1])
        refused = post(url, initialize_message(), **bearer("bob"))
        assert refused.status_code == 503
        assert refused.headers["retry-after"]
        assert "share" in refused.text
        assert [ask(url, kept, "ping").status_code for kept in alice] == [200, 404, 404, 404, 200]
        result = ask(url, alice[0], "tasks/result", taskId=task_id).json()["result"]
        assert result["content"][0]["text"] == "quick"
        for session in bob:  # their calls end with them
            client.delete(url, headers=session)


# --- the rule itself, over generated stores ------------------------------------------------------

SETTINGS = objmcp.Server("shares", {}).settings()
SESSION = st.fixed_dictionaries(
    {
        "caller_key": st.sampled_from(["alice", "bob", "carol"]),
        "idle": st.booleans(),
        "holds_tasks": st.booleans(),
        "last_seen": st.floats(0, 100),
    }
)


@settings(max_examples=200, deadline=None)
@given(
    max_sessions=st.integers(1, 6),
    open_sessions=st.lists(SESSION, max_size=6),
    key=st.sampled_from(["alice", "bob", "carol", "dave"]),
    credentials=st.booleans(),
)
def test_an_initialize_at_the_cap_ends_only_what_the_rule_lets_it(
    max_sessions: int, open_sessions: list[dict[str, Any]], key: str, credentials: bool
) -> None:
    store = SessionStore(
        SETTINGS,
        stateless=False,
        route=None,
        session_idle=None,
        max_sessions=max_sessions,
    )
    caller_key = key if credentials else None
    for number, described in enumerate(open_sessions):
        fields = described if credentials else {**described, "caller_key": None}
        store.sessions[f"s{number}"] = SimpleNamespace(**fields)  # type: ignore[assignment]
    ended: list[Any] = []
    store.end = ended.append  # type: ignore[method-assign]
    sessions = list(store.sessions.values())
    caller_keys = {session.caller_key for session in sessions} | {caller_key}
    share = max(1, max_sessions // len(caller_keys))
    held = {each: [s for s in sessions if s.caller_key == each] for each in caller_keys}
    own_idle = [s for s in held[caller_key] if s.idle]
    others = [
        s
        for s in sessions
        if s.caller_key != caller_key
        and s.idle
        and not s.holds_tasks
        and len(held[s.caller_key]) > share
    ]
    try:
        store.make_room(caller_key)
    except Refusal as refusal:
        assert refusal.status == 503 and dict(refusal.headers)[b"retry-after"]
        assert "max_sessions" in str(refusal.body)
        assert len(sessions) >= max_sessions
        assert not own_idle and (len(held[caller_key]) >= share or not others)
        return
    if len(sessions) < max_sessions:
        assert not ended
        return
    [gone] = ended
    assert gone.idle and all(kept is not gone for kept in store.sessions.values())
    if own_idle:  # the caller's own go first: one holding no tasks before one that does
        assert gone.caller_key == caller_key
        assert (gone.holds_tasks, gone.last_seen) == min(
            (s.holds_tasks, s.last_seen) for s in own_idle
        )
    else:  # another's: a caller above its share, never a session holding tasks
        assert len(held[caller_key]) < share and any(s is gone for s in others)
