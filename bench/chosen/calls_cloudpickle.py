"""The calls of ``cloudpickle`` (rank 274, held-out, second walk).

Written from cloudpickle's documentation (its README on PyPI, "Examples":
``cloudpickle.dumps(obj)``, loaded back with ``pickle.loads``; ``dumps(obj, protocol=None)``'s
docstring: "Serialize obj as a string of bytes allocated in memory", the protocol "defaults to
cloudpickle.DEFAULT_PROTOCOL"), each answer computed by calling cloudpickle itself. ``dumps``
answers ``bytes``: raw bytes as base64, and ASCII bytes (protocol 0's pickles) as their text.

The README's examples pickle a lambda or a function of the caller's session, which JSON cannot
carry; a model sends the values it has (a list, an object, a text). ``register_pickle_by_value``
and ``unregister_pickle_by_value`` take a module object, which JSON cannot carry either, so they
are not called. Withheld: ``loads`` and ``load`` (they unpickle, which runs arbitrary code: the
README's "Security notice") and ``dump`` (it writes to a file).
"""

from __future__ import annotations

import base64
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

RECORD = {"name": "sensor", "values": [1.5, 2.5], "ok": True}


def _dumps(obj: Any, protocol: int | None = None) -> str:
    pickled: bytes = importlib.import_module("cloudpickle").dumps(obj, protocol=protocol)
    if pickled.isascii():
        return pickled.decode("ascii")
    return base64.b64encode(pickled).decode("ascii")


TARGETS: tuple[Target, ...] = (
    Target(
        "cloudpickle",
        (
            Call("dumps", {"obj": [1, 2, 3]}, lambda: _dumps([1, 2, 3])),
            Call("dumps", {"obj": RECORD, "protocol": 4}, lambda: _dumps(RECORD, 4)),
            Call("dumps", {"obj": [1, 2, 3], "protocol": 0}, lambda: _dumps([1, 2, 3], 0)),
            Call("dumps", {"obj": "lambda x: x ** 2"}, lambda: _dumps("lambda x: x ** 2")),
        ),
        withheld=("loads", "load", "dump"),
    ),
)
