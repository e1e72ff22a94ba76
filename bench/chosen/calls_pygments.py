"""The calls of ``pygments`` (rank 17, tuning).

Written from Pygments' documentation (the "Introduction and Quickstart" page: ``highlight``,
``lex``; the "The full Pygments API" page: ``get_lexer_by_name``, ``get_lexer_for_filename``,
``guess_lexer`` and the lexer options such as ``tabsize``), each answer computed by calling
Pygments itself. A lexer has no JSON form: its text (``<pygments.lexers.PythonLexer>``); a
token type as its dotted text (``Token.Name``). Where the docs pass a lexer or formatter
instance, the call sends its name ("python", "html"), what a model has to send.

More calls (issue 37), taken by the rule of the README's "More tuning calls":
``find_lexer_class``, ``find_lexer_class_by_name`` and ``find_lexer_class_for_filename`` (a
class as its text, ``<class 'pygments.lexers.python.PythonLexer'>``), then the next two with a
non-string parameter, ``get_all_lexers`` (``plugins``; each lexer's tuple of tuples as lists)
and ``get_filetype_from_buffer`` (``max_lines``). ``find_plugin_lexers`` takes nothing.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

CODE = "print('Hello')\n"
SCRIPT = "#!/usr/bin/env python\nimport sys\nprint(sys.argv)\n"
MODELINE = "# vim: set filetype=python :\nprint(1)\n"


def _m(name: str) -> Any:
    return importlib.import_module(name)


def _lexer(function: str, *arguments: Any, **options: Any) -> str:
    return str(getattr(_m("pygments.lexers"), function)(*arguments, **options))


def _highlight(code: str) -> str:
    lexer = _m("pygments.lexers").get_lexer_by_name("python")
    formatter = _m("pygments.formatters").get_formatter_by_name("html")
    return str(_m("pygments").highlight(code, lexer, formatter))


def _lex(code: str) -> list[list[str]]:
    lexer = _m("pygments.lexers").get_lexer_by_name("python")
    return [[str(kind), value] for kind, value in _m("pygments").lex(code, lexer)]


TARGETS: tuple[Target, ...] = (
    Target(
        "pygments.lexers",
        (
            Call(
                "get_lexer_by_name",
                {"_alias": "python"},
                lambda: _lexer("get_lexer_by_name", "python"),
            ),
            Call(
                "get_lexer_by_name",
                {"_alias": "javascript", "tabsize": 4},
                lambda: _lexer("get_lexer_by_name", "javascript", tabsize=4),
            ),
            Call(
                "get_lexer_for_filename",
                {"_fn": "Makefile", "tabsize": 8},
                lambda: _lexer("get_lexer_for_filename", "Makefile", tabsize=8),
            ),
            Call("guess_lexer", {"_text": SCRIPT}, lambda: _lexer("guess_lexer", SCRIPT)),
            Call(
                "find_lexer_class", {"name": "Python"}, lambda: _lexer("find_lexer_class", "Python")
            ),
            Call(
                "find_lexer_class_by_name",
                {"_alias": "rust"},
                lambda: _lexer("find_lexer_class_by_name", "rust"),
            ),
            Call(
                "find_lexer_class_for_filename",
                {"_fn": "setup.py"},
                lambda: _lexer("find_lexer_class_for_filename", "setup.py"),
            ),
            Call(
                "get_all_lexers",
                {"plugins": False},
                lambda: expected_json(list(_m("pygments.lexers").get_all_lexers(plugins=False))),
            ),
            Call(
                "get_filetype_from_buffer",
                {"buf": MODELINE, "max_lines": 5},
                lambda: _m("pygments.lexers").get_filetype_from_buffer(MODELINE, max_lines=5),
            ),
        ),
        withheld=("load_lexer_from_file",),
    ),
    Target(
        "pygments",
        (
            Call(
                "highlight",
                {"code": CODE, "lexer": "python", "formatter": "html"},
                lambda: _highlight(CODE),
            ),
            Call("lex", {"code": "x = 1\n", "lexer": "python"}, lambda: _lex("x = 1\n")),
        ),
    ),
)
