"""The calls of ``contourpy`` (rank 192, held-out).

Written from ContourPy's documentation (the "API reference" and "Conversion and dechunking"
pages: ``convert_lines``, ``convert_filled``, ``dechunk_lines`` with the line and fill types
named by their text, ``"Separate"``, ``"OuterOffset"`` ...; ``max_threads``), each answer
computed by calling ContourPy itself: points as (n, 2) float64 arrays and offsets as uint32
arrays, as the "Line and fill types" page has them (a model sends lists), the answers (tuples
of lists of arrays) as their lists.

The documented main use, ``contour_generator(z=...)`` then the generator's ``lines(level)``
and ``filled(lower, upper)``, answers an object with no textual form but its address, and a
generator class needs its grid to be made: no call here makes one.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

LINES = [[[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]], [[0.0, 1.0], [1.0, 2.0]]]
SQUARE = [[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]]
CHUNK_POINTS = [[[0.0, 0.0], [1.0, 1.0]], [[2.0, 2.0], [3.0, 3.0]]]
CHUNK_OFFSETS = [[0, 2], [0, 2]]


def _m(name: str) -> Any:
    return importlib.import_module(name)


def _points(points: list[Any]) -> Any:
    return _m("numpy").array(points, dtype="float64")


def _offsets(offsets: list[int]) -> Any:
    return _m("numpy").array(offsets, dtype="uint32")


def _lines(to: str) -> Any:
    lines = [_points(line) for line in LINES]
    return expected_json(_m("contourpy").convert_lines(lines, "Separate", to))


def _filled() -> Any:
    filled = ([_points(SQUARE[0])], [_offsets([0, 4])])
    return expected_json(_m("contourpy").convert_filled(filled, "OuterOffset", "OuterCode"))


def _dechunked() -> Any:
    chunks = ([_points(chunk) for chunk in CHUNK_POINTS], [_offsets(o) for o in CHUNK_OFFSETS])
    return expected_json(_m("contourpy").dechunk_lines(chunks, "ChunkCombinedOffset"))


TARGETS: tuple[Target, ...] = (
    Target(
        "contourpy",
        (
            Call(
                "convert_lines",
                {"lines": LINES, "line_type_from": "Separate", "line_type_to": "SeparateCode"},
                lambda: _lines("SeparateCode"),
            ),
            Call(
                "convert_lines",
                {
                    "lines": LINES,
                    "line_type_from": "Separate",
                    "line_type_to": "ChunkCombinedOffset",
                },
                lambda: _lines("ChunkCombinedOffset"),
            ),
            Call(
                "convert_filled",
                {
                    "filled": [SQUARE, [[0, 4]]],
                    "fill_type_from": "OuterOffset",
                    "fill_type_to": "OuterCode",
                },
                _filled,
            ),
            Call(
                "dechunk_lines",
                {"lines": [CHUNK_POINTS, CHUNK_OFFSETS], "line_type": "ChunkCombinedOffset"},
                _dechunked,
            ),
            Call("max_threads", {}, lambda: _m("contourpy").max_threads()),
        ),
    ),
)
