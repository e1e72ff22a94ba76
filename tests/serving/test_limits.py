"""Limits (issue 8): calls at once, nesting, string length, time a call may run, output a
client does not read, and how long an idle HTTP session lives. Each limit is an option of
``objmcp run``, each refusal says which limit and where, and the server serves on after it.

Spoken to through raw pipes (``objmcp run`` as a subprocess) and raw HTTP."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
from conftest import ROOT, RawServer
from http_helpers import HttpServer, call, initialize_message, open_session, post

LOADED = f"{ROOT / 'tests' / 'servers' / 'loaded.py'}:Loaded"
SERVER_BUSY = -32000
INVALID_REQUEST = -32600


def loaded(*options: str, **kwargs: Any) -> RawServer:
    """``objmcp run`` of the Loaded object, with ``options``."""
    return RawServer("-m", "objmcp", "run", LOADED, *options, **kwargs)


def nested(levels: int) -> Any:
    """A value of ``levels`` lists, one inside the other, around 0."""
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


def read_until(server: RawServer, request_id: object) -> tuple[Any, list[Any]]:
    """The answer to ``request_id``, and every message that came before it."""
    before = []
    while True:
        message = server.read()
        if message.get("id") == request_id and "method" not in message:
            return message, before
        before.append(message)


def text(answer: Any) -> str:
    return str(answer["result"]["content"][0]["text"])


def test_calls_beyond_max_calls_are_refused_busy_and_the_server_goes_on() -> None:
    server = loaded("--max-calls", "3")
    server.initialize()
    for number in (1, 2, 3):
        server.send(call(number, "nap", seconds=1.0))
    busy = server.request(call(4, "nap", seconds=0))
    assert busy["id"] == 4 and busy["error"]["code"] == SERVER_BUSY, busy
    assert "max_calls" in busy["error"]["message"], busy
    assert "3 requests are running" in busy["error"]["message"], busy
    answered = {server.read()["id"] for _ in range(3)}
    assert answered == {1, 2, 3}
    again = server.request(call(5, "nap", seconds=0))
    assert text(again) == "napped 0"  # a place is free again: the limit counts running calls
    _, _, status = server.close()
    assert status == 0


def test_a_message_nested_deeper_than_max_depth_is_refused_naming_the_place() -> None:
    server = loaded()
    server.initialize()
    # the message, params and arguments are three levels: 97 lists more are the 100 allowed
    deepest = server.request(call(1, "echo", value=nested(97)))
    assert deepest["result"]["isError"] is False, deepest
    assert json.loads(text(deepest)) == nested(97)
    refused = server.request(call(2, "echo", value=nested(98)))
    assert refused["id"] == 2 and refused["error"]["code"] == INVALID_REQUEST, refused
    said = refused["error"]["message"]
    assert said.startswith("Invalid Request: message.params.arguments.value[0][0]"), said
    assert "nested 101 deep" in said and "limit of 100 (max_depth)" in said, said
    # deeper than the JSON decoder goes: a parse error, not a crash
    server.write(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    parse_error = server.read()
    assert parse_error["error"]["code"] == -32700 and parse_error["id"] is None, parse_error
    assert "nested too deeply" in parse_error["error"]["message"]
    assert text(server.request(call(3, "length", text="ok"))) == "2"
    _, _, status = server.close()
    assert status == 0


def test_max_depth_and_max_string_are_options() -> None:
    server = loaded("--max-depth", "5", "--max-string", "1000")
    server.initialize()
    assert text(server.request(call(1, "length", text="a" * 1000))) == "1000"
    long = server.request(call(2, "length", text="a" * 1001))
    said = long["error"]["message"]
    assert long["id"] == 2 and long["error"]["code"] == INVALID_REQUEST, long
    assert "message.params.arguments.text: a string of 1,001 characters" in said, said
    assert "limit of 1,000 (max_string)" in said, said
    key = server.request(call(3, "echo", value={"k" * 1001: 1}))
    assert "a key in message.params.arguments.value" in key["error"]["message"], key
    assert text(server.request(call(4, "echo", value=[[1]]))) == "[[1]]"  # depth 5
    deep = server.request(call(5, "echo", value=[[[1]]]))
    assert "limit of 5 (max_depth)" in deep["error"]["message"], deep
    # a notification over a limit is dropped, without an answer, and serving goes on
    server.send({"jsonrpc": "2.0", "method": "notifications/x", "params": {"a": [[[[1]]]]}})
    assert text(server.request(call(6, "length", text="b"))) == "1"
    _, err, status = server.close()
    assert status == 0
    assert b"dropped a notification over a limit" in err


def test_ten_megabyte_arguments_and_results_travel_under_the_default_limits() -> None:
    server = loaded()
    server.initialize()
    ten_mb = 10 * 1000 * 1000
    assert text(server.request(call(1, "length", text="é" * ten_mb))) == str(ten_mb)
    blob = server.request(call(2, "blob", kib=10 * 1024))
    assert text(blob) == "b" * (10 * 1024 * 1024)
    # long results are escaped apart: one with everything JSON escapes, and one list of them
    odd = ('é"\\\n\t\x01\x1f\x7f\u2028\U0001f600' + "a" * 997) * 200
    assert text(server.request(call(3, "echo", value=odd))) == odd
    both = server.request(call(4, "echo", value=[odd, "b" * 70_000, odd]))
    assert json.loads(text(both)) == [odd, "b" * 70_000, odd]
    _, _, status = server.close()
    assert status == 0


def test_a_call_over_call_timeout_is_stopped_and_answered_with_an_error(tmp_path: Path) -> None:
    trace = tmp_path / "trace"
    # 1.5 s: time enough for a method's own run on a busy machine, its question's wait aside
    server = loaded("--call-timeout", "1.5", env={"LOADED_TRACE": str(trace)})
    server.initialize(capabilities={"elicitation": {}})
    hung = server.request(call(1, "hang"))
    assert hung["result"]["isError"] is True, hung
    assert "call_timeout, 1.5 s" in text(hung), hung
    spun = server.request(call(2, "spin"))
    assert spun["result"]["isError"] is True and "call_timeout" in text(spun), spun
    # a sync call cannot be stopped from outside: its flag was set, and it stopped itself
    deadline = time.monotonic() + 10  # the file is made when opened, its line written after
    while not (trace.exists() and trace.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert trace.read_text() == "spin stopped\n"
    # the clock stops while the user is asked: a slow answer is no timeout
    for number, tool in ((3, "ask"), (4, "ask_async")):
        server.send(call(number, tool))
        question = server.read()
        assert question["method"] == "elicitation/create", question
        time.sleep(2.0)  # longer than call_timeout, and no timeout: the clock stopped
        answer = {"action": "accept", "content": {"value": True}}
        server.send({"jsonrpc": "2.0", "id": question["id"], "result": answer})
        assert text(server.read()) == "answered True"
    assert text(server.request(call(5, "nap", seconds=0.1))) == "napped 0.1"
    _, err, status = server.close()
    assert status == 0
    assert err.count(b"ran out of time (call_timeout 1.5 s)") == 2, err.decode()[-2000:]


def test_a_client_that_does_not_read_holds_the_server_back_in_bounded_memory() -> None:
    server = loaded()
    server.initialize()
    pid = server.process.pid
    before = rss_kib(pid)
    # 400 answers of 256 KiB (100 MiB) asked for with requests padded to 32 KiB, so that
    # few fit in the pipe: a server that read them all would hold every answer
    total, sent = 400, [0]

    def write_all() -> None:
        for number in range(1, total + 1):
            server.send(call(number, "echo", value={"pad": "p" * 32 * 1024, "kib": number}))
            server.send(call(-number, "blob", kib=256))
            sent[0] = number

    writer = threading.Thread(target=write_all, daemon=True)
    writer.start()
    stalled = wait_until_stalled(lambda: sent[0])
    assert stalled < total, "the server read every request while its answers went unread"
    grown_mib = (rss_kib(pid) - before) / 1024
    # unwritten output is held below 8 MiB, plus the answers of the calls already started
    assert grown_mib < 60, f"RSS grew {grown_mib:.0f} MiB while the client did not read"
    answers: dict[int, Any] = {}
    while len(answers) < 2 * total:
        message = server.read()
        answers[message["id"]] = message
    writer.join(timeout=30)
    assert sent[0] == total
    for number in range(1, total + 1):
        assert json.loads(text(answers[number]))["kib"] == number
        assert len(text(answers[-number])) == 256 * 1024
    _, _, status = server.close()
    assert status == 0


def test_progress_a_client_does_not_read_is_dropped_but_the_answer_is_not(
    tmp_path: Path,
) -> None:
    log = (tmp_path / "stderr").open("w+b")  # the call logs megabytes: a file, not a pipe
    server = loaded(stderr=log)
    server.initialize()
    pid = server.process.pid
    before = rss_kib(pid)
    count = 100_000  # 100 MiB of progress notifications, sent faster than a pipe takes them
    request = call(1, "chatter_async", count=count, size=1000)
    request["params"]["_meta"] = {"progressToken": "p"}
    server.send(request)
    time.sleep(3)  # meanwhile nothing is read
    grown_mib = (rss_kib(pid) - before) / 1024
    answer, before_answer = read_until(server, 1)
    assert text(answer) == str(count)
    reports = [m for m in before_answer if m.get("method") == "notifications/progress"]
    assert 0 < len(reports) < count  # some were dropped, in order, and the rest came
    progress = [report["params"]["progress"] for report in reports]
    assert progress == sorted(progress)
    assert grown_mib < 30, f"RSS grew {grown_mib:.0f} MiB while the client did not read"
    _, _, status = server.close()
    assert status == 0
    log.seek(0)
    assert b"the client does not read; dropping progress and log messages" in log.read()


def test_an_idle_http_session_ends_and_an_active_one_lives() -> None:
    server = HttpServer("--session-idle", "1", target=LOADED)
    try:
        idle = open_session(server.url)
        listening = open_session(server.url)
        busy = open_session(server.url)
        watcher = open_session(server.url)
        quiet_since = time.monotonic()
        with get_stream(server.url, listening), call_in_flight(server.url, busy, watcher):
            # longer than session_idle with no request from idle (however loaded the machine,
            # a later look only finds it quieter for longer); listening reads its stream, and
            # busy's call runs on until the block ends, so neither is idle
            time.sleep(max(0.0, 1.5 - (time.monotonic() - quiet_since)))
            gone = post(server.url, call(3, "length", text="x"), **idle)
            assert gone.status_code == 404, gone.text
            kept = post(server.url, call(4, "length", text="x"), **listening)
            assert kept.status_code == 200 and "1" in kept.text, kept.text
            kept = post(server.url, call(5, "length", text="x"), **busy)
            assert kept.status_code == 200, kept.text
        again = post(server.url, initialize_message())
        assert again.status_code == 200  # a client told 404 starts a new session
    finally:
        server.stop()


# --- helpers ------------------------------------------------------------------------------


@contextlib.contextmanager
def call_in_flight(url: str, headers: dict[str, str], watcher: dict[str, str]) -> Iterator[None]:
    """A call of ``hang`` in the session of ``headers``, running while the block runs (seen
    running by ``census``, asked in the session of ``watcher``); the server's end ends it."""

    def tasks() -> int:
        answer = post(url, call(9, "census"), **watcher)
        return int(
            json.loads(answer.text.split("data: ")[-1])["result"]["structuredContent"]["tasks"]
        )

    before = tasks()

    def hold() -> None:
        with contextlib.suppress(httpx.HTTPError):  # the server stops after the block
            post(url, call(2, "hang"), **headers)

    threading.Thread(target=hold, daemon=True).start()
    deadline = time.monotonic() + 20
    while tasks() <= before:
        assert time.monotonic() < deadline, "the call never started"
        time.sleep(0.05)
    yield


@contextlib.contextmanager
def get_stream(url: str, headers: dict[str, str]) -> Iterator[None]:
    """A session's GET stream, open and read (in a thread) while the block runs."""
    opened = threading.Event()
    stop = threading.Event()

    def listen() -> None:
        sent = {"accept": "text/event-stream", **headers}
        with (
            contextlib.suppress(httpx.HTTPError),  # the server stops after the block
            httpx.stream("GET", url, headers=sent, timeout=30) as response,
        ):
            assert response.status_code == 200
            opened.set()
            for _ in response.iter_lines():
                if stop.is_set():
                    return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert opened.wait(10), "the GET stream did not open"
    try:
        yield
    finally:
        stop.set()


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid``, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def wait_until_stalled(progress: Any, quiet: float = 1.5, limit: float = 60) -> int:
    """Wait until ``progress()`` has not moved for ``quiet`` seconds; its value then."""
    deadline = time.monotonic() + limit
    last, since = progress(), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = progress()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return int(now)
    raise AssertionError("the writer never stalled")
