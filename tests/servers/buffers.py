"""Parameters typed by what a library says in ways objmcp once did not read (issue 37):
bytes-like hints (``typing.ByteString``, PEP 688's ``Buffer``; in the stub beside this file,
typeshed's ``SizedBuffer`` and ``WriteableBuffer``), a description's leading phrase (``A byte
string to be armored``), and a C function whose stub names a parameter otherwise than its C
code does (``sys.getsizeof``: typeshed's ``obj``, the C code's ``object``). Served by
``tests/serving/test_stated_types.py``."""

from __future__ import annotations

import collections.abc
import sys
import typing

__all__ = ["armor", "digest", "either", "fill", "measure", "size_of", "tag", "view"]

BYTE_STRING: typing.Any = getattr(typing, "ByteString", bytes)  # gone in Python 3.14
BUFFER: typing.Any = getattr(collections.abc, "Buffer", bytes)  # PEP 688, Python 3.12

size_of = sys.getsizeof


def _seen(data: object) -> str:
    """What arrived: its class and its bytes in hex."""
    return f"{type(data).__name__} {bytes(data).hex()}"  # type: ignore[call-overload]


def tag(data: BYTE_STRING) -> str:
    """The class and bytes of ``data``."""
    return _seen(data)


def view(data: BUFFER, extra: memoryview) -> list[str]:
    """The class and bytes of each argument."""
    return [_seen(data), _seen(extra)]


def either(data: BYTE_STRING | str) -> str:
    """Text as itself, bytes by their class and hex."""
    return f"str {data}" if isinstance(data, str) else _seen(data)


def digest(data):  # type: ignore[no-untyped-def]
    """The class and bytes of ``data`` (its stub types it)."""
    return _seen(data)


def measure(data):  # type: ignore[no-untyped-def]
    """The class and bytes of ``data`` (its stub types it)."""
    return _seen(data)


def fill(buffer):  # type: ignore[no-untyped-def]
    """The class and bytes of ``buffer`` (its stub types it)."""
    return _seen(buffer)


def armor(type_name, der_bytes, headers=None, lines=None, width=None):  # type: ignore[no-untyped-def]
    """Armor bytes in a block, as older libraries document it.

    :param type_name:
        A unicode string placed in the header and footer
    :param der_bytes:
        A byte string to be armored
    :param headers:
        An OrderedDict of the header lines to write after the first line
    :param lines:
        A list of byte strings to add after the body
    :param width:
        The width of a line, or None
    """
    kinds = [type(type_name).__name__, _seen(der_bytes)]
    kinds += [f"{key}={value}" for key, value in (headers or {}).items()]
    return kinds + [_seen(line) for line in lines or ()] + [repr(width)]
