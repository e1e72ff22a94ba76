"""The calls of ``itsdangerous`` (rank 180, held-out).

Written from ItsDangerous' documentation (the "Encoding Utilities" page: ``base64_encode`` and
``base64_decode``, URL-safe base64 of text or bytes; ``want_bytes``, exported beside them), each
answer computed by calling ItsDangerous itself; the bytes they answer said as their UTF-8 text.

The documented use, signing with ``Signer``, ``Serializer`` or ``URLSafeSerializer``, needs a
secret key to make the object: the walk's target ``itsdangerous`` serves only these encoding
functions, whose parameters are all strings, so no call here carries a number, list, object or
date.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _text(function: str, *arguments: Any, **options: Any) -> str:
    answer = getattr(importlib.import_module("itsdangerous"), function)(*arguments, **options)
    return bytes(answer).decode("utf-8")


TARGETS: tuple[Target, ...] = (
    Target(
        "itsdangerous",
        (
            Call(
                "base64_encode",
                {"string": "hello world"},
                lambda: _text("base64_encode", "hello world"),
            ),
            Call(
                "base64_encode",
                {"string": '{"user_id": 5}'},
                lambda: _text("base64_encode", '{"user_id": 5}'),
            ),
            Call(
                "base64_decode",
                {"string": "aGVsbG8gd29ybGQ"},
                lambda: _text("base64_decode", "aGVsbG8gd29ybGQ"),
            ),
            Call(
                "want_bytes",
                {"s": "héllo", "encoding": "utf-8"},
                lambda: _text("want_bytes", "héllo", encoding="utf-8"),
            ),
        ),
    ),
)
