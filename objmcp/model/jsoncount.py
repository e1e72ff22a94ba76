"""How many values a JSON text holds, told from its bytes before it is parsed.

Parsing is what a message costs: each array item and object member becomes a Python
object (``[{},{},…]`` takes some 90 bytes a value, and the parser holds the GIL
throughout), so a server that serves many clients counts a large body's values first
and refuses one with too many, unparsed. :func:`values_over` counts the commas and
opening brackets (C speed, every byte read once); only when that is over the limit
are the strings taken out, whose commas and brackets are text, not values.
"""

from __future__ import annotations

import re

__all__ = ["values_over"]

_STRING = re.compile(rb'"[^"]*"')
"""A string, once its escaped quotes and backslashes are taken out."""


def values_over(text: bytes, limit: int) -> int | None:
    """How many values ``text`` holds (its array items and object members, and itself),
    when that is over ``limit``; None when it is not. Invalid JSON is counted as if it
    were valid: its parser refuses it afterwards."""
    if _upper_bound(text) <= limit:
        return None
    bare = text.replace(b"\\\\", b"").replace(b'\\"', b"")
    found = _upper_bound(_STRING.sub(b"", bare))
    return found if found > limit else None


def _upper_bound(text: bytes) -> int:
    """Every value but the first follows a comma or an opening bracket."""
    return 1 + text.count(b",") + text.count(b"[") + text.count(b"{")
