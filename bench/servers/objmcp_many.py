"""An object with ``$BENCH_METHODS`` methods (``add0`` ... ``addN``), each
``add(a: int, b: int) -> int``, served over stdio by objmcp: the scaling curve's server."""

from __future__ import annotations

import os
from typing import Any

import objmcp


def _adder(number: int) -> Any:
    def add(self: object, a: int, b: int) -> int:
        return a + b

    add.__name__ = add.__qualname__ = f"add{number}"
    add.__doc__ = f"Add two integers (method {number})."
    return add


def many(count: int) -> object:
    """An instance of a class with ``count`` add methods."""
    methods = {f"add{n}": _adder(n) for n in range(count)}
    return type("Many", (), {"__doc__": f"{count} adders.", **methods})()


if __name__ == "__main__":
    # every method listed: the curve measures the size of tools/list, not the search tools
    objmcp.start(
        "many",
        many(int(os.environ.get("BENCH_METHODS", "10"))),
        discovery=objmcp.Discovery(mode="off"),
    )
