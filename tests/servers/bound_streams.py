"""A module served whole whose functions write their answer to a stream they kept when the
module was imported, as many libraries do (``outstream=sys.stdout`` as a default, a
module's ``_out = sys.stdout``, ``from sys import stdout``), and return None. For
tests/serving/test_bound_streams.py.
"""

from __future__ import annotations

import sys
from sys import stdout
from typing import TextIO

_out = sys.stdout
print("bound_streams: imported")  # on stdio, before serving began: it must reach stderr


def write_default(text: str, out: TextIO = sys.stdout) -> None:
    """Write ``text`` to ``out``: stdout as it was when this module was imported."""
    out.write(text)


def write_kept(text: str) -> None:
    """Write ``text`` to the stream the module kept as ``_out`` when it was imported."""
    _out.write(text)
    _out.flush()


def print_to_imported(text: str) -> None:
    """Print ``text`` to ``stdout`` as ``from sys import stdout`` took it."""
    print(text, file=stdout)


def write_beside(text: str) -> str:
    """Write some noise to the kept stream, and return ``text``: the return value is the
    answer."""
    _out.write("noise from write_beside\n")
    return text
