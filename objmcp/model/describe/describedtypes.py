"""The type a parameter's description names in its first words, where nothing else types it.

Older libraries write a parameter's type as the leading noun phrase of its description,
with no type field: asn1crypto's ``:param der_bytes: A byte string to be armored``,
``:param type_name: A unicode string that ...``, ``:param headers: An OrderedDict of the
header lines ...``. :func:`described_type` reads such a phrase: an article (``a``,
``an``), then one of a closed table of nouns that each name one kind JSON carries
(:data:`NOUNS`); ``A list of byte strings`` is a list of bytes. A description that does
not start so, or whose noun is one of two or more kinds (``A string or a list of
strings``), names no type: the phrase must say the kind, not suggest it.
"""

from __future__ import annotations

import inspect
import re
from typing import Any, Final

from .doctypes import plain_roles

__all__ = ["NOUNS", "described_type"]

_EMPTY: Any = inspect.Parameter.empty

NOUNS: Final[dict[str, type]] = {
    "string": str,
    "str": str,
    "unicode string": str,
    "text string": str,
    "native string": str,
    "byte string": bytes,
    "bytes string": bytes,
    "bytestring": bytes,
    "bytes object": bytes,
    "bytes-like object": bytes,
    "integer": int,
    "int": int,
    "float": float,
    "floating point number": float,
    "floating-point number": float,
    "boolean": bool,
    "bool": bool,
    "list": list,
    "tuple": tuple,
    "dict": dict,
    "dictionary": dict,
    "ordereddict": dict,
    "mapping": dict,
}
"""The nouns a description may start with (after ``a`` or ``an``, any case), each with the
kind it names: text, bytes, a whole number, a number, a boolean, an array, an object."""

_CONTAINERS: Final = (list, tuple)
"""The kinds whose items ``of <plural noun>`` names (``A list of integers``)."""

_NOUN = "|".join(sorted((re.escape(noun) for noun in NOUNS), key=len, reverse=True))
_PHRASE = re.compile(rf"(?:an?)\s+(?P<noun>{_NOUN})(?![\w-])", re.I)
_ITEMS = re.compile(rf"\s+of\s+(?P<noun>{_NOUN})(?:s|es)?(?![\w-])", re.I)
_ALTERNATIVE = re.compile(r"\s*,?\s*(?:or|and/or)\s+(?!none\b)", re.I)


def described_type(prose: str) -> object:
    """The type the leading phrase of a parameter's description (its ``prose``, in plain
    words) names: ``A byte string to be armored`` is ``bytes``, ``An integer`` ``int``,
    ``A list of strings`` ``list[str]``; ``inspect.Parameter.empty`` when it does not
    start with an article and a noun of :data:`NOUNS`, or offers another kind after it
    (``A string or a list of strings``; ``or None`` is no other kind)."""
    text = plain_roles(prose).replace("`", "").lstrip()
    phrase = _PHRASE.match(text)
    if phrase is None:
        return _EMPTY
    kind = NOUNS[phrase["noun"].lower()]
    rest = text[phrase.end() :]
    items = _ITEMS.match(rest) if kind in _CONTAINERS else None
    if items is not None:
        item = NOUNS[items["noun"].lower()]
        rest = rest[items.end() :]
        if _ALTERNATIVE.match(rest):
            return _EMPTY
        return list[item] if kind is list else tuple[item, ...]  # type: ignore[valid-type]
    if _ALTERNATIVE.match(rest):
        return _EMPTY
    return kind
