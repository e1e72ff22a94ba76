"""The held-out search benchmark's records: a labelled request, and where requests live.

Each target's requests are in ``bench/search/requests_<slug>.py`` (:func:`slug`), a module
that defines ``TARGET`` (the spec ``objmcp run`` takes) and ``REQUESTS``, a tuple of
:class:`Request`. They were written from each library's own documentation (its docstrings
and reference pages) before any search was run on them; ``bench/search/README.md`` says how.
Standard library only.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["STYLES", "Half", "Request", "Style", "half_of", "slug"]

Style = Literal["terse", "sentence", "jargon", "layman", "typos"]
STYLES: tuple[Style, ...] = ("terse", "sentence", "jargon", "layman", "typos")
"""Terse keywords; a full sentence; the domain's own jargon; a layman's words, with none
of the library's terms; and a request with the typos a hurried person makes."""

Half = Literal["tuning", "held-out"]


@dataclass(frozen=True)
class Request:
    """What a user asks, how they ask it, and the tools that answer it (any one counts)."""

    text: str
    style: Style
    answers: tuple[str, ...]


def half_of(target: str) -> Half:
    """The half a target's requests are in: the SHA-256 of its spec, first byte even:
    tuning, odd: held-out (fixed once; never changed to move a target)."""
    return "tuning" if hashlib.sha256(target.encode()).digest()[0] % 2 == 0 else "held-out"


def slug(target: str) -> str:
    """The file name part of a target's requests module: ``numpy.random:default_rng()``
    gives ``numpy_random_default_rng``."""
    return re.sub(r"[^a-z0-9]+", "_", target.lower()).strip("_")
