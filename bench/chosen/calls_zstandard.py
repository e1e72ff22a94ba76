"""The calls of ``zstandard`` (rank 225, tuning, second walk).

Written from python-zstandard's documentation (python-zstandard.readthedocs.io: the one-shot
``compress(data, level=3)`` and ``decompress(data, max_output_size=0)`` its docstrings call
equivalent to ``ZstdCompressor(level=level).compress(data)`` and
``ZstdDecompressor().decompress(data)``; the "Miscellaneous APIs" ``frame_content_size`` and
``get_frame_parameters``, documented with a ``data`` parameter, as the package's stub says),
each answer computed by calling zstandard itself, in JSON's terms: compressed bytes (raw) as
base64, decompressed ASCII bytes as their text. A model sends text to compress as text, and a
compressed frame back as it got it, base64 (``FRAME`` is ``compress`` of ``HELLO``). A
``FrameParameters`` has no JSON form and its text holds a memory address: it is said as its
four attributes the stub declares (``content_size``, ``window_size``, ``dict_id``,
``has_checksum``), a form the writer gave it.

The target is the walk's, the module ``zstandard``. ``open`` is withheld: it opens any path
for writing (``mode="wb"`` empties the file).
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

HELLO = "hello zstandard, hello zstandard, hello zstandard!"
FOX = "The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy dog."
FRAME = "KLUv/SAyxQAAkGhlbGxvIHpzdGFuZGFyZCwgIQEACZ9L"


def _zstd() -> Any:
    return importlib.import_module("zstandard")


def _compressed(text: str, **options: Any) -> str:
    return base64.b64encode(_zstd().compress(text.encode("utf-8"), **options)).decode("ascii")


def _decompressed(**options: Any) -> str:
    data: bytes = _zstd().decompress(base64.b64decode(FRAME), **options)
    return data.decode("ascii")


def _parameters() -> dict[str, Any]:
    found = _zstd().get_frame_parameters(base64.b64decode(FRAME))
    return {
        "content_size": found.content_size,
        "window_size": found.window_size,
        "dict_id": found.dict_id,
        "has_checksum": found.has_checksum,
    }


TARGETS: tuple[Target, ...] = (
    Target(
        "zstandard",
        (
            Call("compress", {"data": HELLO}, lambda: _compressed(HELLO)),
            Call("compress", {"data": FOX, "level": 19}, lambda: _compressed(FOX, level=19)),
            Call("decompress", {"data": FRAME}, _decompressed),
            Call(
                "decompress",
                {"data": FRAME, "max_output_size": 1024},
                lambda: _decompressed(max_output_size=1024),
            ),
            Call(
                "frame_content_size",
                {"data": FRAME},
                lambda: _zstd().frame_content_size(base64.b64decode(FRAME)),
            ),
            Call("get_frame_parameters", {"data": FRAME}, _parameters),
        ),
        withheld=("open",),
    ),
)
