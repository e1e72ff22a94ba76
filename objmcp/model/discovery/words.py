"""Text made search terms: identifiers split into words, words stemmed, synonyms made one.

:func:`split_words` splits names as code writes them (``shortest_path``,
``shortestPath``, ``HTTPServer2``) and prose alike into lower-case words;
:func:`terms` goes on to drop the words that say nothing, stem the rest with a
small suffix stripper, and replace each by the one term its synonym group stands
for, so that "average" finds ``mean`` and "deleting folders" finds ``rmdir``'s
"Remove a directory". It is deliberately small: no dictionary, no model.
"""

from __future__ import annotations

import functools
import re

__all__ = ["acronyms", "edits", "operators", "split_words", "stem", "term", "terms", "within_one"]

_PIECES = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

_STOP = frozenset(
    (
        *("a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from"),
        *("given", "how", "i", "in", "into", "is", "it", "its", "me", "my", "of", "on"),
        *("or", "some", "that", "the", "their", "them", "then", "this", "to", "using"),
        *("via", "what", "when", "which", "with", "would", "you", "your", "want", "need"),
        *("please", "get", "return", "returns", "returned", "value", "values"),
    )
)
"""Words that say nothing of what a tool does (``get`` and ``return`` begin half of all
descriptions)."""

_PHRASES = (
    ("number of", "count"),
    ("how many", "count"),
    ("square root", "sqrt"),
    ("absolute value", "abs"),
    ("standard deviation", "stdev"),
    ("upper case", "upper"),
    ("lower case", "lower"),
    ("new line", "newline"),
    ("time stamp", "timestamp"),
)
"""Phrases said as one word (applied to queries and documents alike)."""

_SYNONYMS = (
    ("mean", "average", "avg"),
    ("remove", "delete", "del", "erase", "unlink", "rm", "drop"),
    ("count", "tally"),
    ("directory", "folder", "dir"),
    ("create", "make", "new", "mk"),
    ("stdev", "std", "deviation", "spread"),
    ("variance", "var"),
    ("sort", "order", "rank"),
    ("combine", "merge", "join", "concatenate", "concat"),
    ("split", "divide", "separate"),
    ("copy", "duplicate", "clone"),
    ("rename", "move", "mv"),
    ("find", "search", "locate", "lookup"),
    ("replace", "substitute", "sub"),
    ("convert", "transform"),
    ("large", "big", "largest", "biggest", "max", "maximum"),
    ("small", "smallest", "min", "minimum", "least"),
    ("length", "len", "size"),
    ("exist", "exists", "present"),
    ("word", "words"),
    ("shortest", "short", "quickest", "cheapest"),
    ("route", "path"),
    ("graph", "network"),
    ("node", "vertex", "vertices"),
    ("edge", "link"),
    ("date", "day", "days", "calendar"),
    ("time", "clock"),
    ("random", "rand", "shuffle"),
    ("sqrt", "root"),
    ("matrix", "array", "ndarray"),
    ("invert", "inverse", "inv"),
    ("determinant", "det"),
    ("solve", "solution", "equation"),
    ("differentiate", "derivative", "diff", "derive"),
    ("integrate", "integral", "antiderivative"),
    ("simplify", "simplification"),
    ("factor", "factorise", "factorize", "factorization"),
    ("expand", "multiply"),
    ("encode", "encoding", "encoder"),
    ("decode", "decoding", "decoder"),
    ("string", "text", "str"),
    ("upper", "uppercase", "capital", "capitalize"),
    ("similar", "similarity", "match", "close"),
    ("fraction", "ratio"),
    ("hash", "digest", "checksum"),
    ("cumulative", "running", "cum", "accumulate"),
    ("sum", "total"),
    ("describe", "descriptive", "summary", "summarize"),
)
"""Groups of words meant alike; each word stands for the group's first."""


def split_words(text: str) -> list[str]:
    """``text`` in lower-case words: identifiers split at ``_``, ``.``, digits and case
    changes (``getHTTPResponse2`` is get, http, response, 2), prose at anything that is
    not a letter or a digit."""
    return [piece.lower() for piece in _PIECES.findall(text)]


def stem(word: str) -> str:
    """``word`` with its common English suffix stripped (a small, conservative Porter
    step: plurals, -ing, -ed, -ly, -ation), so that "files" and "file", "sorted" and
    "sort" meet; short words are kept as they are."""
    if len(word) <= 3:
        return word
    for suffix, replacement, keep in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            base = word[: len(word) - len(suffix)] + replacement
            doubled = len(base) > 2 and base[-1] == base[-2] and base[-1] not in "lsz"
            if suffix in ("ing", "ed") and doubled:
                base = base[:-1]  # "running" -> run, "stopped" -> stop
            return _without_e(base)
    return _without_e(word)


def _without_e(word: str) -> str:
    """``word`` without a silent final e ("dense" and "density" meet at dens)."""
    return word[:-1] if len(word) >= 5 and word.endswith("e") and word[-2] not in "aeiou" else word


_SUFFIXES = (
    ("ational", "ate", 3),
    ("ization", "ize", 3),
    ("ation", "ate", 3),
    ("iness", "y", 3),
    ("ness", "", 3),
    ("ments", "", 3),
    ("ment", "", 3),
    ("ies", "y", 2),
    ("sses", "ss", 2),
    ("xes", "x", 2),
    ("ches", "ch", 2),
    ("shes", "sh", 2),
    ("ity", "", 3),
    ("ing", "", 3),
    ("ly", "", 4),
    ("ied", "y", 2),
    ("ed", "", 3),
    ("ss", "ss", 2),
    ("us", "us", 2),
    ("is", "is", 2),
    ("s", "", 3),
)

_CANONICAL: dict[str, str] = {}
for _group in _SYNONYMS:
    for _word in _group:
        _CANONICAL.setdefault(stem(_word), stem(_group[0]))
        _CANONICAL.setdefault(_word, stem(_group[0]))


@functools.lru_cache(maxsize=65536)
def term(word: str) -> str:
    """The search term of one lower-case word: its synonym group's, else its stem."""
    found = _CANONICAL.get(word)
    if found is not None:
        return found
    stemmed = stem(word)
    return _CANONICAL.get(stemmed, stemmed)


def terms(text: str, *, stop: bool = True) -> list[str]:
    """The search terms of ``text``: its words (:func:`split_words`), the stop words
    left out (unless ``stop`` is false: a name's every word counts), each made its
    :func:`term`; then the operators it writes (:func:`operators`)."""
    lowered = " ".join(split_words(text))
    lowered = _PHRASE.sub(lambda match: _PHRASE_WORD[match.group(0)], lowered)
    found = [term(word) for word in lowered.split() if not (stop and word in _STOP)]
    return found + operators(text)


_OPERATOR = re.compile(
    r"(?:(?<=\s)|^|(?<=[(\[]))"
    r"(\*\*=?|//=?|<<=?|>>=?|[<>!=]=|[-+*/%@&|^]=?|[<>~])"
    r"(?=\s|$|[)\],.;:])"
)


def operators(text: str) -> list[str]:
    """The operators ``text`` writes standing alone (``Same as a /= b``, ``the & of two
    sets``) as search terms of their own (``op:/=``): code's words that no letter spells,
    and that split_words cannot see. An operator inside a word or a number (``in-place``,
    ``-3``, ``/tmp``) is none."""
    return ["op:" + match.group(1) for match in _OPERATOR.finditer(text)]


def edits(word: str) -> set[str]:
    """``word`` and every word one letter shorter: two words within one typo of each
    other (a letter dropped, added, changed or two swapped) share one of these."""
    return {word, *(word[:cut] + word[cut + 1 :] for cut in range(len(word)))}


def within_one(left: str, right: str) -> bool:
    """Whether ``left`` becomes ``right`` by at most one typo: a letter dropped, added or
    changed, or two neighbours swapped (the Damerau-Levenshtein distance is at most 1)."""
    if left == right:
        return True
    if abs(len(left) - len(right)) > 1:
        return False
    if len(left) > len(right):
        left, right = right, left
    start = 0
    while start < len(left) and left[start] == right[start]:
        start += 1
    if len(left) < len(right):  # one letter added
        return left[start:] == right[start + 1 :]
    if left[start + 1 :] == right[start + 1 :]:  # one letter changed
        return True
    swapped = start + 1 < len(left) and left[start] == right[start + 1]
    return swapped and left[start + 1] == right[start] and left[start + 2 :] == right[start + 2 :]


_PHRASE_WORD = dict(_PHRASES)
_PHRASE = re.compile(r"\b(?:" + "|".join(map(re.escape, _PHRASE_WORD)) + r")\b")


def acronyms(text: str) -> list[str]:
    """The acronyms that runs of three or four of ``text``'s words make ("greatest common
    divisor" gives gcd), stop words left out: a name is often one."""
    words = [word for word in split_words(text) if word not in _STOP and word.isalpha()]
    found = []
    for size in (3, 4):
        for start in range(len(words) - size + 1):
            found.append("".join(word[0] for word in words[start : start + size]))
    return found
