"""The calls of ``dill`` (rank 188, tuning).

Written from dill's documentation (its README / "dill module documentation": ``dumps``/
``loads``, ``copy`` as ``loads(dumps(obj))``, ``pickles`` to check an object serialises), each
answer computed by calling dill itself, in JSON's terms. ``dumps`` answers bytes, which have no
JSON form, so it has no call here. Withheld: what unpickles (``load``, ``loads``,
``load_session``, ``load_module``, ``load_module_asdict``), what writes files (``dump``,
``dump_session``, ``dump_module``) and ``check``, which runs a Python process.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``citation`` (it
prints its answer: the printed text), ``dumps`` (raw bytes as base64, as for bcrypt's keys) and
``extend`` (``use_dill``), the first three functions not called.
"""

from __future__ import annotations

import base64
import contextlib
import importlib
import io
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

RECORD = {"name": "sensor", "values": [1.5, 2.5], "ok": True}


def _dill() -> Any:
    return importlib.import_module("dill")


def _printed() -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        _dill().citation()
    return printed.getvalue()


def _pickled() -> str:
    return base64.b64encode(_dill().dumps([1, 2, 3], protocol=4)).decode("ascii")


TARGETS: tuple[Target, ...] = (
    Target(
        "dill",
        (
            Call("pickles", {"obj": [1, 2, 3]}, lambda: _dill().pickles([1, 2, 3])),
            Call(
                "pickles",
                {"obj": RECORD, "exact": True},
                lambda: _dill().pickles(RECORD, exact=True),
            ),
            Call("copy", {"obj": RECORD}, lambda: _dill().copy(RECORD)),
            Call(
                "copy", {"obj": [1, "two", 3.0, None]}, lambda: _dill().copy([1, "two", 3.0, None])
            ),
            Call("citation", {}, _printed),
            Call("dumps", {"obj": [1, 2, 3], "protocol": 4}, _pickled),
            Call("extend", {"use_dill": False}, lambda: _dill().extend(use_dill=False)),
        ),
        withheld=(
            "load",
            "loads",
            "load_session",
            "load_module",
            "load_module_asdict",
            "dump",
            "dump_session",
            "dump_module",
            "check",
        ),
    ),
)
