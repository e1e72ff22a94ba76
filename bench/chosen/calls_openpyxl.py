"""The calls of ``openpyxl`` (rank 129, tuning).

Written from openpyxl's documentation (the "Tutorial": "Create a workbook" with
``create_sheet(title, index)``, ``sheetnames``, ``copy_worksheet`` and "Saving to a file"; the
``Workbook`` API page for ``move_sheet``), each answer computed by calling openpyxl itself. The
target is one ``Workbook`` made with no arguments: the calls add, move and copy sheets, list
them and save the workbook in the temporary directory; ``_replay`` makes the same calls on a
workbook of its own. A ``Worksheet`` has no JSON form: its text (``<Worksheet "Sales">``); a
model names a sheet by its title. The cells (``ws["A1"]``, ``ws.append``) are the
``Worksheet``'s, not the workbook's, so no tool of this target reaches them.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``close``,
``create_chartsheet`` (``index``; a chartsheet as its text) and ``index`` (a sheet named by its
title), the first three methods not called that are not deprecated (``create_named_range``,
``get_index`` and ``get_sheet_by_name`` are) and take no style object (``add_named_style``),
made after the calls above on the same workbook.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]


def _replay(count: int) -> Any:
    """The answer of the ``count``-th of the calls below, after the ones before it."""
    workbook = importlib.import_module("openpyxl").Workbook()
    steps = (
        lambda: str(workbook.create_sheet(title="Sales")),
        lambda: str(workbook.create_sheet(title="Summary", index=0)),
        lambda: workbook.move_sheet("Sales", offset=-1),
        lambda: str(workbook.copy_worksheet(workbook["Summary"])),
        lambda: list(workbook.sheetnames),
        workbook.close,
        lambda: str(workbook.create_chartsheet(title="Chart", index=0)),
        lambda: workbook.index(workbook["Sales"]),
    )
    answer: Any = None
    for step in steps[:count]:
        answer = step()
    return answer


TARGETS: tuple[Target, ...] = (
    Target(
        "openpyxl:Workbook",
        (
            Call("create_sheet", {"title": "Sales"}, lambda: _replay(1)),
            Call("create_sheet", {"title": "Summary", "index": 0}, lambda: _replay(2)),
            Call("move_sheet", {"sheet": "Sales", "offset": -1}, lambda: UNCHECKED),
            Call("copy_worksheet", {"from_worksheet": "Summary"}, lambda: _replay(4)),
            Call("get_sheet_names", {}, lambda: _replay(5)),
            Call("save", {"filename": "/tmp/objmcp-calls-openpyxl.xlsx"}, lambda: UNCHECKED),
            Call("close", {}, lambda: _replay(6)),
            Call("create_chartsheet", {"title": "Chart", "index": 0}, lambda: _replay(7)),
            Call("index", {"worksheet": "Sales"}, lambda: _replay(8)),
        ),
    ),
)
