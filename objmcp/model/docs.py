"""What a docstring says: the description, and per parameter its text and type name.

:func:`read_docs` reads Google, NumPy, reST and Epydoc docstrings with
``docstring_parser``, dropping the signature line a C function's docstring opens with.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

from .signatures import DOC_SIGNATURE, has_text_signature

__all__ = ["Docs", "read_docs"]


@dataclass(eq=False)
class Docs:
    """What a docstring says: the description, and per parameter its text and type name."""

    description: str = ""
    params: dict[str, str] = field(default_factory=dict)
    type_names: dict[str, str] = field(default_factory=dict)


def read_docs(function: Callable[..., object]) -> Docs:
    """Parse a callable's docstring (Google, NumPy, reST or Epydoc).

    A class is read from its own ``__doc__`` only, not its bases'.
    """
    if isinstance(function, type):
        own = function.__dict__.get("__doc__")
        doc = inspect.cleandoc(own) if isinstance(own, str) else None
    else:
        doc = inspect.getdoc(function)
    if not doc:
        return Docs()
    if DOC_SIGNATURE.match(doc.split("\n", 1)[0]) and not has_text_signature(function):
        doc = doc.split("\n", 1)[1].strip() if "\n" in doc else ""
    if ":" not in doc and "@" not in doc and len(doc.splitlines()) == 1:
        return Docs(doc.strip())  # one plain line: all any style reads is the description
    import docstring_parser

    try:
        parsed = docstring_parser.parse(doc)
    except Exception:
        return Docs(description=doc.strip())
    parts = [p for p in (parsed.short_description, parsed.long_description) if p]
    params: dict[str, str] = {}
    type_names: dict[str, str] = {}
    for param in parsed.params:
        name = param.arg_name.lstrip("*")
        if param.description:
            params[name] = param.description.strip()
        if param.type_name:
            type_names[name] = param.type_name.strip()
    return Docs("\n\n".join(parts).strip(), params, type_names)
