"""The calls of ``matplotlib`` (rank 169, held-out).

Written from Matplotlib's documentation (the ``matplotlib.colors`` API page: ``to_hex``,
``to_rgba``, ``to_rgb``, ``is_color_like``, ``same_color``, ``rgb_to_hsv``, ``hsv_to_rgb``;
the pyplot quick start: ``figure``, ``bar``, ``title``, ``xlabel``, ``ylim``, ``hist``), each
answer computed by calling Matplotlib itself, in JSON's terms: tuples and arrays as lists, an
artist (``Figure``, ``Text``, a ``BarContainer``) as its ``str``. The pyplot calls build one
figure in order, so each answer replays the calls before it on a fresh figure (Agg backend,
no display).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

SAMPLES = [1, 2, 2, 3, 3, 3, 4]


def _colors() -> Any:
    return importlib.import_module("matplotlib.colors")


def _pyplot() -> Any:
    importlib.import_module("matplotlib").use("Agg")
    return importlib.import_module("matplotlib.pyplot")


STEPS: tuple[Callable[[Any], Any], ...] = (
    lambda plt: str(plt.figure(figsize=[4, 3])),
    lambda plt: str(plt.bar(["north", "south", "east"], [3, 5, 2])),
    lambda plt: str(plt.title("Sales by region")),
    lambda plt: str(plt.xlabel("Region")),
    lambda plt: expected_json(plt.ylim(bottom=0, top=10)),
    lambda plt: _hist(plt.hist(SAMPLES, bins=3)),
)


def _hist(result: Any) -> Any:
    counts, edges, patches = result
    return [counts.tolist(), edges.tolist(), str(patches)]


def _replay(count: int) -> Any:
    """The answer of the last of the first ``count`` pyplot calls, made on a fresh figure."""
    plt = _pyplot()
    plt.close("all")
    answer: Any = None
    for step in STEPS[:count]:
        answer = step(plt)
    plt.close("all")
    return answer


TARGETS: tuple[Target, ...] = (
    Target(
        "matplotlib.colors",
        (
            Call("to_hex", {"c": [1, 0.5, 0]}, lambda: _colors().to_hex([1, 0.5, 0])),
            Call(
                "to_rgba",
                {"c": "tab:blue", "alpha": 0.5},
                lambda: expected_json(_colors().to_rgba("tab:blue", alpha=0.5)),
            ),
            Call("to_rgb", {"c": "#ff8000"}, lambda: expected_json(_colors().to_rgb("#ff8000"))),
            Call("is_color_like", {"c": "notacolor"}, lambda: _colors().is_color_like("notacolor")),
            Call(
                "same_color",
                {"c1": "red", "c2": "#ff0000"},
                lambda: bool(_colors().same_color("red", "#ff0000")),
            ),
            Call(
                "rgb_to_hsv",
                {"arr": [1, 0.5, 0]},
                lambda: _colors().rgb_to_hsv([1, 0.5, 0]).tolist(),
            ),
            Call(
                "hsv_to_rgb",
                {"hsv": [0.5, 1, 1]},
                lambda: _colors().hsv_to_rgb([0.5, 1, 1]).tolist(),
            ),
        ),
    ),
    Target(
        "matplotlib.pyplot",
        (
            Call("figure", {"figsize": [4, 3]}, lambda: _replay(1)),
            Call(
                "bar",
                {"x": ["north", "south", "east"], "height": [3, 5, 2]},
                lambda: _replay(2),
            ),
            Call("title", {"label": "Sales by region"}, lambda: _replay(3)),
            Call("xlabel", {"xlabel": "Region"}, lambda: _replay(4)),
            Call("ylim", {"bottom": 0, "top": 10}, lambda: _replay(5)),
            Call("hist", {"x": SAMPLES, "bins": 3}, lambda: _replay(6)),
        ),
    ),
)
