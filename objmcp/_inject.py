"""Parameters objmcp fills in itself, hidden from the model.

A method asks for one by annotation (``elicit: objmcp.Elicit``) or, when the
parameter has neither annotation nor default, by name (``elicit``). The
markers and result types live here, in the object model; what answers them is
the server's business.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

__all__ = ["INJECTED_NAMES", "Elicit", "ElicitResult", "injected_kind"]


@dataclass(frozen=True)
class ElicitResult:
    """The user's answer to a question asked with :class:`Elicit`.

    ``action`` is ``"accept"``, ``"decline"`` or ``"cancel"``; ``content`` is
    the raw answer; ``value`` is the answer converted into the type asked for
    (``None`` unless accepted).
    """

    action: Literal["accept", "decline", "cancel"]
    content: Mapping[str, Any] = field(default_factory=dict)
    value: Any = None

    @property
    def accepted(self) -> bool:
        """Whether the user accepted and answered."""
        return self.action == "accept"


class Elicit(Protocol):
    """Annotate a parameter with this to receive a callable that asks the user.

    ``elicit(message, schema)`` takes the question and what is wanted (a JSON
    Schema dict, or a Python type) and returns an :class:`ElicitResult`.
    """

    def __call__(self, message: str, schema: object = ...) -> ElicitResult:
        """Ask the user ``message`` and wait for the answer."""
        ...


INJECTED_NAMES: Mapping[str, object] = {"elicit": Elicit}
"""Parameter names recognised without an annotation, and the marker each stands for."""


def injected_kind(parameter: inspect.Parameter, hint: object) -> object | None:
    """The marker a parameter asks for, or None when it is an ordinary parameter."""
    if any(hint is marker for marker in INJECTED_NAMES.values()):
        return hint
    if hint is inspect.Parameter.empty and parameter.default is parameter.empty:
        return INJECTED_NAMES.get(parameter.name)
    return None
