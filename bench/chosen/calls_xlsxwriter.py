"""The calls of ``xlsxwriter`` (rank 357, tuning, third walk).

Written from XlsxWriter's documentation (its README on PyPI, the example that makes a
``Workbook``, ``add_worksheet`` and ``add_format({"bold": True})``; the "The Workbook Class"
page of xlsxwriter.readthedocs.io: ``add_worksheet(name)``, ``add_format(properties)``,
``set_properties``, ``set_custom_property``, ``define_name``, ``set_size``; and the "Working
with Cell Notation" page: ``xl_rowcol_to_cell``, ``xl_cell_to_rowcol``, ``xl_col_to_name``,
``xl_range``, ``xl_range_formula``), each answer computed by calling XlsxWriter itself.

``xlsxwriter:Workbook`` is one workbook made with no arguments (so with no file name): the
calls on it are made in order and ``_replay`` makes the same calls on a workbook of its own. A
``Worksheet`` has no JSON form and its text is its address, so ``add_worksheet``'s answer is
not looked at (``UNCHECKED``); a ``Format``'s text is its documented ``Format(...)`` form.
``close``, which writes the file, is not called: the workbook made with no arguments has no
file to write to. The row and column numbers of ``xlsxwriter.utility`` and the dictionaries of
properties are the non-string values.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

BOLD_MONEY = {"bold": True, "font_color": "red", "num_format": "#,##0.00"}
PROPERTIES = {"title": "Quarterly report", "author": "Ada Lovelace", "company": "Acme"}


def _m(name: str) -> Any:
    return importlib.import_module(name)


def _replay(count: int) -> Any:
    """The answer of the ``count``-th of the workbook's calls below, after the ones before it."""
    workbook = _m("xlsxwriter").Workbook()
    steps = (
        lambda: workbook.add_worksheet("Sales"),
        lambda: str(workbook.add_format(BOLD_MONEY)),
        lambda: workbook.set_properties(PROPERTIES),
        lambda: workbook.set_custom_property("Checked by", "Eve"),
        lambda: workbook.set_custom_property("Quantity", 42),
        lambda: workbook.define_name("Sales_Total", "=Sales!$B$2:$B$10"),
        lambda: workbook.set_size(1200, 800),
    )
    answer: Any = None
    for step in steps[:count]:
        answer = step()
    return answer


def _utility(function: str, *arguments: Any, **options: Any) -> Any:
    return getattr(_m("xlsxwriter.utility"), function)(*arguments, **options)


TARGETS: tuple[Target, ...] = (
    Target(
        "xlsxwriter:Workbook",
        (
            Call("add_worksheet", {"name": "Sales"}, lambda: UNCHECKED),
            Call("add_format", {"properties": BOLD_MONEY}, lambda: _replay(2)),
            Call("set_properties", {"properties": PROPERTIES}, lambda: _replay(3)),
            Call("set_custom_property", {"name": "Checked by", "value": "Eve"}, lambda: _replay(4)),
            Call("set_custom_property", {"name": "Quantity", "value": 42}, lambda: _replay(5)),
            Call(
                "define_name",
                {"name": "Sales_Total", "formula": "=Sales!$B$2:$B$10"},
                lambda: _replay(6),
            ),
            Call("set_size", {"width": 1200, "height": 800}, lambda: _replay(7)),
        ),
    ),
    Target(
        "xlsxwriter.utility",
        (
            Call(
                "xl_rowcol_to_cell",
                {"row": 10, "col": 5},
                lambda: _utility("xl_rowcol_to_cell", 10, 5),
            ),
            Call(
                "xl_rowcol_to_cell",
                {"row": 0, "col": 0, "row_abs": True, "col_abs": True},
                lambda: _utility("xl_rowcol_to_cell", 0, 0, row_abs=True, col_abs=True),
            ),
            Call(
                "xl_cell_to_rowcol",
                {"cell_str": "C5"},
                lambda: list(_utility("xl_cell_to_rowcol", "C5")),
            ),
            Call("xl_col_to_name", {"col": 702}, lambda: _utility("xl_col_to_name", 702)),
            Call(
                "xl_range",
                {"first_row": 0, "first_col": 0, "last_row": 9, "last_col": 2},
                lambda: _utility("xl_range", 0, 0, 9, 2),
            ),
            Call(
                "xl_range_formula",
                {
                    "sheetname": "Sales Data",
                    "first_row": 1,
                    "first_col": 1,
                    "last_row": 9,
                    "last_col": 1,
                },
                lambda: _utility("xl_range_formula", "Sales Data", 1, 1, 9, 1),
            ),
        ),
    ),
)
