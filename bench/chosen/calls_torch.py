"""The calls of ``torch`` (rank 330, held-out, third walk).

Written from PyTorch's documentation (the "Tensors" page of "Learn the Basics",
pytorch.org/tutorials/beginner/basics/tensor_tutorial.html: ``torch.tensor(data)`` from
``[[1, 2], [3, 4]]``, ``torch.ones``/``torch.zeros`` of a shape, ``torch.cat`` along a
``dim``, ``matmul``; the ``torch.Tensor`` page, docs.pytorch.org/docs/stable/tensors.html:
``torch.zeros([2, 4])``; the "Creation Ops" and "Reduction Ops" of the ``torch`` page:
``arange``, ``linspace``, ``eye``, ``sum`` over a ``dim``), each answer computed by calling
torch itself. A tensor is sent as the nested list a model writes for it (``input``,
``other``, ``tensors``) and answers as its ``tolist()``; ``zeros``' variadic ``size`` as a
list, as the docs' ``torch.zeros([2, 4])``. Parameter names are those of the docstrings'
signatures (``tensor(data, ...)``, ``matmul(input, other, ...)``, ``cat(tensors, dim=0, ...)``).

Withheld: ``load`` (unpickles a file), ``save`` and ``from_file`` (write and map files),
``compile`` (compiles and runs code).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

SQUARE = [[1, 2], [3, 4]]
OTHER = [[5, 6], [7, 8]]
ROWS = [[1, 2, 3], [4, 5, 6]]


def _torch() -> Any:
    return importlib.import_module("torch")


def _list(function: str, *arguments: Any, **options: Any) -> Any:
    result: Any = getattr(_torch(), function)(*arguments, **options).tolist()
    return result


def _t(data: Any) -> Any:
    return _torch().tensor(data)


TARGETS: tuple[Target, ...] = (
    Target(
        "torch",
        (
            Call("tensor", {"data": SQUARE}, lambda: _list("tensor", SQUARE)),
            Call("zeros", {"size": [2, 3]}, lambda: _list("zeros", [2, 3])),
            Call(
                "arange",
                {"start": 0, "end": 10, "step": 2},
                lambda: _list("arange", 0, 10, 2),
            ),
            Call(
                "linspace",
                {"start": 0, "end": 1, "steps": 5},
                lambda: _list("linspace", 0, 1, 5),
            ),
            Call(
                "matmul",
                {"input": SQUARE, "other": OTHER},
                lambda: _list("matmul", _t(SQUARE), _t(OTHER)),
            ),
            Call("sum", {"input": ROWS, "dim": 0}, lambda: _list("sum", _t(ROWS), dim=0)),
            Call(
                "cat",
                {"tensors": [[[1, 2]], [[3, 4]]], "dim": 0},
                lambda: _list("cat", (_t([[1, 2]]), _t([[3, 4]])), dim=0),
            ),
            Call("eye", {"n": 3}, lambda: _list("eye", 3)),
        ),
        withheld=("load", "save", "from_file", "compile"),
    ),
)
