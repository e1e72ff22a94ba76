"""What one HTTP client can cost the others (issue 27, items 7, 8 and 10), through real
HTTP on 127.0.0.1 with scaled-down limits: a body too big or of too many values, sessions
beyond ``max_sessions``, and connections that never finish their request."""

from __future__ import annotations

import argparse
import json
import socket
from collections.abc import Iterator

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest
from http_helpers import (
    ACCEPT,
    HttpServer,
    call,
    initialize_message,
    modern,
    modern_headers,
    open_session,
    post,
)

import objmcp


@pytest.fixture(scope="module")
def bounded() -> Iterator[HttpServer]:
    server = HttpServer("--max-sessions", "2", "--max-body", "4000", "--max-values", "100")
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

    with pytest.raises(ValueError, match="max_sessions"):
        objmcp.asgi_app("zoo", {}, http=objmcp.Http(max_sessions=0))


# --- what one request may cost (item 7) ---------------------------------------------------------


def echo(text: str) -> dict[str, object]:
    return modern("tools/call", 3, name="echo", arguments={"text": text})


ECHO_HEADERS = {
    **ACCEPT,
    "content-type": "application/json",
    **modern_headers("tools/call", "echo"),
}


def test_a_body_over_max_body_is_refused_while_another_client_is_answered(
    bounded: HttpServer,
) -> None:
    body = json.dumps(echo("x" * 5000)).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{bounded.port}\r\n"
        + "".join(f"{name}: {value}\r\n" for name, value in ECHO_HEADERS.items())
        + f"content-length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", bounded.port), timeout=5) as sending:
        sending.sendall(head + body[:1000])  # a body on its way
        listed = post(bounded.url, modern("tools/list"), **modern_headers("tools/list"))
        assert listed.status_code == 200
        sending.sendall(body[1000:])
        answer = b""
        while b"(max_body)" not in answer and (chunk := sending.recv(65536)):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert b"a body of at most 4000 bytes is read (max_body)" in answer


def test_a_body_of_too_many_values_is_refused_unparsed(bounded: HttpServer) -> None:
    many = modern("tools/call", 3, name="echo", arguments={"text": "x", "more": [{}] * 200})
    refused = httpx.post(bounded.url, json=many, headers=ECHO_HEADERS, timeout=5)
    assert refused.status_code == 413
    assert "max_values of 100" in refused.text
    commas = httpx.post(bounded.url, json=echo(",[{" * 300), headers=ECHO_HEADERS, timeout=5)
    assert commas.json()["result"]["content"][0]["text"] == ",[{" * 300  # text, not values


# --- connections that never finish their request (item 10) --------------------------------------


@pytest.fixture(scope="module")
def impatient() -> Iterator[HttpServer]:
    server = HttpServer("--read-timeout", "0.5")
    yield server
    server.stop()


def closed_by_server(connection: socket.socket) -> bytes:
    """What the server sends before it closes ``connection`` (the socket's timeout fails
    the test if it never does)."""
    said = b""
    while chunk := connection.recv(65536):
        said += chunk
    return said


HALF_HEADERS = b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"


@pytest.mark.parametrize(
    "sent",
    [b"", HALF_HEADERS, HALF_HEADERS + b"content-length: 100\r\n\r\n" + b'{"jsonrpc": '],
    ids=["nothing", "half the headers", "half the body"],
)
def test_a_connection_that_never_finishes_its_request_is_closed(
    impatient: HttpServer, sent: bytes
) -> None:
    with socket.create_connection(("127.0.0.1", impatient.port), timeout=10) as slow:
        slow.sendall(sent)
        listed = post(impatient.url, modern("tools/list"), **modern_headers("tools/list"))
        assert listed.status_code == 200  # another client is served meanwhile
        said = closed_by_server(slow)
    if b"content-length: 100" not in sent:
        assert said.startswith(b"HTTP/1.1 408 ")


def test_uvicorn_is_given_the_limits_of_the_options() -> None:
    from objmcp.cli.http_limits import DeadlineProtocol, uvicorn_limits

    given = uvicorn_limits(argparse.Namespace(max_connections=7, keep_alive=2, read_timeout=None))
    assert (given["limit_concurrency"], given["timeout_keep_alive"]) == (7, 2)
    assert given["h11_max_incomplete_event_size"] == 16384
    assert given["http"].func is DeadlineProtocol
    assert given["http"].keywords == {"read_timeout": 30.0}
