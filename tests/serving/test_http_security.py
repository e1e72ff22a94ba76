"""Streamable HTTP against an attacker (issue 27), through real HTTP on 127.0.0.1:
numbers out of range, a request id reused while in flight, a batch where the revision
has none, malformed ``Last-Event-ID`` and ``Host`` values (and hypothesis on their
parsers), and serving beyond loopback without a token."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest
from conftest import PYTHON, ZOO, server_env
from http_helpers import (
    ACCEPT,
    HttpServer,
    call,
    free_port,
    modern,
    modern_headers,
    open_session,
    post,
)
from hypothesis import given
from hypothesis import strategies as st

import objmcp
from objmcp.serving.http_fields import parse_authority, parse_event_id

sys.path.insert(0, str(ZOO.parent))
from zoo import Zoo


@pytest.fixture(scope="module")
def zoo_http() -> Iterator[HttpServer]:
    server = HttpServer()
    yield server
    server.stop()


def test_a_number_out_of_range_is_refused_over_http(zoo_http: HttpServer) -> None:
    message = modern("tools/call", 7, name="nap", arguments={"seconds": "NUMBER"})
    body = json.dumps(message).replace('"NUMBER"', "1e400")
    headers = {**ACCEPT, "content-type": "application/json", **modern_headers("tools/call", "nap")}
    refused = httpx.post(zoo_http.url, content=body, headers=headers, timeout=5)
    assert refused.status_code == 400
    answer = refused.json()
    assert (answer["id"], answer["error"]["code"]) == (7, -32602)
    assert "1e400" in answer["error"]["message"]
    added = post(
        zoo_http.url,
        modern("tools/call", 8, name="add", arguments={"a": 1, "b": 2}),
        **modern_headers("tools/call", "add"),
    )
    assert added.json()["result"]["content"][0]["text"] == "3"


def test_an_id_reused_in_flight_is_refused_and_the_first_request_still_answered(
    zoo_http: HttpServer,
) -> None:
    session = open_session(zoo_http.url, {"elicitation": {"form": {}}})
    sent = {**ACCEPT, **session}
    with (
        httpx.Client(timeout=5) as client,
        client.stream("POST", zoo_http.url, json=call(9, "ask"), headers=sent) as first,
    ):
        lines = first.iter_lines()
        question = next(json.loads(line[6:]) for line in lines if line.startswith("data: {"))
        assert question["method"] == "elicitation/create"  # request 9 is in flight
        second = post(zoo_http.url, call(9, "add", a=1, b=2), **session)
        assert second.json()["id"] == 9
        assert second.json()["error"]["code"] == -32600
        assert "in flight" in second.json()["error"]["message"]
        reply = {
            "jsonrpc": "2.0",
            "id": question["id"],
            "result": {"action": "accept", "content": {"value": True}},
        }
        assert post(zoo_http.url, reply, **session).status_code == 202
        final = next(json.loads(line[6:]) for line in lines if line.startswith("data: {"))
    assert final["id"] == 9
    assert final["result"]["content"] == [{"type": "text", "text": "accept:True"}]


def test_a_batch_where_the_revision_has_none_is_answered_and_ends(zoo_http: HttpServer) -> None:
    session = open_session(zoo_http.url)  # 2025-11-25: no batches
    batch = [{"jsonrpc": "2.0", "id": 2, "method": "ping"}, call(3, "add", a=1, b=2)]
    answer = httpx.post(zoo_http.url, json=batch, headers={**ACCEPT, **session}, timeout=5)
    assert answer.status_code == 400
    assert answer.json()["id"] is None
    assert answer.json()["error"]["code"] == -32600
    assert "batches are not allowed" in answer.json()["error"]["message"]
    still = post(zoo_http.url, {"jsonrpc": "2.0", "id": 4, "method": "ping"}, **session)
    assert still.json() == {"jsonrpc": "2.0", "id": 4, "result": {}}


@pytest.mark.parametrize(
    "last", [b"\xb2-0", b"1-\xb3", b"\xd9\xa1-0", b"1-" + b"9" * 5000, b"-1-0", b"1", b"1--0"]
)
def test_a_malformed_last_event_id_is_a_400(zoo_http: HttpServer, last: bytes) -> None:
    session = open_session(zoo_http.url)
    headers: dict[str, Any] = {**session, "accept": "text/event-stream", "last-event-id": last}
    answer = httpx.get(zoo_http.url, headers=headers, timeout=5)
    assert answer.status_code == 400, answer.text
    assert "Last-Event-ID" in answer.text


@pytest.mark.parametrize(
    "host",
    [
        "[::1]evil.example",
        "localhost:evil.example",
        "localhost:80:80",
        "127.0.0.1:\uff18\uff10",  # fullwidth digits, sent as UTF-8
        "localhost@evil.example",
        "[::1",
        "[evil.example]",
        "",
    ],
)
def test_a_malformed_host_is_refused(zoo_http: HttpServer, host: str) -> None:
    headers: dict[str, Any] = {**ACCEPT, **modern_headers("tools/list"), "host": host.encode()}
    answer = httpx.post(zoo_http.url, json=modern("tools/list"), headers=headers, timeout=5)
    assert answer.status_code == 421, (host, answer.status_code)


@pytest.mark.parametrize(
    ("origin", "status"),
    [
        ("http://localhost:evil.example", 403),
        ("http://[::1]evil.example", 403),
        ("http://localhost@evil.example", 403),
        ("http://[::1]:3000", 200),
        ("http://127.0.0.1", 200),
    ],
)
def test_an_origin_is_read_as_strictly(zoo_http: HttpServer, origin: str, status: int) -> None:
    headers = {**modern_headers("tools/list"), "origin": origin}
    answer = post(zoo_http.url, modern("tools/list"), **headers)
    assert answer.status_code == status, origin


# --- the parsers, by property -------------------------------------------------------------------

UNRESERVED = "abcXYZ019-._~"
SUB_DELIMS = "!$&'()*+,;="
REG_NAME = st.text(st.sampled_from(UNRESERVED + SUB_DELIMS), min_size=1, max_size=12)
IPV6 = st.ip_addresses(v=6).map(lambda address: f"[{address}]")
IPV4 = st.ip_addresses(v=4).map(str)
PORT = st.none() | st.text(st.sampled_from("0123456789"), max_size=6)


@given(st.one_of(REG_NAME, IPV4, IPV6), PORT)
def test_a_well_formed_host_is_read_back(host: str, port: str | None) -> None:
    value = host if port is None else f"{host}:{port}"
    assert parse_authority(value) == (host, port)


@given(st.text(max_size=24))
def test_what_a_host_parses_to_is_what_it_says(value: str) -> None:
    found = parse_authority(value)
    if found is None:
        return
    assert value.isascii()
    assert value == (found.host if found.port is None else f"{found.host}:{found.port}")
    assert found.port is None or all(c in "0123456789" for c in found.port)
    assert (found.host.startswith("[") and found.host.endswith("]")) or not (
        set(found.host) & set("[]:@/?#")
    )


@given(st.text(st.sampled_from("0123456789-²³¹١٢٣０１-: x"), max_size=12) | st.text(max_size=12))
def test_an_event_id_is_ascii_digits_dash_ascii_digits(value: str) -> None:
    found = parse_event_id(value)
    number, dash, position = value.partition("-")
    ascii_digits = "0123456789"
    well_formed = (
        dash == "-"
        and 0 < len(number) <= 18
        and 0 < len(position) <= 18
        and all(c in ascii_digits for c in number + position)
    )
    assert (found is not None) == well_formed
    if found is not None:
        assert found == (int(number), int(position))


@given(st.integers(0, 10**18 - 1), st.integers(0, 10**18 - 1))
def test_an_event_id_of_ours_is_read_back(number: int, position: int) -> None:
    assert parse_event_id(f"{number}-{position}") == (number, position)


# --- beyond loopback ----------------------------------------------------------------------------


def run_http(*options: str) -> subprocess.Popen[bytes]:
    command = [PYTHON, "-m", "objmcp", "run", "--http", "--port", str(free_port())]
    return subprocess.Popen(
        [*command, *options, f"{ZOO}:Zoo"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**server_env(), "OBJMCP_TOKEN": ""},
    )


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.1"])
def test_serving_beyond_loopback_without_a_token_is_refused_at_start(host: str) -> None:
    process = run_http("--host", host)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 2, err
    assert out == b""
    said = err.decode()
    assert host in said and "--token" in said and "--no-auth" in said


def test_no_auth_serves_the_network_with_a_loud_warning() -> None:
    server = HttpServer("--host", "0.0.0.0", "--no-auth")
    try:
        listed = post(server.url, modern("tools/list"), **modern_headers("tools/list"))
    finally:
        _, err = server.stop()
    assert listed.status_code == 200
    warnings = [line for line in err.splitlines() if line.startswith("objmcp: warning:")]
    (warning,) = [line for line in warnings if "no token" in line]
    assert "0.0.0.0" in warning


@pytest.mark.anyio
async def test_the_asgi_app_refuses_remote_clients_unless_told() -> None:
    remote = ("203.0.113.7", 50000)
    message = modern("tools/list")
    headers = {**ACCEPT, **modern_headers("tools/list")}
    answers = {}
    for name, options in [
        ("closed", {}),
        ("open", {"no_auth": True}),
        ("token", {"token": "t0ken"}),
    ]:
        app = objmcp.asgi_app("zoo", Zoo(), auth=objmcp.Auth(**options))
        transport = httpx.ASGITransport(app=app, client=remote)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            sent = {**headers, "authorization": "Bearer t0ken"} if name == "token" else headers
            answers[name] = await client.post("/mcp", json=message, headers=sent)
        await app.aclose()
    assert answers["closed"].status_code == 403
    assert "no_auth" in answers["closed"].text
    assert answers["open"].status_code == 200
    assert answers["token"].status_code == 200
