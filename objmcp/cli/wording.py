"""The CLI's words for lists and counts: "did you mean", "1 tool", "2 tools".

Every message that counts something or suggests the closest names says it
through these, so that a misspelt verb, tool, module or attribute is answered
alike, and a count of one is singular.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from .._startline import counted

__all__ = ["alternatives", "counted", "did_you_mean"]


def alternatives(names: list[str]) -> str:
    """``'a'``, ``'a' or 'b'``, ``'a', 'b' or 'c'``: the names quoted, as choices."""
    quoted = [repr(name) for name in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``"Did you mean 'x'?"`` for the names of ``known`` closest to ``word``, or ``""``."""
    close = difflib.get_close_matches(word, list(known), n=3)
    return f"Did you mean {alternatives(close)}?" if close else ""
