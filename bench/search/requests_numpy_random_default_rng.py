"""The search benchmark's requests for ``numpy.random:default_rng()``: written from its
documentation (the docstrings of the ``numpy.random.Generator`` methods, and the NumPy
random sampling reference pages), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "numpy.random:default_rng()"

REQUESTS: tuple[Request, ...] = (
    Request("random weights summing to one", "terse", ("dirichlet",)),
    Request(
        "I want to draw random numbers from Student's t distribution with given degrees "
        "of freedom.",
        "sentence",
        ("standard_t",),
    ),
    Request(
        "draw i.i.d. N(0, 1) variates, zero mean unit variance",
        "jargon",
        ("standard_normal", "normal"),
    ),
    Request(
        "simulate how many coin flips it takes until I finally get heads",
        "layman",
        ("geometric",),
    ),
    Request(
        "create independant child random generators for paralel worker processes",
        "typos",
        ("spawn",),
    ),
    Request("Rosin-Rammler random draws", "terse", ("weibull",)),
    Request(
        "I need random draws from a gamma distribution with a given shape and a scale of one.",
        "sentence",
        ("standard_gamma", "gamma"),
    ),
    Request(
        "in-place Fisher-Yates permutation of array rows along an axis",
        "jargon",
        ("shuffle",),
    ),
    Request(
        "pull marbles from a bag without putting them back and count how many of each color",
        "layman",
        ("multivariate_hypergeometric",),
    ),
    Request(
        "random Fisher-Snedecor distribuiton draws with numerator and denominater "
        "degrees of freedom",
        "typos",
        ("f",),
    ),
    Request("gaussian random numbers mean stddev", "terse", ("normal",)),
    Request(
        "I need random values from a chi-squared distribution shifted by a "
        "non-centrality parameter.",
        "sentence",
        ("noncentral_chisquare",),
    ),
    Request(
        "variates on the unit interval with density proportional to x^(a-1)",
        "jargon",
        ("power",),
    ),
    Request(
        "random guesses given a lowest, a most likely and a highest possible value",
        "layman",
        ("triangular",),
    ),
    Request(
        "sample random wating times from an exponental distribution with scale 1",
        "typos",
        ("standard_exponential", "exponential"),
    ),
)
