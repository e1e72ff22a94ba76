"""Resources and prompts are bounded as tool results are (issue 36, holes 2 and 5): a URI
over the length bound is refused at once (-32602) wherever one is matched against the
templates (``resources/read``, ``resources/subscribe``, ``subscriptions/listen``), and one
under it is matched in linear time; a listen stream's filter, and a connection's
subscriptions, hold a bounded number of characters of URIs; the iterators a resource or
a prompt returns give at most ``max_items`` items and say they were cut, contents or
messages over ``max_result`` are an error naming the option, and a slow generator is read
in a worker thread while the server answers others. One ``objmcp run`` in a real process
over raw pipes, both eras on its one connection."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ROOT, RawServer
from http_helpers import call, modern

from objmcp.model.finding.uritemplates import MAX_URI_LENGTH
from objmcp.protocol.subscriptions import MAX_SUBSCRIBED_CHARACTERS

READING = f"{ROOT / 'tests' / 'servers' / 'reading.py'}:Reading"
MAX_ITEMS = 100
MAX_RESULT = 100_000
LONG_URI = "files://" + "a-" * 25_000 + "b"  # 50 KB: seconds of backtracking before


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    """``objmcp run`` of the Reading object, small bounds, handshake done."""
    served = RawServer(
        "-m",
        "objmcp",
        "run",
        READING,
        "--max-items",
        str(MAX_ITEMS),
        "--max-result",
        str(MAX_RESULT),
    )
    served.initialize()
    yield served
    served.process.stdin.close()  # type: ignore[union-attr]
    served.process.wait(timeout=30)


def request(request_id: int, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def texts(result: Any) -> list[str]:
    return [block["text"] for block in result["content"]]


def test_a_uri_over_the_bound_is_refused_wherever_it_is_matched(server: RawServer) -> None:
    """As are too many characters of URIs in one listen stream's filter; and a URI just
    under the bound is read, its variables split as the greedy template says."""
    asked = {
        1: request(1, "resources/read", uri=LONG_URI),
        2: request(2, "resources/subscribe", uri=LONG_URI),
        3: modern("subscriptions/listen", 3, notifications={"resourceSubscriptions": [LONG_URI]}),
    }
    for request_id, message in asked.items():
        server.send(message)
        error = answer(server, request_id)["error"]
        assert error["code"] == -32602, error
        assert f"{len(LONG_URI):,} characters long" in error["message"]
        assert f"limit of {MAX_URI_LENGTH:,}" in error["message"]
    many = [f"files://{index}-" + "a" * 8000 for index in range(40)]  # each under the bound
    server.send(modern("subscriptions/listen", 9, notifications={"resourceSubscriptions": many}))
    error = answer(server, 9)["error"]
    assert error["code"] == -32602, error
    assert f"limit of {MAX_SUBSCRIBED_CHARACTERS:,} for one stream" in error["message"]
    uri = "files://" + "a-" * ((MAX_URI_LENGTH - 10) // 2) + "b"
    server.send(request(4, "resources/read", uri=uri))
    contents = answer(server, 4)["result"]["contents"]
    stem, suffix = contents[0]["text"].split("|")
    assert (stem, suffix) == (uri[len("files://") : -2], "b")


def test_a_connection_subscribes_to_a_bounded_number_of_characters_of_uris(
    server: RawServer,
) -> None:
    uris = [f"files://{index}-" + "a" * 8000 for index in range(40)]
    kept = MAX_SUBSCRIBED_CHARACTERS // len(uris[0])
    for index, uri in enumerate(uris[: kept + 1]):
        server.send(request(100 + index, "resources/subscribe", uri=uri))
    for index in range(kept):
        assert answer(server, 100 + index)["result"] == {}
    error = answer(server, 100 + kept)["error"]
    assert error["code"] == -32602, error
    assert f"at most {MAX_SUBSCRIBED_CHARACTERS:,}: unsubscribe" in error["message"]
    server.send(request(200, "resources/unsubscribe", uri=uris[0]))
    server.send(request(201, "resources/subscribe", uri=uris[kept]))
    assert answer(server, 200)["result"] == {}
    assert answer(server, 201)["result"] == {}


def test_a_resource_iterator_is_cut_at_max_items_and_says_so(server: RawServer) -> None:
    server.send(request(5, "resources/read", uri="numbers://many"))
    contents = answer(server, 5)["result"]["contents"]
    assert json.loads(contents[0]["text"]) == list(range(MAX_ITEMS))
    assert contents[1]["mimeType"] == "text/plain"
    assert f"cut at {MAX_ITEMS} items" in contents[1]["text"]


def test_a_prompt_iterator_is_cut_at_max_items_and_says_so(server: RawServer) -> None:
    server.send(request(6, "prompts/get", name="many_lines"))
    messages = answer(server, 6)["result"]["messages"]
    assert [m["content"]["text"] for m in messages[:-1]] == [
        f"line {number}" for number in range(MAX_ITEMS)
    ]
    assert f"cut at {MAX_ITEMS} items" in messages[-1]["content"]["text"]


@pytest.mark.parametrize(
    ("method", "params", "what"),
    [
        ("resources/read", {"uri": "numbers://listed"}, "The resource's contents"),
        ("prompts/get", {"name": "long_text"}, "The prompt's messages"),
    ],
)
def test_contents_or_messages_over_max_result_are_an_error_naming_it(
    server: RawServer, method: str, params: dict[str, Any], what: str
) -> None:
    request_id = 7 if method == "resources/read" else 8
    server.send(request(request_id, method, **params))
    error = answer(server, request_id)["error"]
    assert error["code"] == -32603, error
    assert error["message"].startswith(f"{what} is too big to send")
    assert f"max_result of {MAX_RESULT:,}" in error["message"]


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("resource", request(10, "resources/read", uri="numbers://slow")),
        ("prompt", request(10, "prompts/get", name="slow_lines")),
    ],
)
def test_a_slow_generator_is_read_while_the_server_answers_others(
    server: RawServer, kind: str, message: dict[str, Any]
) -> None:
    server.send(message)
    server.send(call(11, "wait_reading", kind=kind))
    first = next_answer(server)
    assert first["id"] == 11, "the read's answer came first: it wedged the server"
    assert texts(first["result"]) == ["true"]
    server.send(call(12, "ping"))
    assert next_answer(server)["id"] == 12, "the event loop waited for the read"
    server.send(call(13, "release", kind=kind))
    answers = {reply["id"]: reply for reply in (next_answer(server), next_answer(server))}
    result = answers[10]["result"]
    shown = result["contents"][0]["text"] if kind == "resource" else result["messages"]
    assert "second" in json.dumps(shown)


def answer(server: RawServer, request_id: int) -> Any:
    """The next answer, which must be to ``request_id``."""
    reply = next_answer(server)
    assert reply["id"] == request_id, reply
    return reply


def next_answer(server: RawServer) -> Any:
    """The next answer to a request, in the order the server wrote them (a wedged server
    answers too, once its slow read gave up waiting: ``reading.WAIT``)."""
    while True:
        message = server.read()
        if "method" not in message:
            return message
