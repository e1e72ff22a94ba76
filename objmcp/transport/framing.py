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
from collections import deque
from typing import Literal

from .._exceptions import FrameError

__all__ = ["DEFAULT_MAX_FRAME", "NEED_DATA", "Framing", "FrameDecoder", "encode_frame"]

Framing = Literal["auto", "newline", "content-length"]
DEFAULT_MAX_FRAME = 64 * 1024 * 1024


class _NeedData(enum.Enum):
    NEED_DATA = "NEED_DATA"


NEED_DATA = _NeedData.NEED_DATA
"""Returned by :meth:`FrameDecoder.next_frame` when no whole frame is buffered yet."""

_HEADER_START = re.compile(rb"[A-Za-z][A-Za-z0-9-]*[ \t]*:")
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_PLAIN_START = b"Content-Length: "
_MAX_DIGITS = 18
_PLAIN_HEADER = re.compile(re.escape(_PLAIN_START) + rb"([0-9]{1,%d})\r\n\r\n" % _MAX_DIGITS)
"""The header nearly every client writes, read in one match (others take the long way)."""
_BATCH_FROM = 1024
"""Input longer than this is split into frames all at once (see ``_take_batch``)."""
_MAX_HEADER = 8192
_WHITESPACE = b" \t\r\n"
_LEADING_WHITESPACE = re.compile(rb"[ \t\r\n]*")


def encode_frame(body: bytes, framing: Literal["newline", "content-length"]) -> bytes:
    """One frame around a JSON body (which must hold no raw newline for newline framing)."""
    if framing == "content-length":
        header = _HEADERS.get(len(body))
        if header is None:
            header = _PLAIN_START + b"%d\r\n\r\n" % len(body)
            if len(_HEADERS) < _KNOWN_SIZES:
                _HEADERS[len(body)] = header
        return header + body
    return body + b"\n"


# Most frames are small and their sizes repeat: a size's header is made, and its digits
# read, once (either costs more than looking it up here).
_KNOWN_SIZES = 4096
_HEADERS: dict[int, bytes] = {}
_LENGTHS: dict[bytes, int] = {}


def _length(digits: bytes) -> int | None:
    """The number 1 to 18 ASCII ``digits`` spell (remembered); None for any other bytes."""
    if not 0 < len(digits) <= _MAX_DIGITS or not digits.isdigit():
        return None
    length = int(digits)
    if len(_LENGTHS) < _KNOWN_SIZES:
        _LENGTHS[digits] = length
    return length


class FrameDecoder:
    """Splits a byte stream into JSON frames.

    Input is kept as it was read. A frame that ends in the read it starts in, or in the
    next one, is sliced out of that input; the pieces of a longer one are kept until it is
    whole and then joined once, so a frame of many megabytes is copied once, not once for
    each read."""

    def __init__(self, framing: Framing = "auto", max_size: int = DEFAULT_MAX_FRAME) -> None:
        if framing not in ("auto", "newline", "content-length"):
            raise ValueError(f"framing must be auto, newline or content-length, not {framing!r}")
        self.framing: Framing = framing
        self.max_size = max_size
        self._data = b""  # input not taken yet: from self._pos on
        self._pos = 0
        self._joined = False  # _data holds two reads joined: a third goes to _pieces
        self._pieces: list[bytes] = []  # the reads of a longer frame, joined when it is whole
        self._pieces_size = 0
        self._searched = 0  # newline framing: the pieces known to hold no newline
        self._skip = 0  # bytes of an oversized Content-Length body still to drop
        self._skipping_line = False  # dropping an oversized line up to its newline
        self._body_length: int | None = None  # of the Content-Length frame being read
        self._header_size = 0  # of that frame, already taken
        self._ready: deque[bytes | FrameError] = deque()  # frames split off, not yet taken

    def feed(self, data: bytes) -> None:
        """Add bytes read from the stream."""
        if self._skip:
            dropped = min(self._skip, len(data))
            self._skip -= dropped
            data = data[dropped:]
        if not data:
            return
        if self._pieces:
            self._pieces.append(bytes(data))
            self._pieces_size += len(data)
        elif self._pos >= len(self._data):
            self._data = bytes(data)
            self._pos = 0
        elif not self._joined:
            self._data = self._data[self._pos :] + data
            self._pos = 0
            self._joined = True
        else:
            self._pieces = [self._data[self._pos :], bytes(data)]
            self._pieces_size = len(self._data) - self._pos + len(data)
            self._data = b""
            self._pos = 0

    @property
    def buffered(self) -> int:
        """Bytes taken in that are not yet a whole frame (a header already read counts)."""
        return len(self._data) - self._pos + self._pieces_size + self._header_size

    def next_frame(self) -> bytes | FrameError | _NeedData:
        """The next whole frame's body, a :class:`FrameError` in place of a bad frame, or
        :data:`NEED_DATA`."""
        if self._ready:
            return self._ready.popleft()
        if self.framing == "auto" and not self._decide():
            return NEED_DATA
        if len(self._data) - self._pos > _BATCH_FROM and self._take_batch():
            return self._ready.popleft()
        if self.framing == "content-length":
            return self._next_content_length()
        return self._next_line()

    def _take_batch(self) -> bool:
        """Split off, all at once, the whole frames the input starts with that need none of
        the frame-by-frame care (no pieces, no skipping, no header but the plain one, no
        blanks between Content-Length frames); whether any were.

        A burst of small frames read together comes apart in one ``split``; what this
        leaves (the last frame, which may be cut short, and anything unusual) is read
        frame by frame as before."""
        if self._pieces or self._skipping_line or self._body_length is not None:
            return False
        data, pos = self._data, self._pos
        ready = self._ready
        if self.framing == "content-length":
            if data.find(_PLAIN_START, pos + 1) < 0:
                return False  # one frame at most: nothing to split
            parts = (data[pos:] if pos else data).split(_PLAIN_START)
            if parts[0]:
                return False
            for part in parts[1:-1]:
                digits, blank, body = part.partition(b"\r\n\r\n")
                length = _LENGTHS.get(digits)
                if length is None:
                    length = _length(digits)
                if not blank or length is None or len(body) != length or length > self.max_size:
                    break  # not a plain frame ending where the next header starts
                ready.append(body)
                pos += len(part) + len(_PLAIN_START)
        else:
            end = data.rfind(b"\n", pos)
            if end < 0:
                return False
            for raw in data[pos:end].split(b"\n"):
                if len(raw) > self.max_size:
                    ready.append(self._too_large(len(raw)))
                    continue
                line = raw.strip(_WHITESPACE)
                if line:
                    ready.append(line)
            pos = end + 1
        if pos == self._pos:
            return False
        self._pos = pos
        self._joined = False
        return bool(ready)

    def end_of_input(self) -> bytes | FrameError | None:
        """What is left when the stream ends (once :meth:`next_frame` has said
        :data:`NEED_DATA`): the last newline frame, which may lack its newline; a
        :class:`FrameError` for a Content-Length frame cut short; or None."""
        self._join_pieces()
        rest = self._data[self._pos :].strip(_WHITESPACE)
        self._take_all()
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
        self._join_pieces()
        start = _LEADING_WHITESPACE.match(self._data, self._pos).end()  # type: ignore[union-attr]
        head = self._data[start : start + 32]
        if not head:
            self._take_all()  # blanks before the first frame: dropped, not searched again
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
            if self._pieces:
                line = self._line_from_pieces()
                if line is None:
                    return NEED_DATA
                if isinstance(line, FrameError):
                    return line
            else:
                data, pos = self._data, self._pos
                end = data.find(b"\n", pos)
                if end < 0:
                    if self._skipping_line:
                        self._take_all()
                    elif len(data) - pos > self.max_size:
                        self._take_all()
                        self._skipping_line = True
                        return self._too_large(None)
                    return NEED_DATA
                line = data[pos:end]
                self._pos = end + 1
                self._joined = False
            if self._skipping_line:
                self._skipping_line = False
                continue
            if len(line) > self.max_size:
                return self._too_large(len(line))
            line = line.strip(_WHITESPACE)
            if line:
                return line

    def _line_from_pieces(self) -> bytes | FrameError | None:
        """The line the pieces end with once its newline has come; None till then."""
        pieces = self._pieces
        for index in range(self._searched, len(pieces)):
            end = pieces[index].find(b"\n")
            if end >= 0:
                break
        else:
            self._searched = len(pieces)
            if self._pieces_size > self.max_size:
                self._take_all()
                self._skipping_line = True
                return self._too_large(None)
            return None
        piece = pieces[index]
        self._data = piece[end + 1 :] + b"".join(pieces[index + 1 :])
        self._pos = 0
        self._joined = False
        del pieces[index:]
        pieces.append(piece[:end])
        line = b"".join(pieces)
        self._forget_pieces()
        return line

    def _next_content_length(self) -> bytes | FrameError | _NeedData:
        if self._body_length is None:
            if self._pieces:
                self._join_pieces()
            data, pos = self._data, self._pos
            if pos >= len(data):
                return NEED_DATA
            plain = _PLAIN_HEADER.match(data, pos)
            if plain is not None:
                digits = plain[1]
                length = _LENGTHS.get(digits)
                if length is None:
                    length = _length(digits)
                    assert length is not None  # the pattern lets only digits through
                start = plain.end()
                end = start + length
                if length <= self.max_size and end <= len(data):  # all of it is here
                    self._pos = end
                    self._joined = False
                    return data[start:end]
                self._pos = start
                header_size = start - pos
            else:
                header_read = self._read_header()
                if not isinstance(header_read, tuple):
                    return header_read
                length, header_size = header_read
            if length > self.max_size:
                rest = len(self._data) - self._pos
                dropped = min(rest, length)
                self._pos += dropped
                self._skip = length - dropped
                return self._too_large(length)
            self._body_length = length
            self._header_size = header_size
        length = self._body_length
        if self._pieces:
            excess = self._pieces_size - length
            if excess < 0:
                return NEED_DATA
            pieces = self._pieces
            if excess:
                last = pieces[-1]
                pieces[-1] = last[: len(last) - excess]
                self._data = last[len(last) - excess :]
            else:
                self._data = b""
            self._pos = 0
            body = b"".join(pieces)
            self._forget_pieces()
        else:
            data, pos = self._data, self._pos
            if len(data) - pos < length:
                return NEED_DATA
            body = data[pos : pos + length]
            self._pos = pos + length
        self._joined = False
        self._body_length = None
        self._header_size = 0
        return body

    def _read_header(self) -> tuple[int, int] | FrameError | _NeedData:
        """Any header: its Content-Length and its size in bytes, taken off the input."""
        data = self._data
        self._pos = start = _LEADING_WHITESPACE.match(data, self._pos).end()  # type: ignore[union-attr]
        match = _HEADER_END.search(data, start)
        if match is None:
            if len(data) - start > _MAX_HEADER:
                self._take_all()
                return FrameError("Frame header is over 8 KiB without an end (a blank line)")
            return NEED_DATA
        header = data[start : match.start()]
        self._pos = match.end()
        try:
            return _content_length(header), match.end() - start
        except FrameError as error:
            return error

    def _join_pieces(self) -> None:
        """Put the pieces back into one input (a frame's header is read from one)."""
        if self._pieces:
            self._data = self._data[self._pos :] + b"".join(self._pieces)
            self._pos = 0
            self._forget_pieces()

    def _forget_pieces(self) -> None:
        self._pieces = []
        self._pieces_size = 0
        self._searched = 0

    def _take_all(self) -> None:
        """Drop whatever input is held."""
        self._data = b""
        self._pos = 0
        self._joined = False
        self._forget_pieces()

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
