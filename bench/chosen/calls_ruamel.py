"""The calls of ``ruamel.yaml`` (rank 201, tuning, second walk).

Written from ruamel.yaml's documentation (the "Basic Usage" page, yaml.dev/doc/ruamel.yaml/
basicuse: ``yaml = YAML()``, ``yaml.load(doc)`` where ``doc`` is a string, a file or a
``pathlib.Path``, and ``yaml.dump(data, s)`` where ``s`` is a file or a ``pathlib.Path``; the
``load_all``/``dump_all`` counterparts for multi-document streams), each answer computed by
calling a ``YAML()`` (round-trip, the default) itself, in JSON's terms: a loaded mapping or
sequence as its object or list, a date as its ISO text, ``dump``'s ``None`` as ``null``.

The target is the walk's, ``ruamel.yaml:YAML``: its constructor needs no argument. ``dump``
needs a stream (with none it raises "Need a stream argument"), so the dumps write to a file in
the temporary directory, the path the docs allow, sent as its text; the expects dump to a file
of their own and answer ``dump``'s ``None``.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import tempfile
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

PERSON = "name: Ada\nborn: 1815\nlanguages: [math, code]\n"
ANCHORED = "base: &b {x: 1, y: 2.5}\ncopy: *b\nwhen: 2024-01-05\nok: yes\n"
DOCUMENTS = "a: 1\n---\nb: [2, 3]\n"
DUMPED = {"name": "Ada", "tags": ["math", "code"], "born": 1815, "active": True}
DUMPED_ALL = [{"a": 1}, {"b": [2, 3.5, None]}]


def _yaml() -> Any:
    return importlib.import_module("ruamel.yaml").YAML()


def _json(value: Any) -> Any:
    """A loaded document in JSON's terms (dates as ISO text)."""
    return json.loads(json.dumps(value, default=lambda item: item.isoformat()))


def _dumped(method: str, data: Any) -> Any:
    with tempfile.TemporaryDirectory() as folder:
        return getattr(_yaml(), method)(data, pathlib.Path(folder) / "out.yaml")


TARGETS: tuple[Target, ...] = (
    Target(
        "ruamel.yaml:YAML",
        (
            Call("load", {"stream": PERSON}, lambda: _json(_yaml().load(PERSON))),
            Call("load", {"stream": ANCHORED}, lambda: _json(_yaml().load(ANCHORED))),
            Call(
                "load_all",
                {"stream": DOCUMENTS},
                lambda: _json(list(_yaml().load_all(DOCUMENTS))),
            ),
            Call(
                "dump",
                {"data": DUMPED, "stream": "/tmp/objmcp-calls-ruamel.yaml"},
                lambda: _dumped("dump", DUMPED),
            ),
            Call(
                "dump_all",
                {"documents": DUMPED_ALL, "stream": "/tmp/objmcp-calls-ruamel-all.yaml"},
                lambda: _dumped("dump_all", DUMPED_ALL),
            ),
        ),
    ),
)
