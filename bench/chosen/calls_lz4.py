"""The calls of ``lz4`` (rank 336, tuning, third walk).

Written from python-lz4's documentation (its README on PyPI: "the frame format bindings are the
recommended ones to use", with an API that follows zlib's; the quickstart and the
``lz4.frame`` docstrings on python-lz4.readthedocs.io: ``compress(data, compression_level=0,
block_size=0, content_checksum=0, ...)`` with the module's constants ``COMPRESSIONLEVEL_MINHC``
(3) and ``BLOCKSIZE_MAX256KB`` (5), ``decompress(data, return_bytearray=False,
return_bytes_read=False)`` and ``get_frame_info(frame)``), each answer computed by calling lz4
itself, in JSON's terms: a compressed frame (raw bytes) as base64, decompressed ASCII bytes as
their text, a tuple as a list. A model sends text to compress as text, and a compressed frame
back as it got it, base64 (``FRAME`` is ``compress`` of ``HELLO``); a constant as the integer it
is.

The target is the walk's, the module ``lz4.frame``. ``open`` is withheld: it opens any path for
writing.
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

HELLO = "hello lz4, hello lz4, hello lz4, hello lz4!"
FOX = "The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy dog."
FRAME = "BCJNGGhAKwAAAAAAAAAkFQAAAL9oZWxsbyBsejQsIAsACFAgbHo0IQAAAAA="


def _frame() -> Any:
    return importlib.import_module("lz4.frame")


def _compressed(text: str, **options: Any) -> str:
    return base64.b64encode(_frame().compress(text.encode("utf-8"), **options)).decode("ascii")


def _decompressed() -> str:
    data: bytes = _frame().decompress(base64.b64decode(FRAME))
    return data.decode("ascii")


def _decompressed_read() -> list[Any]:
    data, read = _frame().decompress(base64.b64decode(FRAME), return_bytes_read=True)
    return [data.decode("ascii"), read]


TARGETS: tuple[Target, ...] = (
    Target(
        "lz4.frame",
        (
            Call("compress", {"data": HELLO}, lambda: _compressed(HELLO)),
            Call(
                "compress",
                {"data": FOX, "compression_level": 3},
                lambda: _compressed(FOX, compression_level=3),
            ),
            Call(
                "compress",
                {"data": FOX, "block_size": 5, "content_checksum": True},
                lambda: _compressed(FOX, block_size=5, content_checksum=True),
            ),
            Call("decompress", {"data": FRAME}, _decompressed),
            Call(
                "decompress",
                {"data": FRAME, "return_bytes_read": True},
                _decompressed_read,
            ),
            Call(
                "get_frame_info",
                {"frame": FRAME},
                lambda: _frame().get_frame_info(base64.b64decode(FRAME)),
            ),
        ),
        withheld=("open",),
    ),
)
