"""The search benchmark's requests for ``sympy``: written from its documentation (the
docstrings of the sampled functions and classes, and of ``lcm``, ``lcm_list``,
``apart_list``, ``ComplexField``, ``Segment2D``, ``field`` and ``powsimp``; the SymPy
reference pages on polys, matrices, geometry and printing), before any search was run on
them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "sympy"

REQUESTS: tuple[Request, ...] = (
    Request("simplify block matrix product", "terse", ("block_collapse",)),
    Request(
        "I need the least common multiple of several integers such as 4, 6 and 15.",
        "sentence",
        ("ilcm", "lcm", "lcm_list"),
    ),
    Request(
        "z-bar of a symbolic complex expression, mapping a + ib to a - ib",
        "jargon",
        ("conjugate",),
    ),
    Request(
        "a square grid with the same value all down the diagonal and ones just right of it",
        "layman",
        ("jordan_cell",),
    ),
    Request(
        "combne the exponents of a power raised to a powr, (x**a)**b into x**(a*b)",
        "typos",
        ("powdenest",),
    ),
    Request("str output with quoted strings", "terse", ("sstrrepr",)),
    Request(
        "I want to build a rational function field from expressions, with its generators and "
        "domain worked out automatically.",
        "sentence",
        ("sfield",),
    ),
    Request(
        "verify a closed-form solution satisfies a partial differential equation by "
        "back-substitution",
        "jargon",
        ("checkpdesol",),
    ),
    Request(
        "list the smallest building blocks that multiply together to give my formula, and how "
        "often each repeats",
        "layman",
        ("factor_list",),
    ),
    Request(
        "partial fracton decompostion of a rational function",
        "typos",
        ("apart", "apart_list"),
    ),
    Request("Pade rational approximation of series", "terse", ("approximants",)),
    Request(
        "I want to integrate a scalar field along a parametric curve.",
        "sentence",
        ("line_integrate",),
    ),
    Request(
        "second-kind orthogonal polynomials U_n(x) with weight sqrt(1 - x^2) on [-1, 1]",
        "jargon",
        ("chebyshevu_poly",),
    ),
    Request(
        "a straight piece between two dots on a drawing, with its length and where its middle is",
        "layman",
        ("Segment", "Segment2D"),
    ),
    Request(
        "domain of complex floating point numbres with a given precison",
        "typos",
        ("CC", "ComplexField"),
    ),
)
