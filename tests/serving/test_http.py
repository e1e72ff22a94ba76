"""Streamable HTTP: ``objmcp run --http`` (uvicorn) serving the zoo on 127.0.0.1, spoken
to by the official SDK client (its Streamable HTTP transport, in the handshake era, the
modern one, and the mode that probes) and by raw HTTP where the exact status, headers and
bodies are the point."""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest
from conftest import PYTHON, ZOO
from http_helpers import (
    LAB,
    MODERN_META,
    WORKERS,
    HttpServer,
    ask_where,
    events,
    initialize_message,
    modern,
    modern_headers,
    post,
    text_of,
)
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.subscriptions import ResourceUpdated, ToolsListChanged

import objmcp

sys.path.insert(0, str(ZOO.parent))
from zoo import Zoo

MODES = ["legacy", "2026-07-28", "auto"]
TOKEN = "s3cret-token"

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def zoo_http() -> Iterator[HttpServer]:
    server = HttpServer()
    yield server
    out, _ = server.stop()
    assert out == ""  # stdout is not the protocol's here, but nothing writes to it


@pytest.fixture(scope="module")
def guarded() -> Iterator[HttpServer]:
    server = HttpServer("--token", TOKEN)
    yield server
    server.stop()


@pytest.mark.parametrize("mode", MODES)
async def test_tools_are_listed_and_called(zoo_http: HttpServer, mode: str) -> None:
    async with Client(zoo_http.url, mode=mode) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        added = await client.call_tool("add", {"a": 2, "b": 3})
        failed = await client.call_tool("fail", {"message": "nope"})
    assert {"add", "ask", "summarize", "everything"} <= tools
    assert (text_of(added), added.is_error) == ("5", False)
    assert failed.is_error and "nope" in text_of(failed)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("tool", ["everything", "async_everything"])
async def test_questions_progress_and_log_records_travel_over_http(
    zoo_http: HttpServer, mode: str, tool: str
) -> None:
    asked: list[str] = []
    progress: list[float] = []
    records: list[Any] = []

    async def answer(context: Any, request: types.ElicitRequestParams) -> Any:
        asked.append(request.message)
        return types.ElicitResult(action="accept", content={"value": "Ada"})

    async def report(done: float, total: float | None, message: str | None) -> None:
        progress.append(done)

    async def log(params: types.LoggingMessageNotificationParams) -> None:
        records.append(params)

    async with Client(
        zoo_http.url, mode=mode, elicitation_callback=answer, logging_callback=log
    ) as client:
        meta = None
        modern = client.session.protocol_version == "2026-07-28"  # type: ignore[attr-defined]
        if modern:
            meta = {"io.modelcontextprotocol/logLevel": "info"}
        else:
            await client.set_logging_level("info")
        result = await client.call_tool(tool, {}, progress_callback=report, meta=meta)
    assert (text_of(result), result.is_error) == (f"{tool}: Ada", False)
    assert asked == ["Your name?"]
    assert progress[-1] == 2
    # a modern call waited, parked, for the retry: it logged once
    assert [(r.level, r.data) for r in records if r.logger == tool] == [("info", f"{tool} asks")]
    assert modern == (mode != "legacy")


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_sampling_travels_over_http(zoo_http: HttpServer, mode: str) -> None:
    async def model(context: Any, request: types.CreateMessageRequestParams) -> Any:
        said = request.messages[-1].content
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=f"short: {said.text}"),  # type: ignore[union-attr]
            model="tiny-1",
            stop_reason="endTurn",
        )

    async with Client(zoo_http.url, mode=mode, sampling_callback=model) as client:
        result = await client.call_tool("async_summarize", {"text": "a long story"})
    assert text_of(result) == "short: Summarize: a long story [tiny-1]"


def test_a_handshake_session_lives_until_it_is_deleted(zoo_http: HttpServer) -> None:
    opened = post(zoo_http.url, initialize_message())
    assert opened.status_code == 200
    session = opened.headers["mcp-session-id"]
    assert len(session) >= 32 and all(0x21 <= ord(c) <= 0x7E for c in session)
    assert opened.json()["result"]["protocolVersion"] == "2025-11-25"
    headers = {"mcp-session-id": session, "mcp-protocol-version": "2025-11-25"}
    told = post(zoo_http.url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, **headers)
    assert (told.status_code, told.content) == (202, b"")
    listed = post(zoo_http.url, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, **headers)
    assert listed.status_code == 200 and listed.json()["id"] == 2
    older = post(
        zoo_http.url,
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
        **{**headers, "mcp-protocol-version": "2025-06-18"},  # an older supported revision
    )
    assert older.json() == {"jsonrpc": "2.0", "id": 3, "result": {}}
    unknown = post(
        zoo_http.url,
        {"jsonrpc": "2.0", "id": 4, "method": "ping"},
        **{**headers, "mcp-protocol-version": "1999-01-01"},
    )
    assert unknown.status_code == 400
    called = post(
        zoo_http.url,
        {
            "jsonrpc": "2.0",
            "id": 5,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 1, "b": 1}},
        },
        **headers,
    )
    (answer,) = (
        [called.json()] if called.headers["content-type"] == "application/json" else events(called)
    )
    assert answer["result"]["content"][0]["text"] == "2"

    ended = httpx.delete(zoo_http.url, headers=headers)
    assert ended.status_code == 200
    gone = post(zoo_http.url, {"jsonrpc": "2.0", "id": 6, "method": "tools/list"}, **headers)
    assert gone.status_code == 404
    nameless = post(zoo_http.url, {"jsonrpc": "2.0", "id": 7, "method": "tools/list"})
    assert nameless.status_code == 400  # no session id, and not initialize


def test_handshake_era_errors_are_http_200_and_modern_ones_carry_their_status(
    zoo_http: HttpServer,
) -> None:
    """In a handshake session a 404 says "session gone" (the SDK 1.x clients end the
    session on it), so a request's JSON-RPC error comes with 200 there; the status
    table is the modern era's."""
    opened = post(zoo_http.url, initialize_message())
    headers = {
        "mcp-session-id": opened.headers["mcp-session-id"],
        "mcp-protocol-version": "2025-11-25",
    }
    asks = [
        ({"jsonrpc": "2.0", "id": 2, "method": "no/such/method"}, -32601, 404),
        ({"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {}}, -32601, 404),
        (
            {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "nope"}},
            -32602,
            400,
        ),
    ]
    for message, code, modern_status in asks:
        answer = post(zoo_http.url, message, **headers)
        assert (answer.status_code, answer.json()["error"]["code"]) == (200, code), message
        method = str(message["method"])
        params = dict(message.get("params", {}))  # type: ignore[call-overload]
        in_modern = post(
            zoo_http.url,
            modern(method, **params),
            **modern_headers(method, params.get("name")),
        )
        assert (in_modern.status_code, in_modern.json()["error"]["code"]) == (
            modern_status,
            code,
        )
    still = post(zoo_http.url, {"jsonrpc": "2.0", "id": 5, "method": "tools/list"}, **headers)
    assert still.status_code == 200 and "tools" in still.json()["result"]
    none = post(zoo_http.url, {"jsonrpc": "2.0", "id": 6, "method": "prompts/list"}, **headers)
    assert (none.status_code, none.json()["result"]) == (200, {"prompts": []})
    stray = post(zoo_http.url, {"jsonrpc": "2.0", "id": 99, "result": {}}, **headers)
    assert stray.status_code == 202  # a response to nothing: accepted, as the spec says
    nothing = post(zoo_http.url, {"jsonrpc": "2.0", "id": 7}, **headers)
    assert (nothing.status_code, nothing.json()["error"]["code"]) == (400, -32600)


def test_a_stateless_server_answers_errors_with_200() -> None:
    server = HttpServer("--stateless")
    try:
        unknown = post(server.url, {"jsonrpc": "2.0", "id": 1, "method": "resources/read"})
        assert (unknown.status_code, unknown.json()["error"]["code"]) == (200, -32601)
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "nope"}}
        wrong = post(server.url, call)
        assert (wrong.status_code, wrong.json()["error"]["code"]) == (200, -32602)
    finally:
        server.stop()


def test_a_call_that_asks_streams_its_question_before_its_answer(zoo_http: HttpServer) -> None:
    opened = post(zoo_http.url, initialize_message({"elicitation": {"form": {}}}))
    headers = {
        "mcp-session-id": opened.headers["mcp-session-id"],
        "mcp-protocol-version": "2025-11-25",
    }
    call = {
        "jsonrpc": "2.0",
        "id": 9,
        "method": "tools/call",
        "params": {"name": "ask", "arguments": {}},
    }
    sent = {"accept": "application/json, text/event-stream", **headers}
    with (
        httpx.Client(timeout=20) as client,
        client.stream("POST", zoo_http.url, json=call, headers=sent) as stream,
    ):
        assert stream.headers["content-type"] == "text/event-stream"
        lines = stream.iter_lines()
        # 2025-11-25: the stream opens with an event of an id, the retry delay and no data
        priming = [next(lines) for _ in range(4)]
        assert re.fullmatch(r"id: \d+-0", priming[0]), priming
        assert priming[1:] == ["retry: 500", "data: ", ""]
        question = next(json.loads(line[6:]) for line in lines if line.startswith("data: "))
        assert question["method"] == "elicitation/create"
        assert question["params"]["message"] == "Sure?"
        reply = {
            "jsonrpc": "2.0",
            "id": question["id"],
            "result": {"action": "accept", "content": {"value": True}},
        }
        answered = post(zoo_http.url, reply, **headers)
        assert (answered.status_code, answered.content) == (202, b"")
        final = next(json.loads(line[6:]) for line in lines if line.startswith("data: "))
    assert final["id"] == 9
    assert final["result"]["content"] == [{"type": "text", "text": "accept:True"}]


def test_modern_headers_must_agree_with_the_body(zoo_http: HttpServer) -> None:
    url = zoo_http.url
    listed = post(url, modern("tools/list"), **modern_headers("tools/list"))
    assert listed.status_code == 200 and listed.json()["result"]["resultType"] == "complete"
    call = modern("tools/call", name="echo", arguments={"text": "é ☕"})
    encoded = post(url, call, **modern_headers("tools/call", "=?base64?ZWNobw==?="))
    assert encoded.status_code == 200
    for headers, detail in [
        (modern_headers("tools/call", "add"), "Mcp-Name"),
        (modern_headers("tools/list", "echo"), "Mcp-Method"),
        ({"mcp-method": "tools/call", "mcp-name": "echo"}, "MCP-Protocol-Version"),
        (
            {**modern_headers("tools/call", "echo"), "mcp-protocol-version": "2025-11-25"},
            "MCP-Protocol-Version",
        ),
    ]:
        refused = post(url, call, **headers)
        assert refused.status_code == 400, headers
        error = refused.json()["error"]
        assert error["code"] == -32020 and detail in error["message"], error
        assert refused.json()["id"] == 1
    unknown = post(url, modern("nope/nothing"), **modern_headers("nope/nothing"))
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, -32601)
    bad_tool = post(url, modern("tools/call", name="nope"), **modern_headers("tools/call", "nope"))
    assert (bad_tool.status_code, bad_tool.json()["error"]["code"]) == (400, -32602)
    told = post(
        url,
        modern("notifications/cancelled", None, requestId=5),
        **modern_headers("notifications/cancelled"),
    )
    assert (told.status_code, told.content) == (202, b"")
    assert httpx.get(url).status_code == 405  # no session, no stream
    plain = {"jsonrpc": "2.0", "id": 7, "method": "tools/list"}  # no _meta
    unnamed = post(url, plain, **modern_headers("tools/list"))
    assert (unnamed.status_code, unnamed.json()["error"]["code"]) == (400, -32602)
    assert unnamed.json()["id"] == 7
    opening = post(url, initialize_message(), **modern_headers("initialize"))
    assert (opening.status_code, opening.json()["error"]["code"]) == (404, -32601)


async def test_server_discover_is_of_the_modern_era_on_every_transport(
    zoo_http: HttpServer,
) -> None:
    """One era rule: ``server/discover`` without ``_meta`` is a modern request that lacks
    its revision, over HTTP as over stdio (the same error, with the modern status)."""
    bare = {"jsonrpc": "2.0", "id": 3, "method": "server/discover"}
    over_stdio = await objmcp.Server("zoo", {"echo": str}).handle(bare)
    for headers in ({}, modern_headers("server/discover")):
        over_http = post(zoo_http.url, bare, **headers)
        assert over_http.status_code == 400, headers
        assert over_http.json() == over_stdio, (over_http.json(), over_stdio)
        assert "mcp-session-id" not in over_http.headers


def test_a_modern_question_is_answered_input_required_and_replayed(zoo_http: HttpServer) -> None:
    caps = {**MODERN_META, "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}
    call = modern("tools/call", name="ask_after_work")
    call["params"]["_meta"] = caps
    first = post(zoo_http.url, call, **modern_headers("tools/call", "ask_after_work"))
    result = first.json()["result"]
    assert result["resultType"] == "input_required"
    (key,) = result["inputRequests"]
    retry = {**call, "id": 2}
    retry["params"] = {
        **call["params"],
        "requestState": result["requestState"],
        "inputResponses": {key: {"action": "accept", "content": {"value": True}}},
    }
    second = post(zoo_http.url, retry, **modern_headers("tools/call", "ask_after_work"))
    # the call waited, parked, for the retry: the code before the question ran once
    assert second.json()["result"]["content"][0]["text"] == "accept:True after 1 run(s)"
    assert second.json()["id"] == 2


async def test_clients_may_use_the_same_ids_at_once(zoo_http: HttpServer) -> None:
    accept = {"accept": "application/json, text/event-stream"}
    slow = modern("tools/call", name="nap", arguments={"seconds": 0.5})
    quick = modern("tools/call", name="add", arguments={"a": 1, "b": 2})
    async with httpx.AsyncClient(timeout=20) as client:
        napping = client.post(
            zoo_http.url, json=slow, headers={**accept, **modern_headers("tools/call", "nap")}
        )
        adding = client.post(
            zoo_http.url, json=quick, headers={**accept, **modern_headers("tools/call", "add")}
        )
        answers = await asyncio.gather(napping, adding)
    (napped,) = (
        events(answers[0])
        if "event-stream" in answers[0].headers["content-type"]
        else [answers[0].json()]
    )
    added = answers[1].json()
    assert napped["id"] == added["id"] == 1
    assert napped["result"]["content"][0]["text"] == "napped 0.5"
    assert added["result"]["content"][0]["text"] == "3"


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"host": "evil.example:8000"}, 421),
        ({"origin": "http://evil.example"}, 403),
        ({"origin": "http://localhost:3000"}, 200),
    ],
)
def test_dns_rebinding_is_refused(
    zoo_http: HttpServer, headers: dict[str, str], status: int
) -> None:
    answer = post(zoo_http.url, modern("tools/list"), **modern_headers("tools/list"), **headers)
    assert answer.status_code == status


def test_a_post_that_is_not_json_rpc_is_refused(zoo_http: HttpServer) -> None:
    url = zoo_http.url
    garbled = httpx.post(
        url,
        content=b"{nope",
        headers={
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
        },
    )
    assert (garbled.status_code, garbled.json()["error"]["code"]) == (400, -32700)
    plain = httpx.post(url, content=b"{}", headers={"content-type": "text/plain"})
    assert plain.status_code == 415
    picky = httpx.post(url, json={}, headers={"accept": "text/html"})
    assert picky.status_code == 406
    elsewhere = httpx.post(url.replace("/mcp", "/other"), json={})
    assert elsewhere.status_code == 404


async def test_a_token_is_required_when_the_server_has_one(guarded: HttpServer) -> None:
    missing = post(guarded.url, modern("tools/list"), **modern_headers("tools/list"))
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    wrong = post(
        guarded.url,
        modern("tools/list"),
        **modern_headers("tools/list"),
        authorization="Bearer nope",
    )
    assert wrong.status_code == 401
    assert wrong.headers["www-authenticate"] == 'Bearer error="invalid_token"'
    transport = streamable_http_client(
        guarded.url,
        http_client=create_mcp_http_client(headers={"authorization": f"Bearer {TOKEN}"}),
    )
    async with Client(transport, mode="legacy") as client:
        added = await client.call_tool("add", {"a": 20, "b": 22})
    assert text_of(added) == "42"


async def test_a_session_answers_only_the_credentials_that_opened_it() -> None:
    app = objmcp.asgi_app(
        "zoo", Zoo(), auth=objmcp.Auth(verify=lambda token: token in ("alice", "bob"))
    )
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        accept = {"accept": "application/json, text/event-stream"}
        alice = {**accept, "authorization": "Bearer alice"}
        bob = {**accept, "authorization": "Bearer bob"}
        opened = await client.post("/mcp", json=initialize_message(), headers=alice)
        session = {"mcp-session-id": opened.headers["mcp-session-id"]}
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        own = await client.post("/mcp", json=ping, headers={**alice, **session})
        other = await client.post("/mcp", json=ping, headers={**bob, **session})
        nobody = await client.post("/mcp", json=ping, headers={**accept, **session})
    await app.aclose()
    assert own.json() == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert other.status_code == 404  # bob cannot reach alice's session
    assert nobody.status_code == 401


async def test_session_ids_are_unguessable() -> None:
    app = objmcp.asgi_app("zoo", Zoo())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        accept = {"accept": "application/json, text/event-stream"}
        ids = [
            (await client.post("/mcp", json=initialize_message(), headers=accept)).headers[
                "mcp-session-id"
            ]
            for _ in range(200)
        ]
    await app.aclose()
    assert len(set(ids)) == len(ids)
    # at least 192 random bits each, in the URL-safe alphabet, sharing no common prefix
    assert all(len(i) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", i) for i in ids), ids[:3]
    assert len({i[:4] for i in ids}) > 150
    # every position takes many values: nothing counts up or repeats
    assert all(len({i[k] for i in ids}) > 30 for k in range(32))


@pytest.fixture(scope="module")
def lab_http() -> Iterator[HttpServer]:
    server = HttpServer(command=[PYTHON, str(LAB), "http={port}"])
    yield server
    server.stop()


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
async def test_a_handshake_session_hears_of_changes_on_its_get_stream(lab_http: HttpServer) -> None:
    heard: list[Any] = []
    arrived = anyio.Event()

    async def messages(message: Any) -> None:
        if isinstance(message, types.ServerNotification):
            heard.append(message)
            arrived.set()

    async with Client(lab_http.url, mode="legacy", message_handler=messages) as client:
        await client.subscribe_resource("readings://1")
        await client.call_tool("install", {"label": "fan"})
        await client.call_tool("record", {"number": 1, "value": "hot"})
        with anyio.fail_after(10):
            while len(heard) < 2:
                arrived = anyio.Event()
                await arrived.wait()
        await client.call_tool("uninstall", {"name": "fan_spin"})
    kinds = [type(message) for message in heard[:2]]
    assert kinds == [types.ToolListChangedNotification, types.ResourceUpdatedNotification]
    assert str(heard[1].params.uri) == "readings://1"


async def test_a_modern_client_listens_on_a_stream_that_stays_open(lab_http: HttpServer) -> None:
    async with (
        Client(lab_http.url, mode="2026-07-28") as client,
        client.listen(tools_list_changed=True, resource_subscriptions=["readings://2"]) as stream,
    ):
        await client.call_tool("install", {"label": "lamp"})
        installed = await anext(stream)
        await client.call_tool("record", {"number": 2, "value": "warm"})
        updated = await anext(stream)
        await client.call_tool("uninstall", {"name": "lamp_spin"})
        removed = await anext(stream)
        honored = stream.honored
    assert honored.tools_list_changed and honored.resource_subscriptions == ["readings://2"]
    assert (installed, updated, removed) == (
        ToolsListChanged(),
        ResourceUpdated("readings://2"),
        ToolsListChanged(),
    )


async def test_a_request_state_answers_only_the_caller_it_was_made_for() -> None:
    app = objmcp.asgi_app(
        "zoo",
        Zoo(),
        auth=objmcp.Auth(verify=lambda token: token in ("alice", "bob")),
        waiting=objmcp.Waiting(max_parked=0),
    )
    capabilities = {"elicitation": {}}
    call = modern("tools/call", name="ask")
    call["params"]["_meta"] = {
        **MODERN_META,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    }
    base = {"accept": "application/json, text/event-stream", **modern_headers("tools/call", "ask")}
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
    ) as client:
        asked = await client.post(
            "/mcp", json=call, headers={**base, "authorization": "Bearer alice"}
        )
        state = asked.json()["result"]
        retry = {**call, "id": 2}
        retry["params"] = {
            **call["params"],
            "requestState": state["requestState"],
            "inputResponses": {"q0": {"action": "accept", "content": {"value": True}}},
        }
        as_bob = await client.post(
            "/mcp", json=retry, headers={**base, "authorization": "Bearer bob"}
        )
        as_alice = await client.post(
            "/mcp", json=retry, headers={**base, "authorization": "Bearer alice"}
        )
    await app.aclose()
    assert state["resultType"] == "input_required"
    assert as_bob.status_code == 400
    assert as_bob.json()["error"]["code"] == -32602
    assert "caller" in as_bob.json()["error"]["message"]
    assert as_alice.json()["result"]["content"][0]["text"] == "accept:True"


def test_a_question_asked_in_one_process_is_answered_in_another() -> None:
    # Two processes behind no affinity at all, sharing the key that seals request states.
    key = {"OBJMCP_STATE_KEY": "a-key-both-processes-share"}
    run = [PYTHON, "-m", "objmcp", "run", "--http", "--port", "{port}", f"{WORKERS}:Workers"]
    first, second = HttpServer(command=run, env=key), HttpServer(command=run, env=key)
    stranger = HttpServer(command=run)  # a key of its own
    try:
        headers = modern_headers("tools/call", "ask_where")
        asked = post(first.url, ask_where(1), **headers).json()["result"]
        question = next(iter(asked["inputRequests"].values()))["params"]["message"]
        retry = ask_where(
            2,
            requestState=asked["requestState"],
            inputResponses={"q0": {"action": "accept", "content": {"value": True}}},
        )
        answered = post(second.url, retry, **headers).json()["result"]
        refused = post(stranger.url, retry, **headers)
    finally:
        for server in (first, second, stranger):
            server.stop()
    assert question == f"Sure? (asked by {first.process.pid})"
    assert answered["content"][0]["text"] == f"accept:True (answered by {second.process.pid})"
    assert refused.status_code == 400 and refused.json()["error"]["code"] == -32602


def test_several_workers_serve_one_port_and_a_question_crosses_them() -> None:
    server = HttpServer("--workers", "2", command=None, target=f"{WORKERS}:Workers")
    first = httpx.Client(timeout=20, limits=httpx.Limits(max_connections=1))
    second = httpx.Client(timeout=20, limits=httpx.Limits(max_connections=1))
    accept = {"accept": "application/json, text/event-stream"}

    def call(client: httpx.Client, name: str, request_id: int, **params: Any) -> Any:
        message = (
            ask_where(request_id, **params)
            if name == "ask_where"
            else modern("tools/call", request_id, name=name, **params)
        )
        headers = {**accept, **modern_headers("tools/call", name)}
        return client.post(server.url, json=message, headers=headers).json()["result"]

    try:
        # One keep-alive connection on each worker: while the first connection's worker
        # has its event loop blocked, only the other worker can take the second one.
        with anyio.from_thread.start_blocking_portal() as portal:
            held = portal.start_task_soon(
                lambda: anyio.to_thread.run_sync(
                    lambda: call(first, "hold", 1, arguments={"seconds": 1.5})
                )
            )
            time.sleep(0.5)
            other = call(second, "pid", 2)["structuredContent"]["result"]
            blocked = held.result()["structuredContent"]["result"]
        asked = call(first, "ask_where", 3)
        question = next(iter(asked["inputRequests"].values()))["params"]["message"]
        answers = {"q0": {"action": "accept", "content": {"value": True}}}
        retry = {"requestState": asked["requestState"], "inputResponses": answers}
        answered = call(second, "ask_where", 4, **retry)["content"][0]["text"]
    finally:
        first.close()
        second.close()
        server.stop()
    assert blocked != other and server.process.pid not in (blocked, other)
    # asked by the first connection's worker, answered (replayed) by the other one
    assert question == f"Sure? (asked by {blocked})"
    assert answered == f"accept:True (answered by {other})"


def test_an_oauth_resource_server_describes_itself_to_the_sdk() -> None:
    # The SDK's own discovery: the 401's resource_metadata, then the well-known URLs.
    from mcp.client.auth.utils import (
        build_protected_resource_metadata_discovery_urls,
        extract_resource_metadata_from_www_auth,
    )
    from mcp.shared.auth import ProtectedResourceMetadata

    server = HttpServer(command=[PYTHON, str(ZOO.parent / "oauth_zoo.py"), "{port}"])
    try:
        refused = post(server.url, modern("tools/list"), **modern_headers("tools/list"))
        pointed = extract_resource_metadata_from_www_auth(refused)
        urls = build_protected_resource_metadata_discovery_urls(pointed, server.url)
        described = [httpx.get(url, timeout=20) for url in urls]
        posted = httpx.post(urls[-1], json={}, timeout=20)
    finally:
        server.stop()
    assert refused.status_code == 401
    assert pointed == f"http://127.0.0.1:{server.port}/.well-known/oauth-protected-resource/mcp"
    assert [answer.status_code for answer in described] == [200, 200, 200]
    for answer in described:
        metadata = ProtectedResourceMetadata.model_validate_json(answer.content)
        assert str(metadata.resource) == server.url
        assert [str(url) for url in metadata.authorization_servers] == ["https://auth.example.com"]
        assert metadata.scopes_supported == ["notes:read"]
    assert posted.status_code == 405


async def test_a_client_cancels_only_its_own_modern_requests() -> None:
    # 2026-07-28 requests share one connection under the server's ids (objmcp-http-N): a
    # cancellation names the caller's own id, and reaches that caller's request alone
    app = objmcp.asgi_app(
        "zoo", Zoo(), auth=objmcp.Auth(verify=lambda token: token in ("alice", "bob"))
    )
    transport = httpx.ASGITransport(app=app)
    accept = {"accept": "application/json, text/event-stream"}
    alice = {**accept, "authorization": "Bearer alice"}
    bob = {**accept, "authorization": "Bearer bob"}
    cancelling = modern_headers("notifications/cancelled")

    def nap(request_id: int, seconds: float) -> dict[str, Any]:
        return modern("tools/call", request_id, name="nap", arguments={"seconds": seconds})

    def cancel(target: object) -> dict[str, Any]:
        return modern("notifications/cancelled", None, requestId=target)

    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        naps = {**alice, **modern_headers("tools/call", "nap")}
        first = asyncio.create_task(client.post("/mcp", json=nap(7, 0.5), headers=naps))
        await asyncio.sleep(0.2)  # the call is running
        refused = [
            await client.post("/mcp", json=cancel(target), headers={**bob, **cancelling})
            for target in ("objmcp-http-1", 7)  # the server's id, and alice's own
        ]
        answered = await first
        second = asyncio.create_task(client.post("/mcp", json=nap(8, 30), headers=naps))
        await asyncio.sleep(0.2)
        own = await client.post("/mcp", json=cancel(8), headers={**alice, **cancelling})
        stopped = await second
    await app.aclose()
    assert [r.status_code for r in refused] == [202, 202]
    assert answered.json()["result"]["content"][0]["text"] == "napped 0.5"
    assert own.status_code == 202
    assert "napped" not in stopped.text  # alice's own cancellation stopped her call


async def test_a_user_verify_names_keeps_its_session_when_its_token_is_refreshed() -> None:
    users = {"alice-1": "alice", "alice-2": "alice", "bob-1": "bob"}
    app = objmcp.asgi_app("zoo", Zoo(), auth=objmcp.Auth(verify=lambda token: users.get(token, "")))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        accept = {"accept": "application/json, text/event-stream"}

        def as_(token: str) -> dict[str, str]:
            return {**accept, "authorization": f"Bearer {token}"}

        opened = await client.post("/mcp", json=initialize_message(), headers=as_("alice-1"))
        session = {"mcp-session-id": opened.headers["mcp-session-id"]}
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        refreshed = await client.post("/mcp", json=ping, headers={**as_("alice-2"), **session})
        other = await client.post("/mcp", json=ping, headers={**as_("bob-1"), **session})
        unknown = await client.post("/mcp", json=ping, headers={**as_("eve"), **session})
    await app.aclose()
    assert refreshed.json() == {"jsonrpc": "2.0", "id": 2, "result": {}}  # the same user
    assert other.status_code == 404  # another user cannot reach alice's session
    assert unknown.status_code == 401  # an empty user id refuses the token


async def test_what_one_callers_search_finds_joins_that_callers_list_alone() -> None:
    # 2026-07-28 requests share one session over HTTP: the tools a search surfaces are kept
    # per caller, so one caller's searches never show in another's list
    users = {"alice": "alice", "bob": "bob"}
    app = objmcp.asgi_app(
        "zoo",
        Zoo(),
        discovery=objmcp.Discovery(mode="search"),
        auth=objmcp.Auth(verify=lambda token: users.get(token, "")),
    )
    transport = httpx.ASGITransport(app=app)
    accept = {"accept": "application/json, text/event-stream"}

    def as_(user: str, method: str, name: str | None = None) -> dict[str, str]:
        return {**accept, "authorization": f"Bearer {user}", **modern_headers(method, name)}

    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        search = modern("tools/call", 1, name="search_tools", arguments={"query": "add numbers"})
        found = await client.post(
            "/mcp", json=search, headers=as_("alice", "tools/call", "search_tools")
        )
        lists = {
            user: await client.post(
                "/mcp", json=modern("tools/list", 2), headers=as_(user, "tools/list")
            )
            for user in ("alice", "bob")
        }
    await app.aclose()
    hits = [hit["name"] for hit in json.loads(found.json()["result"]["content"][0]["text"])]
    names = {user: [t["name"] for t in r.json()["result"]["tools"]] for user, r in lists.items()}
    meta = ["search_tools", "describe_tools", "call_tool"]
    assert "add" in hits and names["alice"][:3] == meta and set(hits) <= set(names["alice"])
    assert names["bob"] == meta


async def test_a_modern_listen_stream_hears_that_a_search_changed_the_list() -> None:
    # progressive discovery over 2026-07-28 HTTP: the client listening for tool list
    # changes hears one after a search, lists the tools found and calls one of them
    server = HttpServer("--discovery", "search", target="statistics")
    try:
        async with (
            Client(server.url, mode="2026-07-28") as client,
            client.listen(tools_list_changed=True) as stream,
        ):
            before = [tool.name for tool in (await client.list_tools()).tools]
            found = await client.call_tool("search_tools", {"query": "average of some numbers"})
            heard = await anext(stream)
            after = [tool.name for tool in (await client.list_tools()).tools]
            direct = await client.call_tool("mean", {"data": [1, 2, 6]})
    finally:
        server.stop()
    meta = ["search_tools", "describe_tools", "call_tool"]
    hits = [hit["name"] for hit in json.loads(text_of(found))]
    assert before == meta and "mean" in hits
    assert heard == ToolsListChanged()
    assert after[:3] == meta and set(hits) <= set(after[3:])
    assert text_of(direct) == "3"


async def test_a_searching_servers_tool_list_is_never_cached_as_public() -> None:
    # what a search surfaces joins one caller's list: a shared cache must not keep it
    app = objmcp.asgi_app(
        "zoo",
        Zoo(),
        discovery=objmcp.Discovery(mode="search"),
        about=objmcp.About(cache={"tools/list": (60_000, "public")}),
    )
    transport = httpx.ASGITransport(app=app)
    accept = {"accept": "application/json, text/event-stream", **modern_headers("tools/list")}
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        listed = await client.post("/mcp", json=modern("tools/list", 1), headers=accept)
    await app.aclose()
    result = listed.json()["result"]
    assert (result["ttlMs"], result["cacheScope"]) == (60_000, "private")


@pytest.mark.parametrize("workers", [1, 2])
def test_several_workers_answer_no_call_as_a_task_nobody_else_could_find(workers: int) -> None:
    # The reproduction: with --workers 2 a slow call answered as a task, and tasks/get for
    # it landing on the other worker, answered "Task not found". With one worker the same
    # call is a task; with two, it is answered plainly, and the start-up line says why.
    options = ["--workers", str(workers), "--task-after", "0.3"]
    server = HttpServer(*options, command=None, target=f"{WORKERS}:Workers")
    call = modern("tools/call", 1, name="slow_pid", arguments={"seconds": 1.0})
    call["params"]["_meta"] = {
        **MODERN_META,
        "io.modelcontextprotocol/clientCapabilities": {
            "extensions": {"io.modelcontextprotocol/tasks": {}}
        },
    }
    try:
        answered = post(server.url, call, **modern_headers("tools/call", "slow_pid")).json()
    finally:
        _, err = server.stop()
    said = "tasks and jobs are off with --workers 2"
    if workers == 1:
        assert answered["result"]["resultType"] == "task", answered
        assert said not in err
    else:
        assert answered["result"]["resultType"] == "complete", answered
        assert answered["result"]["structuredContent"]["result"] != server.process.pid
        assert said in err
