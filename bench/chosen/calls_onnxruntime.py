"""The calls of ``onnxruntime`` (rank 398, tuning, third walk).

Written from ONNX Runtime's documentation (onnxruntime.ai's Python API reference and the Python
inference guide: ``InferenceSession(path_or_bytes, sess_options=None, providers=None)``,
``providers=ort.get_available_providers()``, ``get_device()``, ``get_all_providers()``,
``set_default_logger_severity`` ("0:Verbose, 1:Info, 2:Warning, 3:Error, 4:Fatal"),
``set_seed``; the API reference's "Samples", ``onnxruntime.datasets.get_example("sigmoid.onnx")``;
``SessionOptions()`` with ``add_session_config_entry`` (the "Thread management" page's
``"session.intra_op.allow_spinning", "0"``), ``get_session_config_entry`` and
``add_free_dimension_override_by_name``), each answer computed by calling onnxruntime itself,
in JSON's terms (``None`` as null). Its functions are pybind11's, with their parameters named
``arg0``, ``arg1`` in their signatures: a model sends those names.

**Targets beyond the walk's** (the module ``onnxruntime``): the documented main use, running a
model (``InferenceSession(...).run(None, {name: array})``), is out of reach of every target:
``InferenceSession`` needs a model's path and answers an object whose text is its address, and
``run`` is a method of that object (``onnxruntime.backend``'s ``run_model`` needs ``onnx``,
which is not installed). So the calls add ``onnxruntime.datasets`` (``get_example``, the path
of a model the package ships) and the class ``onnxruntime:SessionOptions``, whose constructor
takes no arguments (its calls are made in order on one instance: the changing ones give
``UNCHECKED``, the later ones read it).

Withheld: ``register_execution_provider_library`` and ``preload_dlls`` (they load native
libraries from a path) and ``SessionOptions.register_custom_ops_library`` (the same).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

SPINNING = "session.intra_op.allow_spinning"


def _ort() -> Any:
    return importlib.import_module("onnxruntime")


def _options() -> Any:
    options = _ort().SessionOptions()
    options.add_session_config_entry(SPINNING, "0")
    return options


def _overridden() -> Any:
    options = _options()
    options.add_free_dimension_override_by_name("batch_size", 1)
    return options


TARGETS: tuple[Target, ...] = (
    Target(
        "onnxruntime",
        (
            Call("get_available_providers", {}, lambda: _ort().get_available_providers()),
            Call("get_device", {}, lambda: _ort().get_device()),
            Call("get_all_providers", {}, lambda: _ort().get_all_providers()),
            Call("get_version_string", {}, lambda: _ort().get_version_string()),
            Call(
                "set_default_logger_severity",
                {"arg0": 3},
                lambda: _ort().set_default_logger_severity(3),
            ),
            Call("set_seed", {"arg0": 42}, lambda: _ort().set_seed(42)),
        ),
        withheld=("register_execution_provider_library", "preload_dlls"),
    ),
    Target(
        "onnxruntime.datasets",
        (
            Call(
                "get_example",
                {"name": "sigmoid.onnx"},
                lambda: importlib.import_module("onnxruntime.datasets").get_example("sigmoid.onnx"),
            ),
        ),
    ),
    Target(
        "onnxruntime:SessionOptions",
        (
            Call("add_session_config_entry", {"arg0": SPINNING, "arg1": "0"}, lambda: UNCHECKED),
            Call(
                "get_session_config_entry",
                {"arg0": SPINNING},
                lambda: _options().get_session_config_entry(SPINNING),
            ),
            Call(
                "add_free_dimension_override_by_name",
                {"arg0": "batch_size", "arg1": 1},
                lambda: UNCHECKED,
            ),
            Call("has_providers", {}, lambda: _overridden().has_providers()),
        ),
        withheld=("register_custom_ops_library",),
    ),
)
