"""The calls of ``sqlparse`` (rank 262, held-out, second walk).

Written from sqlparse's documentation (its README on PyPI, "Usage": "Three module-level
functions cover most needs: ``split()``, ``format()`` and ``parse()``", with their examples;
``format()`` "accepts the same options as the command line, among them ``reindent``,
``keyword_case``, ``strip_comments`` and ``indent_width``"; the options of the "Formatting of
SQL Statements" page, sqlparse.readthedocs.io: ``truncate_strings``, ``wrap_after``), each
answer computed by calling sqlparse itself. ``format``'s options are keyword arguments
(``**options``), sent by their documented names, as the README's ``format(sql, reindent=True,
keyword_case="upper")`` does. ``parse`` gives a tuple of ``Statement`` s: a list of their text
(a statement's ``str`` is its SQL; its ``repr`` holds its address).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

SCRIPT = "select * from foo; select * from bar;"
USERS = "select id,name from users where active=1"
ADULTS = "select id, name from users where active=1 and age>18"
LONG = "select 'abcdefghijklmnop' from t"
WIDE = "select a, b, c, d, e, f from t"
TWO = "select id, name from users where active = 1; select 1"


def _sqlparse() -> Any:
    return importlib.import_module("sqlparse")


def _format(sql: str, **options: Any) -> str:
    text: str = _sqlparse().format(sql, **options)
    return text


TARGETS: tuple[Target, ...] = (
    Target(
        "sqlparse",
        (
            Call("split", {"sql": SCRIPT}, lambda: _sqlparse().split(SCRIPT)),
            Call(
                "format",
                {"sql": USERS, "reindent": True, "keyword_case": "upper"},
                lambda: _format(USERS, reindent=True, keyword_case="upper"),
            ),
            Call(
                "format",
                {"sql": ADULTS, "reindent": True, "indent_width": 2},
                lambda: _format(ADULTS, reindent=True, indent_width=2),
            ),
            Call(
                "format",
                {"sql": LONG, "truncate_strings": 5},
                lambda: _format(LONG, truncate_strings=5),
            ),
            Call(
                "format",
                {"sql": WIDE, "reindent": True, "wrap_after": 12},
                lambda: _format(WIDE, reindent=True, wrap_after=12),
            ),
            Call(
                "parse",
                {"sql": TWO},
                lambda: [str(statement) for statement in _sqlparse().parse(TWO)],
            ),
            Call(
                "split",
                {"sql": SCRIPT, "strip_semicolon": True},
                lambda: _sqlparse().split(SCRIPT, strip_semicolon=True),
            ),
        ),
    ),
)
