"""JSON scalars as the Python values a hint's class asks for: booleans, integers, floats
(an integer stays an int; the name of NaN or an infinity is that float), strings, and
bytes, which an argument sends as text or ``{"base64": "..."}`` (:func:`binary_from_json`).
"""

from __future__ import annotations

import binascii
import typing
from collections import abc

from .jsonable import BASE64_KEY
from .mismatch import ConversionError, describe_json, expect_kind
from .nonfinite import named_float

__all__ = ["SCALARS", "binary_from_json"]


def _to_int(value: object, path: str) -> int:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return typing.cast(int, expect_kind(value, int, "integer", path))


def _to_float(value: object, path: str) -> float:
    # A JSON integer stays an int, as Python's typing lets an int stand for a float
    # (``humanize.intcomma(1234567)`` is "1,234,567", not "1,234,567.0").
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float):
        return value
    named = named_float(value) if isinstance(value, str) else None
    if named is not None:  # "Infinity", "NaN": what a result sends them as
        return named
    raise ConversionError(path, f"expected number, got {describe_json(value)}")


def binary_from_json(value: object, path: str = "") -> bytes:
    """The bytes a JSON value stands for as an argument: a string is text, taken as its
    UTF-8 bytes, whatever its characters (``"aGk="`` is those four bytes, not their
    base64 reading); any bytes come as ``{"base64": "..."}``; raise
    :class:`ConversionError`."""
    if isinstance(value, str):
        try:
            return value.encode("utf-8")
        except UnicodeEncodeError:
            raise ConversionError(
                path, 'a text with a lone surrogate has no UTF-8 bytes; send {"base64": ...}'
            ) from None
    if isinstance(value, dict) and set(value) == {BASE64_KEY}:
        import base64  # only a bytes parameter needs it

        encoded = value[BASE64_KEY]
        if isinstance(encoded, str):
            try:
                return base64.b64decode(encoded, validate=True)
            except (binascii.Error, ValueError):
                pass
        got = describe_json(encoded)
        raise ConversionError(path, f"expected padded base64 at {BASE64_KEY!r}, got {got}")
    raise ConversionError(
        path,
        f'expected a text (taken as its UTF-8 bytes) or {{"{BASE64_KEY}": "..."}}, '
        f"got {describe_json(value)}",
    )


SCALARS: dict[type, abc.Callable[[object, str], object]] = {
    bool: lambda v, p: expect_kind(v, bool, "boolean", p),
    int: _to_int,
    float: _to_float,
    str: lambda v, p: expect_kind(v, str, "string", p),
    bytes: binary_from_json,
    bytearray: lambda v, p: bytearray(binary_from_json(v, p)),
    memoryview: lambda v, p: memoryview(binary_from_json(v, p)),
}
"""The converter of each JSON scalar by the class a hint names: its JSON value and path in,
the Python value out (or a :class:`~.mismatch.ConversionError`)."""
