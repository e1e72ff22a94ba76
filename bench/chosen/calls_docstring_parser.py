"""The calls of ``docstring-parser`` (rank 162, held-out).

Written from docstring_parser's documentation (its README and API reference: ``parse(text,
style=DocstringStyle.AUTO)`` giving a ``Docstring``, and ``compose(docstring, style,
rendering_style, indent)`` rendering one back to text), each answer computed by calling
docstring_parser itself. A ``Docstring`` has no JSON form and its ``str()`` is only its address,
so it is said as its attributes, as an object: ``short_description``, ``long_description``,
the blank-line flags, ``meta`` (each item's attributes) and ``style``; an enum is said by its
name, which is also how a model names a style. The ``compose`` calls send the parsed docstring
in that form, as a model chaining ``parse`` into ``compose`` would.
"""

from __future__ import annotations

import enum
import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

GOOGLE = """Add two numbers.

Args:
    a (int): The first number.
    b (int, optional): The second number. Defaults to 0.

Returns:
    int: The sum.
"""
PARSED_GOOGLE: dict[str, Any] = {
    "short_description": "Add two numbers.",
    "long_description": None,
    "blank_after_short_description": True,
    "blank_after_long_description": False,
    "meta": [
        {
            "args": ["param", "a (int)"],
            "description": "The first number.",
            "arg_name": "a",
            "type_name": "int",
            "is_optional": False,
            "default": None,
        },
        {
            "args": ["param", "b (int, optional)"],
            "description": "The second number. Defaults to 0.",
            "arg_name": "b",
            "type_name": "int",
            "is_optional": True,
            "default": "0",
        },
        {
            "args": ["returns", "int"],
            "description": "The sum.",
            "type_name": "int",
            "is_generator": False,
            "return_name": None,
        },
    ],
    "style": "GOOGLE",
}
"""The answer of the first call (checked below to be ``parse``'s), sent back by ``compose``."""
REST = """Fetch a page.

:param url: The address to fetch.
:type url: str
:raises ValueError: If the address is empty.
:returns: The page's text.
"""
NUMPY = """Scale a vector.

Parameters
----------
v : list of float
    The vector.
factor : float
    The scale.
"""


def _docstring_parser() -> Any:
    return importlib.import_module("docstring_parser")


def _fields(value: Any) -> Any:
    """``value`` as an object of its attributes, recursively (an enum by its name)."""
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, list | tuple):
        return [_fields(item) for item in value]
    if hasattr(value, "__dict__"):
        return {name: _fields(item) for name, item in vars(value).items()}
    return value


def _parse(text: str, style: str | None = None) -> Any:
    module = _docstring_parser()
    if style is None:
        return module.parse(text)
    return module.parse(text, style=module.DocstringStyle[style])


def _parsed_google() -> Any:
    parsed = _fields(_parse(GOOGLE))
    if parsed != PARSED_GOOGLE:
        raise AssertionError(f"PARSED_GOOGLE is not parse's answer: {parsed!r}")
    return parsed


def _compose(text: str, style: str, rendering_style: str | None = None) -> str:
    module = _docstring_parser()
    options: dict[str, Any] = {"style": module.DocstringStyle[style]}
    if rendering_style is not None:
        options["rendering_style"] = module.RenderingStyle[rendering_style]
    return str(module.compose(module.parse(text), **options))


TARGETS: tuple[Target, ...] = (
    Target(
        "docstring_parser",
        (
            Call("parse", {"text": GOOGLE}, _parsed_google),
            Call("parse", {"text": REST, "style": "REST"}, lambda: _fields(_parse(REST, "REST"))),
            Call(
                "parse",
                {"text": NUMPY, "style": "NUMPYDOC"},
                lambda: _fields(_parse(NUMPY, "NUMPYDOC")),
            ),
            Call(
                "compose",
                {"docstring": PARSED_GOOGLE, "style": "NUMPYDOC"},
                lambda: _compose(GOOGLE, "NUMPYDOC"),
            ),
            Call(
                "compose",
                {"docstring": PARSED_GOOGLE, "style": "GOOGLE", "rendering_style": "EXPANDED"},
                lambda: _compose(GOOGLE, "GOOGLE", "EXPANDED"),
            ),
        ),
    ),
)
