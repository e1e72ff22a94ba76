"""The calls of ``safetensors`` (rank 393, tuning, third walk).

Written from safetensors' documentation (its README on PyPI, "Usage", "Numpy": ``save_file``
of a dict of arrays, ``load_file`` back; the docstrings of ``safetensors.numpy``'s ``save``
("Saves a dictionary of tensors into raw bytes in safetensors format", with ``metadata``, "text
only metadata ... in your header"), ``load`` ("Loads a safetensors file into numpy format from
pure bytes"), ``save_file`` and ``load_file``), each answer computed by calling safetensors
itself, in JSON's terms: an array as its nested list (a model sends a tensor as the nested list
of its numbers), raw bytes as base64 (the safetensors bytes of float tensors are not ASCII), a
dict of arrays as the dict of their lists, ``None`` as null. A model sends the bytes ``load``
takes back as it got them from ``save``, base64 (``SAVED`` is ``save`` of ``WEIGHTS``).

The target is the walk's, the module ``safetensors.numpy``. ``save_file`` writes one file in
the temporary directory, ``MODEL_FILE``, which ``load_file`` then reads; its answer is
computed by the same two calls on a file of its own.
"""

from __future__ import annotations

import base64
import importlib
import os
import tempfile
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

MODEL_FILE = "/tmp/objmcp-calls-safetensors.safetensors"
WEIGHTS = {"embedding": [[1.5, -2.0], [0.25, 3.0]]}
LAYERS = {"weight": [[0.5, -1.5, 2.5], [1.25, 0.75, -0.5]], "bias": [0.1, -0.2, 0.3]}
METADATA = {"format": "np", "model": "tiny"}
COUNTS = {"counts": [1, 2, 3, 4], "scale": [[0.5, 1.5]]}


def _st() -> Any:
    return importlib.import_module("safetensors.numpy")


def _arrays(tensors: dict[str, Any]) -> dict[str, Any]:
    numpy = importlib.import_module("numpy")
    return {name: numpy.array(values) for name, values in tensors.items()}


def _save(tensors: dict[str, Any], metadata: dict[str, str] | None = None) -> str:
    data: bytes = _st().save(_arrays(tensors), metadata=metadata)
    return base64.b64encode(data).decode("ascii")


SAVED = (
    "SAAAAAAAAAB7ImVtYmVkZGluZyI6eyJkdHlwZSI6IkY2NCIsInNoYXBlIjpbMiwyXSwiZGF0YV9vZmZzZXRzIjpb"
    "MCwzMl19fSAgICAgICAAAAAAAAD4PwAAAAAAAADAAAAAAAAA0D8AAAAAAAAIQA=="
)


def _load() -> Any:
    return expected_json(_st().load(base64.b64decode(SAVED)))


def _round_trip() -> Any:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.safetensors")
        _st().save_file(_arrays(COUNTS), path)
        return expected_json(_st().load_file(path))


TARGETS: tuple[Target, ...] = (
    Target(
        "safetensors.numpy",
        (
            Call("save", {"tensor_dict": WEIGHTS}, lambda: _save(WEIGHTS)),
            Call(
                "save",
                {"tensor_dict": LAYERS, "metadata": METADATA},
                lambda: _save(LAYERS, METADATA),
            ),
            Call("load", {"data": SAVED}, _load),
            Call(
                "save_file",
                {"tensor_dict": COUNTS, "filename": MODEL_FILE},
                lambda: None,
            ),
            Call("load_file", {"filename": MODEL_FILE}, _round_trip),
        ),
    ),
)
