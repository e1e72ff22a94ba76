"""The object misbehaves; the server says so and carries on (issue 8's faults), spoken to
through raw pipes so that every byte on stdout is checked to be a protocol frame."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, RawServer
from http_helpers import call

FAULTY = ROOT / "tests" / "servers" / "faulty.py"


def test_each_fault_is_a_clear_tool_error_and_the_server_carries_on(tmp_path: Path) -> None:
    # stderr to a file: megabytes of it would fill a pipe nobody reads meanwhile
    log = (tmp_path / "stderr").open("w+b")
    server = RawServer(str(FAULTY), stderr=log)
    server.initialize()
    faults = {
        "interrupt": "KeyboardInterrupt",
        "interrupt_async": "KeyboardInterrupt",
        "exit": "SystemExit: 3",
        "exit_async": "SystemExit: 4",
        "generator_exit": "GeneratorExit",
        "loop": "has no JSON form: NotJsonable: the value refers to itself (a cycle)",
        "recurse": "RecursionError",
    }
    answers: dict[str, Any] = {}
    for number, name in enumerate(faults, start=1):
        answers[name] = server.request(call(number, name))
        alive = server.request(call(100 + number, "ok"))
        assert alive["result"]["content"] == [{"type": "text", "text": "ok"}], (name, alive)
    opaque = server.request(call(150, "opaque"))
    shouted = server.request(call(200, "shout", megabytes=2))
    out, _, status = server.close()
    log.seek(0)
    err = log.read()
    for number, (name, expected) in enumerate(faults.items(), start=1):
        answer = answers[name]
        assert answer["id"] == number
        result = answer["result"]
        assert result["isError"] is True, (name, answer)
        said = result["content"][0]["text"]
        assert expected in said, (name, said)
    # what JSON has no form for, but is no error, is its text (str), as documented
    assert opaque["result"]["isError"] is False
    assert "lock object" in opaque["result"]["content"][0]["text"]
    assert shouted["result"]["content"] == [{"type": "text", "text": "shouted"}]
    assert out == b""  # nothing else reached stdout: not the prints, not the child's
    assert status == 0, err.decode()[-2000:]
    assert err.count(b"x" * 1023) >= 2 * 1024  # the object's output went to stderr


def test_every_line_on_stdout_is_a_frame(tmp_path: Path) -> None:
    server = RawServer(str(FAULTY), stderr=(tmp_path / "stderr").open("wb"))
    server.initialize()
    server.send(call(1, "shout", megabytes=1))
    server.send(call(2, "ok"))
    first, second = server.read(), server.read()
    out, _, status = server.close()
    assert {first["id"], second["id"]} == {1, 2}
    assert out == b"" and status == 0  # both answers were whole lines of JSON, nothing else


SLIP = ROOT / "tests" / "servers" / "slip.py"


@pytest.mark.parametrize("framing", ["newline", "content-length"])
def test_a_bug_of_objmcps_on_one_message_is_an_internal_error_for_it_alone(framing: str) -> None:
    """Through real pipes (the reader thread reads them): the request the planted bug
    hits is answered with -32603, the traceback goes to stderr, and serving goes on."""
    server = RawServer(str(SLIP), framing)

    def frame(message: dict[str, Any]) -> bytes:
        body = json.dumps(message).encode()
        if framing == "content-length":
            return b"Content-Length: %d\r\n\r\n%b" % (len(body), body)
        return body + b"\n"

    init = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    }
    server.write(
        frame({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init})
        + frame({"jsonrpc": "2.0", "method": "notifications/initialized"})
        + frame({"jsonrpc": "2.0", "id": 1, "method": "slip/now", "params": {}})
        + frame(call(2, "add", a=2, b=3))
        + frame({"jsonrpc": "2.0", "id": 3, "method": "slip/now", "params": {}})
        + frame({"jsonrpc": "2.0", "id": 4, "method": "ping"})
        + frame(call(5, "slip"))
        + frame(call(6, "slip_later"))
        + frame(call(7, "add", a=4, b=5))
    )
    out, err, status = server.close()  # the input ends: everything is answered first
    assert status == 0
    answers = {message["id"]: message for message in _frames(out, framing)}
    assert set(answers) == {0, 1, 2, 3, 4, 5, 6, 7}
    for slipped in (1, 3, 5, 6):
        assert answers[slipped]["error"] == {"code": -32603, "message": "Internal error"}
    assert answers[2]["result"]["content"][0]["text"] == "5"
    assert answers[4]["result"] == {}
    assert answers[7]["result"]["content"][0]["text"] == "9"
    said = err.decode()
    assert said.count("RuntimeError: a planted bug\n") == 2
    assert said.count("RuntimeError: a planted bug in an answer") == 2


def _frames(out: bytes, framing: str) -> list[Any]:
    if framing == "newline":
        return [json.loads(line) for line in out.splitlines() if line.strip()]
    found: list[Any] = []
    while out:
        header, _, rest = out.partition(b"\r\n\r\n")
        length = int(header.split(b":")[1])
        found.append(json.loads(rest[:length]))
        out = rest[length:]
    return found


def test_a_bug_of_objmcps_is_an_internal_error_on_the_event_loop_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same in memory (objmcp.testing), where the connection reads on the event loop."""
    from objmcp.protocol import routing
    from objmcp.protocol.session import Session
    from objmcp.testing import ResponseError, connect_sync

    planted = routing.request

    def slipping(session: Session, request_id: Any, method: str, *args: Any) -> Any:
        if method == "slip/now":
            raise RuntimeError("a planted bug")
        return planted(session, request_id, method, *args)

    monkeypatch.setattr(routing, "request", slipping)

    class Adder:
        def add(self, a: int, b: int) -> int:
            """Add two integers."""
            return a + b

    with connect_sync(Adder()) as client:
        with pytest.raises(ResponseError) as slipped:
            client.request("slip/now")
        assert slipped.value.code == -32603
        assert client.call("add", {"a": 2, "b": 3}).text == "5"
