"""Calls that wait for the client: parked and resumed (modern era), replayed when they
cannot be, and never holding a worker-thread place while they wait. Real server
processes, raw pipes."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ZOO, RawServer

ELICIT = {"elicitation": {}}
MODERN = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": ELICIT,
}
YES = {"action": "accept", "content": {"value": True}}


def call(request_id: Any, name: str, arguments: dict[str, Any], **params: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments, "_meta": MODERN, **params},
    }


def retry(request_id: Any, name: str, asked: dict[str, Any], answer: Any) -> dict[str, Any]:
    """The retry of a call answered ``input_required``, answering its one question."""
    (key,) = asked["inputRequests"]
    state = asked["requestState"]
    return call(request_id, name, {}, inputResponses={key: answer}, requestState=state)


def text(response: dict[str, Any]) -> str:
    result = response["result"]
    assert result["resultType"] == "complete", result
    return str(result["content"][0]["text"])


@pytest.fixture
def servers() -> Iterator[list[RawServer]]:
    started: list[RawServer] = []
    yield started
    for server in started:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()


def start(servers: list[RawServer], *options: str) -> RawServer:
    server = RawServer(str(ZOO), "auto", *options)
    servers.append(server)
    return server


def test_a_parked_call_resumes_where_it_asked(servers: list[RawServer]) -> None:
    server = start(servers)
    asked = server.request(call(1, "ask_after_work", {}))["result"]
    assert asked["resultType"] == "input_required"
    assert text(server.request(retry(2, "ask_after_work", asked, YES))) == (
        "accept:True after 1 run(s)"  # the code before the question ran once
    )
    again = server.request(call(3, "ask_after_work", {}))["result"]
    declined = server.request(retry(4, "ask_after_work", again, {"action": "decline"}))
    assert text(declined) == "decline:None after 2 run(s)"


def test_with_no_room_to_park_the_retry_replays(servers: list[RawServer]) -> None:
    server = start(servers, "max_parked=0")
    asked = server.request(call(1, "ask_after_work", {}))["result"]
    assert text(server.request(retry(2, "ask_after_work", asked, YES))) == (
        "accept:True after 2 run(s)"  # run again from the start, the answer taken from the state
    )


def test_a_serial_sync_call_does_not_park(servers: list[RawServer]) -> None:
    server = start(servers, "concurrency=serial")
    asked = server.request(call(1, "ask_after_work", {}))["result"]
    assert text(server.request(call(2, "add", {"a": 1, "b": 2}))) == "3"  # the thread is free
    assert text(server.request(retry(3, "ask_after_work", asked, YES))).endswith("2 run(s)")


def test_an_expired_park_is_dropped_and_the_retry_replays(servers: list[RawServer]) -> None:
    server = start(servers, "park_timeout=0.2")
    asked = server.request(call(1, "ask_after_work", {}))["result"]
    time.sleep(1.0)
    assert text(server.request(retry(2, "ask_after_work", asked, YES))).endswith("2 run(s)")
    _, err, status = server.close()
    assert status == 0
    assert b"waited too long" in err


def test_the_same_retry_twice_resumes_once_and_replays_once(servers: list[RawServer]) -> None:
    server = start(servers)
    asked = server.request(call(1, "ask_after_work", {}))["result"]
    assert text(server.request(retry(2, "ask_after_work", asked, YES))).endswith("1 run(s)")
    assert text(server.request(retry(3, "ask_after_work", asked, YES))).endswith("2 run(s)")


def test_a_parked_call_asks_again_and_resumes_again(servers: list[RawServer]) -> None:
    server = start(servers)
    first = server.request(call(1, "ask_twice", {}))["result"]
    details = {"action": "accept", "content": {"name": "Bo", "age": 7}}
    second = server.request(retry(2, "ask_twice", first, details))["result"]
    assert second["inputRequests"]["q1"]["params"]["message"] == "Colour?"
    colour = {"action": "accept", "content": {"value": "green"}}
    assert text(server.request(retry(3, "ask_twice", second, colour))) == (
        "Details(name='Bo', age=7) <Color.GREEN: 'green'>"
    )


def test_parked_calls_end_quietly_at_end_of_input(servers: list[RawServer]) -> None:
    server = start(servers)
    for request_id in (1, 2, 3):
        asked = server.request(call(request_id, "ask_after_work", {}))["result"]
        assert asked["resultType"] == "input_required"
    out, _, status = server.close(timeout=20)
    assert (out, status) == (b"", 0)  # nothing more is written, and nothing hangs


@pytest.mark.parametrize("era", ["handshake", "modern"])
def test_a_waiting_call_lends_its_thread_place_out(servers: list[RawServer], era: str) -> None:
    server = start(servers, "max_threads=1")
    if era == "handshake":
        server.request(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": ELICIT,
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            }
        )
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        plain: dict[str, Any] = {}
        server.send({**call(1, "ask", {}), "params": {"name": "ask", "arguments": {}}})
        question = server.read()
        assert question["method"] == "elicitation/create"
    else:
        plain = {"_meta": MODERN}
        asked = server.request(call(1, "ask_after_work", {}))["result"]
        assert asked["resultType"] == "input_required"
    # The one thread place is free while the question waits: sync calls still run.
    for request_id in (2, 3):
        added = server.request(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "method": "tools/call",
                "params": {"name": "add", "arguments": {"a": request_id, "b": 1}, **plain},
            }
        )
        assert added["result"]["content"][0]["text"] == str(request_id + 1)
    if era == "handshake":
        server.send({"jsonrpc": "2.0", "id": question["id"], "result": YES})
        assert server.read()["result"]["content"][0]["text"] == "accept:True"
    else:
        assert text(server.request(retry(4, "ask_after_work", asked, YES))).endswith("1 run(s)")


class FramedServer(RawServer):
    """The zoo spoken to with Content-Length frames (LSP style), as Logtalk's clients do."""

    def send(self, message: Any) -> None:
        body = json.dumps(message).encode()
        self.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    def read(self) -> Any:
        assert self.process.stdout is not None
        length = None
        while True:
            line = self.process.stdout.readline()
            assert line, "the server closed its output"
            if not line.strip():
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        assert length is not None
        return json.loads(self.process.stdout.read(length))


def test_questions_in_both_eras_over_content_length_frames() -> None:
    server = FramedServer(str(ZOO), "content-length")
    try:
        init = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {"elicitation": {}, "sampling": {}},
                "clientInfo": {"name": "framed", "version": "0"},
            },
        }
        assert server.request(init)["result"]["protocolVersion"] == "2025-11-25"
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        server.send(
            {
                **call(1, "summarize", {"text": "abc"}),
                "params": {"name": "summarize", "arguments": {"text": "abc"}},
            }
        )
        sampling = server.read()
        assert sampling["method"] == "sampling/createMessage"
        answer = {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"}
        server.send({"jsonrpc": "2.0", "id": sampling["id"], "result": answer})
        assert server.read()["result"]["content"][0]["text"] == "ok [m, None]"
        asked = server.request(call(2, "ask_after_work", {}))["result"]
        assert asked["resultType"] == "input_required"
        assert text(server.request(retry(3, "ask_after_work", asked, YES))).endswith("1 run(s)")
        out, _, status = server.close()
        assert (out, status) == (b"", 0)
    finally:
        if server.process.poll() is None:
            server.process.kill()
