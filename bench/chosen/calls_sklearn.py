"""The calls of ``scikit-learn`` (rank 179, held-out).

Written from scikit-learn's documentation (the User Guide's "Metrics and scoring" and
"Preprocessing data" pages and their API reference: ``accuracy_score``, ``f1_score``,
``confusion_matrix``, ``mean_squared_error``, ``r2_score``; ``scale``, ``minmax_scale``,
``normalize``, ``label_binarize``), each answer computed by calling scikit-learn itself, in
JSON's terms (an array as its list, a numpy number as a number).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

Y_TRUE = [0, 1, 1, 0, 1, 1]
Y_PRED = [0, 1, 0, 0, 1, 1]
X = [[1.0, -1.0, 2.0], [2.0, 0.0, 0.0], [0.0, 1.0, -1.0]]


def _metrics() -> Any:
    return importlib.import_module("sklearn.metrics")


def _preprocessing() -> Any:
    return importlib.import_module("sklearn.preprocessing")


TARGETS: tuple[Target, ...] = (
    Target(
        "sklearn.metrics",
        (
            Call(
                "accuracy_score",
                {"y_true": Y_TRUE, "y_pred": Y_PRED},
                lambda: expected_json(_metrics().accuracy_score(Y_TRUE, Y_PRED)),
            ),
            Call(
                "f1_score",
                {"y_true": Y_TRUE, "y_pred": Y_PRED},
                lambda: expected_json(_metrics().f1_score(Y_TRUE, Y_PRED)),
            ),
            Call(
                "confusion_matrix",
                {"y_true": Y_TRUE, "y_pred": Y_PRED},
                lambda: expected_json(_metrics().confusion_matrix(Y_TRUE, Y_PRED)),
            ),
            Call(
                "mean_squared_error",
                {"y_true": [3, -0.5, 2, 7], "y_pred": [2.5, 0.0, 2, 8]},
                lambda: expected_json(
                    _metrics().mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
                ),
            ),
            Call(
                "r2_score",
                {"y_true": [3, -0.5, 2, 7], "y_pred": [2.5, 0.0, 2, 8]},
                lambda: expected_json(_metrics().r2_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])),
            ),
        ),
    ),
    Target(
        "sklearn.preprocessing",
        (
            Call("scale", {"X": X}, lambda: expected_json(_preprocessing().scale(X))),
            Call(
                "minmax_scale",
                {"X": [1, 5, 9], "feature_range": [0, 10]},
                lambda: expected_json(
                    _preprocessing().minmax_scale([1, 5, 9], feature_range=(0, 10))
                ),
            ),
            Call(
                "normalize",
                {"X": X, "norm": "l1"},
                lambda: expected_json(_preprocessing().normalize(X, norm="l1")),
            ),
            Call(
                "label_binarize",
                {"y": [1, 6], "classes": [1, 2, 4, 6]},
                lambda: expected_json(
                    _preprocessing().label_binarize([1, 6], classes=[1, 2, 4, 6])
                ),
            ),
        ),
    ),
)
