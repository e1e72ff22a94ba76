"""The calls of ``rapidfuzz`` (rank 234, tuning, second walk).

Written from rapidfuzz's documentation (its README on PyPI, "Usage": the ``fuzz`` scorers
``ratio``, ``partial_ratio``, ``token_sort_ratio``, ``token_set_ratio``, ``WRatio`` and the
``process`` functions ``extract`` and ``extractOne`` with the README's examples; and the
"rapidfuzz.process" page of rapidfuzz.github.io/RapidFuzz/Usage for ``cdist``), each answer
computed by calling rapidfuzz itself, in JSON's terms: a score as its number, a match
``(choice, score, index)`` as a list, ``cdist``'s numpy matrix as its list of lists. The
``scorer`` and ``processor`` arguments are functions, which a model cannot send; the calls use
the defaults (``WRatio`` for ``extract``, ``ratio`` for ``cdist``).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

CHOICES = ["Atlanta Falcons", "New York Jets", "New York Giants", "Dallas Cowboys"]


def _fuzz() -> Any:
    return importlib.import_module("rapidfuzz.fuzz")


def _process() -> Any:
    return importlib.import_module("rapidfuzz.process")


TARGETS: tuple[Target, ...] = (
    Target(
        "rapidfuzz.fuzz",
        (
            Call(
                "ratio",
                {"s1": "this is a test", "s2": "this is a test!"},
                lambda: _fuzz().ratio("this is a test", "this is a test!"),
            ),
            Call(
                "partial_ratio",
                {"s1": "this is a test", "s2": "this is a test!"},
                lambda: _fuzz().partial_ratio("this is a test", "this is a test!"),
            ),
            Call(
                "token_sort_ratio",
                {"s1": "fuzzy wuzzy was a bear", "s2": "wuzzy fuzzy was a bear"},
                lambda: _fuzz().token_sort_ratio(
                    "fuzzy wuzzy was a bear", "wuzzy fuzzy was a bear"
                ),
            ),
            Call(
                "token_set_ratio",
                {"s1": "fuzzy was a bear but not a dog", "s2": "fuzzy was a bear but not a cat"},
                lambda: _fuzz().token_set_ratio(
                    "fuzzy was a bear but not a dog", "fuzzy was a bear but not a cat"
                ),
            ),
            Call(
                "WRatio",
                {"s1": "this is a test", "s2": "this is a new test!!!", "score_cutoff": 80},
                lambda: _fuzz().WRatio("this is a test", "this is a new test!!!", score_cutoff=80),
            ),
        ),
    ),
    Target(
        "rapidfuzz.process",
        (
            Call(
                "extract",
                {"query": "new york jets", "choices": CHOICES, "limit": 2},
                lambda: expected_json(_process().extract("new york jets", CHOICES, limit=2)),
            ),
            Call(
                "extractOne",
                {"query": "cowboys", "choices": CHOICES},
                lambda: expected_json(_process().extractOne("cowboys", CHOICES)),
            ),
            Call(
                "extract",
                {"query": "New York", "choices": CHOICES, "score_cutoff": 80},
                lambda: expected_json(_process().extract("New York", CHOICES, score_cutoff=80)),
            ),
            Call(
                "cdist",
                {"queries": ["new york jets", "falcons"], "choices": CHOICES},
                lambda: expected_json(_process().cdist(["new york jets", "falcons"], CHOICES)),
            ),
        ),
    ),
)
