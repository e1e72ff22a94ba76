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
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Parking"]


@dataclass(frozen=True, slots=True)
class _Park:
    call_id: int
    """The call that waits (the id the session gave it when it started)."""
    round: int
    """The round of questions it waits at (its state's ``rounds``)."""


class Parking:
    """The parks of one session's calls, at most ``limit`` at once."""

    def __init__(self, limit: int) -> None:
        if limit < 0:
            raise ValueError("max_parked cannot be negative")
        self.limit = limit
        self._parks: dict[str, _Park] = {}

    def __len__(self) -> int:
        return len(self._parks)

    @property
    def full(self) -> bool:
        """Whether another call may not park now."""
        return len(self._parks) >= self.limit

    def open(self, call_id: int, round: int) -> str:
        """Park the call ``call_id`` at its round of questions ``round``; the name of its
        park."""
        import secrets  # only a parked call needs it: serving starts without

        name = secrets.token_urlsafe(16)
        self._parks[name] = _Park(call_id, round)
        return name

    def claim(self, name: str | None, round: int) -> int | None:
        """The parked call a retry answering the round ``round`` resumes, taken off its
        park; None when ``name`` names no park here waiting at that round."""
        park = self._parks.get(name) if name is not None else None
        if park is None or park.round != round:
            return None
        del self._parks[name]  # type: ignore[arg-type]
        return park.call_id

    def drop(self, call_id: int) -> None:
        """The runner no longer holds the call ``call_id``: its park resumes nothing."""
        for name in [name for name, park in self._parks.items() if park.call_id == call_id]:
            del self._parks[name]
