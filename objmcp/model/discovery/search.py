"""Tools found by what they do: a lexical ranking (BM25F) over what each tool says of itself.

A tool is a document of fields, each weighted: its name split into words
(``shortest_path``: shortest, path), the module and class it comes from, its
description's first line and the rest of it, its parameters' names and their
descriptions. :func:`~objmcp.model.discovery.words.terms` makes every field and the query
search terms (stemmed, synonyms made one), and :class:`SearchIndex` ranks the
tools by BM25F: each term's frequency in a field, normalised by the field's
length against its average, weighted by the field, saturated, and scaled by how
rare the term is among the tools. A query that is a tool's exact name finds it
first; a query that names a class or a submodule (``Graph``, ``numpy.linalg``)
finds its tools, in the order they are published. Nothing is learned and
nothing is imported: it works on untyped, undocumented code, from the names.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..calling.tool import Tool
from .words import acronyms, edits, split_words, term, terms, within_one

__all__ = ["SearchIndex", "tool_groups"]

_FIELDS: tuple[tuple[str, float, float], ...] = (
    # name, weight, length normalisation (b)
    ("name", 6.0, 0.8),
    ("path", 0.8, 0.3),
    ("summary", 2.0, 0.6),
    ("description", 0.6, 0.75),
    ("parameters", 0.8, 0.5),
    ("parameter_docs", 0.3, 0.75),
)
_K1 = 1.2
_EXACT = 1e6  # a query that is the tool's very name puts it above any ranking
_TYPO = 0.8
"""What a query word counts for through the index's words one typo away from it, when it
is none of them itself."""
_TYPO_SHORTEST = 5
"""The shortest query word read as a typo: shorter ones are one typo from too many."""


@dataclass(frozen=True, slots=True)
class _Document:
    name: str
    fields: tuple[Counter[str], ...]
    groups: frozenset[str]


class SearchIndex:
    """The tools of a toolbox, ranked for a query by :meth:`search`.

    Built once from the tools given (about 1 ms for a hundred tools); a search reads
    only the postings of the query's terms.
    """

    def __init__(self, tools: Iterable[Tool]) -> None:
        tools = list(tools)
        vocabulary = {
            word
            for tool in tools
            for word in split_words(f"{tool.description} {' '.join(_properties(tool))}")
        }
        documents = [_document(tool, vocabulary) for tool in tools]
        self.names: tuple[str, ...] = tuple(document.name for document in documents)
        """The tools indexed, in the order they are published."""
        self._position = {name: index for index, name in enumerate(self.names)}
        self._lowered: dict[str, list[int]] = defaultdict(list)
        for index, name in enumerate(self.names):
            self._lowered[name.lower()].append(index)
        self._groups: dict[str, list[int]] = defaultdict(list)
        for index, document in enumerate(documents):
            for group in document.groups:
                self._groups[group].append(index)
        count = max(len(documents), 1)
        averages = [
            sum(sum(doc.fields[i].values()) for doc in documents) / count or 1.0
            for i in range(len(_FIELDS))
        ]
        weighted: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for index, document in enumerate(documents):
            frequencies: dict[str, float] = defaultdict(float)
            for (_, weight, b), field, average in zip(
                _FIELDS, document.fields, averages, strict=True
            ):
                norm = 1.0 - b + b * sum(field.values()) / average
                for word, times in field.items():
                    frequencies[word] += weight * times / norm
            for word, frequency in frequencies.items():
                weighted[word].append((index, frequency))
        # each posting's share of a score is fixed once the index is built (the term's
        # rarity times its saturated frequency): a search only adds them up
        self._postings: dict[str, tuple[tuple[int, ...], tuple[float, ...]]] = {}
        for word, postings in weighted.items():
            idf = math.log(1.0 + (count - len(postings) + 0.5) / (len(postings) + 0.5))
            self._postings[word] = (
                tuple(index for index, _ in postings),
                tuple(idf * f * (_K1 + 1) / (f + _K1) for _, f in postings),
            )

        self._near: dict[str, str] | None = None  # made at the first typo

    def __len__(self) -> int:
        return len(self.names)

    def _corrections(self, word: str) -> list[str]:
        """The index's terms one typo from ``word`` (which is none of them)."""
        if len(word) < _TYPO_SHORTEST or not word.isalpha():
            return []
        if self._near is None:
            # variants to the terms they come from, space-separated: strings, which the
            # garbage collector does not track (a container each would start a full
            # collection of a big library's heap: a second, where this takes 50 ms)
            near: dict[str, str] = {}
            for known in self._postings:
                if len(known) >= _TYPO_SHORTEST - 1 and known.isalpha():
                    for variant in edits(known):
                        near[variant] = f"{near[variant]} {known}" if variant in near else known
            self._near = near
        near = self._near
        candidates = {known for v in edits(word) if v in near for known in near[v].split()}
        return sorted(known for known in candidates if within_one(word, known))

    def search(self, query: str, limit: int = 10) -> list[str]:
        """The names of at most ``limit`` tools for ``query``, best first: the tool whose
        name it is, then the tools of the class or module it names, then the ranking of
        the rest (tools that share no term with the query are left out)."""
        if limit <= 0 or not self.names:
            return []
        scores = [0.0] * len(self.names)
        touched: set[int] = set()
        wanted = query.strip()
        if wanted in self._position:
            scores[self._position[wanted]] += _EXACT * 2
            touched.add(self._position[wanted])
        for index in self._lowered.get(wanted.lower(), ()):
            scores[index] += _EXACT
            touched.add(index)
        for index in self.group(wanted):
            scores[index] += _EXACT / 2 - index  # the group's tools in published order
            touched.add(index)
        asked: dict[str, float] = dict(Counter(terms(query)))
        for acronym in acronyms(query):
            asked[term(acronym)] = max(asked.get(term(acronym), 0.0), 1.0)
        for word, times in asked.items():
            found = [(word, times)] if word in self._postings else []
            if not found:  # a typo: the words one letter away count, a little less
                found = [(known, times * _TYPO) for known in self._corrections(word)]
            for known, weight in found:
                indices, shares = self._postings[known]
                touched.update(indices)
                for index, share in zip(indices, shares, strict=True):
                    scores[index] += weight * share
        # best first, and among equals the first published (a stable sort of the positions)
        ranked = sorted(sorted(touched), key=scores.__getitem__, reverse=True)
        return [self.names[index] for index in ranked[:limit]]

    def group(self, query: str) -> Sequence[int]:
        """The positions of the tools of the class or module ``query`` names (its dotted
        path, or its last part: ``networkx.classes.graph.Graph``, ``Graph``); none when it
        names none, or names what every tool belongs to."""
        found = self._groups.get(query.strip().lower(), ())
        return found if len(found) < len(self.names) else ()


def tool_groups(tool: Tool) -> tuple[str, ...]:
    """Where ``tool`` comes from: the dotted path of its module, then its class, leading
    underscores' parts left out (``numpy._core.fromnumeric.mean`` is in ``numpy``,
    ``numpy.fromnumeric``)."""
    function = tool.function
    owner = getattr(function, "__self__", None)
    module = getattr(function, "__module__", None)
    qualname = getattr(function, "__qualname__", "") or ""
    if owner is not None and not isinstance(owner, type) and type(owner).__name__ != "module":
        module = module or type(owner).__module__
        qualname = f"{type(owner).__qualname__}.{qualname.rsplit('.', 1)[-1]}"
    parts = [part for part in (module or "").split(".") if part and not part.startswith("_")]
    classes = [part for part in qualname.split(".")[:-1] if part and not part.startswith("<")]
    return (*parts, *classes)


def _properties(tool: Tool) -> dict[str, Any]:
    properties = tool.input_schema.get("properties", {})
    return properties if isinstance(properties, dict) else {}


def _name_words(name: str, vocabulary: set[str]) -> list[str]:
    """The words of a tool's name, and of each word run together from two that the
    tools' texts use (``isprime``: is, prime; ``argmax``: arg, max), besides itself."""
    words = split_words(name)
    found = list(words)
    for word in words:
        if len(word) < 5 or not word.isalpha():
            continue
        splits = [
            (word[:cut], word[cut:])
            for cut in range(2, len(word) - 1)
            if word[:cut] in vocabulary and word[cut:] in vocabulary
        ]
        if splits:
            left, right = max(splits, key=lambda pair: min(len(pair[0]), len(pair[1])))
            found += [left, right]
    return found


def _document(tool: Tool, vocabulary: set[str]) -> _Document:
    summary, _, rest = (tool.description or "").strip().partition("\n")
    properties = _properties(tool)
    docs = " ".join(
        str(schema.get("description", ""))
        for schema in properties.values()
        if isinstance(schema, dict)
    )
    path = tool_groups(tool)
    fields = (
        Counter(terms(" ".join(_name_words(tool.name, vocabulary)), stop=False)),
        Counter(terms(" ".join(path), stop=False)),
        Counter(terms(summary)),
        Counter(terms(rest)),
        Counter(terms(" ".join(properties), stop=False)),
        Counter(terms(docs)),
    )
    groups: set[str] = set()
    for end in range(1, len(path) + 1):
        groups.add(".".join(path[:end]).lower())
        groups.add(".".join(path[end - 1 : end]).lower())
    return _Document(tool.name, fields, frozenset(groups))
