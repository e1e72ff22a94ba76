"""The search benchmark's requests for ``mpmath``: written from its documentation (the docstrings
of the sampled functions and of ``extraprec``, ``workdps``, ``workprec``, ``svd``, ``svd_r``,
``nprint``, ``qr_solve`` and ``cholesky``; the mpmath reference manual's pages on precision,
linear algebra and special functions known), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "mpmath"

REQUESTS: tuple[Request, ...] = (
    Request("near-minimax polynomial approximation interval", "terse", ("chebyfit",)),
    Request(
        "I want to run a block of code with 10 more decimal digits of working precision, then"
        " restore it.",
        "sentence",
        ("extradps",),
    ),
    Request("real part of the Kelvin function of the second kind", "jargon", ("ker",)),
    Request(
        "fastest way to find the unknowns when my grid of numbers mirrors itself across the"
        " diagonal",
        "layman",
        ("cholesky_solve",),
    ),
    Request("covert a complex number to its magnitude and angel", "typos", ("polar",)),
    Request("particular solution inhomogeneous Airy equation", "terse", ("scorergi", "scorerhi")),
    Request(
        "I need a matrix whose matrix exponential equals my given square matrix.",
        "sentence",
        ("logm",),
    ),
    Request(
        "factor a complex matrix as U Sigma V^H with unitary U and V",
        "jargon",
        ("svd_c", "svd"),
    ),
    Request(
        "total area under the curve e to the t squared, from zero up to my number",
        "layman",
        ("erfi",),
    ),
    Request(
        "format a high-precison number as a string with only 5 signifcant digits",
        "typos",
        ("nstr",),
    ),
    Request("triangular factorization with row pivoting", "terse", ("lu",)),
    Request(
        "I want to solve the square linear system A x = b by Gaussian elimination with pivoting.",
        "sentence",
        ("lu_solve",),
    ),
    Request(
        "ramp waveform with given amplitude and period, the fractional part of t over T",
        "jargon",
        ("sawtoothw",),
    ),
    Request(
        "add up cos(k*x) divided by k to the power s, over every whole number k",
        "layman",
        ("clcos",),
    ),
    Request(
        "compute (1/pi) times the integral of sin(nu*t - z*sin t) from 0 to pi, inhomogenous Besel"
        " solution",
        "typos",
        ("webere",),
    ),
)
