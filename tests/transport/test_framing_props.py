"""Property tests of the frame decoder: whatever the chunking, the same frames come out.

Every test feeds encoded frames to :class:`objmcp.transport.framing.FrameDecoder` in
chunks that hypothesis chooses, and compares what comes out with what went in.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp import FrameError
from objmcp.transport import framing as _framing
from objmcp.transport.framing import NEED_DATA, FrameDecoder, Framing, encode_frame

Concrete = Literal["newline", "content-length"]
Output = bytes | FrameError

SETTINGS = settings(max_examples=50, deadline=None)
CONCRETE: tuple[Concrete, ...] = ("newline", "content-length")


@pytest.fixture(scope="module", autouse=True, params=["split at once", "frame by frame"])
def splitting(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test twice: with input of any length split into frames at once where it can
    be (the path a burst of frames takes), and with only long input split so (the path of
    the usual small read, and of every test's own small streams)."""
    default = _framing._BATCH_FROM
    _framing._BATCH_FROM = 0 if request.param == "split at once" else default
    yield
    _framing._BATCH_FROM = default


# --- strategies ---------------------------------------------------------------------------------

json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=20)
json_scalars |= st.floats(allow_nan=False, allow_infinity=False)
json_values = json_scalars | st.lists(json_scalars, max_size=3)
json_values |= st.dictionaries(st.text(max_size=6), json_scalars, max_size=3)
# A message is what a JSON-RPC peer sends: an object, or an array (a batch).
messages = st.dictionaries(st.text(max_size=8), json_values, max_size=4) | st.lists(
    json_values, max_size=3
)


@st.composite
def bodies(draw: st.DrawFn, framing: Concrete) -> bytes:
    """One JSON text as a frame body; Content-Length bodies may hold raw newlines."""
    message = draw(messages)
    indent = draw(st.sampled_from([None, 1])) if framing == "content-length" else None
    ascii_only = draw(st.booleans())
    return json.dumps(message, indent=indent, ensure_ascii=ascii_only).encode()


@st.composite
def split(draw: st.DrawFn, data: bytes) -> list[bytes]:
    """``data`` cut at points hypothesis chooses (empty chunks included)."""
    if not data:
        return [b""]
    cuts = draw(st.lists(st.integers(0, len(data)), max_size=12))
    points = [0, *sorted(cuts), len(data)]
    return [data[a:b] for a, b in itertools.pairwise(points)]


# --- helpers ----------------------------------------------------------------------------------


def drain(decoder: FrameDecoder) -> list[Output]:
    """Every frame the decoder can give now."""
    out: list[Output] = []
    while True:
        frame = decoder.next_frame()
        if frame is NEED_DATA:
            return out
        assert isinstance(frame, (bytes, FrameError)), frame
        out.append(frame)


def decode(chunks: Iterable[bytes], framing: Framing, max_size: int | None = None) -> list[Output]:
    """Feed ``chunks`` one by one, taking frames after each."""
    decoder = FrameDecoder(framing) if max_size is None else FrameDecoder(framing, max_size)
    out: list[Output] = []
    for chunk in chunks:
        decoder.feed(chunk)
        out.extend(drain(decoder))
    assert drain(decoder) == []
    return out


def only_bodies(frames: Sequence[Output]) -> list[bytes]:
    assert all(isinstance(f, bytes) for f in frames), frames
    return [f for f in frames if isinstance(f, bytes)]


def shape(frames: Sequence[Output]) -> list[bytes | None]:
    """Bodies as they are, each error as None."""
    return [f if isinstance(f, bytes) else None for f in frames]


def encode_all(framing: Concrete, frames: Iterable[bytes]) -> bytes:
    return b"".join(encode_frame(body, framing) for body in frames)


# --- round trips ------------------------------------------------------------------------------


@SETTINGS
@given(data=st.data(), framing=st.sampled_from(CONCRETE), auto=st.booleans())
def test_any_split_gives_the_same_bodies_in_order(
    data: st.DataObject, framing: Concrete, auto: bool
) -> None:
    sent = data.draw(st.lists(bodies(framing), max_size=6), label="bodies")
    stream = encode_all(framing, sent)
    chunks = data.draw(split(stream), label="chunks")
    assert only_bodies(decode(chunks, "auto" if auto else framing)) == sent


@SETTINGS
@given(data=st.data(), framing=st.sampled_from(CONCRETE))
def test_auto_settles_on_the_framing_of_the_first_frame(
    data: st.DataObject, framing: Concrete
) -> None:
    sent = data.draw(st.lists(bodies(framing), min_size=1, max_size=3), label="bodies")
    decoder = FrameDecoder("auto")
    for chunk in data.draw(split(encode_all(framing, sent)), label="chunks"):
        decoder.feed(chunk)
        drain(decoder)
    assert decoder.framing == framing


@SETTINGS
@given(data=st.data(), framing=st.sampled_from(CONCRETE), auto=st.booleans())
def test_byte_by_byte_whole_and_with_trailing_bytes_agree(
    data: st.DataObject, framing: Concrete, auto: bool
) -> None:
    """After h11's test: the stream whole, byte by byte, and with a partial frame left over."""
    sent = data.draw(st.lists(bodies(framing), min_size=1, max_size=5), label="bodies")
    stream = encode_all(framing, sent)
    mode: Framing = "auto" if auto else framing
    whole = decode([stream], mode)
    bytewise = decode([stream[i : i + 1] for i in range(len(stream))], mode)
    assert whole == bytewise == sent

    # A partial next frame stays buffered and changes nothing before it.
    extra = data.draw(bodies(framing), label="extra")
    partial = encode_frame(extra, framing)
    cut = data.draw(st.integers(1, len(partial) - 1), label="cut")
    decoder = FrameDecoder(mode)
    for i in range(len(stream) + cut):
        decoder.feed((stream + partial[:cut])[i : i + 1])
    got = drain(decoder)
    assert got == sent
    assert decoder.buffered > 0 or (framing == "newline" and not partial[:cut].strip())
    decoder.feed(partial[cut:])
    assert drain(decoder) == [extra]
    assert decoder.buffered == 0


@SETTINGS
@given(
    data=st.data(),
    auto=st.booleans(),
    padding=st.lists(st.text(alphabet=" \t\r\n", max_size=4), min_size=8, max_size=8),
)
def test_blank_lines_and_whitespace_between_newline_frames_are_ignored(
    data: st.DataObject, auto: bool, padding: list[str]
) -> None:
    sent = data.draw(st.lists(bodies("newline"), max_size=7), label="bodies")
    stream = padding[0].encode()
    for body, pad in zip(sent, padding[1:], strict=False):
        stream += body + b"\n" + pad.encode()
    chunks = data.draw(split(stream), label="chunks")
    assert only_bodies(decode(chunks, "auto" if auto else "newline")) == sent


@SETTINGS
@given(
    data=st.data(),
    auto=st.booleans(),
    padding=st.lists(st.sampled_from(["", "\r\n", "\n", " ", "\r\n\r\n"]), min_size=7, max_size=7),
)
def test_whitespace_between_content_length_frames_is_ignored(
    data: st.DataObject, auto: bool, padding: list[str]
) -> None:
    sent = data.draw(st.lists(bodies("content-length"), max_size=6), label="bodies")
    stream = b"".join(
        encode_frame(body, "content-length") + pad.encode()
        for body, pad in zip(sent, padding, strict=False)
    )
    chunks = data.draw(split(stream), label="chunks")
    assert only_bodies(decode(chunks, "auto" if auto else "content-length")) == sent


@SETTINGS
@given(
    data=st.data(),
    blanks=st.lists(st.text(alphabet=" \t\r\n", min_size=1, max_size=300), min_size=1, max_size=8),
    framing=st.sampled_from(CONCRETE),
)
def test_blanks_before_the_first_frame_are_not_held(
    data: st.DataObject, blanks: list[str], framing: Concrete
) -> None:
    # Held, they would be searched again on every read (quadratic in their length).
    decoder = FrameDecoder("auto")
    for blank in blanks:
        decoder.feed(blank.encode())
        assert decoder.next_frame() is NEED_DATA
        assert decoder.buffered == 0
    body = data.draw(bodies(framing), label="body")
    decoder.feed(encode_frame(body, framing))
    assert drain(decoder) == [body]
    assert decoder.framing == framing


# --- errors in the stream ---------------------------------------------------------------------

MAX = 64


@st.composite
def small_body(draw: st.DrawFn) -> bytes:
    """A JSON body of at most MAX bytes, with no raw newline."""
    return json.dumps(draw(st.lists(st.integers(0, 99), max_size=12))).encode()


@st.composite
def big_body(draw: st.DrawFn) -> bytes:
    """A JSON body over MAX bytes, with no raw newline."""
    text = draw(st.text(alphabet="abcxyz", min_size=MAX, max_size=4 * MAX))
    return json.dumps({"big": text}).encode()


@SETTINGS
@given(
    data=st.data(),
    framing=st.sampled_from(CONCRETE),
    auto=st.booleans(),
    plan=st.lists(st.booleans(), min_size=1, max_size=6),
)
def test_an_oversized_frame_is_one_error_and_the_rest_decodes(
    data: st.DataObject, framing: Concrete, auto: bool, plan: list[bool]
) -> None:
    """``plan`` says, frame by frame, whether it is over the limit."""
    sent = [data.draw(big_body() if big else small_body(), label="body") for big in plan]
    assert all((len(body) > MAX) == big for body, big in zip(sent, plan, strict=True))
    stream = encode_all(framing, sent)
    chunks = data.draw(split(stream), label="chunks")
    out = decode(chunks, "auto" if auto else framing, max_size=MAX)
    assert shape(out) == [None if big else body for body, big in zip(sent, plan, strict=True)]
    for error in out:
        if isinstance(error, FrameError):
            assert "too large" in str(error)


@SETTINGS
@given(data=st.data(), framing=st.sampled_from(CONCRETE))
def test_a_frame_of_exactly_max_size_is_not_too_large(
    data: st.DataObject, framing: Concrete
) -> None:
    size = data.draw(st.integers(2, MAX), label="size")
    body = json.dumps("x" * (size - 2)).encode()
    assert len(body) == size
    stream = encode_frame(body, framing) * 2
    chunks = data.draw(split(stream), label="chunks")
    assert decode(chunks, framing, max_size=size) == [body, body]


BROKEN_HEADERS = [
    b"Content-Length: abc",  # not a number
    b"Content-Length: -5",  # negative
    b"Content-Length: 1.5",  # not an integer
    b"Content-Length: ",  # empty
    b"Content-Length: 99999999999999999999999",  # absurd
    b"Content-Type: application/json",  # no Content-Length at all
    b"Content-Type: application/json\r\nX-Other: 1",  # still none
]


@SETTINGS
@given(
    data=st.data(),
    auto=st.booleans(),
    headers=st.lists(st.sampled_from(BROKEN_HEADERS), min_size=1, max_size=3),
)
def test_a_broken_content_length_header_is_one_error_and_decoding_goes_on(
    data: st.DataObject, auto: bool, headers: list[bytes]
) -> None:
    """Each broken header (with no body: its length is unknown) is one FrameError in its place."""
    before = data.draw(st.lists(bodies("content-length"), max_size=2), label="before")
    after = data.draw(st.lists(bodies("content-length"), min_size=1, max_size=3), label="after")
    stream = encode_all("content-length", before)
    stream += b"".join(header + b"\r\n\r\n" for header in headers)
    stream += encode_all("content-length", after)
    chunks = data.draw(split(stream), label="chunks")
    out = decode(chunks, "auto" if auto else "content-length")
    assert shape(out) == [*before, *[None] * len(headers), *after]


@SETTINGS
@given(data=st.data())
def test_a_header_line_without_a_colon_is_an_error_and_decoding_goes_on(
    data: st.DataObject,
) -> None:
    first = data.draw(bodies("content-length"), label="first")
    after = data.draw(st.lists(bodies("content-length"), min_size=1, max_size=3), label="after")
    stream = encode_frame(first, "content-length") + b"Garbage\r\n\r\n"
    stream += encode_all("content-length", after)
    chunks = data.draw(split(stream), label="chunks")
    for mode in ("auto", "content-length"):
        assert shape(decode(chunks, mode)) == [first, None, *after]


def test_an_endless_header_is_an_error_not_a_hang() -> None:
    decoder = FrameDecoder("content-length")
    decoder.feed(b"Content-Length: 5\r\nX: " + b"y" * 9000)
    out = drain(decoder)
    assert len(out) == 1
    assert isinstance(out[0], FrameError)
    decoder.feed(encode_frame(b"{}", "content-length"))
    assert drain(decoder) == [b"{}"]


def test_oversized_line_is_not_held_in_memory() -> None:
    decoder = FrameDecoder("newline", max_size=MAX)
    errors = 0
    for _ in range(100):
        decoder.feed(b"x" * MAX)
        errors += sum(isinstance(f, FrameError) for f in drain(decoder))
        assert decoder.buffered <= 2 * MAX
    decoder.feed(b"\n[1]\n")
    assert drain(decoder) == [b"[1]"]
    assert errors == 1


# --- long frames and the end of input ------------------------------------------------------


@SETTINGS
@given(
    data=st.data(),
    framing=st.sampled_from(CONCRETE),
    sizes=st.lists(st.integers(0, 40_000), min_size=1, max_size=4),
    read=st.integers(1, 9_000),
)
def test_long_frames_read_in_many_pieces_come_out_whole(
    data: st.DataObject, framing: Concrete, sizes: list[int], read: int
) -> None:
    """Frames longer than a read span many reads (their pieces are joined once, when whole);
    reads of one size, as a pipe gives them, cut them anywhere."""
    sent = [
        json.dumps({"text": "é" * (size % 7) + "x" * size}, ensure_ascii=False).encode()
        for size in sizes
    ]
    stream = encode_all(framing, sent)
    stream += data.draw(st.sampled_from([b"", b"\n", b"\r\n"]), label="tail")
    decoder = FrameDecoder(data.draw(st.sampled_from([framing, "auto"]), label="mode"))
    out: list[Output] = []
    for start in range(0, len(stream), read):
        decoder.feed(stream[start : start + read])
        out.extend(drain(decoder))
    assert out == sent
    assert decoder.buffered == 0


@SETTINGS
@given(data=st.data(), auto=st.booleans())
def test_the_last_newline_frame_needs_no_newline(data: st.DataObject, auto: bool) -> None:
    sent = data.draw(st.lists(bodies("newline"), min_size=1, max_size=4), label="bodies")
    stream = encode_all("newline", sent)[:-1]  # the last frame's newline never comes
    decoder = FrameDecoder("auto" if auto else "newline")
    out: list[Output] = []
    for chunk in data.draw(split(stream), label="chunks"):
        decoder.feed(chunk)
        out.extend(drain(decoder))
    last = decoder.end_of_input()
    assert [*out, last] == sent
    assert decoder.buffered == 0
    assert decoder.end_of_input() is None


@SETTINGS
@given(data=st.data())
def test_a_content_length_frame_cut_short_is_an_error_at_the_end(data: st.DataObject) -> None:
    sent = data.draw(st.lists(bodies("content-length"), min_size=1, max_size=3), label="bodies")
    stream = encode_all("content-length", sent)
    cut = data.draw(st.integers(1, len(encode_frame(sent[-1], "content-length")) - 1))
    decoder = FrameDecoder("content-length")
    out: list[Output] = []
    for chunk in data.draw(split(stream[:-cut]), label="chunks"):
        decoder.feed(chunk)
        out.extend(drain(decoder))
    assert out == sent[:-1]
    last = decoder.end_of_input()
    assert isinstance(last, FrameError)
    assert "ended inside a frame" in str(last)
