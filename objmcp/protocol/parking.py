"""Modern era: calls suspended at a question, until the retry that answers it.

A modern-era call that asks is answered ``input_required`` at once; the client sends
the request again with its answer. Rather than run the method again from the start,
the runner may keep the call suspended where it asked: it is *parked*. Its sealed
request state then names the park, and the retry that brings the state, in time and
for the first time, *resumes* the call: the session says so with a
:class:`~objmcp.protocol.actions.Resume` instead of a
:class:`~objmcp.protocol.actions.StartCall`.

A park is named at random, not counted: states sealed with one key may reach another
process serving with the same key, whose parks must never answer to them. A park is
claimed once; a second retry with the same state, a state whose park the runner gave
up (its ``park_timeout``), or one from another process runs the method again,
answering its earlier questions from the state, as a call that was never parked.

A 2026-07-28 task's call that asks waits too, for ``tasks/update`` rather than a retry:
it is *held* here, counted with the parks (it keeps a worker thread as they do).
Parks and held calls share ``max_parked``, each caller its share
(:class:`~objmcp.protocol.shares.Shares`): one caller cannot leave the others no room.
"""

from __future__ import annotations

from dataclasses import dataclass

from .shares import Shares

__all__ = ["Parking"]


@dataclass(frozen=True, slots=True)
class _Park:
    call_id: int
    """The call that waits (the id the session gave it when it started)."""
    round: int
    """The round of questions it waits at (its state's ``rounds``)."""
    caller_key: str | None
    """The key of the caller whose call it is."""


class Parking:
    """The parks and held calls of one session, at most ``limit`` at once (each caller
    its share)."""

    def __init__(self, limit: int) -> None:
        if limit < 0:
            raise ValueError("max_parked cannot be negative")
        self.limit = limit
        self._parks: dict[str, _Park] = {}
        self._held: dict[int, tuple[str | None, int]] = {}  # task calls: caller key, waits
        self._shares = Shares(limit)

    def __len__(self) -> int:
        return len(self._shares)

    @property
    def full(self) -> bool:
        """Whether no call may park now, whoever's it is."""
        return len(self._shares) >= self.limit

    def room(self, caller_key: str | None) -> bool:
        """Whether a call of the caller ``caller_key`` may park (or be held) now: within
        its share."""
        return self._shares.room(caller_key)

    def open(self, call_id: int, round: int, caller_key: str | None = None) -> str:
        """Park the call ``call_id`` of the caller ``caller_key`` at its round of questions
        ``round``; the name of its park."""
        import secrets  # only a parked call needs it: serving starts without

        name = secrets.token_urlsafe(16)
        self._parks[name] = _Park(call_id, round, caller_key)
        self._shares.take(caller_key)
        return name

    def hold(self, call_id: int, caller_key: str | None) -> bool:
        """Count the task's call ``call_id`` of the caller ``caller_key`` as waiting for
        ``tasks/update`` (one place however many of its questions wait at once); False,
        counting nothing, when it has no room (:meth:`room`)."""
        if call_id in self._held:
            held_by, waits = self._held[call_id]
            self._held[call_id] = (held_by, waits + 1)
            return True
        if not self._shares.room(caller_key):
            return False
        self._held[call_id] = (caller_key, 1)
        self._shares.take(caller_key)
        return True

    def release(self, call_id: int) -> None:
        """One wait of the held call ``call_id`` is over (each :meth:`hold` is released
        once)."""
        if call_id not in self._held:
            return
        caller_key, waits = self._held[call_id]
        if waits > 1:
            self._held[call_id] = (caller_key, waits - 1)
        else:
            del self._held[call_id]
            self._shares.give(caller_key)

    def claim(self, name: str | None, round: int) -> int | None:
        """The parked call a retry answering the round ``round`` resumes, taken off its
        park; None when ``name`` names no park here waiting at that round."""
        park = self._parks.get(name) if name is not None else None
        if park is None or park.round != round:
            return None
        del self._parks[name]  # type: ignore[arg-type]
        self._shares.give(park.caller_key)
        return park.call_id

    def drop(self, call_id: int) -> None:
        """The runner no longer holds the call ``call_id``: its park resumes nothing."""
        for name in [name for name, park in self._parks.items() if park.call_id == call_id]:
            self._shares.give(self._parks.pop(name).caller_key)
