"""The calls of ``msgpack`` (rank 146, held-out).

Written from msgpack's documentation (its README, "Basic usage": ``packb`` and ``unpackb``,
with ``use_list``), each answer computed by calling msgpack itself. Bytes are in JSON's terms as
objmcp's README gives them (their text when they are UTF-8, else base64), and a model sends
packed bytes back as it got them (base64); a tuple is a list.
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

RECORD = {"name": "msgpack", "tags": ["fast", "small"], "version": 1, "score": 9.5}
ROW = [1, 2.5, None, True, "x"]


def _msgpack() -> Any:
    return importlib.import_module("msgpack")


def _text(data: bytes) -> str:
    """Bytes as objmcp's README says they come back: UTF-8 text, else base64."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return base64.b64encode(data).decode("ascii")


# What a model holds after packing {"a": [1, 2, 3]}: the packed bytes as base64.
PACKED = "gaFhkwECAw=="


TARGETS: tuple[Target, ...] = (
    Target(
        "msgpack",
        (
            Call("packb", {"o": RECORD}, lambda: _text(_msgpack().packb(RECORD))),
            Call("packb", {"o": ROW}, lambda: _text(_msgpack().packb(ROW))),
            Call(
                "unpackb",
                {"packed": PACKED},
                lambda: _msgpack().unpackb(base64.b64decode(PACKED)),
            ),
            Call(
                "unpackb",
                {"packed": PACKED, "use_list": False},
                lambda: expected_json(
                    _msgpack().unpackb(base64.b64decode(PACKED), use_list=False),
                ),
            ),
        ),
    ),
)
