"""A client that vanishes mid-call (issue 8): stdin closed, the pipe broken, an HTTP
connection dropped, while sync calls, async calls and questions to the user are in
flight. The server stops or drains them, writes nothing it cannot, leaks no task, and
exits 0 (stdio) or serves everyone else (HTTP)."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from typing import Any

from http_helpers import HttpServer, call, modern, modern_headers, open_session, post
from test_limits import LOADED, loaded, text


def wait_for_lines(path: Path, count: int, limit: float = 20) -> list[str]:
    """The lines of ``path`` once it has ``count`` of them (or all there are at the limit)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        lines = path.read_text().splitlines() if path.exists() else []
        if len(lines) >= count:
            return lines
        time.sleep(0.05)
    return path.read_text().splitlines() if path.exists() else []


def test_stdin_closed_mid_call_releases_questions_stops_calls_and_exits_0(
    tmp_path: Path,
) -> None:
    trace = tmp_path / "trace"
    server = loaded(env={"LOADED_TRACE": str(trace)})
    server.initialize(capabilities={"elicitation": {}})
    for number, tool in enumerate(("spin", "hang", "ask", "ask_async"), start=1):
        server.send(call(number, tool))
    server.send(call(5, "sync_nap", seconds=0.5))
    questions = [server.read(), server.read()]
    assert {q["method"] for q in questions} == {"elicitation/create"}
    started = time.monotonic()
    out, err, status = server.close()  # stdin closed; nobody answers the questions
    took = time.monotonic() - started
    assert status == 0, err.decode()[-2000:]
    answers = {message["id"]: message for message in map(json.loads, out.splitlines())}
    # the questions were released with an error, the nap finished in its grace, and the
    # two calls that never end were cancelled at the end of it, unanswered
    assert set(answers) == {3, 4, 5}, answers
    for number in (3, 4):
        assert answers[number]["result"]["isError"] is True
        assert "nobody is left to answer" in text(answers[number])
    assert text(answers[5]) == "slept 0.5"
    assert wait_for_lines(trace, 1) == ["spin stopped"]  # its thread saw its flag
    assert took < 20
    assert b"cancelling 2 call(s) still running at end of input" in err
    # the tracebacks on stderr are the tools' own (their questions failed), none objmcp's
    assert err.count(b"Traceback") == err.count(b"raised ElicitationUnavailable") == 2


def test_a_broken_pipe_ends_the_output_quietly_and_the_server_exits_0() -> None:
    server = loaded()
    server.initialize()
    server.send(call(1, "sync_nap", seconds=0.3))
    assert server.process.stdout is not None
    server.process.stdout.close()  # the client stops reading: the pipe is broken
    for number in range(2, 40):
        server.send(call(number, "blob", kib=64))
    time.sleep(0.5)
    assert server.process.stdin is not None
    server.process.stdin.close()
    status = server.process.wait(30)
    assert server.process.stderr is not None
    err = server.process.stderr.read()
    assert status == 0, err.decode()[-2000:]
    assert b"the client is gone" in err
    assert b"Traceback" not in err


def census(url: str, number: int) -> dict[str, int]:
    """The threads and event-loop tasks of the HTTP server, asked in the modern era."""
    answer = post(
        url, modern("tools/call", number, name="census"), **modern_headers("tools/call", "census")
    )
    counts: dict[str, int] = answer.json()["result"]["structuredContent"]
    return counts


def dropped_post(port: int, message: dict[str, Any], headers: dict[str, str]) -> None:
    """POST ``message`` on a raw connection, and close it without reading the answer."""
    body = json.dumps(message).encode()
    head = {
        "host": f"127.0.0.1:{port}",
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "content-length": str(len(body)),
        **headers,
    }
    request = "POST /mcp HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items())
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(request.encode() + b"\r\n" + body)
        time.sleep(0.3)  # the call has started


def test_a_dropped_http_connection_stops_its_call_and_others_are_served(
    tmp_path: Path,
) -> None:
    trace = tmp_path / "trace"
    server = HttpServer(target=LOADED, env={"LOADED_TRACE": str(trace)})
    try:
        other = open_session(server.url)
        before = census(server.url, 1)
        for number in range(5):
            dropped_post(
                server.port,
                modern("tools/call", 10 + number, name="spin"),
                modern_headers("tools/call", "spin"),
            )
            dropped_post(
                server.port,
                modern("tools/call", 20 + number, name="hang"),
                modern_headers("tools/call", "hang"),
            )
            served = post(server.url, call(30 + number, "length", text="abc"), **other)
            assert served.status_code == 200 and '"3"' in served.text, served.text
        # every sync call saw its flag and ended; every async one was cancelled
        assert wait_for_lines(trace, 5) == ["spin stopped"] * 5
        deadline = time.monotonic() + 10
        after = census(server.url, 2)
        while after["tasks"] > before["tasks"] and time.monotonic() < deadline:
            time.sleep(0.1)
            after = census(server.url, 3)
        assert after["tasks"] <= before["tasks"], (before, after)
    finally:
        out, err = server.stop()
    assert out == ""
    assert "Traceback" not in err, err[-2000:]
