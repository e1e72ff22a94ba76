"""The calls of ``webencodings`` (rank 290, third walk).

Written from webencodings' documentation (its "API Reference" page,
doc.courtbouillon.org/webencodings/stable/api_reference.html: ``lookup``, ``decode``,
``encode``, ``iter_decode``, ``iter_encode``, and ``ascii_lower`` with its docstring's
example), each answer computed by calling webencodings itself, in JSON's terms. An
``Encoding`` has no JSON form: its text, ``<Encoding utf-8>``, the form the docs show for
``UTF8``; a tuple as a list, an iterator as the list of what it yields; ``bytes`` of ASCII as
their text and other bytes as base64. The byte strings the docs' functions take are sent as
the text a model would send (ASCII here, so that the text has one reading as bytes).
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

KEYWORD = "Bac\N{KELVIN SIGN}ground"


def _webencodings() -> Any:
    return importlib.import_module("webencodings")


def _decode(data: bytes, fallback: str) -> list[str]:
    text, encoding = _webencodings().decode(data, fallback)
    return [text, str(encoding)]


def _iter_decode(chunks: list[bytes], fallback: str) -> list[Any]:
    output, encoding = _webencodings().iter_decode(chunks, fallback)
    return [list(output), str(encoding)]


def _iter_encode(chunks: list[str], encoding: str) -> list[str]:
    return [chunk.decode("ascii") for chunk in _webencodings().iter_encode(chunks, encoding)]


TARGETS: tuple[Target, ...] = (
    Target(
        "webencodings",
        (
            Call("lookup", {"label": "latin1"}, lambda: str(_webencodings().lookup("latin1"))),
            Call(
                "decode",
                {"input": "Hello, world", "fallback_encoding": "utf-8"},
                lambda: _decode(b"Hello, world", "utf-8"),
            ),
            Call(
                "encode",
                {"input": "café", "encoding": "latin1"},
                lambda: base64.b64encode(_webencodings().encode("café", "latin1")).decode(),
            ),
            Call(
                "iter_decode",
                {"input": ["Hello", ", world"], "fallback_encoding": "utf-8"},
                lambda: _iter_decode([b"Hello", b", world"], "utf-8"),
            ),
            Call(
                "iter_encode",
                {"input": ["Hello", ", world"], "encoding": "utf-8"},
                lambda: _iter_encode(["Hello", ", world"], "utf-8"),
            ),
            Call(
                "ascii_lower",
                {"string": KEYWORD},
                lambda: _webencodings().ascii_lower(KEYWORD),
            ),
        ),
    ),
)
