"""A 2026-07-28 call that asks the client for what it did not declare is answered
``MissingRequiredClientCapabilityError`` (-32021, ``data.requiredCapabilities``; 400 over
HTTP), as ``2026-07-28/basic`` says; the handshake revisions keep the error result. A tool
that says ahead what it will ask (``needs=``) is refused before it runs."""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest
from conftest import ZOO, RawServer, server_env

import objmcp
import objmcp.testing

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def call(request_id: int, name: str, capabilities: dict[str, Any]) -> dict[str, Any]:
    meta = {**MODERN_META, "io.modelcontextprotocol/clientCapabilities": capabilities}
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": {}, "_meta": meta},
    }


def test_asking_what_the_client_did_not_declare_is_minus_32021_on_the_wire() -> None:
    server = RawServer(str(ZOO))
    try:
        for request_id, tool in enumerate(["ask", "ask_name"], start=1):  # thread, loop
            error = server.request(call(request_id, tool, {"sampling": {}}))["error"]
            assert error["code"] == -32021, error
            assert error["data"] == {"requiredCapabilities": {"elicitation": {"form": {}}}}
        asked = server.request(call(3, "ask", {"elicitation": {}}))["result"]
        assert asked["resultType"] == "input_required"  # declared: the question goes out
        added = call(4, "add", {})
        added["params"]["arguments"] = {"a": 1, "b": 2}
        answer = server.request(added)["result"]
        assert answer["content"][0]["text"] == "3"  # and the server carries on
    finally:
        server.close()


@pytest.mark.anyio
async def test_the_official_client_sees_minus_32021_and_a_handshake_one_an_error_result() -> None:
    from mcp import Client, StdioServerParameters
    from mcp.shared.exceptions import MCPError

    params = StdioServerParameters(command=sys.executable, args=[str(ZOO)], env=server_env())
    async with Client(params, mode="2026-07-28") as client:
        with pytest.raises(MCPError) as refused:
            await client.call_tool("ask", {})
    assert refused.value.error.code == -32021
    async with Client(params, mode="legacy") as client:
        result = await client.call_tool("ask", {})
    assert result.is_error and "elicitation" in str(result.content[0])


class Survey:
    """A tool that says ahead what it asks, and one that does not."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.lock = threading.Lock()

    @objmcp.tool(needs=["elicitation"])
    def poll(self, elicit: objmcp.Elicit) -> str:
        with self.lock:
            self.started.append("poll")
        return str(elicit("Agree?", bool).value)

    def quiz(self, elicit: objmcp.Elicit) -> str:
        with self.lock:
            self.started.append("quiz")
        return str(elicit("Ready?", bool).value)


def test_a_tool_that_says_what_it_needs_is_refused_before_it_runs() -> None:
    survey = Survey()
    with objmcp.testing.connect_sync(survey, era="modern") as client:  # declares no elicitation
        for tool in ("poll", "quiz"):
            with pytest.raises(objmcp.testing.ResponseError) as refused:
                client.call(tool)
            assert refused.value.code == -32021
            assert refused.value.data == {"requiredCapabilities": {"elicitation": {"form": {}}}}
    assert survey.started == ["quiz"]  # poll said ahead: refused before it ran


def test_needs_names_only_what_a_tool_can_ask() -> None:
    with pytest.raises(TypeError, match="needs"):
        objmcp.tool(needs=["telepathy"])
    with pytest.raises(TypeError, match="needs"):
        objmcp.tool(needs="sampling")


def test_a_handshake_client_gets_an_error_result_before_a_tool_that_said_it_runs() -> None:
    survey = Survey()
    with objmcp.testing.connect_sync(survey) as client:  # declares no elicitation
        poll, quiz = client.call("poll"), client.call("quiz")
    assert poll.is_error and quiz.is_error
    assert "elicitation" in poll.text and "did not run" in poll.text
    assert survey.started == ["quiz"]  # poll said ahead: its code never ran
