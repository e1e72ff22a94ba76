"""Resumable streams (handshake era over Streamable HTTP): a client that loses a stream's
connection gets the rest of it with a GET and ``Last-Event-ID``; its calls go on meanwhile
(a lost connection is not a cancellation); with ``--poll-after`` the server itself closes a
2025-11-25 client's long request streams, and the client polls for the rest.

Spoken to with raw HTTP where the events and their ids are the point, and with the
official Python SDK client, whose transport reconnects by itself."""

from __future__ import annotations

import concurrent.futures
import json
import logging
import re
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2 as httpx
import pytest
from http_helpers import (
    ACCEPT,
    LAB,
    PYTHON,
    HttpServer,
    call,
    open_session,
    post,
    read_event,
    text_of,
)
from mcp import Client, types

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def zoo_http() -> Iterator[HttpServer]:
    server = HttpServer()
    yield server
    server.stop()


def test_a_lost_stream_is_resumed_where_it_left_off(zoo_http: HttpServer) -> None:
    url = zoo_http.url
    headers = open_session(url, {"elicitation": {"form": {}}})
    with (
        httpx.Client(timeout=20) as client,
        client.stream("POST", url, json=call(7, "ask"), headers={**ACCEPT, **headers}) as stream,
    ):
        lines = stream.iter_lines()
        priming = read_event(lines)
        question = read_event(lines)
    # the connection is gone, with the question unanswered: the call waits on
    number = re.fullmatch(r"(\d+)-0", priming["id"])
    assert number is not None and priming["data"] == "" and priming["retry"] == "500"
    assert question["id"] == f"{number[1]}-1"
    asked = json.loads(question["data"])
    assert asked["method"] == "elicitation/create"
    reply = {
        "jsonrpc": "2.0",
        "id": asked["id"],
        "result": {"action": "accept", "content": {"value": True}},
    }
    assert post(url, reply, **headers).status_code == 202

    resume = {**headers, "accept": "text/event-stream", "last-event-id": question["id"]}
    resumed = httpx.get(url, headers=resume, timeout=20)
    assert resumed.status_code == 200
    answer = read_event(iter(resumed.text.splitlines()))
    assert answer["id"] == f"{number[1]}-2"
    answered = json.loads(answer["data"])
    assert answered["id"] == 7
    assert answered["result"]["content"] == [{"type": "text", "text": "accept:True"}]
    # from the start again: the question, then the answer, and the stream ends
    again = httpx.get(url, headers={**resume, "last-event-id": priming["id"]}, timeout=20)
    ids = [line[4:] for line in again.text.splitlines() if line.startswith("id: ")]
    assert ids == [question["id"], answer["id"]]


def test_an_unknown_last_event_id_is_refused(zoo_http: HttpServer) -> None:
    headers = {**open_session(zoo_http.url), "accept": "text/event-stream"}
    for last in ("999-1", "nonsense", "1-999999"):
        refused = httpx.get(zoo_http.url, headers={**headers, "last-event-id": last}, timeout=20)
        assert refused.status_code == 400, last
        assert "Last-Event-ID" in refused.text


def test_the_get_stream_keeps_what_came_while_it_was_away() -> None:
    lab = HttpServer(command=[PYTHON, str(LAB), "http={port}"])
    try:
        headers = open_session(lab.url)
        listen = {**headers, "accept": "text/event-stream"}
        with httpx.Client(timeout=20) as client, client.stream("GET", lab.url, headers=listen) as s:
            priming = read_event(s.iter_lines())
        # away: the tool list changes twice
        installed = post(lab.url, call(2, "install", label="fan"), **headers)
        assert installed.status_code == 200
        removed = post(lab.url, call(3, "uninstall", name="fan_spin"), **headers)
        assert removed.status_code == 200
        with (
            httpx.Client(timeout=20) as client,
            client.stream("GET", lab.url, headers={**listen, "last-event-id": priming["id"]}) as s,
        ):
            lines = s.iter_lines()
            missed = [read_event(lines), read_event(lines)]
    finally:
        lab.stop()
    number = priming["id"].split("-")[0]
    assert [event["id"] for event in missed] == [f"{number}-1", f"{number}-2"]
    assert [json.loads(event["data"])["method"] for event in missed] == [
        "notifications/tools/list_changed"
    ] * 2


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("nap", {"seconds": 1.2}, "napped 1.2"),  # on the event loop
        ("sleep", {"seconds": 1.2}, "slept 1.2"),  # in a worker thread
        ("ask", {}, "accept:True"),  # the user takes a while to answer
    ],
)
async def test_the_sdk_client_polls_a_stream_the_server_closes(
    tool: str, arguments: dict[str, Any], expected: str, caplog: pytest.LogCaptureFixture
) -> None:
    server = HttpServer("--poll-after", "0.3")
    caplog.set_level(logging.INFO, logger="mcp.client.streamable_http")
    asked: list[str] = []

    async def answer(context: Any, request: types.ElicitRequestParams) -> Any:
        asked.append(request.message)
        await anyio.sleep(1.0)
        return types.ElicitResult(action="accept", content={"value": True})

    try:
        async with Client(server.url, mode="legacy", elicitation_callback=answer) as client:
            result = await client.call_tool(tool, arguments)
    finally:
        _, log = server.stop()
    reconnected = [r for r in caplog.records if "reconnect" in r.getMessage().lower()]
    assert reconnected, [r.getMessage() for r in caplog.records]
    assert (text_of(result), result.is_error) == (expected, False), log
    assert asked == (["Sure?"] if tool == "ask" else [])


def test_answers_that_came_while_the_client_polled_are_all_kept() -> None:
    # Regression (review): ten held streams finished unread while the client waited to
    # reconnect; the session forgot the oldest ones as soon as another request came.
    server = HttpServer("--poll-after", "0.2")
    try:
        headers = open_session(server.url)
        sent = {**ACCEPT, **headers}

        def held(number: int) -> str:
            naps = call(number, "nap", seconds=1.5)
            answer = httpx.post(server.url, json=naps, headers=sent, timeout=20)
            return read_event(iter(answer.text.splitlines()))["id"]  # the priming event

        with concurrent.futures.ThreadPoolExecutor(10) as pool:
            primings = list(pool.map(held, range(1, 11)))
        time.sleep(2.0)  # every nap is over, and no connection read its answer
        assert post(server.url, call(99, "add", a=1, b=2), **headers).status_code == 200
        resumed = [
            httpx.get(
                server.url,
                headers={**headers, "accept": "text/event-stream", "last-event-id": priming},
                timeout=20,
            )
            for priming in primings
        ]
    finally:
        server.stop()
    answers = [json.loads(read_event(iter(r.text.splitlines()))["data"]) for r in resumed]
    assert [answer["id"] for answer in answers] == list(range(1, 11))
    assert {answer["result"]["content"][0]["text"] for answer in answers} == {"napped 1.5"}


def test_ending_a_session_stops_its_running_calls(zoo_http: HttpServer) -> None:
    # Regression (review): a deleted session's call ran on, holding its request open.
    headers = open_session(zoo_http.url)
    sent = {**ACCEPT, **headers}
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        naps = call(1, "nap", seconds=600)
        running = pool.submit(httpx.post, zoo_http.url, json=naps, headers=sent, timeout=30)
        time.sleep(0.5)
        assert httpx.delete(zoo_http.url, headers=headers, timeout=20).status_code == 200
        ended = running.result()  # within its timeout: the call was stopped
    assert ended.status_code == 200
    assert "napped" not in ended.text
