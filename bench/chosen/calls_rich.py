"""The calls of ``rich`` (rank 46, held-out).

Written from rich's documentation (the "Console API" page: "Printing", "Printing JSON",
"Rules", "Capturing output" with ``begin_capture``/``end_capture``, and "Styles"; the "Console
Markup" page for ``rich.markup.escape`` and ``render``), each answer computed by calling rich
itself. The target ``rich.console:Console`` is one console made with no arguments (not a
terminal, so 80 columns and no colour): the calls capture what ``print``, ``print_json`` and
``rule`` write, and ``end_capture`` gives it back, replayed by ``_captured`` on a console writing
to memory. A ``Style`` or ``Text`` has no JSON form: its text (``str``).
"""

from __future__ import annotations

import importlib
import io
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

DATA = {"name": "rich", "tags": ["terminal", "colour"], "stars": 50000}


def _console() -> Any:
    return importlib.import_module("rich.console").Console(file=io.StringIO(), width=80)


def _captured() -> str:
    """What ``end_capture`` gives after the calls between it and ``begin_capture``."""
    console = _console()
    console.begin_capture()
    console.print("Hello", "[bold]World[/bold]", sep=", ")
    console.print_json(data=DATA, indent=4)
    console.rule(title="Summary", characters="=")
    console.line(count=2)
    return str(console.end_capture())


def _markup() -> Any:
    return importlib.import_module("rich.markup")


TARGETS: tuple[Target, ...] = (
    Target(
        "rich.console:Console",
        (
            Call("begin_capture", {}, lambda: UNCHECKED),
            Call(
                "print",
                {"objects": ["Hello", "[bold]World[/bold]"], "sep": ", "},
                lambda: UNCHECKED,
            ),
            Call("print_json", {"data": DATA, "indent": 4}, lambda: UNCHECKED),
            Call("rule", {"title": "Summary", "characters": "="}, lambda: UNCHECKED),
            Call("line", {"count": 2}, lambda: UNCHECKED),
            Call("end_capture", {}, _captured),
            Call("get_style", {"name": "bold red"}, lambda: str(_console().get_style("bold red"))),
            Call(
                "render_str",
                {"text": "[bold]Hi[/bold] there"},
                lambda: str(_console().render_str("[bold]Hi[/bold] there")),
            ),
        ),
        # ``input`` reads the server's own stdin, ``pager`` runs a program, ``save_*`` write any
        # path.
        withheld=("input", "pager", "save_text", "save_html", "save_svg"),
    ),
    Target(
        "rich.markup",
        (
            Call(
                "escape",
                {"markup": "[bold]not markup[/bold]"},
                lambda: _markup().escape("[bold]not markup[/bold]"),
            ),
            Call(
                "render",
                {"markup": "[bold red]Alert![/] all good"},
                lambda: str(_markup().render("[bold red]Alert![/] all good")),
            ),
        ),
    ),
)
