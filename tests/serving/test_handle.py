"""``Server.handle``: one message answered through the same runner that serves clients."""

from __future__ import annotations

from typing import Any

import anyio

import objmcp


class Desk:
    """Tools that need what a runner gives them."""

    def add(self, a: int, b: int, progress: objmcp.Progress) -> int:
        """Add, reporting progress."""
        progress(1, 2)
        return a + b

    def ask(self, elicit: objmcp.Elicit) -> str:
        """Ask the user for a name."""
        return str(elicit("name?", str))

    async def nap(self) -> str:
        """Sleep far longer than the server allows."""
        await anyio.sleep(60)
        return "awake"


def call(request_id: int, name: str, **extra: Any) -> dict[str, Any]:
    params = {"name": name, "arguments": {}, **extra}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


def test_handle_runs_calls_as_serving_does_with_nobody_to_ask() -> None:
    server = objmcp.Server("desk", Desk())
    # the bound on calls in a server of its own: on a loaded machine the calls that must
    # succeed are never raced against it
    bounded = objmcp.Server("desk", Desk(), limits=objmcp.Limits(call_timeout=0.2))

    async def main() -> list[Any]:
        answers = [await server.handle(INITIALIZE)]
        with_token = call(1, "add", arguments={"a": 2, "b": 3}, _meta={"progressToken": "p"})
        answers.append(await server.handle(with_token))
        answers.append(await server.handle(call(2, "ask")))
        await bounded.handle(INITIALIZE)
        answers.append(await bounded.handle(call(3, "nap")))
        answers.append(await server.handle({"jsonrpc": "2.0", "method": "notifications/x"}))
        return answers

    opened, added, asked, napped, notified = anyio.run(main)
    assert opened["result"]["serverInfo"]["name"] == "desk"
    # the response alone: the progress notification of the call goes nowhere
    assert added["id"] == 1 and added["result"]["structuredContent"] == {"result": 5}
    assert asked["result"]["isError"] is True
    assert "no client to ask" in asked["result"]["content"][0]["text"]
    assert napped["result"]["isError"] is True
    assert "call_timeout" in napped["result"]["content"][0]["text"]
    assert notified is None
    # the session is the server's own, from one event loop to the next
    again = anyio.run(server.handle, call(4, "add", arguments={"a": 1, "b": 1}))
    assert again["result"]["structuredContent"] == {"result": 2}
