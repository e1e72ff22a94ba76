"""Parameters hinted with numpy's array classes, and a union with ``Any``: a module served
whole by ``tests/model/test_array_hints.py`` (numpy is in the test environment)."""

from __future__ import annotations

import datetime
import decimal
import fractions
from typing import Any, Union

import numpy
import numpy.typing as npt


def save(tensors: dict[str, numpy.ndarray]) -> dict[str, str]:
    """Describe each named array: its class, dtype kind, shape and items."""
    return {
        name: f"{type(array).__name__} {array.dtype.kind} {list(array.shape)} {array.tolist()}"
        for name, array in tensors.items()
    }


def mean(values: npt.NDArray[numpy.float64]) -> str:
    """The dtype of the array and the mean of its values."""
    return f"{values.dtype} {float(values.mean())}"


def flat(values: npt.ArrayLike) -> list[Any]:
    """The values, flattened in row order."""
    return list(numpy.ravel(values).tolist())


def set_property(
    name: str,
    value: Union[bool, datetime.datetime, float, decimal.Decimal, fractions.Fraction, Any],  # noqa: UP007
) -> str:
    """The class of the value a property is set to, and the value."""
    return f"{name}: {type(value).__name__} {value!r}"


def kinds(values: npt.NDArray[numpy.object_]) -> str:
    """The dtype of the array and the classes of its items."""
    return f"{values.dtype} {[type(item).__name__ for item in values.tolist()]}"


def dates(values: npt.NDArray[numpy.datetime64]) -> str:
    """The dtype of the array and its items as text."""
    return f"{values.dtype} {[str(item) for item in values]}"
