"""Signatures written as text, for the C callables :func:`inspect.signature` cannot read.

Three places write one: a ``__text_signature__`` that :mod:`inspect` refuses because a
default is ``<unrepresentable>`` (:func:`from_text_signature`); a docstring's first line,
``hypot(*coordinates) -> value`` or the older ``timestamp[, tz] -> datetime``
(:func:`from_doc_line`); and a docstring's numpydoc ``Parameters`` section
(:func:`from_parameters_section`). A C function takes its arguments by position unless
its text says otherwise, so the parameters these give are positional-only there; a
parameter that may be left out but whose default nobody knows has :data:`OMITTED`.
"""

from __future__ import annotations

import ast
import inspect
import keyword
import re
import typing
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docstring_parser import DocstringParam

__all__ = [
    "ARROW_LINE",
    "DOC_SIGNATURE",
    "OMITTED",
    "from_doc_line",
    "from_parameters_section",
    "from_text_signature",
]

DOC_SIGNATURE = re.compile(r"^\s*(?P<name>[\w.]+)\((?P<params>.*)\)\s*(->.*)?$")
"""A docstring's first line that writes a call: ``name(params)``, maybe ``-> result``."""

ARROW_LINE = re.compile(r"^\s*(?P<params>[\w\s,\[\]=*]+?)\s*->")
"""The older form, parameters then what comes back: ``string, format -> datetime``."""

_PARAMETERS_HEADING = re.compile(r"^\s*Parameters\s*\n\s*-{3,}\s*$", re.MULTILINE)
_DEFAULT_IN_TYPE = re.compile(r"default(?:\s*[:=]\s*|\s+is\s+|\s+)(?P<value>[^,;)\s]+)")

_Kind = inspect._ParameterKind
_POSITIONAL_ONLY = inspect.Parameter.POSITIONAL_ONLY
_POSITIONAL_OR_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
_KEYWORD_ONLY = inspect.Parameter.KEYWORD_ONLY


class _Omitted:
    """The default of a parameter that may be left out but whose default is unknown."""

    def __repr__(self) -> str:
        return "OMITTED"


OMITTED: typing.Final = _Omitted()


def from_text_signature(function: object) -> inspect.Signature | None:
    """The signature ``function.__text_signature__`` writes, read where :mod:`inspect`
    gives up (a default written ``<unrepresentable>`` is :data:`OMITTED`); None when it
    has none or it cannot be read. A bound callable's ``$self`` (or ``$module``) is
    dropped, as :mod:`inspect` drops it."""
    text = getattr(function, "__text_signature__", None)
    if not isinstance(text, str) or not (text.startswith("(") and text.endswith(")")):
        return None
    pieces = _split(text[1:-1])
    if pieces and pieces[0].strip().startswith("$"):
        first = pieces.pop(0).strip()[1:]
        if getattr(function, "__self__", None) is None:
            pieces.insert(0, first)
    kind = _POSITIONAL_ONLY if "/" in (p.strip() for p in pieces) else _POSITIONAL_OR_KEYWORD
    return _read(_in_brackets(pieces), kind)


def from_doc_line(doc: str, name: str | None = None) -> inspect.Signature | None:
    """The signature a docstring's first line writes (``name(a, b=1)``, ``a[, b] ->
    result``), its parameters positional-only until a ``/``; None when it writes none,
    or, given ``name``, none that names a callable ``name``."""
    first = doc.split("\n", 1)[0]
    match = DOC_SIGNATURE.match(first)
    if name is not None:
        if match is None or match.group("name").rpartition(".")[2] != name:
            return None
    elif match is None:
        match = ARROW_LINE.match(first)
    if match is None:
        return None
    return _read(_in_brackets(_split(match.group("params"))), _POSITIONAL_ONLY)


def from_parameters_section(doc: str) -> inspect.Signature | None:
    """The signature a numpydoc ``Parameters`` section gives, in its order, every
    parameter positional-only (``*args`` and ``**kwargs`` as written); a parameter
    marked optional or with a default in its type (``bool (default: False)``) may be
    left out. None without such a section."""
    if not _PARAMETERS_HEADING.search(doc):
        return None
    import docstring_parser

    try:
        parsed = docstring_parser.parse(doc, docstring_parser.DocstringStyle.NUMPYDOC)
    except docstring_parser.ParseError:
        return None
    return _read(_documented(parsed.params), _POSITIONAL_ONLY)


def _documented(params: list[DocstringParam]) -> Iterator[tuple[str, object]]:
    """Each parameter ``docstring_parser`` found, written and with its default (several
    documented together, ``x1, x2 : array_like``, one by one)."""
    for documented in params:
        found = _DEFAULT_IN_TYPE.search(documented.type_name or "")
        if found is not None:
            default: object = _literal(found.group("value"))
        elif documented.is_optional:
            default = OMITTED
        else:
            default = inspect.Parameter.empty
        for name in documented.arg_name.split(","):
            yield name.strip(), default


def _in_brackets(pieces: list[str]) -> Iterator[tuple[str, object]]:
    """Each parameter written one a piece, with its default, ``[`` opening the optional
    ones; ``/`` and ``*`` as they are."""
    optional = False
    for raw in pieces:
        piece = raw.strip()
        optional = optional or piece.startswith("[")
        opens_after = piece.rstrip("] ").endswith("[")
        piece = piece.strip("[] ")
        if piece not in ("", "..."):
            name, has_default, default_text = piece.partition("=")
            default: object = inspect.Parameter.empty
            if has_default:
                default = _literal(default_text.strip())
            elif optional:
                default = OMITTED
            yield name.strip(), default
        optional = optional or opens_after


def _read(written: Iterable[tuple[str, object]], kind: _Kind) -> inspect.Signature | None:
    """The signature of the parameters ``written`` with their defaults, of ``kind`` until a
    ``/`` or ``*`` says otherwise as in Python; None when one is no parameter."""
    params: list[inspect.Parameter] = []
    for text, default in written:
        if text in ("/", "*"):
            kind = _POSITIONAL_OR_KEYWORD if text == "/" else _KEYWORD_ONLY
            continue
        added = _parameter(text, kind, default)
        if added is None:
            return None
        params.append(added)
        if added.kind is inspect.Parameter.VAR_POSITIONAL:
            kind = _KEYWORD_ONLY
    return _valid(params)


def _parameter(written: str, kind: _Kind, default: object) -> inspect.Parameter | None:
    """The parameter ``written`` (``name``, ``*args``, ``**kwargs``), or None when it
    is no Python name."""
    name = written.lstrip("*")
    if not name.isidentifier() or keyword.iskeyword(name):
        return None
    if written.startswith("**"):
        return inspect.Parameter(name, inspect.Parameter.VAR_KEYWORD)
    if written.startswith("*"):
        return inspect.Parameter(name, inspect.Parameter.VAR_POSITIONAL)
    return inspect.Parameter(name, kind, default=default)


def _valid(params: list[inspect.Parameter]) -> inspect.Signature | None:
    """The signature of ``params``, or None when they make none (a name twice, a
    parameter without a default after one with)."""
    try:
        return inspect.Signature(params)
    except ValueError:
        return None


def _split(text: str) -> list[str]:
    """``text`` cut at its commas, except those inside parentheses or braces."""
    pieces: list[str] = []
    depth = 0
    current = ""
    for char in text:
        if char in "({":
            depth += 1
        elif char in ")}":
            depth -= 1
        if char == "," and depth == 0:
            pieces.append(current)
            current = ""
        else:
            current += char
    pieces.append(current)
    return pieces


def _literal(text: str) -> object:
    """The Python value ``text`` writes, or :data:`OMITTED` when it writes none."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return OMITTED
