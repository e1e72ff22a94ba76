"""What a running call does through its session: report progress, send log records,
ask the client (or learn why it cannot), and wait parked for the answer.

Plain functions of the :class:`~objmcp.protocol.session.Session` the call runs in; the
runner calls them for the callables it hands a call (``objmcp.Progress``,
``objmcp.Elicit``, ...).
"""

from __future__ import annotations

from typing import Any

from . import notifications
from .actions import Action, Feature
from .jsonrpc import ProtocolError
from .sessionlike import SessionLike
from .tasks import core as core_tasks
from .tasks import extension_methods as task_methods

__all__ = [
    "ask",
    "can_park",
    "elicitation_complete",
    "hold_question",
    "log",
    "missing",
    "progress",
    "refusal",
    "release_question",
    "unpark",
]


def progress(
    session: SessionLike,
    call_id: int,
    done: float,
    total: float | None = None,
    message: str | None = None,
) -> list[Action]:
    """A running call reports progress: the notification to send, if the client asked
    for progress (a ``progressToken``) and still waits for the call. A task's call
    says it in the task's ``statusMessage`` instead."""
    call = session.calls.get(call_id)
    if call is not None and call.task is not None:
        task_methods.progress(session, call.task, done, total, message)
        if session.is_core(call):  # 2025-11-25: the request's progressToken holds
            return core_tasks.progress(session, call, done, total, message)
        return []
    return notifications.progress(call, done, total, message)


def log(
    session: SessionLike, call_id: int | None, level: str, logger_name: str, data: object
) -> list[Action]:
    """A log record, of a call (or of none): the ``notifications/message`` to send, if
    the client asked for records of this level (``logging/setLevel`` in the handshake
    era, the request's ``logLevel`` in the modern one)."""
    if call_id is None:
        return notifications.log(None, session.log_level, level, logger_name, data)
    call = session.calls.get(call_id)
    if call is None:
        return []  # the call is over: its records go to stderr only
    sent = notifications.log(call, session.log_level, level, logger_name, data)
    if session.is_core(call):
        return core_tasks.tag(session, call, sent)
    return sent


def refusal(session: SessionLike, call_id: int, feature: Feature) -> str | None:
    """Why the call ``call_id`` cannot ask the client for ``feature`` now, or None when
    it can: ``"elicitation"`` (a form), ``"elicitation.url"``, ``"sampling"`` or
    ``"roots"``."""
    return session.questions.refusal(session.calls.get(call_id), feature)


def missing(session: SessionLike, call_id: int, feature: Feature) -> ProtocolError | None:
    """Modern era: the -32021 error the call ``call_id`` is answered with, when it
    asks for ``feature`` and its client did not declare it (None otherwise)."""
    return session.questions.missing(session.calls.get(call_id), feature)


def elicitation_complete(session: SessionLike, elicitation_id: str) -> list[Action]:
    """A URL question's out-of-band step is done: tell the client, in the revision that
    has ``notifications/elicitation/complete``."""
    return session.questions.elicitation_complete(session.revision, elicitation_id)


def can_park(session: SessionLike, call_id: int) -> bool:
    """Modern era: whether the call ``call_id`` may wait suspended for its client's
    answer now (a park, or a task's call held for ``tasks/update``): within its
    caller's share of ``max_parked``."""
    call = session.calls.get(call_id)
    return session.parking.room(call.caller_key if call is not None else session.caller_key)


def hold_question(session: SessionLike, call_id: int) -> bool:
    """2026-07-28: count the task's call ``call_id`` as waiting for ``tasks/update``,
    in ``max_parked`` (its caller's share); False, counting nothing, when it has no
    room there."""
    call = session.calls.get(call_id)
    return call is not None and session.parking.hold(call_id, call.caller_key)


def release_question(session: SessionLike, call_id: int) -> None:
    """The task's call ``call_id`` waits for ``tasks/update`` no more."""
    session.parking.release(call_id)


def unpark(session: SessionLike, call_id: int) -> None:
    """The runner gave up the call ``call_id`` parked (its ``park_timeout``): a retry
    of its question runs the method again."""
    session.parking.drop(call_id)


def ask(
    session: SessionLike, call_id: int, method: str, params: dict[str, Any]
) -> tuple[list[Action], str]:
    """Send the client a request on behalf of a running call (``elicitation/create``,
    ``sampling/createMessage``, ``roots/list``);
    its answer comes back from :meth:`receive` as an :class:`Answer` with the id returned.
    A job's question belongs to no request (its own was answered with the job)."""
    call = session.calls.get(call_id)
    if call is not None and call.task is not None and session.is_core(call):
        return core_tasks.ask(session, call.task, call_id, method, params)
    related = call.request_id if call is not None and call.task is None else None
    return session.questions.ask(call_id, related, method, params)
