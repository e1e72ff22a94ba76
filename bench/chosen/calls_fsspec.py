"""The calls of ``fsspec`` (rank 33, tuning).

Written from fsspec's documentation (the "Usage" page and the API reference of
``AbstractFileSystem``: ``makedirs``, ``write_text``, ``read_text``, ``ls``, ``find``, ``glob``,
``du``, ``sizes``), made to the in-memory filesystem the walk chose, each answer computed by
calling fsspec itself. The calls are made in order on one served ``MemoryFileSystem()``: the
writing ones are ``UNCHECKED``, the reading ones are computed by replaying the writes on an
emptied memory store (all ``MemoryFileSystem`` instances share one store).

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``cat``
(``recursive``: a mapping of path to content), ``cat_file`` (``start``/``end``) and
``cat_ranges`` (lists), the first three methods not called; their ``bytes`` (ASCII text here) as
their text.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

WRITES: tuple[tuple[str, str], ...] = (
    ("/data/a.txt", "hello"),
    ("/data/b.txt", "world!!"),
    ("/data/sub/c.csv", "x,y\n1,2\n"),
)


def _filled() -> Any:
    """A memory filesystem holding only what the writing calls below write."""
    memory = importlib.import_module("fsspec.implementations.memory").MemoryFileSystem
    memory.store.clear()
    memory.pseudo_dirs[:] = [""]
    fs = memory()
    fs.makedirs("/data/sub", exist_ok=True)
    for path, text in WRITES:
        fs.write_text(path, text)
    return fs


TARGETS: tuple[Target, ...] = (
    Target(
        "fsspec.implementations.memory:MemoryFileSystem",
        (
            Call("makedirs", {"path": "/data/sub", "exist_ok": True}, lambda: UNCHECKED),
            *(
                Call("write_text", {"path": path, "value": text}, lambda: UNCHECKED)
                for path, text in WRITES
            ),
            Call(
                "ls",
                {"path": "/data", "detail": False},
                lambda: _filled().ls("/data", detail=False),
            ),
            Call("read_text", {"path": "/data/b.txt"}, lambda: _filled().read_text("/data/b.txt")),
            Call("find", {"path": "/", "maxdepth": 2}, lambda: _filled().find("/", maxdepth=2)),
            Call("glob", {"path": "/data/**/*.csv"}, lambda: _filled().glob("/data/**/*.csv")),
            Call("du", {"path": "/data"}, lambda: _filled().du("/data")),
            Call(
                "sizes",
                {"paths": ["/data/a.txt", "/data/sub/c.csv"]},
                lambda: _filled().sizes(["/data/a.txt", "/data/sub/c.csv"]),
            ),
            Call(
                "cat",
                {"path": "/data", "recursive": True, "on_error": "omit"},
                lambda: {
                    path: data.decode()
                    for path, data in _filled()
                    .cat("/data", recursive=True, on_error="omit")
                    .items()
                },
            ),
            Call(
                "cat_file",
                {"path": "/data/b.txt", "start": 1, "end": 4},
                lambda: _filled().cat_file("/data/b.txt", start=1, end=4).decode(),
            ),
            Call(
                "cat_ranges",
                {"paths": ["/data/a.txt", "/data/b.txt"], "starts": [0, 0], "ends": [2, 5]},
                lambda: [
                    data.decode()
                    for data in _filled().cat_ranges(["/data/a.txt", "/data/b.txt"], [0, 0], [2, 5])
                ],
            ),
        ),
    ),
)
