"""Parameters objmcp fills in itself, hidden from the model.

A method asks for one by annotation (``elicit: objmcp.Elicit``,
``progress: objmcp.Progress``, ``cancelled: objmcp.Cancelled``) or, when the
parameter has neither annotation nor default, by name (``elicit``,
``progress``, ``cancelled``). The
markers and result types live here, in the object model; what answers them is
the server's business.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

__all__ = [
    "DEFAULTS",
    "INJECTED_NAMES",
    "Cancelled",
    "Done",
    "Elicit",
    "ElicitResult",
    "InputNeeded",
    "Progress",
    "injected_kind",
]


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


class Progress(Protocol):
    """Annotate a parameter with this to receive a callable that reports progress.

    ``progress(done, total=None, message=None)`` tells the client how far the
    call has come (``notifications/progress``); it does nothing when the client
    asked for no progress. It works as it is in sync methods and awaited in
    async ones (``await progress(3, 10)``).
    """

    def __call__(self, done: float, total: float | None = None, message: str | None = None) -> Done:
        """Report ``done`` out of ``total`` (if known), with an optional message."""
        ...


class Cancelled(Protocol):
    """Annotate a parameter with this to receive a flag set when the client cancels the call.

    An async method is cancelled at its next ``await`` anyway; a sync one cannot
    be stopped from outside, so a long loop checks ``cancelled.is_set()`` and
    returns early (its result is dropped).
    """

    def is_set(self) -> bool:
        """Whether the client cancelled the call."""
        ...


class InputNeeded(BaseException):
    """Raised out of a call that must stop until an answer comes from elsewhere (a later,
    retried call). ``request`` says what to ask. A BaseException, so that a tool's own
    ``except Exception`` does not swallow it; objmcp never turns it into a result."""

    def __init__(self, request: object) -> None:
        super().__init__("the call waits for input")
        self.request = request


class Done:
    """What an injected callable returns: nothing, but awaitable, so that one callable
    serves sync methods (which ignore it) and async ones (which ``await`` it)."""

    def __await__(self) -> Iterator[None]:
        return iter(())


DONE: Done = Done()


def _no_progress(done: float, total: float | None = None, message: str | None = None) -> Done:
    return DONE


INJECTED_NAMES: Mapping[str, object] = {
    "elicit": Elicit,
    "progress": Progress,
    "cancelled": Cancelled,
}
"""Parameter names recognised without an annotation, and the marker each stands for."""


class _NeverCancelled:
    """The flag of a call that nobody can cancel."""

    def is_set(self) -> bool:
        return False


DEFAULTS: Mapping[object, object] = {Progress: _no_progress, Cancelled: _NeverCancelled()}
"""What an injected parameter gets when the caller gives nothing for it (Elicit: an error)."""


def injected_kind(parameter: inspect.Parameter, hint: object) -> object | None:
    """The marker a parameter asks for, or None when it is an ordinary parameter."""
    if any(hint is marker for marker in INJECTED_NAMES.values()):
        return hint
    if hint is inspect.Parameter.empty and parameter.default is parameter.empty:
        return INJECTED_NAMES.get(parameter.name)
    return None
