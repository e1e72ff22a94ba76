"""A function that writes its answer to a stream it kept when its module was imported
(``out=sys.stdout`` as a default, ``_out = sys.stdout``, ``from sys import stdout``) answers
with what it wrote (issue 37, round 4), served by ``objmcp run`` in real processes: on
stdio, where the protocol's stdout carries nothing but its messages, over HTTP, and through
``objmcp call``; what is not a call's answer goes on to the stream it was written to."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator

import pytest
from conftest import ROOT, RawServer, objmcp_cli
from http_helpers import HttpServer, call, modern, modern_headers, post, texts
from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp.model.values.printed import PrintedText, printed_kept, stand_in_front

BOUND = str(ROOT / "tests" / "servers" / "bound_streams.py")

TEXTS = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=40)
"""What a call may write: any text JSON carries (no lone surrogates), never empty (an empty
answer is null)."""


def test_on_stdio_what_a_call_writes_to_a_stream_kept_at_import_is_its_answer() -> None:
    server = RawServer("-m", "objmcp", "run", BOUND)
    server.initialize()
    server.send(call(1, "write_default", text="from the default"))
    assert texts(server.read()) == ["from the default"]
    server.send(call(2, "write_kept", text="from _out"))
    assert texts(server.read()) == ["from _out"]
    server.send(call(3, "print_to_imported", text="from stdout"))
    assert texts(server.read()) == ["from stdout\n"]
    server.send(call(4, "write_beside", text="returned"))
    assert texts(server.read()) == ["returned"]  # what it returned; its noise: stderr
    out, err, status = server.close()
    # every line of the protocol's stdout was a message read above, and nothing follows
    assert status == 0 and out == b""
    assert b"noise from write_beside" in err
    assert b"from the default" not in err and b"from _out" not in err
    # what the module printed when it was imported, before serving began, went to stderr too
    assert b"bound_streams: imported" in err


@pytest.fixture(scope="module")
def bound_server() -> Iterator[RawServer]:
    """The fixture module served on stdio for the whole module's tests."""
    server = RawServer("-m", "objmcp", "run", BOUND)
    server.initialize()
    yield server
    out, _, status = server.close()
    assert status == 0 and out == b""


@settings(max_examples=25, deadline=None)
@given(text=TEXTS, tool=st.sampled_from(["write_default", "write_kept"]))
def test_any_text_written_to_a_kept_stream_is_the_answer_exactly(
    bound_server: RawServer, text: str, tool: str
) -> None:
    bound_server.send(call(7, tool, text=text))
    answer = bound_server.read()  # a line of the protocol's stdout: a message
    assert answer["id"] == 7
    assert texts(answer) == [text]


def test_over_http_a_stream_kept_at_import_answers_too() -> None:
    server = HttpServer(target=BOUND)
    try:
        # written to the stream kept, or (write_beside) returned
        for request_id, tool in enumerate(("write_default", "write_kept", "write_beside"), 1):
            arguments = {"text": f"{tool} over http"}
            message = modern("tools/call", request_id, name=tool, arguments=arguments)
            answer = post(server.url, message, **modern_headers("tools/call", tool)).json()
            assert texts(answer) == [f"{tool} over http"]
    finally:
        out, err = server.stop()
    # what was written and not the answer goes where it would have gone: stdout
    assert "noise from write_beside" in out and "over http" not in out + err


def test_objmcp_call_prints_what_the_call_wrote_to_a_kept_stream() -> None:
    done = objmcp_cli("call", BOUND, "write_kept", "text=heard")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "heard\n"


@settings(max_examples=25, deadline=None)
@given(before=TEXTS, during=TEXTS)
def test_the_stream_put_in_front_for_good_passes_on_what_no_call_writes(
    before: str, during: str
) -> None:
    saved, real = sys.stdout, io.StringIO()
    sys.stdout = real
    try:
        stand_in_front()
        kept = sys.stdout  # what a module imported now keeps
        assert isinstance(kept, PrintedText) and kept.stream is real
        kept.write(before)
        with printed_kept():
            kept.write(during)  # no call is keeping it: written on
        assert sys.stdout is kept  # serving ended: still in front
        stand_in_front()
        assert sys.stdout is kept  # once is enough
        assert real.getvalue() == before + during
    finally:
        sys.stdout = saved
