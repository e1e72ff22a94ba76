"""What a docstring says: the description, per parameter its text and type name, and
what the function returns (its type name and text).

:func:`read_docs` reads Google, NumPy, reST and Epydoc docstrings with
``docstring_parser``, dropping the signature line a C function's docstring opens with (and
any call of the function itself its docstring opens with: a ufunc's ``add(x1, x2, /, ...)``).
reST roles (``:func:`foo```) are read as their plain text first, so that neither a
description nor a type stops at one, and section titles underlined with ``=`` (sympy)
read as numpydoc's; Google's ``Keyword Args`` and ``Other
Parameters`` sections count as parameters, and so does each name of a combined
numpydoc entry (``x1, x2 : array_like``), and so does each item of a bulleted list under
a parameters title (``Parameters:`` then ``* `source`: ...`` or ``- x: ...``); a sentence
on a type's own line is the parameter's text (``total : int, optional. Total to use``). A
parameter no section documents keeps what the prose says of it in passing: ``fp`` in
``to ``fp`` (a ``.write()``-supporting file-like object)``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .doctypes import plain_roles
from .signatures import DOC_SIGNATURE, has_text_signature
from .textsignatures import ARROW_LINE, signature_line

__all__ = ["Docs", "read_docs"]


@dataclass(eq=False)
class Docs:
    """What a docstring says: the description, per parameter its text and type name, and
    the type name and text of what the function returns (its Returns section's first
    entry)."""

    description: str = ""
    params: dict[str, str] = field(default_factory=dict)
    type_names: dict[str, str] = field(default_factory=dict)
    return_type: str = ""
    return_text: str = ""


def read_docs(function: Callable[..., object]) -> Docs:
    """Parse a callable's docstring (Google, NumPy, reST or Epydoc).

    A class is read from its own ``__doc__`` only, not its bases'. Parameters the
    docstring leaves to another function of its module (``Parameters: see `other()```)
    take that function's descriptions.
    """
    docs = _read_own_docs(function)
    if referred := _referred(function):
        for name, text in _read_own_docs(referred).params.items():
            docs.params.setdefault(name, text)
    return docs


_SEE_OTHER = re.compile(
    r"^[ \t]*(?:other[ \t]+)?(?:param(?:eter)?s|arg(?:ument)?s)[ \t]*:[ \t]*see[ \t]+"
    r"`{0,2}(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:\(\))?`{0,2}",
    re.I | re.M,
)


def _referred(function: Callable[..., object]) -> Callable[..., object] | None:
    """The function of the same module a docstring leaves its parameters to."""
    doc = getattr(function, "__doc__", None)
    if not isinstance(doc, str) or not (see := _SEE_OTHER.search(doc)):
        return None
    found: object = getattr(function, "__globals__", {})
    for part in see["name"].split("."):
        found = found.get(part) if isinstance(found, dict) else getattr(found, part, None)
    return found if callable(found) and found is not function else None


def _names_itself(name: str, function: Callable[..., object]) -> bool:
    """Whether a call written at the head of a docstring is of ``function`` itself (its
    name, maybe dotted: ``numpy.add``): then it is its signature, never its summary, even
    where the function has a signature of its own."""
    own = getattr(function, "__name__", None)
    return isinstance(own, str) and name.rpartition(".")[2] == own


def _read_own_docs(function: Callable[..., object]) -> Docs:
    """What ``function``'s own docstring says."""
    if isinstance(function, type):
        own = function.__dict__.get("__doc__")
        doc = inspect.cleandoc(own) if isinstance(own, str) else None
    else:
        doc = inspect.getdoc(function)
    if not doc:
        return Docs()
    first, rest = signature_line(doc)
    call = DOC_SIGNATURE.match(first)
    if call and _names_itself(call["name"], function):  # a ufunc's "add(x1, x2, /, ...)"
        doc = rest.strip()
    elif not has_text_signature(function):
        if call:
            doc = rest.strip()
        elif arrow := ARROW_LINE.match(first):  # "string, format -> new datetime parsed..."
            doc = f"{first[arrow.end() :].strip()}\n{rest}".strip()
    doc = _dashed_sections(plain_roles(doc))
    if ":" not in doc and "@" not in doc and len(doc.splitlines()) == 1:
        return Docs(doc.strip())  # one plain line: all any style reads is the description
    try:
        parsed = _parse(doc)
    except Exception:
        return Docs(description=doc.strip())
    between = "\n\n" if parsed.blank_after_short_description else "\n"
    parts = [p for p in (parsed.short_description, parsed.long_description) if p]
    description = between.join(parts).strip()
    params: dict[str, str] = {}
    type_names: dict[str, str] = {}
    for param in parsed.params:
        type_name, text = _type_and_text(param.type_name or "", param.description or "")
        for name in _names(param.arg_name):
            if text:
                params[name] = text
            if type_name:
                type_names[name] = type_name
    for name, text in _bulleted(doc):
        params.setdefault(name, text)
    for name, aside in _asides(description):
        params.setdefault(name, aside)
    returned = parsed.returns
    return_type, return_text = (
        ("", "")
        if returned is None
        else _type_and_text(returned.type_name or "", returned.description or "")
    )
    return Docs(description, params, type_names, return_type, return_text)


_PARAMETERS_TITLE = re.compile(
    r"^(?P<indent>[ \t]*)(?:(?:other|keyword)[ \t]+)?"
    r"(?:param(?:eter)?s|arg(?:ument)?s)[ \t]*:?[ \t]*$",
    re.I,
)
_BULLET = re.compile(
    r"^(?P<indent>[ \t]*)[-*+][ \t]+(?P<quote>`{0,2})\**(?P<name>[A-Za-z_]\w*)(?P=quote)"
    r"(?:[ \t]+\*\*[^*]+\*\*|[ \t]+\([^()]*\))?[ \t]*(?::|--?|\u2013|\u2014)[ \t]+(?P<text>\S.*)$"
)


def _bulleted(doc: str) -> list[tuple[str, str]]:
    """The items of the bulleted lists under a parameters title, each with its text:
    ``* `source` **required**: The input.`` or ``- x (int): The count.``; an item's
    text runs on over the lines indented deeper than its bullet."""
    found: list[tuple[str, str]] = []
    lines = doc.splitlines()
    title_indent: int | None = None
    entry: tuple[str, int, list[str]] | None = None
    for line in [*lines, ""] if lines else []:
        indent = len(line) - len(line.lstrip())
        bullet = _BULLET.match(line) if title_indent is not None else None
        if entry and line.strip() and indent > entry[1] and not (bullet and indent == entry[1]):
            entry[2].append(line.strip())
            continue
        if entry and (bullet or (line.strip() and indent <= entry[1])):
            found.append((entry[0], " ".join(entry[2])))
            entry = None
        if bullet:
            entry = (bullet["name"], len(bullet["indent"]), [bullet["text"].strip()])
        elif title := _PARAMETERS_TITLE.match(line):
            title_indent = len(title["indent"])
        elif line.strip() and title_indent is not None and indent <= title_indent:
            title_indent = None
    if entry:
        found.append((entry[0], " ".join(entry[2])))
    return found


_SENTENCE_AFTER_TYPE = re.compile(r"\.\s+(?=\S)")


def _type_and_text(type_name: str, description: str) -> tuple[str, str]:
    """A parameter's type and text, the type's line split where a sentence follows the
    type on it (tqdm's ``total  : int or float, optional. Total to use``)."""
    type_name, description = type_name.strip(), description.strip()
    parts = _SENTENCE_AFTER_TYPE.split(type_name, maxsplit=1)
    if len(parts) == 1:
        return type_name, description
    return parts[0].strip(), "\n".join(text for text in (parts[1].strip(), description) if text)


_UNDERLINED = re.compile(r"^([A-Za-z][\w ]*?)[ \t]*\n(?:=+|-+)[ \t]*$", re.M)


def _dashed_sections(doc: str) -> str:
    """``doc`` with each section title underlined by dashes as long as it, as numpydoc's
    parser wants it (sympy underlines with ``=``, others with a line too long)."""
    return _UNDERLINED.sub(lambda match: f"{match.group(1)}\n{'-' * len(match.group(1))}", doc)


def _names(arg_name: str) -> list[str]:
    """The parameters one entry documents: ``x1, x2`` is two, ``*args`` is ``args``."""
    return [name.strip().lstrip("*") for name in arg_name.split(",") if name.strip()]


_ASIDE = re.compile(
    r"``(\w+)``\s*\(((?:an?|the)\s[^()]*(?:\([^()]*\)[^()]*)*)\)",
    re.I,
)


def _asides(description: str) -> list[tuple[str, str]]:
    """What the prose says of a name in passing: ``fp`` (a file-like object)."""
    return [
        (match.group(1), re.sub(r"\s+", " ", match.group(2)).strip())
        for match in _ASIDE.finditer(description)
    ]


def _parse(doc: str) -> Any:
    """The docstring parsed in the style that finds the most in it (parameters first)."""
    import docstring_parser
    from docstring_parser import epydoc, numpydoc, rest

    readings = []
    parsers = [rest.parse]  # it reads the description when no other style finds more
    parsers += [_google_parser().parse] if _GOOGLE_MARK.search(doc) else []
    parsers += [numpydoc.parse] if _NUMPY_MARK.search(doc) else []
    parsers += [epydoc.parse] if "@" in doc else []
    for parse in parsers:
        try:
            readings.append(parse(doc))
        except docstring_parser.ParseError:
            continue
    if not readings:
        raise ValueError("no style reads this docstring")
    return max(readings, key=lambda reading: (len(reading.params), len(reading.meta)))


# A style finds parameters or sections only where its marks are: Google's "Title:" lines,
# numpydoc's underlined titles and ".." directives, epydoc's "@"; the others are not run.
_GOOGLE_MARK = re.compile(r"^\s*[A-Za-z][\w ]*:\s*$", re.MULTILINE)
_NUMPY_MARK = re.compile(r"^\s*(?:-{3,}|\.\. )", re.MULTILINE)

_GOOGLE: list[Any] = []


def _google_parser() -> Any:
    """Google's parser, with the sections of keyword and other parameters as well."""
    if not _GOOGLE:
        from docstring_parser import google

        extra = [
            google.Section(title, "param", google.SectionType.MULTIPLE)
            for title in (
                "Keyword Args",
                "Keyword Arguments",
                "Kwargs",
                "Other Parameters",
                "Other Params",
                "Other Args",
                "Other Arguments",
            )
        ]
        _GOOGLE.append(google.GoogleParser([*google.DEFAULT_SECTIONS, *extra]))
    return _GOOGLE[0]
