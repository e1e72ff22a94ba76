"""The object misbehaves; the server says so and carries on (issue 8's faults), spoken to
through raw pipes so that every byte on stdout is checked to be a protocol frame."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import ROOT, RawServer
from test_http_resume import call

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
