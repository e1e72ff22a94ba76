"""The calls of ``cfgv`` (rank 248, tuning, second walk).

Written from cfgv's documentation (its README on PyPI, the project's only docs: "API",
"Making a schema", "Equality helpers" and "Check functions"), each answer computed by calling
cfgv itself, in JSON's terms. The README leads with ``validate``, ``apply_defaults`` and
``remove_defaults``, but their ``schema`` is a tree of cfgv objects (``Map`` of ``Required``
validators holding check functions) that JSON cannot carry, and ``load_from_filename`` takes a
load function too; so the calls are the README's check functions (each answers ``None``, JSON's
``null``, when the value passes) and the schema pieces a model can build from values: ``Map``,
``In`` and ``NoAdditionalKeys``. These are named tuples; their answer is given as the object of
their fields (a tuple field as a list), as ``calls_psutil.py`` gives psutil's named tuples.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]


def _cfgv() -> Any:
    return importlib.import_module("cfgv")


def _fields(name: str, *arguments: Any) -> Any:
    return expected_json(getattr(_cfgv(), name)(*arguments)._asdict())


TARGETS: tuple[Target, ...] = (
    Target(
        "cfgv",
        (
            Call("check_int", {"v": 42}, lambda: _cfgv().check_int(42)),
            Call("check_regex", {"v": "^[a-z_]+$"}, lambda: _cfgv().check_regex("^[a-z_]+$")),
            Call("check_bool", {"v": True}, lambda: _cfgv().check_bool(True)),
            Call(
                "Map",
                {"object_name": "Repo", "id_key": "url"},
                lambda: _fields("Map", "Repo", "url"),
            ),
            Call(
                "In",
                {"values": ["python", "ruby", "javascript"]},
                lambda: _fields("In", "python", "ruby", "javascript"),
            ),
            Call(
                "NoAdditionalKeys",
                {"keys": ["repo", "rev", "hooks"]},
                lambda: _fields("NoAdditionalKeys", ["repo", "rev", "hooks"]),
            ),
        ),
    ),
)
