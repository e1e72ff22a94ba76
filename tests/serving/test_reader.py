"""stdio served from a reader thread (objmcp/serving/reader.py): a sync call with nothing injected
but ``objmcp.Cancelled`` runs in the thread that reads the input, and a watchdog hands the
input to another thread when it runs long, cancels it, or stops it at ``call_timeout``.

Spoken to through real pipes (``objmcp run`` of tests/servers/lanes.py), in both framings.
Nothing here measures time: a slow call is one that waits until the test lets it go (an
async ``release`` call, or a file), so "still running" is "not answered yet, and cannot
be". Timeouts below only keep a broken server from hanging the suite."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, RawServer

LANES = f"{ROOT / 'tests' / 'servers' / 'lanes.py'}:Lanes"
GUARD = 60.0  # seconds before a test gives up waiting (a hang, not a slow machine)
READER = "objmcp-reader"  # the name of the thread that reads the input (and runs inline calls)
FRAMINGS = ("newline", "content-length")


class Lane(RawServer):
    """``objmcp run`` of the Lanes object, spoken to in ``framing``; a thread of ours reads
    its output into a queue, so that a read can give up (and a busy server never waits for
    us to read)."""

    def __init__(self, folder: Path, *options: str, framing: str = "newline") -> None:
        self.framing = framing
        self.folder = folder
        self.stderr_path = folder / "stderr"
        with self.stderr_path.open("wb") as stderr:
            super().__init__(
                "-m",
                "objmcp",
                "run",
                LANES,
                *options,
                stderr=stderr,
                env={"LANES_DIR": str(folder)},
            )
        self.messages: queue.Queue[Any] = queue.Queue()
        self.raw = bytearray()  # every byte of output, to check the framing
        self._pump = threading.Thread(target=self._read_output, daemon=True)
        self._pump.start()

    def encode(self, message: Any) -> bytes:
        body = json.dumps(message).encode()
        if self.framing == "content-length":
            return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        return body + b"\n"

    def send(self, message: Any) -> None:
        self.write(self.encode(message))

    def _read_output(self) -> None:
        out = self.process.stdout
        assert out is not None
        try:
            while True:
                if self.framing == "content-length":
                    header = out.readline()
                    if not header:
                        break
                    blank = out.readline()
                    if not header.startswith(b"Content-Length: ") or blank != b"\r\n":
                        raise ValueError(f"not a Content-Length frame: {header + blank!r}")
                    body = out.read(int(header[len(b"Content-Length: ") :]))
                    self.raw += header + blank + body
                else:
                    body = out.readline()
                    if not body:
                        break
                    if not body.endswith(b"\n"):
                        raise ValueError(f"a line cut short: {body[-200:]!r}")
                    self.raw += body
                self.messages.put(json.loads(body))
        except Exception as error:  # said by the next read
            self.messages.put(error)
        self.messages.put(EOFError)

    def read(self, timeout: float = GUARD) -> Any:
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message from the server in {timeout} s") from None
        if isinstance(message, Exception):
            raise AssertionError(f"unreadable output: {message}") from message
        assert message is not EOFError, "the server closed its output"
        return message

    def close(self, timeout: float = GUARD) -> tuple[bytes, bytes, int]:
        """Close stdin and wait for the exit: (the messages not read yet, one JSON line
        each; stderr; the exit status)."""
        assert self.process.stdin is not None
        if not self.process.stdin.closed:
            self.process.stdin.close()
        status = self.process.wait(timeout)
        self._pump.join(timeout)
        rest = []
        while (message := self.messages.get(timeout=timeout)) is not EOFError:
            assert not isinstance(message, Exception), f"unreadable output: {message}"
            rest.append(json.dumps(message).encode())
        return b"\n".join(rest), self.stderr_path.read_bytes(), status

    def rest(self) -> list[Any]:
        """Close stdin; every message not read yet (the exit status must be 0)."""
        out, err, status = self.close()
        assert status == 0, err.decode()[-3000:]
        return [json.loads(line) for line in out.splitlines()]

    def answers(self, count: int) -> dict[Any, Any]:
        """The next ``count`` answers, by id (notifications in between are not expected)."""
        got: dict[Any, Any] = {}
        while len(got) < count:
            message = self.read()
            assert "method" not in message, message
            assert message["id"] not in got, f"answered twice: {message}"
            got[message["id"]] = message
        return got

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def lanes(tmp_path: Path) -> Iterator[Any]:
    """Start Lanes servers (``lanes(*options, framing=...)``); kill any left running."""
    started: list[Lane] = []

    def start(*options: str, framing: str = "newline", version: str = "2025-06-18") -> Lane:
        folder = tmp_path / f"server{len(started)}"
        folder.mkdir()
        server = Lane(folder, *options, framing=framing)
        started.append(server)
        server.initialize(version)
        return server

    yield start
    for server in started:
        server.stop()


def call(request_id: Any, tool: str, **arguments: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }


def ping(request_id: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "ping"}


def text(answer: Any) -> str:
    assert "result" in answer, answer
    return str(answer["result"]["content"][0]["text"])


def wait_for_file(path: Path) -> str:
    """The text of ``path`` once it exists."""
    deadline = time.monotonic() + GUARD
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.02)
    return path.read_text()


def stats(server: Lane, request_id: Any) -> dict[str, int]:
    answer = server.request(call(request_id, "stats"))
    counted: dict[str, int] = answer["result"]["structuredContent"]
    return counted


# --- a slow call does not hold the input up --------------------------------------------------


@pytest.mark.parametrize("framing", FRAMINGS)
def test_a_slow_sync_call_does_not_hold_up_the_requests_after_it(lanes: Any, framing: str) -> None:
    server = lanes(framing=framing)
    # the reader takes the hold and half of the ping: the thread that takes the input
    # over reads the rest of it
    half = server.encode(ping(2))
    server.write(server.encode(call(1, "hold", name="slow")) + half[:9])
    assert wait_for_file(server.folder / "started-slow") == READER  # it runs inline
    server.write(half[9:])
    server.send(call(3, "double", x=21))
    server.send(call(4, "triple", x=5))
    server.send(call(5, "slow_double", x=8, seconds=0.0))
    # the hold cannot end before it is released: all four are answered while it runs
    answered = server.answers(4)
    assert set(answered) == {2, 3, 4, 5}
    assert answered[2]["result"] == {}
    assert [text(answered[n]) for n in (3, 4, 5)] == ["42", "15", "16"]
    server.send(call(6, "release", name="slow"))
    released = server.answers(2)
    assert text(released[6]) == "opened slow"
    assert text(released[1]) == f"slow released in {READER}"
    assert server.rest() == []
    assert server.raw.startswith(b"Content-Length: " if framing == "content-length" else b"{")


@pytest.mark.parametrize("framing", FRAMINGS)
def test_answers_read_in_one_burst_with_a_slow_call_do_not_wait_for_it(
    lanes: Any, framing: str
) -> None:
    """A burst of requests read at once has its answers written together; a slow call
    in the burst does not keep the answers before it back (the watchdog lets them go
    when it takes the input over), nor those of the requests after it."""
    server = lanes(framing=framing)
    burst = [call(n, "double", x=n) for n in range(1, 40)] + [call(40, "hold", name="slow")]
    server.write(b"".join(server.encode(message) for message in burst))
    assert wait_for_file(server.folder / "started-slow") == READER
    answered = server.answers(39)  # while the hold, the last of the burst, cannot have ended
    assert [text(answered[n]) for n in range(1, 40)] == [str(2 * n) for n in range(1, 40)]
    after = [ping(41), call(42, "triple", x=3), call(43, "double", x=50)]
    server.write(b"".join(server.encode(message) for message in after))
    answered = server.answers(3)
    assert answered[41]["result"] == {}
    assert [text(answered[42]), text(answered[43])] == ["9", "100"]
    server.send(call(44, "release", name="slow"))
    released = server.answers(2)
    assert text(released[40]) == f"slow released in {READER}"
    assert server.rest() == []


def test_an_answer_ready_in_the_reader_does_not_wait_for_a_busy_event_loop(lanes: Any) -> None:
    """A burst's answers made in the reader go out before the reader waits for the event
    loop (here held by an async tool that never yields), not when the loop is free."""
    server = lanes()
    burst = [call(1, "stall", name="loop"), call(2, "double", x=5), call(3, "triple", x=1)]
    server.write(b"".join(server.encode(message) for message in burst))
    assert wait_for_file(server.folder / "started-loop") != READER  # on the event loop
    assert text(server.answers(1)[2]) == "10"  # while the loop cannot run anything
    (server.folder / "open-loop").write_text("")
    answered = server.answers(2)
    assert [text(answered[1]), text(answered[3])] == ["loop let the loop go", "3"]
    assert server.rest() == []


def test_calls_keep_running_inline_one_after_the_other_while_the_input_is_read(
    lanes: Any,
) -> None:
    """After a slow call was taken over and ended, the next sync call runs inline again;
    one that comes while a taken-over call still runs goes to a worker."""
    server = lanes()
    server.send(call(1, "hold", name="a"))
    assert wait_for_file(server.folder / "started-a") == READER
    server.send(call(2, "hold", name="b"))  # the first still runs: a worker takes this one
    assert wait_for_file(server.folder / "started-b") != READER
    server.send(call(3, "release", name="a"))
    answered = server.answers(2)
    assert text(answered[1]) == f"a released in {READER}"
    server.send(call(4, "release", name="b"))
    answered = server.answers(2)
    assert text(answered[2]).startswith("b released in ")
    assert READER not in text(answered[2])
    server.send(call(5, "hold", name="c"))  # nothing else runs: inline again
    assert wait_for_file(server.folder / "started-c") == READER
    server.send(call(6, "release", name="c"))
    assert text(server.answers(2)[5]) == f"c released in {READER}"
    assert server.rest() == []


PROBES: list[tuple[str, dict[str, Any]]] = [
    ("double", {"x": 2}),
    ("double", {"x": 2.0}),
    ("double", {"x": 2.5}),
    ("double", {"x": "nope"}),
    ("double", {}),
    ("double", {"x": 1, "y": 2}),
    ("fail", {"x": 3}),
    ("deferred", {"x": 4}),
    ("nosuch", {}),
]
"""Calls that succeed, fail in the tool, fail their arguments, return a coroutine, or name
no tool."""


def test_calls_are_answered_alike_inline_and_in_a_worker(lanes: Any) -> None:
    server = lanes()
    inline = [server.request(call(n, tool, **args)) for n, (tool, args) in enumerate(PROBES)]
    server.send(call("h", "hold", name="h"))
    assert wait_for_file(server.folder / "started-h") == READER
    # the hold runs on: each call now goes to a worker (or the loop)
    elsewhere = [server.request(call(n, tool, **args)) for n, (tool, args) in enumerate(PROBES)]
    assert elsewhere == inline
    said = [text(answer) for answer in inline[:3]]
    assert said == ["4", "4", "Invalid argument 'x': expected integer, got number 2.5"]
    assert inline[6]["result"] == {
        "content": [{"type": "text", "text": "ValueError: no good: 3"}],
        "isError": True,
    }
    assert text(inline[7]) == "12"
    assert inline[8]["error"]["code"] == -32602
    server.send(call("r", "release", name="h"))
    assert set(server.answers(2)) == {"h", "r"}
    assert server.rest() == []


def test_after_a_quiet_spell_a_slow_call_is_still_taken_over(lanes: Any) -> None:
    """The watchdog sleeps when no call has run inline for a while (1 s); a call wakes it."""
    server = lanes()
    for round_ in range(2):
        time.sleep(1.5)
        server.send(call(f"hold{round_}", "hold", name=f"q{round_}"))
        server.send(ping(f"ping{round_}"))
        # not waiting for the watchdog's own wake-up (30 s): the call woke it
        assert server.read(timeout=20) == {"jsonrpc": "2.0", "id": f"ping{round_}", "result": {}}
        server.send(call(f"open{round_}", "release", name=f"q{round_}"))
        answered = server.answers(2)
        assert text(answered[f"hold{round_}"]) == f"q{round_} released in {READER}"
    assert server.rest() == []


def test_batches_with_a_slow_sync_call_are_answered_as_one_array_in_the_end(
    lanes: Any,
) -> None:
    server = lanes(version="2025-03-26")  # the revision with batches
    server.send([call(1, "hold", name="b"), ping(2)])
    server.send([call(3, "double", x=1), call(4, "hold", name="b"), call(5, "triple", x=1)])
    assert text(server.request(call(6, "double", x=2))) == "4"  # while both batches wait
    server.send(call(7, "release", name="b"))
    messages = [server.read() for _ in range(3)]
    arrays = [m for m in messages if isinstance(m, list)]
    assert [m for m in messages if not isinstance(m, list)] == [
        {
            "jsonrpc": "2.0",
            "id": 7,
            "result": {"content": [{"type": "text", "text": "opened b"}], "isError": False},
        }
    ]
    by_id = {answer["id"]: answer for array in arrays for answer in array}
    assert sorted(len(array) for array in arrays) == [2, 3] and len(by_id) == 5
    assert by_id[2]["result"] == {}
    assert [text(by_id[n]) for n in (3, 5)] == ["2", "3"]
    assert all(text(by_id[n]).startswith("b released in ") for n in (1, 4))
    assert server.rest() == []


# --- cancellation and call_timeout of an inline call ---------------------------------------


@pytest.mark.parametrize("framing", FRAMINGS)
def test_a_cancelled_inline_call_sees_its_flag_and_is_never_answered(
    lanes: Any, framing: str
) -> None:
    server = lanes(framing=framing)
    server.send(call(1, "spin", name="s"))
    server.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 1, "reason": "changed my mind"},
        }
    )
    assert text(server.request(call(2, "double", x=2))) == "4"
    assert wait_for_file(server.folder / "cancelled-s") == READER  # its flag, seen inline
    assert server.request(ping(3)) == {"jsonrpc": "2.0", "id": 3, "result": {}}
    assert text(server.request(call(4, "double", x=3))) == "6"
    # a call with no flag, cancelled, runs on unanswered (inline or not: the spin may
    # not have left yet)
    server.send(call(5, "hold", name="k"))
    wait_for_file(server.folder / "started-k")
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}})
    assert server.request(ping(6))["result"] == {}
    assert text(server.request(call(7, "release", name="k"))) == "opened k"
    # both calls ended (they return right after): answers would be out by the exit
    assert server.rest() == []


@pytest.mark.parametrize("tool", ["spin", "hold"])
def test_call_timeout_stops_an_inline_call_with_an_error_and_serving_goes_on(
    lanes: Any, tool: str
) -> None:
    server = lanes("--call-timeout", "0.5")
    stopped = server.request(call(1, tool, name="t"))  # the first call: inline
    assert stopped["id"] == 1 and stopped["result"]["isError"] is True, stopped
    assert "call_timeout, 0.5 s" in text(stopped), stopped
    if tool == "spin":
        assert wait_for_file(server.folder / "cancelled-t") == READER  # its flag was set
    else:  # no flag: it runs on after its error answer, until let go
        assert wait_for_file(server.folder / "started-t") == READER
        assert text(server.request(call(2, "release", name="t"))) == "opened t"
    assert text(server.request(call(3, "double", x=5))) == "10"
    assert text(server.request(call(4, "triple", x=5))) == "15"
    assert server.request(ping(5))["result"] == {}
    assert server.rest() == []  # nothing more for id 1 once it ended
    err = server.stderr_path.read_text()
    assert err.count(f"a call to '{tool}' ran out of time (call_timeout 0.5 s)") == 1, err


@pytest.mark.parametrize("stop", ["call_timeout", "cancelled"])
def test_a_stopped_call_leaves_its_place_alike_inline_and_in_a_worker(
    lanes: Any, stop: str
) -> None:
    after: dict[str, str] = {}
    for tool in ("hold_reporting", "hold"):  # in a worker (it has Progress); in the reader
        server = lanes("--max-threads", "1", "--call-timeout", "2")
        server.send(call(1, tool, name="a"))
        wait_for_file(server.folder / "started-a")
        if stop == "cancelled":
            cancel = {"requestId": 1, "reason": "enough"}
            server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
        else:
            assert "call_timeout" in text(server.read())
        # the stopped call runs on (no flag): may another sync call have the one place?
        after[tool] = text(server.request(call(2, "double", x=1)))
        assert text(server.request(call(3, "release", name="a"))) == "opened a"
        assert server.rest() == []
    assert after["hold"] == after["hold_reporting"], after


# --- log records -------------------------------------------------------------------------------


def records(messages: list[Any]) -> list[str]:
    return [m["params"]["data"] for m in messages if m.get("method") == "notifications/message"]


def test_log_records_of_an_inline_call_come_before_its_answer(lanes: Any) -> None:
    server = lanes()
    level = {"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "info"}}
    assert server.request(level)["result"] == {}
    server.send(call(2, "chat", count=3, tag="held", gate="g"))
    # the records before the gate come while the call still waits there
    before = [server.read() for _ in range(3)]
    assert records(before) == [f"held before {n}" for n in range(3)]
    assert before[0]["params"]["logger"] == "lanes"
    server.send(call(3, "release", name="g"))
    messages = [server.read() for _ in range(5)]
    answers = [m for m in messages if "id" in m]
    assert {m["id"] for m in answers} == {2, 3}
    upto = next(i for i, m in enumerate(messages) if m.get("id") == 2)
    assert records(messages[:upto]) == [f"held after {n}" for n in range(3)]
    # many calls at once, some inline and some in workers: each one's records come first
    for number in range(10, 40):
        server.send(call(number, "chat", count=4, tag=f"c{number}"))
    seen: list[str] = []
    answered = set()
    while len(answered) < 30:
        message = server.read()
        if "method" in message:
            seen.append(message["params"]["data"])
            continue
        number = message["id"]
        assert text(message) == f"c{number} chatted 4"
        assert [r for r in seen if r.startswith(f"c{number} ")] == [
            f"c{number} before {n}" for n in range(4)
        ], number
        answered.add(number)
    assert answered == set(range(10, 40))
    assert server.rest() == []


def test_records_of_a_taken_over_call_and_of_the_next_reader_belong_each_to_its_call(
    lanes: Any,
) -> None:
    """Modern era, where a record goes out only at the level its own request asked for:
    the slow call's records after the input was taken over, and the records of a call
    the new reader runs meanwhile, each reach the client at their own call's level."""
    server = lanes()

    def modern(request_id: int, tool: str, level: str, **arguments: Any) -> dict[str, Any]:
        meta = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/logLevel": level,
        }
        message = call(request_id, tool, **arguments)
        message["params"]["_meta"] = meta
        return message

    server.send(modern(1, "chat", "info", count=2, tag="slow", gate="g"))
    assert records([server.read() for _ in range(2)]) == ["slow before 0", "slow before 1"]
    server.send(modern(2, "chat", "info", count=2, tag="next"))  # read by the new reader
    server.send(modern(3, "chat", "error", count=2, tag="quiet"))  # asks for errors only
    first = [server.read() for _ in range(4)]
    assert records(first) == ["next before 0", "next before 1"]
    assert {m["id"] for m in first if "id" in m} == {2, 3}
    (server.folder / "open-g").write_text("")
    rest = [server.read() for _ in range(3)]
    assert records(rest) == ["slow after 0", "slow after 1"]
    assert [m["id"] for m in rest if "id" in m] == [1]
    assert server.rest() == []


# --- many calls at once --------------------------------------------------------------------------


@pytest.mark.parametrize("framing", FRAMINGS)
def test_two_thousand_pipelined_calls_are_each_answered_once_and_rightly(
    lanes: Any, framing: str
) -> None:
    server = lanes(framing=framing)
    total = 2000
    expected: dict[int, str] = {}
    frames = []
    for number in range(1, total + 1):
        if number % 250 == 0:
            message = call(number, "slow_double", x=number, seconds=0.05)
            expected[number] = str(2 * number)
        elif number % 3 == 0:
            message = call(number, "triple", x=number)
            expected[number] = str(3 * number)
        elif number % 7 == 0:
            message = ping(number)
            expected[number] = "{}"
        elif number % 11 == 0:
            message = call(number, "deferred", x=number)  # a coroutine, settled on the loop
            expected[number] = str(3 * number)
        elif number % 13 == 0:
            message = call(number, "fail", x=number)
            expected[number] = f"ValueError: no good: {number}"
        else:
            message = call(number, "double", x=number)
            expected[number] = str(2 * number)
        frames.append(server.encode(message))
    server.write(b"".join(frames))
    answered = server.answers(total)
    got = {
        number: json.dumps(answer["result"]) if "content" not in answer["result"] else text(answer)
        for number, answer in answered.items()
    }
    assert got == expected
    failed = {n for n, answer in answered.items() if answer["result"].get("isError")}
    assert failed == {n for n, said in expected.items() if said.startswith("ValueError")}
    assert server.rest() == []  # and nothing was answered twice


# --- max_threads ---------------------------------------------------------------------------------


def test_max_threads_counts_the_inline_call_taken_over(lanes: Any) -> None:
    server = lanes("--max-threads", "2")
    holds = [call(1, "hold", name="g"), call(2, "hold", name="g")]
    holds += [call(3, "hold_reporting", name="g"), call(4, "hold", name="g")]
    holds += [call(5, "hold_reporting", name="g"), call(6, "hold", name="g")]
    server.write(b"".join(server.encode(message) for message in holds))
    deadline = time.monotonic() + GUARD
    number = 100
    while stats(server, number)["running"] < 2:
        assert time.monotonic() < deadline, "two holds never ran"
        number += 1
    time.sleep(0.5)  # time for a third thread to come in, if the limit let it
    now = stats(server, 99)
    assert now["running"] == 2 and now["peak"] == 2, now
    server.send(call(7, "release", name="g"))
    answered = server.answers(7)
    assert text(answered[7]) == "opened g"
    said = [text(answered[n]) for n in range(1, 7)]
    assert all(s.startswith("g released in ") for s in said), said
    assert said[0] == f"g released in {READER}"  # the first ran inline, and held a place
    assert stats(server, 98)["peak"] == 2
    assert server.rest() == []


# --- end of input --------------------------------------------------------------------------------


@pytest.mark.parametrize("framing", FRAMINGS)
def test_at_end_of_input_an_inline_call_finishes_and_is_answered(lanes: Any, framing: str) -> None:
    server = lanes(framing=framing)
    server.send(call(1, "hold", name="e"))
    assert wait_for_file(server.folder / "started-e") == READER
    assert server.process.stdin is not None
    server.process.stdin.close()  # end of input while the call runs
    time.sleep(1.0)  # well within the grace (5 s): the server waits for the call
    assert server.process.poll() is None, "the server left before its call ended"
    (server.folder / "open-e").write_text("")  # let the call go
    out, err, status = server.close()
    assert status == 0, err.decode()[-3000:]
    (answer,) = [json.loads(line) for line in out.splitlines()]
    assert answer["id"] == 1 and text(answer) == f"e released in {READER}", answer
    assert b"Traceback" not in err


def test_the_server_answers_everything_before_it_exits(lanes: Any) -> None:
    """Calls written just before the end of input, some slow, are all answered."""
    server = lanes()
    for number in range(1, 21):
        tool = "slow_double" if number % 5 == 0 else "double"
        arguments = {"x": number, "seconds": 0.05} if tool == "slow_double" else {"x": number}
        server.send(call(number, tool, **arguments))
    rest = server.rest()
    assert Counter(message["id"] for message in rest) == Counter(range(1, 21))
    assert {m["id"]: text(m) for m in rest} == {n: str(2 * n) for n in range(1, 21)}
