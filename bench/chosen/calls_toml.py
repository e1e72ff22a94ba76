"""The calls of ``toml`` (rank 213, held-out, second walk).

Written from toml's documentation (its README on PyPI: "Quick Tutorial" with ``toml.loads`` of
the TOML example and ``toml.dumps`` of the parsed dictionary, and the "API Reference":
``loads(s, _dict=dict)``, ``dumps(o, encoder=None)``), each answer computed by calling toml
itself, in JSON's terms (a TOML date or date-time as its ISO text). The dictionaries ``dumps``
takes are the non-string values.

``load`` and ``dump`` are left out: they read a file the caller has, or write to an open file
object, which JSON cannot carry.
"""

from __future__ import annotations

import datetime
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

EXAMPLE = """# This is a TOML document.

title = "TOML Example"

[owner]
name = "Tom Preston-Werner"
dob = 1979-05-27T07:32:00-08:00 # First class dates

[database]
server = "192.168.1.1"
ports = [ 8001, 8001, 8002 ]
connection_max = 5000
enabled = true
"""
PRODUCTS = """[[products]]
name = "Hammer"
sku = 738594937

[[products]]
name = "Nail"
sku = 284758393
color = "gray"
"""
DATABASE = {
    "title": "TOML Example",
    "database": {
        "server": "192.168.1.1",
        "ports": [8001, 8001, 8002],
        "connection_max": 5000,
        "enabled": True,
    },
}
SERVERS = {
    "clients": {"data": [["gamma", "delta"], [1, 2]], "hosts": ["alpha", "omega"]},
    "servers": {
        "alpha": {"ip": "10.0.0.1", "dc": "eqdc10"},
        "beta": {"ip": "10.0.0.2", "dc": "eqdc10"},
    },
}


def _toml() -> Any:
    return importlib.import_module("toml")


def _json(value: Any) -> Any:
    """``value`` with its dates and date-times as ISO text."""
    if isinstance(value, dict):
        return {key: _json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json(item) for item in value]
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return value


TARGETS: tuple[Target, ...] = (
    Target(
        "toml",
        (
            Call("loads", {"s": EXAMPLE}, lambda: _json(_toml().loads(EXAMPLE))),
            Call("loads", {"s": PRODUCTS}, lambda: _json(_toml().loads(PRODUCTS))),
            Call(
                "loads",
                {"s": "pi = 3.14\nwhen = 1979-05-27\n"},
                lambda: _json(_toml().loads("pi = 3.14\nwhen = 1979-05-27\n")),
            ),
            Call("dumps", {"o": DATABASE}, lambda: _toml().dumps(DATABASE)),
            Call("dumps", {"o": SERVERS}, lambda: _toml().dumps(SERVERS)),
        ),
    ),
)
