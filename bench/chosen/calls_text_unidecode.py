"""The calls of ``text-unidecode`` (rank 376, tuning, third walk).

Written from text-unidecode's documentation (its README on PyPI, "Usage":
``unidecode('какой-то текст')`` is ``'kakoi-to tekst'``; a port of the Perl library
Text::Unidecode, which transliterates Unicode text to ASCII), each answer computed by calling
text_unidecode itself.

No call has a non-string parameter: the module's one function, ``unidecode``, takes only the
text to transliterate.
"""

from __future__ import annotations

import importlib
from functools import partial

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

TEXTS = (
    "какой-то текст",
    "Crème brûlée à la française",
    "Straße in Düsseldorf",
    "Αθήνα",
    "北京",
    "naïve café \u2013 \u201cquoted\u201d \u2026",
)


def _unidecode(text: str) -> str:
    answer: str = importlib.import_module("text_unidecode").unidecode(text)
    return answer


TARGETS: tuple[Target, ...] = (
    Target(
        "text_unidecode",
        tuple(Call("unidecode", {"txt": text}, partial(_unidecode, text)) for text in TEXTS),
    ),
)
