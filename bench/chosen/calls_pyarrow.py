"""The calls of ``pyarrow`` (rank 90, tuning).

Written from Apache Arrow's Python documentation (the "Compute Functions" user guide:
``pc.sum``, ``pc.min_max``, ``pc.value_counts``, ``pc.is_in``, arithmetic such as ``pc.add``
and ``pc.round``, string functions such as ``pc.utf8_upper``, temporal ones such as
``pc.year``; the API reference of ``pyarrow.compute``), each answer computed by calling pyarrow
itself. Its inputs are arrays (a model sends lists; a date as its ISO text), its answers Arrow
scalars and arrays: in JSON's terms their Python values (``as_py``, ``to_pylist``). ``is_in``
takes its ``value_set`` as an Arrow array (``pa.array``), as the docs make it.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``abs``,
``abs_checked`` and ``acos``, the first three functions of ``pyarrow.compute`` in ``dir()``
order.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]


def _pc(function: str, *arguments: Any, **options: Any) -> Any:
    answer = getattr(importlib.import_module("pyarrow.compute"), function)(*arguments, **options)
    return answer.to_pylist() if hasattr(answer, "to_pylist") else answer.as_py()


def _array(values: list[Any]) -> Any:
    return importlib.import_module("pyarrow").array(values)


def _dates(*texts: str) -> list[Any]:
    return [importlib.import_module("datetime").date.fromisoformat(text) for text in texts]


TARGETS: tuple[Target, ...] = (
    Target(
        "pyarrow.compute",
        (
            Call("sum", {"array": [1, 2, 3, 4]}, lambda: _pc("sum", [1, 2, 3, 4])),
            Call("mean", {"array": [1, 2, 3, 4]}, lambda: _pc("mean", [1, 2, 3, 4])),
            Call("min_max", {"array": [3, 1, 2]}, lambda: _pc("min_max", [3, 1, 2])),
            Call("add", {"x": [1, 2, 3], "y": 10}, lambda: _pc("add", [1, 2, 3], 10)),
            Call(
                "round",
                {"x": [1.234, 5.678], "ndigits": 1},
                lambda: _pc("round", [1.234, 5.678], ndigits=1),
            ),
            Call(
                "utf8_upper",
                {"strings": ["hello", "world"]},
                lambda: _pc("utf8_upper", ["hello", "world"]),
            ),
            Call(
                "is_in",
                {"values": ["a", "b", "c"], "value_set": ["a", "c"]},
                lambda: _pc("is_in", ["a", "b", "c"], value_set=_array(["a", "c"])),
            ),
            Call(
                "value_counts",
                {"array": ["a", "b", "a"]},
                lambda: _pc("value_counts", ["a", "b", "a"]),
            ),
            Call(
                "year",
                {"values": ["2024-01-05", "1999-12-31"]},
                lambda: _pc("year", _dates("2024-01-05", "1999-12-31")),
            ),
            Call("abs", {"x": [-1, 2, -3]}, lambda: _pc("abs", [-1, 2, -3])),
            Call("abs_checked", {"x": [-1.5, 2.0]}, lambda: _pc("abs_checked", [-1.5, 2.0])),
            Call("acos", {"x": [1.0, 0.0]}, lambda: _pc("acos", [1.0, 0.0])),
        ),
    ),
)
