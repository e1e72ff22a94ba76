"""Python syntax trees (:mod:`ast` nodes) as the source text a model says and reads.

:func:`read_source` parses a model's text into the node a hint asks for: an expression
for ``ast.expr`` (or one of its classes, ``ast.Name``...), the single statement for
``ast.stmt``, a module for ``ast.Module`` (``ast.Expression``, ``ast.Interactive`` and
``ast.FunctionType`` in their own modes), and for ``ast.AST`` the expression, else the
single statement, else the module the text is. :func:`source_text` is a node's source
(``ast.unparse``), what a node answers with, which reads back as the same tree.
"""

from __future__ import annotations

from typing import Any

from ..describe.hints import loaded_module

__all__ = ["SourceError", "read_source", "schema", "source_text"]


class SourceError(ValueError):
    """Text that is not Python source of the node asked for; its message says why."""


_MODES = {
    "mod": ("exec", "a module"),
    "Module": ("exec", "a module"),
    "Expression": ("eval", "an expression (ast.Expression)"),
    "Interactive": ("single", "an interactive statement"),
    "FunctionType": ("func_type", 'a function type ("(int, str) -> bool")'),
}
"""The mode :func:`ast.parse` reads each kind of module in, and what it reads."""


def read_source(value: object, cls: type) -> Any:
    """The node of class ``cls`` (``ast.AST`` or a module, expression or statement
    class) that the source text ``value`` parses to; raise :class:`SourceError`."""
    import ast  # loaded already: the hint names one of its classes

    if not isinstance(value, str):
        raise SourceError(f"expected the Python source text of {_what(cls)}")
    try:
        node = _parse(ast, value, cls)
    except SourceError:
        raise
    except SyntaxError as error:
        where = f" (line {error.lineno})" if error.lineno else ""
        raise SourceError(f"not Python source of {_what(cls)}: {error.msg}{where}") from None
    except (ValueError, RecursionError, MemoryError) as error:  # a NUL byte; too deep
        raise SourceError(f"not Python source of {_what(cls)}: {error}") from None
    if not isinstance(node, cls):
        raise SourceError(f"expected {_what(cls)}, got {type(node).__name__} source")
    return node


def _parse(ast: Any, text: str, cls: type) -> Any:
    if issubclass(cls, ast.mod):
        return ast.parse(text, mode=_MODES.get(cls.__name__, _MODES["mod"])[0])
    if issubclass(cls, ast.expr):
        return ast.parse(text.strip(), mode="eval").body
    statements = ast.parse(text).body
    if issubclass(cls, ast.stmt):
        if len(statements) != 1:
            raise SourceError(f"expected one statement, got {len(statements)}")
        return statements[0]
    try:  # ast.AST: whichever node the text is
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return statements[0] if len(statements) == 1 else ast.Module(statements, [])


def _what(cls: type) -> str:
    ast = loaded_module("ast")
    if issubclass(cls, ast.expr):
        return "an expression" if cls is ast.expr else f"an expression ({cls.__name__})"
    if issubclass(cls, ast.stmt):
        return "one statement" if cls is ast.stmt else f"one statement ({cls.__name__})"
    if cls is ast.AST:
        return "an expression, a statement or a module"
    return _MODES.get(cls.__name__, _MODES["mod"])[1]


def source_text(node: object) -> str | None:
    """The source text of a syntax tree node of a module, expression or statement
    (``ast.unparse``); None for any other value or a node that has none."""
    ast = loaded_module("ast")
    if ast is None or not isinstance(node, (ast.mod, ast.expr, ast.stmt)):
        return None
    try:
        return str(ast.unparse(node))
    except Exception:  # a tree built by hand that no source says
        return None


def schema(cls: type) -> dict[str, Any]:
    """What a parameter of the node class ``cls`` takes: Python source text."""
    return {"type": "string", "description": f"Python source text of {_what(cls)}."}
