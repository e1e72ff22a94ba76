"""What the session's helper modules (:mod:`~objmcp.protocol.routing`,
:mod:`~objmcp.protocol.starting`, :mod:`~objmcp.protocol.midcall`,
:mod:`~objmcp.protocol.answers`,
:mod:`~objmcp.protocol.tasks.handoff`) use of the :class:`~objmcp.protocol.session.Session`
they are handed: a protocol, so that they need not import the session, which imports
them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, Protocol

from ..model.calling.caller import Caller
from ..model.calling.toolbox import Changes, Toolbox
from . import lists
from .actions import Action, CacheHint, ServerInfo
from .calls import Call, CallBook
from .extensions import Extensions
from .features import Declared
from .parking import Parking
from .questions import Questions
from .revisions import Revision
from .subscriptions import Subscriptions
from .surfaced import Surfaced
from .tasks.core import CoreTasks
from .tasks.extension import TaskStore
from .tasks.jobs import JobTools

__all__ = ["SessionLike"]


class SessionLike(Protocol):
    """The session, as its helper modules see it."""

    toolbox: Toolbox
    info: ServerInfo
    cache: dict[str, CacheHint]
    calls: CallBook
    questions: Questions
    parking: Parking
    tasks: TaskStore
    core: CoreTasks
    jobs: JobTools | None
    subscriptions: Subscriptions
    clock: Callable[[], float]
    caller: Caller | None
    client_name: str | None
    log_level: str | None
    revision: Revision | None
    page_size: int | None
    max_calls: int
    client_capabilities: Mapping[str, Any]
    declared: Mapping[str, Any]
    tool_list: lists.ToolList

    @property
    def surfaced(self) -> Surfaced:
        """The tools the searches of the caller of the message being read found."""
        ...

    @property
    def caller_key(self) -> str | None:
        """The key of the caller of the message being read (None: one client only)."""
        ...

    def end_call(self, call_id: int) -> Call | None:
        """Forget the call ``call_id`` (and its questions); None when it was already."""
        ...

    def hold(self, call: Call) -> int:
        """Take ``call`` in as a request the session answers later itself."""
        ...

    def is_core(self, call: Call) -> bool:
        """Whether ``call`` runs as a 2025-11-25 core task."""
        ...

    def has_core_tasks(self, revision: Revision) -> bool:
        """Whether a request of ``revision`` has 2025-11-25's core tasks."""
        ...

    def make_core_task(self, request_id: Any) -> list[Action]:
        """2025-11-25: answer the call just started for ``request_id`` with its task."""
        ...

    def surfaced_for(self, caller_key: str | None) -> Surfaced:
        """The tools the searches of the caller ``caller_key`` found."""
        ...

    def changed(self, changes: Changes) -> list[Action]:
        """What was published changed: the ``list_changed`` notifications due."""
        ...

    def capabilities(self, revision: Revision) -> dict[str, Any]:
        """What the server declares in ``revision`` now."""
        ...

    def declares(self, revision: Revision, gate: Declared) -> bool:
        """Whether a request of ``revision`` may use what ``gate`` needs."""
        ...

    def owned_tasks(
        self, revision: Revision, capabilities: Mapping[str, Any], requested: object
    ) -> Callable[[str], bool] | None:
        """Which task ids the caller of a listen stream may hear of."""
        ...

    def extensions_of(self, revision: Revision) -> Extensions:
        """The extensions the server declares in ``revision``."""
        ...

    def start(
        self,
        call: Call,
        kind: Literal["tool", "resource", "prompt"],
        target: str,
        arguments: object,
        params: dict[str, Any],
        actions: list[Action],
    ) -> None:
        """Start ``call``."""
        ...
