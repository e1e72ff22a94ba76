"""Endless and huge results must not wedge the server (issue 22): iterators are read up to
``max_items`` (all of a result's together) and the result says it was cut; a result text
over ``max_result`` characters is an error result naming the bound; and ``call_timeout``
stops a call whose result is still being read. Each through ``objmcp run`` in a real
process over raw pipes, the next request answered after it."""

from __future__ import annotations

import json
import select
import time
from typing import Any

import pytest
from conftest import ROOT, RawServer
from http_helpers import call

ENDLESS = f"{ROOT / 'tests' / 'servers' / 'endless.py'}:Endless"
WAIT = 60.0  # seconds an answer may take on a busy machine; a wedged server takes for ever


def endless(*options: str) -> RawServer:
    """``objmcp run`` of the Endless object, with ``options``, handshake done."""
    server = RawServer("-m", "objmcp", "run", ENDLESS, *options)
    server.initialize()
    return server


def answer(server: RawServer, request_id: int, within: float = WAIT) -> Any:
    """The answer to ``request_id``, read within ``within`` seconds (else the test fails)."""
    assert server.process.stdout is not None
    deadline = time.monotonic() + within
    while True:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([server.process.stdout], [], [], max(left, 0))
        assert ready, f"no answer to {request_id} within {within} s: the server is wedged"
        message = server.read()
        if message.get("id") == request_id and "method" not in message:
            return message


def blocks(message: Any) -> list[str]:
    return [block["text"] for block in message["result"]["content"]]


def still_serves(server: RawServer, request_id: int) -> None:
    server.send(call(request_id, "ping"))
    assert blocks(answer(server, request_id, within=10)) == ["pong"]
    server.process.stdin.close()  # type: ignore[union-attr]
    server.process.wait(timeout=30)


@pytest.mark.parametrize("tool", ["count", "count_async"])
def test_an_endless_iterator_gives_its_first_max_items_items_and_says_it_was_cut(
    tool: str,
) -> None:
    server = endless()  # the default bound: 10,000
    server.send(call(1, tool))
    result = answer(server, 1)["result"]
    assert result["isError"] is False, result
    first, note = blocks({"result": result})
    assert json.loads(first) == list(range(10_000))
    assert "cut at 10000 items" in note and "max_items" in note, note
    if "structuredContent" in result:
        assert result["structuredContent"]["result"] == list(range(10_000))
    still_serves(server, 2)


def test_more_itertools_padded_is_cut_at_the_bound_given() -> None:
    pytest.importorskip("more_itertools")
    server = endless("--max-items", "50")
    server.send(call(1, "padded"))
    first, note = blocks(answer(server, 1))
    assert json.loads(first) == [1, 2, 3] + [None] * 47
    assert "cut at 50 items" in note, note
    still_serves(server, 2)


def test_nested_iterators_share_the_bound() -> None:
    server = endless("--max-items", "25")
    server.send(call(1, "nested"))
    first, note = blocks(answer(server, 1))
    assert json.loads(first) == [list(range(25)), [], []]
    assert "cut at 25 items" in note, note
    still_serves(server, 2)


def test_a_result_text_over_max_result_is_an_error_naming_its_size_and_the_bound() -> None:
    server = endless("--max-result", "10000000")
    server.send(call(1, "huge", characters=20_000_000))
    result = answer(server, 1)["result"]
    assert result["isError"] is True, result
    (message,) = blocks({"result": result})
    assert "20,000,000 characters" in message and "max_result" in message, message
    assert "10,000,000" in message and "--max-result" in message, message
    assert len(json.dumps(result)) < 1000
    server.send(call(2, "huge_list", items=20_000))  # a list whose JSON text is too long
    (message,) = blocks(answer(server, 2))
    assert "max_result" in message and "20,0" in message, message
    server.send(call(3, "huge", characters=9_000_000))  # under the bound: sent whole
    assert len(blocks(answer(server, 3))[0]) == 9_000_000
    still_serves(server, 4)


@pytest.mark.parametrize("tool", ["slow", "slow_async"])
def test_call_timeout_stops_a_call_whose_endless_result_is_being_read(tool: str) -> None:
    server = endless("--call-timeout", "0.5", "--max-items", "20")
    started = time.monotonic()
    server.send(call(1, tool, pause=0.1))
    (message,) = blocks(answer(server, 1, within=10))
    assert "call_timeout" in message, message
    assert time.monotonic() - started < 5
    server.send(call(2, "ping"))
    assert blocks(answer(server, 2, within=5)) == ["pong"]
    # the abandoned generator is read no further than the bound (20 items and the one
    # that tells it went on), then it stops for good
    time.sleep(3.0)
    server.send(call(3, "produced"))
    produced = json.loads(blocks(answer(server, 3, within=5))[0])
    time.sleep(0.5)
    server.send(call(4, "produced"))
    assert json.loads(blocks(answer(server, 4, within=5))[0]) == produced == 21
    still_serves(server, 5)
