"""The type a docstring names, in the words libraries write it.

:func:`doc_type` reads numpydoc phrases (``int, optional``, ``bool, default True``,
``{'linear', 'nearest'}``, ``sequence of str``, ``list of int or None``,
``array_like``, ``(N,) ndarray``, ``Array-like or scalar-like``), Sphinx and Google ones
(``:class:`int```, ``Optional[int]``, ``list[str]``) into a type hint the schema builder and the
converter know. What it cannot read gives ``inspect.Parameter.empty``: a phrase with
one unknown part is unknown as a whole, save for parts only Python can pass (a
function, a random state, a file object), which JSON leaves out of the union.
"""

from __future__ import annotations

import importlib
import inspect
import re
import typing
from typing import Any, Literal

__all__ = [
    "ARRAY_LIKE",
    "HASHABLE",
    "NUMERIC_ARRAY_LIKE",
    "SCALAR",
    "TEXT_OR_ARRAY",
    "alternatives",
    "doc_type",
    "nested_arrays",
    "plain_roles",
    "python_only",
]

_EMPTY: Any = inspect.Parameter.empty

_NUMBER: object = int | float


def nested_arrays(item: object, depth: int = 3) -> object:
    """``item``, or arrays of it nested up to ``depth`` deep: what ``array_like``
    means to JSON (a scalar, a vector, a matrix, a 3-d array)."""
    levels = [item]
    for _ in range(depth):
        levels.append(list[levels[-1]])  # type: ignore[valid-type]
    return typing.Union[tuple(levels)]  # noqa: UP007 - built from a runtime list


SCALAR: object = str | int | float | bool | None
"""``scalar``, ``scalar-like``: one JSON value that is no array or object. numpy's scalars
are numbers, pyarrow's and pandas' strings, booleans or nulls as well: the word alone
says none of them."""
ARRAY_LIKE: object = SCALAR | list[Any]
"""``array_like``, ``Array-like``, ``ndarray``, ``scalar or array_like``: a scalar or an
array of any values (numpy makes arrays of strings too, pyarrow of strings and structs),
passed on as the plain value or list; only words that say numbers
(:data:`NUMERIC_ARRAY_LIKE`) narrow it."""
NUMERIC_ARRAY_LIKE: object = nested_arrays(_NUMBER)
"""``array_like of float``, ``real array_like``, ``numeric array``, ``array_like,
non-negative``: a number or nested arrays of numbers."""
HASHABLE: object = str | int | float | tuple[Any, ...] | None
"""A hashable JSON value: a string, a number, null, or an array taken as a tuple."""
TEXT_OR_ARRAY: object = typing.Iterable
"""An iterable or a sequence: an array, or a string (which Python iterates too:
:func:`~objmcp.model.describe.hints.takes_text`)."""

_NAMES: dict[str, object] = {
    "str": str,
    "string": str,
    "text": str,
    "unicode": str,
    "char": str,
    "character": str,
    "int": int,
    "integer": int,
    "float": float,
    "double": float,
    "real": _NUMBER,
    "number": _NUMBER,
    "numeric": _NUMBER,
    "numbers.number": _NUMBER,
    "numbers.real": _NUMBER,
    "scalar": SCALAR,
    "scalar-like": SCALAR,
    "scalar_like": SCALAR,
    "bool": bool,
    "boolean": bool,
    "true": bool,
    "false": bool,
    "none": type(None),
    "nonetype": type(None),
    "null": type(None),
    "list": list,
    "list-like": list,
    "listlike": list,
    "dict": dict,
    "dictionary": dict,
    "mapping": dict,
    "tuple": tuple,
    "set": set,
    "frozenset": frozenset,
    "bytes": bytes,
    "bytestring": bytes,
    "byte string": bytes,
    "any": Any,
    "array_like": ARRAY_LIKE,
    "array-like": ARRAY_LIKE,
    "arraylike": ARRAY_LIKE,
    "array": ARRAY_LIKE,
    "ndarray": ARRAY_LIKE,
    "numpy array": ARRAY_LIKE,
    "matrix": ARRAY_LIKE,
    "vector": ARRAY_LIKE,
    "iterable": TEXT_OR_ARRAY,
    "iterator": TEXT_OR_ARRAY,
    "sequence": TEXT_OR_ARRAY,
    "collection": TEXT_OR_ARRAY,
    "container": TEXT_OR_ARRAY,
    "hashable": HASHABLE,
    "node": HASHABLE,
    "node label": HASHABLE,
    "label": HASHABLE,
    "column name": HASHABLE,
    "column label": HASHABLE,
    "dict key": HASHABLE,
    "dtype": str,
    "data-type": str,
    "data type": str,
    "dtype specifier": str,
    "dtype_like": str,
    "dtype-like": str,
    "path": str,
    "path-like": str,
    "pathlike": str,
    "path object": str,
    "os.pathlike": str,
    "pathlib.path": str,
    "filename": str,
    "file name": str,
}
"""Type names as docstrings write them (lower case; ``np.``/``numpy.``/``typing.`` and
``collections.abc.`` prefixes are dropped before the look-up)."""

_STANDARD_NAMES: dict[str, tuple[str, str]] = {
    "datetime": ("datetime", "datetime"),
    "datetime.datetime": ("datetime", "datetime"),
    "datetime-like": ("datetime", "datetime"),
    "date": ("datetime", "date"),
    "datetime.date": ("datetime", "date"),
    "datetime.time": ("datetime", "time"),
    "decimal": ("decimal", "Decimal"),
    "decimal.decimal": ("decimal", "Decimal"),
}
"""Standard value classes docstrings name, imported only when one is named (serving
objmcp must not load them)."""

_PLURALS = {"indices": "int", "indexes": "int", "dictionaries": "dict"}
_CONTAINERS: dict[str, object] = {
    "list": list,
    "list-like": list,
    "set": set,
    "frozenset": frozenset,
    "tuple": tuple,
    "sequence": typing.Sequence,
    "iterable": typing.Iterable,
    "iterator": typing.Iterable,
    "collection": typing.Collection,
    "container": typing.Container,
    "array_like": "array",
    "array-like": "array",
    "array": "array",
    "ndarray": "array",
    "dict": dict,
    "dictionary": dict,
    "mapping": dict,
}
"""The containers of ``X of Y`` and ``X[Y]``; "array" ones nest their items. The abstract
ones a Python string is take a string too where their items may be strings (``sequence
of str``, ``iterable``: :func:`~objmcp.model.describe.hints.takes_text`); an iterator is read as
an iterable (a model sends the values it yields)."""

_PYTHON_ONLY = re.compile(
    r"^(?:(?:callable|function|method|generator)\b.*"
    r"|(?:file|stream|buffer)(?:[- ]like)?(?: object| handle)?|module|class|type|python type"
    r"|.*\brandom_?state\b.*|.*\brandom\.generator\b.*|generator|.*\binstance"
    r"|.*\baxes\b.*)$",
    re.I,
)
"""Alternatives only Python can pass (``str or callable``: JSON carries the ``str``)."""

_NUMERIC_QUALIFIER = re.compile(
    r"^(?:non-?negative|positive|negative|strictly positive|real-valued|real|finite)\s+"
    r"|^(?:numeric|numerical|integer|int|float|floating[- ]point)\s+"
    r"(?=(?:array|array[-_]?like|ndarray|matrix|vector|scalar)\b)",
    re.I,
)
"""Words before a type that say its values are numbers (``real array_like``,
``positive int``, ``numeric array``)."""
_NUMERIC_PART = re.compile(r"^(?:real-valued|non-?negative|positive)$", re.I)
"""A part of a phrase that says its values are numbers (``array_like, non-negative``)."""
_QUALIFIERS = re.compile(
    r"^(?:an?|the|non-?empty|python|numpy"
    r"|1-?d|2-?d|3-?d|n-?d|one-dimensional|two-dimensional|optional)\s+",
    re.I,
)
_SHAPE = r"\([^()]*\)"
_LEADING_SHAPE = re.compile(rf"^{_SHAPE}\s+")
_TRAILING_SHAPE = re.compile(rf"\s+(?:of shape\s+|shape\s+)?{_SHAPE}$")
_DROPPED_PART = re.compile(
    r"^(?:optional|required|keyword[- ]only|positional[- ]only|default\b.*|\(default\b.*"
    r"|real-valued|non-?negative|positive|ignored|deprecated|shape\b.*|\d-?dimensional)$",
    re.I,
)
_ROLE = re.compile(r"(?::[\w-]+)+:`(~?)([^`<]*?)\s*(?:<([^`>]*)>)?`")
_GENERIC = re.compile(r"^([\w.]+)\s*\[(.*)\]$", re.S)
_OF = re.compile(r"^([\w.-]+)\s+of\s+(.+)$", re.I | re.S)
_N_TUPLE = re.compile(r"^(\d+)-tuple$", re.I)


def plain_roles(text: str) -> str:
    """``text`` with reST roles written as their plain text: ``:func:`~a.b``` is ``b``,
    ``:class:`Name <a.Name>``` is ``Name``, ``:obj:`int``` is ``int``."""

    def plain(match: re.Match[str]) -> str:
        shown = match.group(2).strip() or (match.group(3) or "").strip()
        return shown.rsplit(".", 1)[-1] if match.group(1) else shown

    return _ROLE.sub(plain, text)


def doc_type(text: str) -> object:
    """The type a docstring names (``int``, ``list of str``, ``str or None``,
    ``int, optional``, ``{'a', 'b'}``, ``array_like``), or ``inspect.Parameter.empty``
    when it names none JSON can carry."""
    text = plain_roles(text).replace("``", "").replace("`", "").strip()
    try:
        return _phrase(_without_defaults(text))
    except RecursionError:
        return _EMPTY


_NEEDS = (
    (re.compile(r"^(?:callable|function|method)\b", re.I), "a callable"),
    (re.compile(r"^(?:file|stream|buffer)", re.I), "a file object"),
    (re.compile(r"^module$", re.I), "a module"),
    (re.compile(r"^(?:class|type|python type)$", re.I), "a class"),
)


def python_only(text: str) -> str | None:
    """What a docstring's type asks for that only Python can pass (``callable``,
    ``function(x) -> f``, ``file-like object``, ``module``, ``class``), or None when
    JSON can carry some form of it (``str or callable``; ``callable or None`` asks for
    a callable) or it names no such thing."""
    text = plain_roles(text).replace("``", "").replace("`", "").strip()
    alternatives = [
        re.sub(r"^(?:an?|the)\s+", "", part, flags=re.I)
        for part in _alternatives(_without_defaults(text))
        if part.lower() not in ("none", "null")
    ]
    if not alternatives or not all(_PYTHON_ONLY.match(part) for part in alternatives):
        return None
    return next((need for pattern, need in _NEEDS if pattern.match(alternatives[0])), None)


def alternatives(text: str) -> list[str]:
    """The alternatives a docstring's type names (``pa.Array or None, optional`` gives
    ``pa.Array`` and ``None``), without what it says of being optional or of the default."""
    return _alternatives(_without_defaults(text))


def _without_defaults(text: str) -> str:
    """``text`` without what it says of the default (``(default=nx.Graph)``)."""
    while True:
        start = text.lower().find("(default")
        if start < 0:
            return text
        depth, end = 0, len(text)
        for index in range(start, len(text)):
            depth += {"(": 1, ")": -1}.get(text[index], 0)
            if depth == 0:
                end = index + 1
                break
        text = (text[:start] + text[end:]).strip()


def _phrase(text: str) -> object:
    """A whole phrase: alternatives split at commas, ``or`` and ``|``."""
    alternatives = _alternatives(text)
    if not alternatives:
        return _EMPTY
    numeric = any(_NUMERIC_PART.match(part.rstrip(".").strip()) for part in _split(text, ","))
    if len(alternatives) == 1:
        return _single(alternatives[0], numeric)
    carried = [a for a in alternatives if not _PYTHON_ONLY.match(a)]
    members = [_single(a, numeric) for a in carried]
    if not members or any(member is _EMPTY for member in members):
        return _EMPTY
    return _union(members)


def _alternatives(text: str) -> list[str]:
    """The alternatives of a phrase, split at commas, ``or`` and ``|``, without what
    it says of being optional or of the default."""
    parts = [part.rstrip(".").strip() for part in _split(text, ",")]
    parts = [part for part in parts if not _DROPPED_PART.match(part)]
    alternatives: list[str] = []
    for part in parts:
        bare = re.sub(r"\s+optional$", "", part, flags=re.I)
        bare = re.sub(r"^(?:or|and|either)\s+", "", bare, flags=re.I)
        alternatives.extend(_split(bare, " or ", "|"))
    return [a for a in alternatives if a and not _DROPPED_PART.match(a)]


def _union(members: list[object]) -> object:
    if any(member is Any for member in members):
        return Any
    return typing.Union[tuple(members)]  # noqa: UP007 - built from a runtime list


def _single(text: str, numeric: bool = False) -> object:
    """One alternative: a name, a literal, a set of choices, a tuple or a container; of
    numbers only when ``numeric`` (the phrase said so) or its own words say so."""
    text = text.strip().rstrip(".").strip()
    text = re.sub(r"\b(iterable|list|list-like)\s+container\b", r"\1", text, flags=re.I)
    text = re.sub(r"^(nodes?)\s+in\s+.*$", r"\1", text, flags=re.I)
    previous = None
    while previous != text:
        previous = text
        text = _QUALIFIERS.sub("", _LEADING_SHAPE.sub("", _TRAILING_SHAPE.sub("", text))).strip()
        unqualified = _NUMERIC_QUALIFIER.sub("", text).strip()
        numeric, text = numeric or unqualified != text, unqualified
    hint = _unqualified(text)
    return _NUMBERS_ONLY.get(hint, hint) if numeric else hint


def _unqualified(text: str) -> object:
    """One alternative, its qualifiers and shape taken off."""
    if not text:
        return _EMPTY
    if text[0] == "{" and text[-1] == "}":
        return _choices(_split(text[1:-1], ","))
    if text[0] == "(" and text[-1] == ")":
        items = [_phrase(item) for item in _split(text[1:-1], ",")]
        if not items or any(item is _EMPTY for item in items):
            return _EMPTY
        return tuple[tuple(items)]  # type: ignore[misc]
    literal = _literal(text)
    if literal is not _EMPTY:
        return literal
    generic = _GENERIC.match(text)
    if generic:
        return _generic(generic.group(1), _split(generic.group(2), ","))
    contained = _OF.match(text)
    if contained and _container_name(contained.group(1)) in _CONTAINERS:
        return _container(_container_name(contained.group(1)), contained.group(2))
    n_tuple = _N_TUPLE.match(text)
    if n_tuple:
        return tuple[tuple([Any] * int(n_tuple.group(1)))]  # type: ignore[misc]
    return _name(text)


_NUMBERS_ONLY: dict[object, object] = {ARRAY_LIKE: NUMERIC_ARRAY_LIKE, SCALAR: _NUMBER}
"""The numeric forms of the types whose values may be anything."""


def _literal(text: str) -> object:
    quoted = re.fullmatch(r"""(['"])(.*)\1""", text, re.S)
    if quoted:
        return Literal[quoted.group(2)]
    if re.fullmatch(r"-?\d+", text):
        return Literal[int(text)]
    return _EMPTY


def _choices(items: list[str]) -> object:
    """``{'linear', 'nearest'}``: the values to choose from (or, unquoted, the types)."""
    values: list[object] = []
    others: list[object] = []
    for item in items:
        literal = _literal(item.strip())
        if literal is not _EMPTY:
            values.extend(typing.get_args(literal))
        elif item.strip().lower() in ("true", "false"):
            values.append(item.strip().lower() == "true")
        elif not _PYTHON_ONLY.match(item.strip()):
            others.append(_phrase(item))
    if any(other is _EMPTY for other in others) or not (values or others):
        return _EMPTY
    if values:
        others.insert(0, Literal[tuple(values)])
    return others[0] if len(others) == 1 else _union(others)


def _generic(name: str, args: list[str]) -> object:
    """``list[int]``, ``Optional[str]``, ``Union[int, str]``, ``Sequence[Hashable]``."""
    key = _container_name(name)
    if key == "optional" and len(args) == 1:
        inner = _phrase(args[0])
        return _EMPTY if inner is _EMPTY else _union([inner, type(None)])
    if key == "union":
        members = [_phrase(arg) for arg in args]
        return _EMPTY if any(m is _EMPTY for m in members) else _union(members)
    if key == "literal":
        values = [typing.get_args(_literal(arg.strip())) for arg in args]
        return Literal[tuple(v[0] for v in values)] if all(values) else _EMPTY
    if key in ("dict", "dictionary", "mapping") and len(args) == 2:
        value = _phrase(args[1])
        return dict if value is _EMPTY else dict[str, value]  # type: ignore[valid-type]
    if key == "tuple":
        items = [_phrase(arg) for arg in args if arg.strip() != "..."]
        if not items or any(item is _EMPTY for item in items):
            return tuple
        if len(args) == 2 and args[1].strip() == "...":
            return tuple[items[0], ...]  # type: ignore[valid-type]
        return tuple[tuple(items)]  # type: ignore[misc]
    if key in _CONTAINERS and len(args) == 1:
        return _container(key, args[0])
    return _name(name)


def _container(kind: str, item_text: str) -> object:
    """``list of int``, ``sequence of str``, ``array_like of bool``, ``dict of ...``."""
    base = _CONTAINERS[kind]
    item = _phrase(_singular(item_text.strip()))
    if base is dict:
        return dict
    if base == "array":
        return ARRAY_LIKE if item is _EMPTY else nested_arrays(item)
    if item is _EMPTY or item is Any:
        return base
    if base is tuple:
        return tuple[item, ...]  # type: ignore[valid-type]
    return base[item]  # type: ignore[index]


def _singular(text: str) -> str:
    lowered = text.lower()
    if lowered in _PLURALS:
        return _PLURALS[lowered]
    if lowered.endswith("s") and _known(lowered[:-1]):
        return text[:-1]
    return text


def _container_name(name: str) -> str:
    return _strip_prefix(name.lower())


def _strip_prefix(name: str) -> str:
    for prefix in ("typing.", "collections.abc.", "abc.", "numpy.", "np.", "builtins."):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def _known(name: str) -> bool:
    return _strip_prefix(name) in _NAMES or _strip_prefix(name) in _STANDARD_NAMES


def _name(text: str) -> object:
    lowered = re.sub(r"\s+", " ", text.lower())
    lowered = lowered.removesuffix(" object").removesuffix(" instance").strip()
    key = _strip_prefix(lowered)
    if key in _STANDARD_NAMES:
        module, name = _STANDARD_NAMES[key]
        return getattr(importlib.import_module(module), name)
    found = _NAMES.get(key, _EMPTY)
    if found is _EMPTY and lowered.endswith("s"):
        found = _NAMES.get(_strip_prefix(_singular(lowered)), _EMPTY)
    return found


def _split(text: str, *separators: str) -> list[str]:
    """``text`` split at ``separators`` outside brackets, braces, parentheses and quotes."""
    parts: list[str] = []
    depth, quote, start, index = 0, "", 0, 0
    while index < len(text):
        char = text[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"" and (index == 0 or not text[index - 1].isalnum()):
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            separator = next(
                (s for s in separators if text[index : index + len(s)].lower() == s), None
            )
            if separator is not None:
                parts.append(text[start:index].strip())
                index += len(separator)
                start = index
                continue
        index += 1
    parts.append(text[start:].strip())
    return [part for part in parts if part]
