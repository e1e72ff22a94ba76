"""The calls of ``kiwisolver`` (rank 186, tuning).

Written from kiwisolver's documentation (the "Basic systems" tutorial of its "Usage" pages: a
``Solver`` given an edit variable with ``addEditVariable(xm, "strong")``, a value with
``suggestValue(xm, 60)``, then ``updateVariables``; the "Strength" part for
``strength.create``) and the signatures of its shipped ``_cext.pyi`` (``Solver()`` takes no
argument; its methods' parameters are ``variable``, ``strength``, ``value``), each answer
computed by calling kiwisolver itself. The target is one ``Solver``; a variable is sent by its
name, as a model has it, and ``_replay`` makes the same calls with a ``Variable`` of that name.
A constraint (``x1 + 10 <= x2``) is made with Python operators and has no text form to send, so
``addConstraint`` is not called. ``dumps`` gives the solver's state as text.

More calls (issue 37), taken by the rule of the README's "More tuning calls":
``removeEditVariable`` and ``reset`` (``addConstraint``, ``hasConstraint`` and
``removeConstraint`` take a constraint; ``dump`` prints from C to the process's own standard
output), then ``hasEditVariable`` again (``False`` after the removal), and two more
``strength.create`` calls for the non-string parameters.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]


def _kiwi() -> Any:
    return importlib.import_module("kiwisolver")


def _replay() -> Any:
    """The solver after the edit-variable calls below."""
    kiwi = _kiwi()
    solver = kiwi.Solver()
    middle = kiwi.Variable("xm")
    solver.addEditVariable(middle, "strong")
    solver.suggestValue(middle, 60)
    solver.updateVariables()
    return solver, middle


def _has_edit_variable() -> Any:
    solver, middle = _replay()
    return solver.hasEditVariable(middle)


def _after_removal() -> Any:
    solver, middle = _replay()
    return [solver.removeEditVariable(middle), solver.hasEditVariable(middle), solver.reset()]


TARGETS: tuple[Target, ...] = (
    Target(
        "kiwisolver:Solver",
        (
            Call("addEditVariable", {"variable": "xm", "strength": "strong"}, lambda: UNCHECKED),
            Call("suggestValue", {"variable": "xm", "value": 60}, lambda: UNCHECKED),
            Call("updateVariables", {}, lambda: UNCHECKED),
            Call(
                "hasEditVariable",
                {"variable": "xm"},
                _has_edit_variable,
            ),
            Call("dumps", {}, lambda: str(_replay()[0].dumps())),
            Call("removeEditVariable", {"variable": "xm"}, lambda: _after_removal()[0]),
            Call("hasEditVariable", {"variable": "xm"}, lambda: _after_removal()[1]),
            Call("reset", {}, lambda: _after_removal()[2]),
        ),
    ),
    Target(
        "kiwisolver:strength",
        (
            Call("create", {"a": 1, "b": 0, "c": 0}, lambda: _kiwi().strength.create(1, 0, 0)),
            Call(
                "create",
                {"a": 0, "b": 1, "c": 0, "weight": 2.5},
                lambda: _kiwi().strength.create(0, 1, 0, 2.5),
            ),
            Call(
                "create",
                {"a": 0, "b": 0, "c": 1, "weight": 0.5},
                lambda: _kiwi().strength.create(0, 0, 1, 0.5),
            ),
            Call("create", {"a": 2, "b": 0, "c": 0}, lambda: _kiwi().strength.create(2, 0, 0)),
        ),
    ),
)
