"""The calls of ``chardet`` (rank 200, held-out, second walk).

Written from chardet's documentation (its README on PyPI, chardet 7: "Quick Start" with
``detect`` and ``detect_all``, "Streaming Detection" with ``UniversalDetector``, "Encoding Era
Filtering" and "Encoding Filters"; the usage page of chardet.readthedocs.io), each answer
computed by calling chardet itself: the dictionaries it gives (``encoding``, ``confidence``,
``language``, ``mime_type``), a list of them for ``detect_all``.

``byte_str`` is ``bytes`` in the API: a model sends text, so the bytes are the text's UTF-8
(a model cannot send the README's EUC-JP or windows-1251 bytes as text; its French and Russian
sentences are sent as text instead). An ``EncodingEra`` is sent by its name, as the README
writes it (``EncodingEra.MODERN_WEB``). A number (``max_bytes``, as the README's
``detect(data, max_bytes=len(data))``) and lists of encodings are the non-string values.

``chardet:UniversalDetector`` is a target beyond the walk's: the README's streaming use
(``feed`` chunk by chunk, then ``close``) is on one instance, which the module target can only
make (its text is its address). Its constructor needs no argument.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

ASCII = "Python is a great programming language for beginners and experts alike."
NAIVE = "The naïve approach doesn't always work in complex systems."
CAFE = "Le café est une boisson très populaire en France et dans le monde entier."
MOSCOW = "Москва является столицей Российской Федерации и крупнейшим городом страны."


def _chardet() -> Any:
    return importlib.import_module("chardet")


def _detect(text: str, **options: Any) -> Any:
    return _chardet().detect(text.encode("utf-8"), **options)


def _detect_all(text: str, **options: Any) -> Any:
    return _chardet().detect_all(text.encode("utf-8"), **options)


def _streamed() -> Any:
    detector = _chardet().UniversalDetector()
    detector.feed("Le café ".encode())
    detector.feed("est très populaire.".encode())
    return detector.close()


TARGETS: tuple[Target, ...] = (
    Target(
        "chardet",
        (
            Call("detect", {"byte_str": ASCII}, lambda: _detect(ASCII)),
            Call("detect", {"byte_str": NAIVE}, lambda: _detect(NAIVE)),
            Call("detect_all", {"byte_str": CAFE}, lambda: _detect_all(CAFE)),
            Call(
                "detect",
                {"byte_str": CAFE, "include_encodings": ["utf-8", "windows-1252"]},
                lambda: _detect(CAFE, include_encodings=["utf-8", "windows-1252"]),
            ),
            Call(
                "detect_all",
                {"byte_str": CAFE, "exclude_encodings": ["cp037", "cp500"]},
                lambda: _detect_all(CAFE, exclude_encodings=["cp037", "cp500"]),
            ),
            Call(
                "detect",
                {"byte_str": NAIVE, "max_bytes": 1000},
                lambda: _detect(NAIVE, max_bytes=1000),
            ),
            Call(
                "detect_all",
                {"byte_str": MOSCOW, "encoding_era": "MODERN_WEB"},
                lambda: _detect_all(MOSCOW, encoding_era=_chardet().EncodingEra.MODERN_WEB),
            ),
        ),
    ),
    Target(
        "chardet:UniversalDetector",
        (
            Call("feed", {"byte_str": "Le café "}, lambda: UNCHECKED),
            Call("feed", {"byte_str": "est très populaire."}, lambda: UNCHECKED),
            Call("close", {}, _streamed),
        ),
    ),
)
