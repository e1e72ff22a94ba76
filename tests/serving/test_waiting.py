"""Calls waiting for the client's answer are bounded (issue 27, item 9): a sync call that
asks keeps its worker thread while it waits, so a client that asks and leaves must not
pin threads without end. Beyond ``max_waiting`` (one session) or ``max_waiting_total``
(every session) the question fails in the call, which answers with a clear error."""

from __future__ import annotations

import json
from typing import Any

import httpx2 as httpx  # the HTTP client the mcp SDK ships with
import pytest
from conftest import ZOO, RawServer
from http_helpers import ACCEPT, HttpServer, call, open_session, post

ELICITATION = {"elicitation": {"form": {}}}


def serve(*options: str) -> RawServer:
    server = RawServer("-m", "objmcp", "run", *options, f"{ZOO}:Zoo")
    server.initialize("2025-11-25", ELICITATION)
    return server


def error_text(answer: dict[str, Any]) -> str:
    result = answer["result"]
    assert result["isError"] is True, result
    return "".join(block["text"] for block in result["content"])


@pytest.mark.parametrize("option", ["--max-waiting", "--max-waiting-total"])
def test_a_question_beyond_the_bound_is_an_error_result(option: str) -> None:
    server = serve(option, "1")
    try:
        question = server.request(call(1, "ask"))
        assert question["method"] == "elicitation/create"
        refused = server.request(call(2, "ask"))
        assert refused["id"] == 2
        said = error_text(refused)
        assert option.removeprefix("--").replace("-", "_") in said
        assert "wait" in said
        server.send({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "decline"}})
        answered = server.read()
        assert answered["id"] == 1
        assert answered["result"]["content"][0]["text"] == "decline:None"
        again = server.request(call(3, "ask"))  # the place is free again
        assert again["method"] == "elicitation/create"
    finally:
        server.process.kill()
        server.process.wait()


def test_the_total_bound_holds_across_sessions_over_http() -> None:
    server = HttpServer("--max-waiting-total", "1")
    first, second = (open_session(server.url, ELICITATION) for _ in range(2))
    try:
        with (
            httpx.Client(timeout=5) as client,
            client.stream(
                "POST", server.url, json=call(1, "ask"), headers={**ACCEPT, **first}
            ) as waiting,
        ):
            line = next(line for line in waiting.iter_lines() if line.startswith("data: {"))
            assert json.loads(line[6:])["method"] == "elicitation/create"
            refused = post(server.url, call(1, "ask"), **second)
            assert "max_waiting_total" in error_text(refused.json())
            client.delete(server.url, headers=first)  # its call ends with it
    finally:
        server.stop()
