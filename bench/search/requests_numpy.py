"""The search benchmark's requests for ``numpy``: written from its documentation (the
docstrings of the 15 sampled tools and of their neighbours ``asmatrix``, ``bmat``, ``place``,
``copyto``, ``iscomplexobj`` and ``isdtype``, read with ``inspect.getdoc``, and the NumPy
reference pages), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "numpy"

REQUESTS: tuple[Request, ...] = (
    Request("8-bit unsigned integer dtype", "terse", ("ubyte", "uint8")),
    Request(
        "I need the positions of my values ranked smallest to largest, to reorder another array.",
        "sentence",
        ("argsort",),
    ),
    Request(
        "test whether a dtype is under an abstract scalar type like np.floating in the type tree",
        "jargon",
        ("issubdtype",),
    ),
    Request(
        "store whole numbers, positive or negative, at the computer's usual default size",
        "layman",
        ("int_", "int64", "intp", "long"),
    ),
    Request(
        "make a 2d aray object from the string '1 2; 3 4' where * multipies rows by columns",
        "typos",
        ("matrix", "asmatrix", "bmat"),
    ),
    Request("convert to array, keep subclasses", "terse", ("asanyarray",)),
    Request(
        "I want to check whether my array is laid out in column-major order in memory.",
        "sentence",
        ("isfortran",),
    ),
    Request(
        "in-place boolean-mask assignment taking replacement values from matching positions",
        "jargon",
        ("putmask", "copyto"),
    ),
    Request(
        "open a huge data file bigger than my computer's memory and edit parts of it as if loaded",
        "layman",
        ("memmap",),
    ),
    Request("get the quotent and remainder of two arays in one go", "typos", ("divmod",)),
    Request("array dtype not complex check", "terse", ("isrealobj",)),
    Request(
        "For each distinct value in my array I want its count, first index and inverse indices.",
        "sentence",
        ("unique_all", "unique"),
    ),
    Request(
        "element-wise inverse hyperbolic sine (area hyperbolic sine)",
        "jargon",
        ("asinh", "arcsinh"),
    ),
    Request(
        "do all my computed results match the expected ones, give or take tiny rounding, yes or no",
        "layman",
        ("allclose",),
    ),
    Request(
        "multiply every element of one vectr by every element of anothr to get a table",
        "typos",
        ("outer",),
    ),
)
