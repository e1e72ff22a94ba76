"""What one HTTP client can cost the others (issue 27, items 7, 8 and 10), through real
HTTP on 127.0.0.1 with scaled-down limits: a body too big or of too many values, sessions
beyond ``max_sessions``, and connections that never finish their request."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest
from http_helpers import ACCEPT, HttpServer, call, initialize_message, open_session, post


@pytest.fixture(scope="module")
def bounded() -> Iterator[HttpServer]:
    server = HttpServer("--max-sessions", "2")
    yield server
    server.stop()


def ping(url: str, session: dict[str, str]) -> httpx.Response:
    return post(url, {"jsonrpc": "2.0", "id": 5, "method": "ping"}, **session)


def test_a_session_beyond_the_cap_ends_the_least_recently_used_idle_one(
    bounded: HttpServer,
) -> None:
    first = open_session(bounded.url)
    second = open_session(bounded.url)
    assert ping(bounded.url, first).status_code == 200  # the second is now the oldest
    third = open_session(bounded.url)
    assert ping(bounded.url, second).status_code == 404
    assert ping(bounded.url, first).status_code == 200
    assert ping(bounded.url, third).status_code == 200


def test_a_session_beyond_the_cap_of_busy_ones_is_refused_503(bounded: HttpServer) -> None:
    sessions = [open_session(bounded.url, {"elicitation": {"form": {}}}) for _ in range(2)]
    with httpx.Client(timeout=5) as client:
        opened = [
            client.stream("POST", bounded.url, json=call(9, "ask"), headers={**ACCEPT, **session})
            for session in sessions
        ]
        streams = [stream.__enter__() for stream in opened]
        try:
            for stream in streams:  # each call waits for its client's answer
                line = next(line for line in stream.iter_lines() if line.startswith("data: {"))
                assert json.loads(line[6:])["method"] == "elicitation/create"
            refused = post(bounded.url, initialize_message())
        finally:
            for stream in opened:
                stream.__exit__(None, None, None)
            for session in sessions:  # their calls end with them
                client.delete(bounded.url, headers=session)
    assert refused.status_code == 503
    assert "max_sessions" in refused.text
    assert refused.headers["retry-after"]


def test_max_sessions_must_be_positive() -> None:
    import objmcp

    with pytest.raises(ValueError, match="max_sessions"):
        objmcp.asgi_app("zoo", {}, max_sessions=0)
