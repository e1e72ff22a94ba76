"""Hostile input over stdio, through real pipes: numbers out of a float's range
(``1e400``, which Python reads as infinity) refused in both framings, and resource
template values that would lead a method out of its folder (issue 27)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import ROOT, RawServer
from test_raw_pipe import INIT, call, content_length_frames, frame, lines, run_bytes

LIBRARY = ROOT / "tests" / "servers" / "library.py"


def with_number(message: dict[str, Any], number: str) -> bytes:
    """``message`` as JSON text, its ``"NUMBER"`` written as the bare number ``number``."""
    return json.dumps(message).replace('"NUMBER"', number).encode()


@pytest.mark.parametrize("framing", ["newline", "content-length"])
def test_a_number_out_of_range_is_refused_and_the_server_carries_on(framing: str) -> None:
    bodies = [
        json.dumps(INIT).encode(),
        with_number(call(2, "nap", {"seconds": "NUMBER"}), "1e400"),
        with_number(call(3, "total", {"numbers": [1, "NUMBER"]}), "-1e400"),
        with_number(call(4, "add", {"a": 1, "b": 2}, _meta={"n": "NUMBER"}), "1E+999"),
        json.dumps(call(5, "add", {"a": 1, "b": 2})).encode(),
    ]
    if framing == "newline":
        out, _, status = run_bytes(b"".join(body + b"\n" for body in bodies))
        answers = {answer["id"]: answer for answer in lines(out)}
    else:
        data = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body) for body in bodies)
        out, _, status = run_bytes(data)
        answers = {answer["id"]: answer for answer in content_length_frames(out)}
    assert status == 0
    assert sorted(answers) == [1, 2, 3, 4, 5]  # one answer each, by its id
    for request_id, number in [(2, "1e400"), (3, "-1e400"), (4, "1E+999")]:
        error = answers[request_id]["error"]
        assert error["code"] == -32602, error
        assert number in error["message"] and "finite" in error["message"]
    assert answers[5]["result"]["content"][0]["text"] == "3"
    assert frame  # the helper of the other framing, kept in use


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp_path = tmp_path_factory.mktemp("library")
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.txt").write_text("A")
    (folder / "sub" / "b.txt").write_text("B")
    (tmp_path / "secret.txt").write_text("SECRET")
    server = RawServer(str(LIBRARY), str(folder))
    server.initialize()
    yield server
    server.close()  # closes its input: the server ends


def read(server: RawServer, request_id: int, uri: str) -> Any:
    return server.request(
        {"jsonrpc": "2.0", "id": request_id, "method": "resources/read", "params": {"uri": uri}}
    )


@pytest.mark.parametrize(
    "uri",
    [
        "docs://..%2Fsecret.txt",
        "docs://%2E%2E%2Fsecret.txt",
        "docs://..",
        "docs://%2Fetc%2Fpasswd",
        "docs://sub%2Fb.txt",  # {name} is one segment: no slash, however encoded
        "docs://a.txt%00.png",
        "tree://sub/../../secret.txt",
        "tree://%2E%2E/secret.txt",
        "tree://..%5Csecret.txt",
        "tree:///etc/passwd",
        "tree://%2Fetc/passwd",
        "tree://C:%5Cwindows",
    ],
)
def test_a_template_value_cannot_leave_its_folder(library: RawServer, uri: str) -> None:
    answer = read(library, 2, uri)
    assert "result" not in answer, answer  # SECRET, /etc/passwd: never read
    assert answer["error"]["code"] == -32602, answer
    assert "URI variable" in answer["error"]["message"]
    assert read(library, 3, "docs://a.txt")["result"]["contents"][0]["text"] == "A"


def test_a_reserved_template_takes_slashes_within_its_folder(library: RawServer) -> None:
    nested = read(library, 2, "tree://sub/b.txt")
    encoded = read(library, 3, "tree://sub%2Fb.txt")
    dotted = read(library, 4, "tree://sub/./b.txt")
    assert [answer["result"]["contents"][0]["text"] for answer in (nested, encoded, dotted)] == [
        "B",
        "B",
        "B",
    ]
    listed = library.request({"jsonrpc": "2.0", "id": 5, "method": "resources/templates/list"})
    templates = {entry["uriTemplate"] for entry in listed["result"]["resourceTemplates"]}
    assert templates == {"docs://{name}", "tree://{+path}"}
