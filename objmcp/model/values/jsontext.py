"""JSON text both ways, for messages and for results.

The standard library's codec, used the way it is quickest: its C encoder is made
once here, where ``JSONEncoder.encode`` makes a new one for every value, and a
message is decoded by one scan from its first byte, the full decoder taking over
only for what that scan does not read to the end (leading blanks, errors). The
bytes written and the values read are the standard library's own.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

c_make_encoder: Any = getattr(json.encoder, "c_make_encoder", None)  # None without json's C part

__all__ = [
    "LONG_TEXT",
    "LongMessage",
    "NumberOutOfRange",
    "ParseFailure",
    "dumps",
    "encode_message",
    "parse_json",
    "parse_message",
]


def _compact(allow_nan: bool) -> Callable[[object], str]:
    """Compact JSON text, UTF-8 characters kept, as ``JSONEncoder.encode`` writes it."""
    standard = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=allow_nan)
    if c_make_encoder is None:
        return standard.encode
    chunks = c_make_encoder(
        None,
        standard.default,
        json.encoder.encode_basestring,
        None,
        ":",
        ",",
        False,
        False,
        allow_nan,
    )

    def encode(value: object) -> str:
        try:
            return "".join(chunks(value, 0))
        except RecursionError:  # a cycle (or a depth no message has): said the standard way
            return standard.encode(value)

    return encode


dumps: Callable[[object], str] = _compact(allow_nan=False)
"""Compact JSON text of a value, UTF-8 characters kept; NaN and infinities refused
(ValueError), as are values with no JSON form (TypeError)."""

_message_text = _compact(allow_nan=True)


def encode_message(message: object) -> bytes:
    """A message as compact JSON bytes (UTF-8; lone surrogates escaped)."""
    try:
        if message.__class__ is LongMessage:
            return _with_long_texts(message, message.long_texts).encode()
        return _message_text(message).encode()
    except UnicodeEncodeError:
        return json.dumps(message, separators=(",", ":")).encode()


class LongMessage(dict[str, Any]):
    """A message that names long strings it holds (the very objects), so that
    :func:`encode_message` escapes each once however often the message holds it, and
    writes one with nothing to escape (a quick search tells) as it is, where json's
    encoder would look at each of its characters in turn. The bytes are the same."""

    def __init__(self, message: Mapping[str, Any], long_texts: Sequence[str]) -> None:
        super().__init__(message)
        self.long_texts = tuple(long_texts)


LONG_TEXT = 64 * 1024
"""Characters from which a string is worth naming in a :class:`LongMessage`."""

_ESCAPED = "".join(json.encoder.ESCAPE_DCT)
"""What json escapes in a string (ensure_ascii off): its own table, ``\\`` and ``"`` first."""


def _with_long_texts(message: object, long_texts: Sequence[str]) -> str:
    """``message``'s JSON text, made with a placeholder in place of each long text and
    the placeholders then replaced."""
    token = f"objmcp-{os.urandom(8).hex()}-"
    index = {id(text): i for i, text in enumerate(long_texts)}
    uses = [0] * len(long_texts)

    def swap(value: object) -> object:
        kind = type(value)
        if kind is str:
            i = index.get(id(value))
            if i is None:
                return value
            uses[i] += 1
            return f"{token}{i}"
        if kind is dict:
            return {key: swap(item) for key, item in value.items()}  # type: ignore[attr-defined]
        if kind is list or kind is tuple:
            return [swap(item) for item in value]  # type: ignore[attr-defined]
        return value

    try:
        text = _message_text(swap(dict(message)))  # type: ignore[call-overload]
    except RecursionError:  # nested too deep to copy: the encoder says what it says
        return _message_text(message)
    for i, long_text in enumerate(long_texts):
        placeholder = f'"{token}{i}"'
        if text.count(placeholder) != uses[i]:  # the token was in the message already
            return _message_text(message)
        if uses[i]:
            text = text.replace(placeholder, _quoted(long_text))
    return text


def _quoted(text: str) -> str:
    """``text`` as a JSON string, as json's encoder writes it."""
    if any(character in text for character in _ESCAPED):
        return json.encoder.encode_basestring(text)
    return f'"{text}"'


class ParseFailure(ValueError):
    """A frame that is not JSON; the message says what is wrong with it."""


class NumberOutOfRange(ParseFailure):
    """A frame that is JSON, but holds a number no float can hold (``1e400``, which
    Python would read as infinity). ``message`` is the frame read anyway (its numbers
    infinite), so that the request it is can be answered by its id."""

    def __init__(self, detail: str, message: object) -> None:
        super().__init__(detail)
        self.message = message


def parse_message(frame: bytes) -> Any:
    """A frame's JSON (strict: UTF-8 only, no ``NaN`` or ``Infinity``, no number out of
    a float's range); :class:`ParseFailure` else (:class:`NumberOutOfRange` for the
    last)."""
    try:
        # decoded here: given bytes, json.loads would take UTF-16 and UTF-32 as well
        text = frame.decode()
        try:
            value, end = _scan(text, 0)
            if end == len(text):
                return value
        except (StopIteration, ValueError, RecursionError):
            pass  # the full decoder says what is wrong
        return _DECODER.decode(text)
    except _OutOfRange as error:
        raise NumberOutOfRange(str(error), _read_anyway(text)) from None
    except (ValueError, RecursionError) as error:
        raise ParseFailure(_describe_parse_error(error)) from None


def parse_json(text: str) -> Any:
    """The JSON value ``text`` holds, read as strictly as a message (no ``NaN``,
    ``Infinity`` or number out of a float's range); ValueError or RecursionError else."""
    return _DECODER.decode(text)


class _OutOfRange(ValueError):
    pass


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _OutOfRange(f"the number {text[:40]} is out of range: numbers must be finite")
    return value


def _read_anyway(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)
_scan: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]


def _describe_parse_error(error: Exception) -> str:
    if isinstance(error, RecursionError):
        return "the JSON is nested too deeply"
    if isinstance(error, UnicodeDecodeError):
        return f"the frame is not UTF-8 ({error.reason} at byte {error.start})"
    return str(error)
