"""Frames on a byte stream: newline-delimited JSON, or Content-Length headers (LSP style).

:class:`FrameDecoder` does no I/O: :meth:`~FrameDecoder.feed` it bytes as they
come, then take frames with :meth:`~FrameDecoder.next_frame` until it says
:data:`NEED_DATA`. With ``framing="auto"`` the first bytes decide: a header
(``Content-Length: ...``) means Content-Length framing, anything else
newline-delimited. A frame that cannot be read (broken header, over the size
limit) comes out as a :class:`~objmcp.FrameError` in its place, and decoding
goes on after it; an oversized frame is skipped without being held in memory.
"""

from __future__ import annotations

import enum
import re
from typing import Literal

from ._exceptions import FrameError

__all__ = ["DEFAULT_MAX_FRAME", "NEED_DATA", "Framing", "FrameDecoder", "encode_frame"]

Framing = Literal["auto", "newline", "content-length"]
DEFAULT_MAX_FRAME = 64 * 1024 * 1024


class _NeedData(enum.Enum):
    NEED_DATA = "NEED_DATA"


NEED_DATA = _NeedData.NEED_DATA
"""Returned by :meth:`FrameDecoder.next_frame` when no whole frame is buffered yet."""

_HEADER_START = re.compile(rb"[A-Za-z][A-Za-z0-9-]*[ \t]*:")
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_PLAIN_HEADER = re.compile(rb"Content-Length: ([0-9]{1,18})\r\n\r\n")
"""The header nearly every client writes, read in one match (others take the long way)."""
_WHITESPACE = b" \t\r\n"
_LEADING_WHITESPACE = re.compile(rb"[ \t\r\n]*")


def encode_frame(body: bytes, framing: Literal["newline", "content-length"]) -> bytes:
    """One frame around a JSON body (which must hold no raw newline for newline framing)."""
    if framing == "content-length":
        return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    return body + b"\n"


class FrameDecoder:
    """Splits a byte stream into JSON frames."""

    def __init__(self, framing: Framing = "auto", max_size: int = DEFAULT_MAX_FRAME) -> None:
        if framing not in ("auto", "newline", "content-length"):
            raise ValueError(f"framing must be auto, newline or content-length, not {framing!r}")
        self.framing: Framing = framing
        self.max_size = max_size
        self._buffer = bytearray()
        self._skip = 0  # bytes of an oversized Content-Length body still to drop
        self._skipping_line = False  # dropping an oversized line up to its newline
        self._search_from = 0
        self._body_length: int | None = None  # of the Content-Length frame being read
        self._header_size = 0  # of that frame, already taken off the buffer

    def feed(self, data: bytes) -> None:
        """Add bytes read from the stream."""
        if self._skip:
            dropped = min(self._skip, len(data))
            self._skip -= dropped
            data = data[dropped:]
        self._buffer += data

    @property
    def buffered(self) -> int:
        """Bytes taken in that are not yet a whole frame (a header already read counts)."""
        return len(self._buffer) + self._header_size

    def next_frame(self) -> bytes | FrameError | _NeedData:
        """The next whole frame's body, a :class:`FrameError` in place of a bad frame, or
        :data:`NEED_DATA`."""
        if self.framing == "auto" and not self._decide():
            return NEED_DATA
        if self.framing == "content-length":
            return self._next_content_length()
        return self._next_line()

    def end_of_input(self) -> bytes | FrameError | None:
        """What is left when the stream ends: the last newline frame, which may lack its
        newline; a :class:`FrameError` for a Content-Length frame cut short; or None."""
        rest = bytes(self._buffer).strip(_WHITESPACE)
        self._buffer.clear()
        if self._skipping_line or self._skip:
            return None
        if self._body_length is not None:
            return FrameError("The input ended inside a frame")
        if not rest:
            return None
        if self.framing == "content-length":
            return FrameError("The input ended inside a frame header")
        if len(rest) > self.max_size:
            return self._too_large(len(rest))
        return rest

    def _decide(self) -> bool:
        start = len(self._buffer) - len(self._buffer.lstrip(_WHITESPACE))
        head = bytes(self._buffer[start : start + 32])
        if not head:
            return False
        if _HEADER_START.match(head):
            self.framing = "content-length"
        elif len(head) < 32 and re.fullmatch(rb"[A-Za-z][A-Za-z0-9-]*[ \t]*", head):
            return False  # could still become a header
        else:
            self.framing = "newline"
        return True

    def _next_line(self) -> bytes | FrameError | _NeedData:
        while True:
            end = self._buffer.find(b"\n", self._search_from)
            if end < 0:
                self._search_from = len(self._buffer)
                if len(self._buffer) > self.max_size:
                    self._buffer.clear()
                    self._search_from = 0
                    if not self._skipping_line:
                        self._skipping_line = True
                        return self._too_large(None)
                return NEED_DATA
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            self._search_from = 0
            if self._skipping_line:
                self._skipping_line = False
                continue
            if len(line) > self.max_size:
                return self._too_large(len(line))
            line = line.strip(_WHITESPACE)
            if line:
                return line

    def _next_content_length(self) -> bytes | FrameError | _NeedData:
        if self._body_length is None:
            if not self._buffer:
                return NEED_DATA
            plain = _PLAIN_HEADER.match(self._buffer)
            if plain is not None:
                length, header_size = int(plain[1]), plain.end()
                end = header_size + length
                if length <= self.max_size and len(self._buffer) >= end:  # all of it is here
                    body = bytes(self._buffer[header_size:end])
                    del self._buffer[:end]
                    return body
                del self._buffer[:header_size]
            else:
                header_read = self._read_header()
                if not isinstance(header_read, tuple):
                    return header_read
                length, header_size = header_read
            if length > self.max_size:
                dropped = min(len(self._buffer), length)
                del self._buffer[:dropped]
                self._skip = length - dropped
                return self._too_large(length)
            self._body_length = length
            self._header_size = header_size
        if len(self._buffer) < self._body_length:
            return NEED_DATA
        body = bytes(self._buffer[: self._body_length])
        del self._buffer[: self._body_length]
        self._body_length = None
        self._header_size = 0
        return body

    def _read_header(self) -> tuple[int, int] | FrameError | _NeedData:
        """Any header: its Content-Length and its size in bytes, taken off the buffer."""
        if self._buffer[:1].isspace():
            start = _LEADING_WHITESPACE.match(self._buffer).end()  # type: ignore[union-attr]
            del self._buffer[:start]
        match = _HEADER_END.search(self._buffer)
        if match is None:
            if len(self._buffer) > 8192:
                self._buffer.clear()
                return FrameError("Frame header is over 8 KiB without an end (a blank line)")
            return NEED_DATA
        header = bytes(self._buffer[: match.start()])
        header_size = match.end()
        del self._buffer[:header_size]
        try:
            return _content_length(header), header_size
        except FrameError as error:
            return error

    def _too_large(self, size: int | None) -> FrameError:
        said = f"{size} bytes" if size is not None else "a frame"
        return FrameError(f"Frame too large: {said} is over the limit of {self.max_size} bytes")


_LINE_BREAK = re.compile(rb"\r?\n")


def _content_length(header: bytes) -> int:
    length: int | None = None
    lines = _LINE_BREAK.split(header) if b"\n" in header else (header,)
    for raw in lines:
        name, colon, value = raw.partition(b":")
        if not colon:
            raise FrameError(f"Broken frame header line: {raw[:80]!r}")
        if name.strip().lower() == b"content-length":
            text = value.strip()
            if not text.isdigit() or len(text) > 18:
                raise FrameError(
                    f"Content-Length must be a non-negative integer, not {text[:40]!r}"
                )
            length = int(text)
    if length is None:
        raise FrameError("Frame header has no Content-Length")
    return length
