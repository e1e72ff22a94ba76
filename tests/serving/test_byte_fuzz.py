"""Byte-level fuzzing of a served object (issue 8): hypothesis writes bytes, split where it
likes, in both framings, and a real :class:`objmcp.Server` connection (frame decoder,
session, calls, encoder) reads them in memory, chunk by chunk, until end of input.

Whatever comes in, what goes out is whole frames of well-formed JSON-RPC, no id is
answered twice, the connection ends at end of input, and:

- frames whose bodies are anything at all get one ``-32700`` each for a body that is not
  strict JSON, and the ping after them is answered exactly once;
- broken Content-Length headers (negative, not a number, too long, missing) get one
  ``-32600`` each, and the frame after each is still read;
- arbitrary bytes end in well-formed output, and a newline-framed stream recovers at the
  next line.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

import anyio
from hypothesis import example, given, settings
from hypothesis import strategies as st

import objmcp
from objmcp.serving.byte_stream import loop_connection

Concrete = Literal["newline", "content-length"]
SETTINGS = settings(max_examples=120, deadline=None)


class Pad:
    """A small object to serve."""

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    async def echo(self, text: str) -> str:
        """Return ``text``."""
        return text


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-03-26",  # the one revision with batches: more to reach
        "capabilities": {},
        "clientInfo": {"name": "fuzz", "version": "0"},
    },
}
PING = {"jsonrpc": "2.0", "id": "sentinel", "method": "ping"}


def frame(body: bytes, framing: Concrete) -> bytes:
    if framing == "content-length":
        return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    return body + b"\n"


def serve(chunks: Sequence[bytes], framing: Concrete | Literal["auto"]) -> bytes:
    """Serve ``Pad`` on ``chunks`` (one read each) until they end; what it wrote."""
    server = objmcp.Server("fuzz", Pad(), framing=framing, limits=objmcp.Limits(grace=1.0))
    pending = list(chunks)
    written: list[bytes] = []

    async def source() -> bytes:
        await anyio.lowlevel.checkpoint()
        return pending.pop(0) if pending else b""

    async def sink(data: bytes) -> None:
        written.append(data)

    async def run() -> None:
        with anyio.fail_after(60):  # a hang is a failure, not a stuck suite
            await loop_connection(server.settings(), source, sink).run()

    anyio.run(run)
    return b"".join(written)


def read_frames(output: bytes, framing: Concrete) -> list[Any]:
    """The messages in ``output``; fails unless it is whole frames of JSON, nothing else."""
    messages = []
    if framing == "newline":
        assert output == b"" or output.endswith(b"\n"), output[-200:]
        for line in output.splitlines():
            messages.append(json.loads(line))
        return messages
    rest = output
    while rest:
        header, separator, rest = rest.partition(b"\r\n\r\n")
        assert separator and header.startswith(b"Content-Length: "), header[:200]
        length = int(header[len(b"Content-Length: ") :])
        body, rest = rest[:length], rest[length:]
        assert len(body) == length
        messages.append(json.loads(body))
    return messages


def sent_ids(bodies: Sequence[bytes]) -> Counter[str]:
    """How many requests (batched or not) ``bodies`` hold of each id (by its repr): a
    message with an id that is not a response counts, a method or not (one without is an
    invalid request, answered with its id, as JSON-RPC says when the id can be read)."""
    sent: Counter[str] = Counter()
    for body in bodies:
        if not strict_json(body):
            continue
        message = json.loads(body)
        for item in message if isinstance(message, list) else [message]:
            answer = "result" in item or "error" in item if isinstance(item, dict) else True
            if isinstance(item, dict) and "id" in item and ("method" in item or not answer):
                sent[repr(item["id"])] += 1
    return sent


def check_well_formed(
    messages: list[Any], sent: Counter[str] | None = None
) -> list[dict[str, Any]]:
    """Every message is JSON-RPC 2.0, and no id is answered more often than ``sent`` says
    it was sent; the responses, flattened."""
    responses: list[dict[str, Any]] = []
    for message in messages:
        items = message if isinstance(message, list) else [message]
        assert items, "an empty batch answer"
        for item in items:
            assert isinstance(item, dict) and item.get("jsonrpc") == "2.0", item
            if "method" in item:
                continue  # a notification or request of the server's
            assert ("result" in item) != ("error" in item), item
            if "error" in item:
                error = item["error"]
                assert isinstance(error["code"], int) and isinstance(error["message"], str)
            responses.append(item)
    if sent is not None:
        answered = Counter(repr(r["id"]) for r in responses if r["id"] is not None)
        for request_id, count in answered.items():
            assert count <= sent[request_id], f"{request_id} answered {count} times"
    return responses


def strict_json(body: bytes) -> bool:
    """Whether ``body`` is JSON by RFC 8259 (UTF-8, no NaN or Infinity)."""

    def refuse(name: str) -> None:
        raise ValueError(name)

    try:
        json.loads(body.decode("utf-8"), parse_constant=refuse)
    except (ValueError, RecursionError):
        return False
    return True


# --- strategies ---------------------------------------------------------------------------

NASTY = [
    b"[" * 5000 + b"]" * 5000,
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b'{"jsonrpc":"2.0","id":1e999,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"ping"}',
    b'{"jsonrpc":"2.0","id":-0,"method":"ping"}',
    b'{"jsonrpc":"2.0","jsonrpc":"1.0","id":7,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":8,"id":"eight","method":"ping"}',
    b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add","arguments":{"a":NaN,"b":1}}}',
    b'{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\\ud800"}}}',
    b'{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"add","arguments":{"a":1e400,"b":1}}}',
    b'{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"add","arguments":{"a":"1","b":1}}}',
    b"\x00\x00\x00",
    b'{"jsonrpc":"2.0","id":"\x00","method":"ping"}',
    b"\xff\xfe{}",
    b'"\xc3\x28"',
    b"[]",
    b"[1,2,3]",
    b'[{"jsonrpc":"2.0","id":13,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]',
    b"null",
    b"1",
    b'"just a string"',
    b'{"a":1}',
    b'{"jsonrpc":"2.0","id":14,"result":{}}',
    b'{"jsonrpc":"2.0","id":null,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":15,"method":"tools/call","params":[]}',
    b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":13}}',
    b"Infinity",
    b"\xef\xbb\xbf{}",  # found by this test: these three were taken for JSON, not UTF-8
    b"\xff\xfe{\x00}\x00",
    b'"\xed\xa0\x80"',
]

json_text = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
).map(lambda value: json.dumps(value).encode())
requests = st.builds(
    lambda request_id, method, params: json.dumps(
        {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
    ).encode(),
    st.integers(-5, 5) | st.text(max_size=3),
    st.sampled_from(["ping", "tools/list", "tools/call", "nope", "initialize"]),
    st.sampled_from([{}, {"name": "add", "arguments": {"a": 1, "b": 2}}, {"name": "echo"}]),
)
bodies = st.one_of(
    st.binary(max_size=60),
    st.sampled_from(NASTY),
    json_text,
    requests,
    st.text(max_size=30).map(str.encode),
)


@st.composite
def split(draw: st.DrawFn, data: bytes) -> list[bytes]:
    """``data`` cut at points hypothesis chooses."""
    cuts = draw(st.lists(st.integers(0, len(data)), max_size=10))
    points = [0, *sorted(cuts), len(data)]
    return [data[a:b] for a, b in itertools.pairwise(points) if b > a]


# --- tests --------------------------------------------------------------------------------


@SETTINGS
@given(
    framing=st.sampled_from(["newline", "content-length"]),
    body_list=st.lists(bodies, max_size=8),
    data=st.data(),
)
@example(framing="newline", body_list=list(NASTY), data=None)
@example(framing="content-length", body_list=list(NASTY), data=None)
def test_frames_of_anything_get_one_parse_error_each_and_serving_goes_on(
    framing: Concrete, body_list: list[bytes], data: st.DataObject | None
) -> None:
    if framing == "newline":  # a body cannot hold the newline that ends its frame
        body_list = [body.replace(b"\n", b" ").replace(b"\r", b" ") for body in body_list]
        counted = [body for body in body_list if body.strip(b" \t")]
    else:
        counted = body_list
    stream = b"".join(
        frame(body, framing)
        for body in [json.dumps(INITIALIZE).encode(), *body_list, json.dumps(PING).encode()]
    )
    chunks = data.draw(split(stream)) if data is not None else [stream]
    sent = sent_ids([json.dumps(INITIALIZE).encode(), *counted, json.dumps(PING).encode()])
    responses = check_well_formed(read_frames(serve(chunks, framing), framing), sent)
    parse_errors = [r for r in responses if r.get("error", {}).get("code") == -32700]
    assert all(r["id"] is None for r in parse_errors)
    assert len(parse_errors) == sum(not strict_json(body) for body in counted), (
        parse_errors,
        counted,
    )
    assert [r["id"] for r in responses].count("sentinel") == 1
    assert [r["id"] for r in responses].count("init") == 1


BROKEN_HEADERS = [
    b"Content-Length: -5\r\n\r\n",
    b"Content-Length: abc\r\n\r\n",
    b"Content-Length: 1e3\r\n\r\n",
    b"Content-Length: 99999999999999999999\r\n\r\n",
    b"Content-Type: application/json\r\n\r\n",
    b"Content-Length 12\r\n\r\n",
]


@SETTINGS
@given(
    headers=st.lists(st.sampled_from(BROKEN_HEADERS), min_size=1, max_size=6),
    data=st.data(),
)
def test_each_broken_header_gets_one_error_and_the_next_frame_is_read(
    headers: list[bytes], data: st.DataObject
) -> None:
    pings = [{"jsonrpc": "2.0", "id": n, "method": "ping"} for n in range(len(headers))]
    stream = frame(json.dumps(INITIALIZE).encode(), "content-length")
    for header, ping in zip(headers, pings, strict=True):
        stream += header + frame(json.dumps(ping).encode(), "content-length")
    responses = check_well_formed(
        read_frames(serve(data.draw(split(stream)), "content-length"), "content-length")
    )
    refused = [r for r in responses if r.get("error", {}).get("code") == -32600]
    assert len(refused) == len(headers), responses
    said = [r["error"]["message"].lower() for r in refused]
    assert all("header" in text or "content-length" in text for text in said), said
    assert all(r["id"] is None for r in refused)
    assert sorted(r["id"] for r in responses if "result" in r and r["id"] != "init") == list(
        range(len(headers))
    )


@SETTINGS
@given(
    framing=st.sampled_from(["auto", "newline", "content-length"]),
    noise=st.binary(max_size=300) | st.lists(bodies, max_size=6).map(b"".join),
    data=st.data(),
)
def test_arbitrary_bytes_end_in_well_formed_output(
    framing: Literal["auto", "newline", "content-length"], noise: bytes, data: st.DataObject
) -> None:
    initialize = json.dumps(INITIALIZE).encode()
    # auto framing is decided by the first bytes: the noise comes first there
    stream = noise + b"\n" if framing == "auto" else frame(initialize, framing) + noise
    if framing != "content-length":
        stream += b"\n" + json.dumps(PING).encode() + b"\n"
    output = serve(data.draw(split(stream)), framing)
    decided: Concrete = (
        "content-length"
        if framing == "content-length"
        or (framing == "auto" and output.startswith(b"Content-Length:"))
        else "newline"
    )
    responses = check_well_formed(read_frames(output, decided))
    if framing == "newline":  # a newline-framed stream recovers at the next line
        assert [r["id"] for r in responses].count("sentinel") == 1
