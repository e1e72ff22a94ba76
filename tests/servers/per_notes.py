"""Notes kept per session or per caller (``per=``), each object numbered as it is made,
its end written to the file ``PER_NOTES_LOG`` names (one JSON line a closed object; a
slow call's end too), so that a test sees which objects were closed, and when.

Serve it with ``objmcp run per_notes.py:Notes --per session`` (stdio or ``--http``), or
run ``python per_notes.py PORT PER [MAX_OBJECTS] [OBJECT_IDLE] [SESSION_IDLE]``: the
factory :func:`make` over HTTP, with bearer tokens naming their users (``alice-1`` and
``alice-2`` are alice's, ``bob`` is bob's, ``mallory``'s factory fails), and tokens that
name nobody (:func:`verify`: ``app-...`` is good, ``client-...`` has a client id)."""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
from typing import Any

import objmcp

_numbers = itertools.count(1)


def _log(**entry: Any) -> None:
    path = os.environ.get("PER_NOTES_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")


class Notes:
    """One session's or one user's notes."""

    def __init__(self, caller: objmcp.Caller | None = None) -> None:
        self.number = next(_numbers)
        self.owner = caller.subject if caller is not None else None
        self.notes: list[str] = []

    def add(self, text: str) -> dict[str, Any]:
        """Add a note; returns the notes of this object."""
        self.notes.append(text)
        return self.read()

    def read(self) -> dict[str, Any]:
        """The notes, and which object keeps them."""
        return {"object": self.number, "owner": self.owner, "notes": list(self.notes)}

    def slow(self, seconds: float) -> int:
        """Wait, then say which object it was (its end is logged)."""
        time.sleep(seconds)
        _log(event="slow done", object=self.number)
        return self.number

    @objmcp.hidden
    def close(self) -> None:
        """Log the end of this object."""
        _log(event="closed", object=self.number, owner=self.owner, notes=self.notes)


def make(caller: objmcp.Caller | None) -> Notes:
    """A user's notes (mallory gets none)."""
    if caller is not None and caller.subject == "mallory":
        raise RuntimeError("mallory's notes are locked")
    return Notes(caller)


USERS = {"alice-1": "alice", "alice-2": "alice", "bob": "bob", "mallory": "mallory"}


def verify(token: str) -> bool | str | dict[str, str] | None:
    """The user a token names; True for an app's (``app-...``), which names nobody; claims
    with a client id and no subject for a client's (``client-...``)."""
    if token.startswith("app-"):
        return True
    if token.startswith("client-"):
        return {"client_id": "the-client", "scope": "notes"}
    return USERS.get(token)


if __name__ == "__main__":
    import uvicorn

    port, per, *rest = sys.argv[1:]
    numbers = [float(value) for value in rest]
    objects: dict[str, Any] = {"per": per}
    http: dict[str, Any] = {}
    if len(numbers) > 0:
        objects["max_objects"] = int(numbers[0])
    if len(numbers) > 1:
        objects["idle"] = numbers[1]
    if len(numbers) > 2:
        http["session_idle"] = numbers[2]
    app = objmcp.asgi_app(
        "notes",
        make,
        objects=objmcp.Objects(**objects),
        http=objmcp.Http(**http),
        auth=objmcp.Auth(verify=verify),
    )
    uvicorn.run(app, host="127.0.0.1", port=int(port), log_level="warning")
