"""The calls of ``google-crc32c`` (rank 199, held-out, second walk).

Written from google-crc32c's documentation: its README on PyPI says only what it wraps, so the
API is its package's own: ``__all__`` (``value``, ``extend``, ``Checksum``) and the docstrings of
the documented pure-Python implementation, ``google_crc32c/python.py`` (``value(chunk)`` "Compute
a CRC checksum for a chunk of data", ``extend(crc, chunk)`` "Update an existing CRC checksum with
new chunk of data"), and of ``Checksum``, "Hashlib-alike helper" (``update(chunk)``, ``digest()``,
``hexdigest()``). The C functions the package serves take the same arguments by position and
show no signature, so the argument names are the documented ones, ``chunk`` and ``crc``. Each
answer is computed by calling google_crc32c itself: a checksum is an integer; ``hexdigest``'s
ASCII bytes as their text, ``digest``'s raw bytes as base64. Data, ``bytes`` in the API, is sent
as text, as a model sends it.

``google_crc32c:Checksum`` is a target beyond the walk's: the hashlib-like streaming use
(``update`` twice, then ``hexdigest`` and ``digest``) is on one instance, which a module target
can only make (its text is its address). Its constructor needs no argument.
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

FOX = "The quick brown fox jumps over the lazy dog"


def _crc() -> Any:
    return importlib.import_module("google_crc32c")


def _streamed() -> Any:
    checksum = _crc().Checksum()
    checksum.update(b"hello")
    checksum.update(b" world")
    return checksum


TARGETS: tuple[Target, ...] = (
    Target(
        "google_crc32c",
        (
            Call("value", {"chunk": "hello"}, lambda: _crc().value(b"hello")),
            Call(
                "extend",
                {"crc": 2591144780, "chunk": " world"},
                lambda: _crc().extend(_crc().value(b"hello"), b" world"),
            ),
            Call("value", {"chunk": FOX}, lambda: _crc().value(FOX.encode())),
            Call(
                "extend", {"crc": 0, "chunk": "123456789"}, lambda: _crc().extend(0, b"123456789")
            ),
        ),
    ),
    Target(
        "google_crc32c:Checksum",
        (
            Call("update", {"chunk": "hello"}, lambda: UNCHECKED),
            Call("update", {"chunk": " world"}, lambda: UNCHECKED),
            Call("hexdigest", {}, lambda: _streamed().hexdigest().decode("ascii")),
            Call("digest", {}, lambda: base64.b64encode(_streamed().digest()).decode("ascii")),
        ),
    ),
)
