"""Signatures written as text, for the C callables :func:`inspect.signature` cannot read.

Three places write one: a ``__text_signature__`` that :mod:`inspect` refuses because a
default is ``<unrepresentable>`` (:func:`from_text_signature`); a docstring's first line,
``hypot(*coordinates) -> value``, the older ``timestamp[, tz] -> datetime``, or
pybind11's annotated ``set_seed(arg0: typing.SupportsInt) -> None`` and its list of
overloads (:func:`from_doc_line`); and a docstring's numpydoc ``Parameters`` section
(:func:`from_parameters_section`). A C function takes its arguments by position unless
its text says otherwise, so the parameters these give are positional-only there; a
parameter that may be left out but whose default nobody knows has :data:`OMITTED`. An
annotation is kept as the text it is written in (a Python expression), for
:mod:`.annotations` to resolve.
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
    "agreed",
    "from_doc_line",
    "from_parameters_section",
    "from_text_signature",
    "signature_line",
]

DOC_SIGNATURE = re.compile(r"^\s*(?P<name>[\w.]+)\((?P<params>.*)\)\s*(->(?P<returns>.*))?$")
"""A docstring's first line that writes a call: ``name(params)``, maybe ``-> result``."""

ARROW_LINE = re.compile(r"^\s*(?P<params>[\w\s,\[\]=*]+?)\s*->")
"""The older form, parameters then what comes back: ``string, format -> datetime``."""

_OPENS_A_CALL = re.compile(r"^\s*[\w.]+\(")
_MOST_LINES = 12
_OVERLOADED = "Overloaded function."
_OVERLOAD = re.compile(r"^\s*\d+\.\s+(?P<call>[\w.]+\(.*)$")
_ANNOTATED = re.compile(r"^\s*\**[A-Za-z_]\w*\s*:")
_EMPTY: typing.Any = inspect.Parameter.empty

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
    result``, pybind11's ``name(arg0: int, arg1: str = 'x') -> list[str]``, its
    annotations kept as text), its parameters positional-only until a ``/``; a call
    written over several lines is read to its closing parenthesis. pybind11's
    ``name(*args, **kwargs)`` followed by ``Overloaded function.`` and numbered calls
    gives the parameters its overloads agree on (:func:`agreed`). None when it writes
    none, or, given ``name``, none that names a callable ``name``."""
    first, rest = signature_line(doc)
    match = DOC_SIGNATURE.match(first)
    if name is not None:
        if match is None or match.group("name").rpartition(".")[2] != name:
            return None
    elif match is None:
        match = ARROW_LINE.match(first)
    if match is None:
        return None
    if DOC_SIGNATURE.match(first) and rest.lstrip().startswith(_OVERLOADED):
        return _overloaded(rest, match.group("name"))
    return _call(match)


def signature_line(doc: str) -> tuple[str, str]:
    """A docstring's first line and the text after it; a call written over several lines
    (``compress(data, level=0,`` then ``store_size=True)``) is read to the parenthesis that
    closes it, as one line."""
    lines = doc.split("\n")
    first, count = lines[0], 1
    if _OPENS_A_CALL.match(first):
        while _unclosed(first) and count < min(len(lines), _MOST_LINES):
            first = f"{first.rstrip()} {lines[count].strip()}"
            count += 1
    if _unclosed(first):
        return lines[0], "\n".join(lines[1:])
    return first, "\n".join(lines[count:])


def agreed(signatures: list[inspect.Signature]) -> inspect.Signature | None:
    """The one signature of overloads that name their parameters alike, or None: a default
    they differ on is :data:`OMITTED`, an annotation they differ on the union of theirs
    (none when one has none), and so is what comes back."""
    shapes = {tuple((p.name, p.kind) for p in s.parameters.values()) for s in signatures}
    if len(shapes) != 1:
        return None
    parameters = []
    columns = zip(*(s.parameters.values() for s in signatures), strict=True)
    for first, *others in columns:
        default = first.default
        if not all(_same(other.default, default) for other in others):
            default = OMITTED
        annotation = _union([first.annotation, *(other.annotation for other in others)])
        parameters.append(first.replace(default=default, annotation=annotation))
    returns = _union([s.return_annotation for s in signatures])
    try:
        return inspect.Signature(parameters, return_annotation=returns)
    except ValueError:
        return None


def _same(one: object, other: object) -> bool:
    return one is other or (type(one) is type(other) and one == other)


def _union(annotations: list[object]) -> object:
    """The annotations of one parameter in several overloads as one: the union of the
    texts, or none when one has none."""
    texts = [a for a in annotations if isinstance(a, str)]
    if len(texts) < len(annotations):
        return _EMPTY
    distinct = list(dict.fromkeys(texts))
    return distinct[0] if len(distinct) == 1 else " | ".join(f"({a})" for a in distinct)


def _overloaded(rest: str, name: str) -> inspect.Signature | None:
    """What pybind11's numbered overloads of ``name`` agree on, or None."""
    signatures = []
    for line in rest.split("\n"):
        found = _OVERLOAD.match(line)
        if found is None:
            continue
        call = DOC_SIGNATURE.match(found.group("call"))
        if call is None or call.group("name") != name:
            return None
        read = _call(call)
        if read is None:
            return None
        signatures.append(read)
    return agreed(signatures) if signatures else None


def _call(match: re.Match[str]) -> inspect.Signature | None:
    """The signature of the parameters (and what comes back) ``match`` found."""
    pieces = _split(match.group("params"))
    if any(_ANNOTATED.match(piece) for piece in pieces):
        read = _read(_annotated(_split(match.group("params"), subscripts=True)), _POSITIONAL_ONLY)
    else:
        read = _read(_in_brackets(pieces), _POSITIONAL_ONLY)
    returns = (match.groupdict().get("returns") or "").strip()
    if read is None or not returns:
        return read
    return read.replace(return_annotation=_expression(returns))


def _annotated(pieces: list[str]) -> Iterator[tuple[str, object, object]]:
    """Each parameter written ``name: annotation = default`` (pybind11's form), the
    annotation kept where it is a Python expression (not C++'s ``std::vector<int>``), the
    default where it is a literal (else :data:`OMITTED`, a repr such as ``<Mode.FAST:
    1>``)."""
    for raw in pieces:
        head, has_default, default_text = _partition(raw.strip(), "=")
        name, has_annotation, annotation = _partition(head, ":")
        default = _literal(default_text.strip()) if has_default else _EMPTY
        yield name.strip(), default, _expression(annotation) if has_annotation else _EMPTY


def _expression(text: str) -> object:
    """``text`` stripped when it is a Python expression, else no annotation."""
    text = text.strip()
    try:
        ast.parse(text, mode="eval")
    except (SyntaxError, ValueError):
        return _EMPTY
    return text


def _unclosed(line: str) -> bool:
    """Whether ``line`` opens more parentheses than it closes, outside its strings."""
    unquoted = [char for char, quoted in _marked(line) if not quoted]
    return unquoted.count("(") > unquoted.count(")")


def _marked(text: str) -> Iterator[tuple[str, bool]]:
    """Each character of ``text`` and whether it is part of a string literal, quoted
    with ``'`` or ``"``, a backslash escaping the character after it; such a string's
    brackets, commas and ``=`` are its text (a default ``'<'``, ``Annotated[int, 'x >
    1']``)."""
    quote = ""
    escaped = False
    for char in text:
        if quote:
            yield char, True
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
            yield char, True
        else:
            yield char, False


def _partition(text: str, separator: str) -> tuple[str, str, str]:
    """``text.partition(separator)`` at the first ``separator`` outside a string."""
    for index, (char, quoted) in enumerate(_marked(text)):
        if char == separator and not quoted:
            return text[:index], separator, text[index + 1 :]
    return text, "", ""


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


def _documented(params: list[DocstringParam]) -> Iterator[tuple[str, object, object]]:
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
            yield name.strip(), default, _EMPTY


def _in_brackets(pieces: list[str]) -> Iterator[tuple[str, object, object]]:
    """Each parameter written one a piece, with its default, ``[`` opening the optional
    ones; ``/`` and ``*`` as they are."""
    optional = False
    for raw in pieces:
        piece = raw.strip()
        optional = optional or piece.startswith("[")
        opens_after = piece.rstrip("] ").endswith("[")
        piece = piece.strip("[] ")
        if piece not in ("", "..."):
            name, has_default, default_text = _partition(piece, "=")
            default: object = inspect.Parameter.empty
            if has_default:
                default = _literal(default_text.strip())
            elif optional:
                default = OMITTED
            yield name.strip(), default, _EMPTY
        optional = optional or opens_after


def _read(written: Iterable[tuple[str, object, object]], kind: _Kind) -> inspect.Signature | None:
    """The signature of the parameters ``written`` with their defaults and annotations, of
    ``kind`` until a ``/`` or ``*`` says otherwise as in Python; None when one is no
    parameter."""
    params: list[inspect.Parameter] = []
    for text, default, annotation in written:
        if text in ("/", "*"):
            kind = _POSITIONAL_OR_KEYWORD if text == "/" else _KEYWORD_ONLY
            continue
        added = _parameter(text, kind, default, annotation)
        if added is None:
            return None
        params.append(added)
        if added.kind is inspect.Parameter.VAR_POSITIONAL:
            kind = _KEYWORD_ONLY
    return _valid(params)


def _parameter(
    written: str, kind: _Kind, default: object, annotation: object
) -> inspect.Parameter | None:
    """The parameter ``written`` (``name``, ``*args``, ``**kwargs``), or None when it
    is no Python name."""
    name = written.lstrip("*")
    if not name.isidentifier() or keyword.iskeyword(name):
        return None
    if written.startswith("**"):
        kind = inspect.Parameter.VAR_KEYWORD
    elif written.startswith("*"):
        kind = inspect.Parameter.VAR_POSITIONAL
    else:
        return inspect.Parameter(name, kind, default=default, annotation=annotation)
    return inspect.Parameter(name, kind, annotation=annotation)


def _valid(params: list[inspect.Parameter]) -> inspect.Signature | None:
    """The signature of ``params``, or None when they make none (a name twice, a
    parameter without a default after one with)."""
    try:
        return inspect.Signature(params)
    except ValueError:
        return None


def _split(text: str, subscripts: bool = False) -> list[str]:
    """``text`` cut at its commas, except those inside strings, parentheses or braces, and
    with ``subscripts`` inside square and angle brackets (an annotation's ``dict[str,
    int]``, C++'s ``std::map<int, int>``: pybind11's form has no optional brackets)."""
    pieces: list[str] = []
    depth = 0
    current = ""
    opening, closing = ("({[<", ")}]>") if subscripts else ("({", ")}")
    for char, quoted in _marked(text):
        if quoted:
            current += char
            continue
        if char in opening:
            depth += 1
        elif char in closing:
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
