"""The calls of ``charset-normalizer`` (rank 8, held-out).

Written from charset-normalizer's documentation (its README and the "Basic Usage" and "API"
pages: ``from_bytes`` with ``steps``, ``chunk_size``, ``threshold`` and ``cp_isolation``, and
the chardet-compatible ``detect``), each answer computed by calling charset_normalizer itself,
in JSON's terms. The bytes to look at are sent as the text a model has (encoded as UTF-8 by the
answer). ``from_bytes`` gives ``CharsetMatches``, which has no JSON form and whose ``str`` is its
address: it is a sequence of matches, each of whose text (``str``, as the docs show it) is the
decoded payload, so its answer is the list of those texts.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

TEXT = (
    "Bonjour, ceci est un texte en français. Où est la gare ? Très bien, merci. "
    "Nous étions à la fenêtre quand l'été est arrivé."
)


def _cn() -> Any:
    return importlib.import_module("charset_normalizer")


def _matches(**options: Any) -> list[str]:
    return [str(match) for match in _cn().from_bytes(TEXT.encode("utf-8"), **options)]


TARGETS: tuple[Target, ...] = (
    Target(
        "charset_normalizer",
        (
            Call("from_bytes", {"sequences": TEXT}, _matches),
            Call(
                "from_bytes",
                {"sequences": TEXT, "cp_isolation": ["utf_8", "latin_1"], "threshold": 0.5},
                lambda: _matches(cp_isolation=["utf_8", "latin_1"], threshold=0.5),
            ),
            Call(
                "from_bytes",
                {"sequences": TEXT, "steps": 10, "chunk_size": 64},
                lambda: _matches(steps=10, chunk_size=64),
            ),
            Call("detect", {"byte_str": TEXT}, lambda: _cn().detect(TEXT.encode("utf-8"))),
            Call(
                "detect",
                {"byte_str": TEXT, "should_rename_legacy": True},
                lambda: _cn().detect(TEXT.encode("utf-8"), should_rename_legacy=True),
            ),
        ),
    ),
)
