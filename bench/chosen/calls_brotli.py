"""The calls of ``brotli`` (rank 379, held-out, third walk).

Written from brotli's documentation: its PyPI description documents the format and its builds,
not the Python API, so the module's own docstrings (``compress(string, mode=MODE_GENERIC,
quality=11, lgwin=22, lgblock=0)``, "Compress a byte string", ``mode`` 0 generic, 1 for UTF-8
text, 2 for WOFF 2.0; ``decompress(data)``, "Decompress a compressed byte string"), each answer
computed by calling brotli itself, in JSON's terms: raw compressed bytes as base64 (ASCII bytes
as their text), decompressed ASCII bytes as their text. A model sends text to compress as text,
and a compressed stream back as it got it, base64 (``FRAME`` is ``compress`` of ``HELLO``).

The target is the walk's, the module ``brotli``. Its classes ``Compressor`` and
``Decompressor`` made with no arguments have no JSON form and their text is their address: the
calls use the one-shot functions the docstrings give them as.
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

HELLO = "hello brotli, hello brotli, hello brotli!"
FOX = "The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy dog."
FRAME = "GygA+AVqh9P67a1TRHE8qRRhKh4Ip8Gq87MpAQ=="


def _brotli() -> Any:
    return importlib.import_module("brotli")


def _bytes(data: bytes) -> str:
    if data.isascii():
        return data.decode("ascii")
    return base64.b64encode(data).decode("ascii")


def _compressed(text: str, **options: Any) -> str:
    return _bytes(_brotli().compress(text.encode("utf-8"), **options))


TARGETS: tuple[Target, ...] = (
    Target(
        "brotli",
        (
            Call("compress", {"string": HELLO}, lambda: _compressed(HELLO)),
            Call(
                "compress",
                {"string": FOX, "quality": 5},
                lambda: _compressed(FOX, quality=5),
            ),
            Call(
                "compress",
                {"string": FOX, "mode": 1, "quality": 11, "lgwin": 16},
                lambda: _compressed(FOX, mode=1, quality=11, lgwin=16),
            ),
            Call(
                "decompress",
                {"data": FRAME},
                lambda: _bytes(_brotli().decompress(base64.b64decode(FRAME))),
            ),
            Call(
                "compress",
                {"string": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "quality": 0, "lgblock": 16},
                lambda: _compressed("a" * 32, quality=0, lgblock=16),
            ),
        ),
    ),
)
