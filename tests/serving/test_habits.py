"""Three habits of libraries nobody wrote for objmcp (issue 37), served whole by
``objmcp run`` in real processes: a function that prints its answer and returns None
answers with what it printed (its own call's text only, on stdio and over HTTP); decimals
and fractions are JSON numbers where that loses nothing, else their full text; and a
class used as a function (its instances are iterators, as ``itertools.permutations``'
are) is a tool that makes one, read within ``max_items``."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from conftest import ROOT, RawServer
from http_helpers import HttpServer, call, modern, modern_headers, post, texts

HABITS = str(ROOT / "tests" / "servers" / "habits.py")


def answers(server: RawServer, count: int) -> list[Any]:
    """The next ``count`` answers, in the order they came."""
    return [server.read() for _ in range(count)]


def test_a_call_that_prints_its_answer_and_returns_nothing_answers_with_its_own_text() -> None:
    server = RawServer("-m", "objmcp", "run", HABITS)
    server.initialize()
    server.send(call(1, "shout", word="hello"))
    assert texts(server.read()) == ["HELLO\n"]
    server.send(call(2, "shout_and_say", word="kept"))
    assert texts(server.read()) == ["kept"]  # what it returned; its noise goes to stderr
    server.send(call(3, "shout_beside_a_helper", word="mine"))
    assert texts(server.read()) == ["mine\n"]  # not the helper thread's line
    # hold prints, then waits for release (an async call on the loop), which prints
    # while hold is in flight: each answer holds its own call's text alone.
    server.send(call(4, "hold", word="held"))
    server.send(call(5, "release", word="let go"))
    by_id = {message["id"]: message for message in answers(server, 2)}
    assert texts(by_id[5]) == ["let go"]
    assert texts(by_id[4]) == ["held\nheld\n"]
    out, err, status = server.close()
    assert status == 0 and out == b""
    assert b"noise" in err and b"from the helper thread" in err
    assert b"HELLO" not in err and b"held" not in err


def test_decimals_fractions_and_a_class_used_as_a_function_of_a_served_module() -> None:
    server = RawServer("-m", "objmcp", "run", "--max-items", "3", HABITS)
    server.initialize()
    server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    listed = {tool["name"] for tool in server.read()["result"]["tools"]}
    assert "countdown" in listed and "Ledger" not in listed  # a service's methods: no tool
    server.send(call(2, "measures"))
    sent = server.read()["result"]["structuredContent"]["result"]
    assert sent == [0.1, 2.5, "3.14159265358979323846264338327950288", 0.75, "1/3"]
    assert Decimal(sent[2]) == Decimal("3.14159265358979323846264338327950288")
    assert Fraction(sent[4]) == Fraction(1, 3)
    server.send(call(3, "countdown", start=2))
    assert texts(server.read()) == ["[2,1]"]
    server.send(call(4, "countdown", start=10))
    first, cut = texts(server.read())
    assert first == "[10,9,8]" and "cut at 3 items" in cut
    assert server.close()[2] == 0


def test_itertools_served_whole_makes_its_iterators_and_reads_them_within_max_items() -> None:
    server = RawServer("-m", "objmcp", "run", "--max-items", "5", "itertools")
    server.initialize()
    server.send(call(1, "permutations", iterable=[1, 2, 3], r=2))
    first, cut = texts(server.read())
    assert first == "[[1,2],[1,3],[2,1],[2,3],[3,1]]" and "cut at 5 items" in cut
    server.send(call(2, "combinations", iterable=["a", "b", "c"], r=2))
    assert texts(server.read()) == ['[["a","b"],["a","c"],["b","c"]]']
    server.send(call(3, "count", start=7))  # endless: cut, and the server serves on
    assert texts(server.read())[0] == "[7,8,9,10,11]"
    server.send(call(4, "pairwise", iterable=[1, 2, 3]))
    assert texts(server.read()) == ["[[1,2],[2,3]]"]
    assert server.close()[2] == 0


def test_over_http_a_call_that_prints_its_answer_answers_with_it() -> None:
    server = HttpServer(target=HABITS)
    try:
        message = modern("tools/call", 1, name="shout", arguments={"word": "over http"})
        answer = post(server.url, message, **modern_headers("tools/call", "shout")).json()
        assert texts(answer) == ["OVER HTTP\n"]
        message = modern("tools/call", 2, name="shout_and_say", arguments={"word": "said"})
        answer = post(server.url, message, **modern_headers("tools/call", "shout_and_say")).json()
        assert texts(answer) == ["said"]
    finally:
        out, err = server.stop()
    # what was printed and not the answer goes where it would have gone: stdout, not stdio
    assert "noise" in out and "OVER HTTP" not in out + err
