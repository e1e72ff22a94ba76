"""The calls of ``fastjsonschema`` (rank 259, held-out, second walk).

Written from fastjsonschema's documentation (horejsek.github.io/python-fastjsonschema, which is
the package's docstring: "Usage" with the point schema; the API's ``validate(definition,
data)`` "for lazy programmers", ``compile``'s examples of the ``default`` keyword, of
``use_default=False`` and of custom ``formats`` given as regular expressions, and
``compile_to_code``), each answer computed by calling fastjsonschema itself. ``validate``
"always returns transformed input data" (defaults filled in). ``compile`` answers with a
function, which has no JSON form, so it is not called: ``validate`` is the docs' "same as
``compile(definition)(data)``".
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

POINT = {
    "type": "object",
    "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
    "required": ["x", "y"],
    "additionalProperties": False,
}
DEFAULTS = {"type": "object", "properties": {"a": {"type": "number", "default": 42}}}
TAGS = {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "maxItems": 3}
FOO = {"type": "string", "format": "foo"}


def _fjs() -> Any:
    return importlib.import_module("fastjsonschema")


TARGETS: tuple[Target, ...] = (
    Target(
        "fastjsonschema",
        (
            Call(
                "validate",
                {"definition": {"type": "string"}, "data": "hello"},
                lambda: _fjs().validate({"type": "string"}, "hello"),
            ),
            Call(
                "validate",
                {"definition": POINT, "data": {"x": 1.0, "y": 2.0}},
                lambda: _fjs().validate(POINT, {"x": 1.0, "y": 2.0}),
            ),
            Call(
                "validate",
                {"definition": DEFAULTS, "data": {}},
                lambda: _fjs().validate(DEFAULTS, {}),
            ),
            Call(
                "validate",
                {"definition": DEFAULTS, "data": {}, "use_default": False},
                lambda: _fjs().validate(DEFAULTS, {}, use_default=False),
            ),
            Call(
                "validate",
                {"definition": TAGS, "data": ["red", "green"]},
                lambda: _fjs().validate(TAGS, ["red", "green"]),
            ),
            Call(
                "validate",
                {"definition": FOO, "data": "bar", "formats": {"foo": "foo|bar"}},
                lambda: _fjs().validate(FOO, "bar", formats={"foo": "foo|bar"}),
            ),
            Call(
                "compile_to_code",
                {"definition": {"type": "string"}},
                lambda: _fjs().compile_to_code({"type": "string"}),
            ),
        ),
    ),
)
