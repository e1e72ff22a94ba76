"""Tasks that wait for the client's word (``tests/serving/test_task_notifications.py``):
each always runs as a task and waits at a named gate until a call to ``open_gate`` opens
it, so that a test knows what a task does next and listens for it first.

Serve it with ``objmcp run watched.py:Watched``, or run ``python watched.py PORT``: over
HTTP, with bearer tokens naming their users (``alice`` and ``bob``)."""

from __future__ import annotations

import sys

import anyio

import objmcp


class Watched:
    """Work that waits at gates the client opens."""

    def __init__(self) -> None:
        self._gates: dict[str, anyio.Event] = {}

    def _gate(self, name: str) -> anyio.Event:
        return self._gates.setdefault(name, anyio.Event())

    async def open_gate(self, gate: str) -> str:
        """Open the gate ``gate``: the tasks waiting there go on."""
        self._gate(gate).set()
        return f"{gate} is open"

    @objmcp.tool(task="always")
    async def wait(self, gate: str) -> str:
        """Wait until ``gate`` opens, then end."""
        await self._gate(gate).wait()
        return f"passed {gate}"

    @objmcp.tool(task="always")
    async def ask_at(self, gate: str, elicit: objmcp.Elicit) -> str:
        """Wait until ``gate`` opens, then ask the user's name."""
        await self._gate(gate).wait()
        answer = await elicit("Your name?", str, key="name")
        return f"Hello, {answer.value}!"


USERS = {"alice": "alice", "bob": "bob"}

if __name__ == "__main__":
    import uvicorn

    app = objmcp.asgi_app("watched", Watched(), auth=objmcp.Auth(verify=USERS.get))
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
