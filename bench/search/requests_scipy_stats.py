"""The search benchmark's requests for ``scipy.stats``: written from its documentation (the
docstrings of the sampled distributions and functions, and of their neighbours ``gamma``,
``mannwhitneyu``, ``mood``, ``fligner``, ``levene`` and ``scoreatpercentile``; the SciPy
statistics reference pages), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "scipy.stats"

REQUESTS: tuple[Request, ...] = (
    Request("random unit vector hypersphere", "terse", ("uniform_direction",)),
    Request(
        "I want a distribution where every integer between a low and a high bound is "
        "equally likely.",
        "sentence",
        ("randint",),
    ),
    Request(
        "distribution of the sum of k exponential interarrival times in a queue",
        "jargon",
        ("erlang", "gamma"),
    ),
    Request(
        "fair guesses of how spread out and lopsided the whole population is from my few "
        "measurements",
        "layman",
        ("kstat",),
    ),
    Request(
        "estimate a smooth probabilty densty curve from my data points without assuming "
        "a distribution",
        "typos",
        ("gaussian_kde",),
    ),
    Request("Wilcoxon test two independent samples", "terse", ("ranksums", "mannwhitneyu")),
    Request(
        "I need to replace each value in my array by its rank, averaging the tied values.",
        "sentence",
        ("rankdata",),
    ),
    Request(
        "Johnson unbounded translation family: normal after an inverse hyperbolic sine transform",
        "jargon",
        ("johnsonsu",),
    ),
    Request(
        "check whether two groups of measurements are equally spread out without "
        "assuming a bell curve",
        "layman",
        ("ansari", "mood", "fligner", "levene"),
    ),
    Request(
        "distrbution of the magnitude of a constant 2-D vector plus gaussian noize",
        "typos",
        ("rice",),
    ),
    Request("extreme value type III maxima", "terse", ("weibull_max",)),
    Request(
        "I need a distance between two 1-D samples computed from their average pairwise absolute "
        "differences.",
        "sentence",
        ("energy_distance",),
    ),
    Request("reflected gamma distribution symmetric about zero", "jargon", ("dgamma",)),
    Request(
        "make my lopsided numbers look more bell-shaped even though some of them are negative",
        "layman",
        ("yeojohnson",),
    ),
    Request(
        "value below which 90 percnt of my mesurements fall",
        "typos",
        ("quantile", "scoreatpercentile"),
    ),
)
