"""Several questions in one round, and questions by name (``objmcp.ask_all``,
``elicit.many``, ``key=``), served by ``tests/servers/asker.py`` in real processes: raw
newline JSON over stdio and Streamable HTTP in 2026-07-28 (one ``input_required`` with an
``inputRequests`` entry per key; a retry missing some answers is asked for the rest), and
the official Python SDK client in both eras (the handshake era asks one after the other)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import ROOT, RawServer, stdio_server
from http_helpers import HttpServer, modern_headers, post
from mcp import Client, StdioServerParameters, types
from mcp.shared.exceptions import MCPError

ASKER = ROOT / "tests" / "servers" / "asker.py"
EVERYTHING = {"elicitation": {}, "sampling": {}, "roots": {}}
MULTIPLE = "test_input_required_result_multiple_inputs"
ROOT_URI = "file:///test/root"

# What the conformance suite's input-required-result-multiple-input-requests scenario
# shows (its description), and what objmcp sends for asker.py's tool of that name.
ROUND = {
    "user_name": {
        "method": "elicitation/create",
        "params": {
            "message": "What is your name?",
            "requestedSchema": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
            },
        },
    },
    "greeting": {
        "method": "sampling/createMessage",
        "params": {
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "Generate a greeting"}}
            ],
            "maxTokens": 50,
        },
    },
    "client_roots": {"method": "roots/list", "params": {}},
}
# The suite's answers to each kind of question.
ANSWERS = {
    "user_name": {"action": "accept", "content": {"name": "Alice"}},
    "greeting": {
        "role": "assistant",
        "content": {"type": "text", "text": "Hello there!"},
        "model": "test-model",
        "stopReason": "endTurn",
    },
    "client_roots": {"roots": [{"uri": ROOT_URI, "name": "Test Root"}]},
}


def meta(capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": EVERYTHING
        if capabilities is None
        else capabilities,
    }


def call(
    request_id: int,
    name: str,
    answers: dict[str, Any] | None = None,
    state: str | None = None,
    capabilities: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A 2026-07-28 ``tools/call`` of ``name``, a retry when given answers and a state."""
    params: dict[str, Any] = {"name": name, "arguments": {}, "_meta": meta(capabilities)}
    if answers is not None:
        params["inputResponses"] = answers
    if state is not None:
        params["requestState"] = state
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def text(result: dict[str, Any]) -> str:
    assert result["resultType"] == "complete", result
    return str(result["content"][0]["text"])


def count(server: RawServer, request_id: int, tool: str) -> int:
    message = call(request_id, "count")
    message["params"]["arguments"] = {"tool": tool}
    return int(text(server.request(message)["result"]))


def accept(**content: Any) -> dict[str, Any]:
    return {"action": "accept", "content": content}


# --- 2026-07-28, raw over stdio ---------------------------------------------------------------


def test_three_kinds_go_out_in_one_round_and_one_retry_answers_them() -> None:
    server = RawServer(str(ASKER))
    try:
        asked = server.request(call(1, MULTIPLE))["result"]
        assert asked["resultType"] == "input_required"
        assert asked["inputRequests"] == ROUND
        done = server.request(call(2, MULTIPLE, ANSWERS, asked["requestState"]))["result"]
        assert text(done) == f"Alice|Hello there!|{ROOT_URI}"
        assert count(server, 3, "multiple") == 1  # parked, resumed: its code ran once
    finally:
        server.close()


@pytest.mark.parametrize("parked", [True, False])
def test_a_retry_missing_answers_is_asked_for_the_missing_ones_again(parked: bool) -> None:
    server = RawServer(str(ASKER), *([] if parked else ["max_parked=0"]))
    try:
        asked = server.request(call(1, MULTIPLE))["result"]
        first = asked["requestState"]
        partial = {"user_name": ANSWERS["user_name"], "greeting": "no object", "other": {}}
        again = server.request(call(2, MULTIPLE, partial, first))["result"]
        assert again["resultType"] == "input_required"
        assert again["inputRequests"] == {k: ROUND[k] for k in ("greeting", "client_roots")}
        assert again["requestState"] != first
        rest = {k: ANSWERS[k] for k in ("greeting", "client_roots")}
        done = server.request(call(3, MULTIPLE, rest, again["requestState"]))["result"]
        assert text(done) == f"Alice|Hello there!|{ROOT_URI}"  # the first retry's answer kept
        # replayed each time it is retried when no call can park; else parked after the replay
        assert count(server, 4, "multiple") == (2 if parked else 3)
        nothing = server.request(call(5, MULTIPLE, {}, again["requestState"]))["result"]
        assert list(nothing["inputRequests"]) == ["greeting", "client_roots"]
    finally:
        server.close()


def test_named_questions_go_round_by_round_and_default_keys_count_every_question() -> None:
    server = RawServer(str(ASKER), "max_parked=0")  # every retry replays the method
    try:
        first = server.request(call(1, "test_input_required_result_multi_round"))["result"]
        assert list(first["inputRequests"]) == ["step1"]
        step1 = {"step1": accept(name="Alice")}
        second = server.request(
            call(2, "test_input_required_result_multi_round", step1, first["requestState"])
        )["result"]
        assert list(second["inputRequests"]) == ["step2"]
        assert second["requestState"] != first["requestState"]
        step2 = {"step2": accept(color="blue")}
        done = server.request(
            call(3, "test_input_required_result_multi_round", step2, second["requestState"])
        )["result"]
        assert text(done) == "Alice likes blue"

        forms = server.request(call(4, "form"))["result"]
        assert list(forms["inputRequests"]) == ["name", "age"]  # elicit.many: one round
        assert forms["inputRequests"]["age"]["params"]["requestedSchema"]["properties"] == {
            "value": {"type": "integer"}
        }
        both = {"name": accept(value="Ada"), "age": accept(value=36)}
        sure = server.request(call(5, "form", both, forms["requestState"]))["result"]
        assert list(sure["inputRequests"]) == ["q2"]  # the call's third question
        yes = {"q2": accept(value=True)}
        assert text(server.request(call(6, "form", yes, sure["requestState"]))["result"]) == (
            "Ada 36 True"
        )
        assert count(server, 7, "form") == 3
    finally:
        server.close()


def test_a_key_used_twice_or_empty_is_a_clear_tool_error() -> None:
    server = RawServer(str(ASKER))
    try:
        first = server.request(call(1, "clash"))["result"]
        assert list(first["inputRequests"]) == ["same"]
        retry = call(2, "clash", {"same": accept(value=True)}, first["requestState"])
        refused = server.request(retry)["result"]
        assert refused["isError"] is True
        assert "question key 'same' is taken" in refused["content"][0]["text"]
        empty = server.request(call(3, "bad_key"))["result"]
        assert empty["isError"] is True and "cannot be empty" in empty["content"][0]["text"]
    finally:
        server.close()


def test_a_client_lacking_one_kind_gets_minus_32021_before_any_question() -> None:
    server = RawServer(str(ASKER))
    try:
        refused = server.request(call(1, MULTIPLE, capabilities={"elicitation": {}}))
        assert refused["error"]["code"] == -32021
        assert refused["error"]["data"] == {"requiredCapabilities": {"sampling": {}}}
    finally:
        server.close()


# --- 2026-07-28, raw over Streamable HTTP -----------------------------------------------------


def test_one_round_of_three_over_http() -> None:
    server = HttpServer(target=f"{ASKER}:Asker")
    try:
        headers = modern_headers("tools/call", MULTIPLE)
        asked = post(server.url, call(1, MULTIPLE), **headers).json()["result"]
        assert asked["inputRequests"] == ROUND
        retry = call(2, MULTIPLE, ANSWERS, asked["requestState"])
        assert text(post(server.url, retry, **headers).json()["result"]) == (
            f"Alice|Hello there!|{ROOT_URI}"
        )
    finally:
        server.stop()


# --- the official Python SDK client, both eras ------------------------------------------------


class Peer:
    """The client's side: answers each kind of question and records what was asked, in
    order."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def elicit(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked.append(f"elicit:{params.message}")
        fields = params.requested_schema["properties"]
        if "name" in fields:
            return types.ElicitResult(action="accept", content={"name": "Ada"})
        kind = fields["value"]["type"]
        value = {"string": "Ada", "integer": 36, "boolean": True}[kind]
        return types.ElicitResult(action="accept", content={"value": value})

    async def sample(self, context: Any, params: types.CreateMessageRequestParams) -> Any:
        self.asked.append(f"sample:{params.messages[0].content.text}")  # type: ignore[union-attr]
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="Hi!"),
            model="tiny-1",
        )

    async def roots(self, context: Any) -> types.ListRootsResult:
        self.asked.append("roots")
        return types.ListRootsResult(roots=[types.Root(uri=ROOT_URI)])  # type: ignore[arg-type]


def params() -> StdioServerParameters:
    return stdio_server(ASKER)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_same_methods_ask_together_in_both_eras(mode: str) -> None:
    peer = Peer()
    async with Client(
        params(),
        mode=mode,
        elicitation_callback=peer.elicit,
        sampling_callback=peer.sample,
        list_roots_callback=peer.roots,
    ) as client:
        for tool in (MULTIPLE, "together_async"):
            result = await client.call_tool(tool, {})
            assert not result.is_error, result
            assert result.content[0].text == f"Ada|Hi!|{ROOT_URI}"  # type: ignore[union-attr]
        three = ["elicit:What is your name?", "sample:Generate a greeting", "roots"]
        if mode == "legacy":  # one request after the other, in the order of the call
            assert peer.asked == three * 2
        else:  # one round each: the client answers them as it likes
            assert sorted(peer.asked) == sorted(three * 2)
        peer.asked.clear()
        for tool, said in (("form", "Ada 36 True"), ("form_async", "Ada True True")):
            result = await client.call_tool(tool, {})
            assert result.content[0].text == said, result  # type: ignore[union-attr]
        assert peer.asked[-1] == "elicit:Sure?"
        assert sorted(peer.asked[:2]) == ["elicit:Your age?", "elicit:Your name?"]
        if mode == "legacy":
            assert peer.asked[:2] == ["elicit:Your name?", "elicit:Your age?"]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_a_key_clash_is_an_error_result_in_both_eras(mode: str) -> None:
    peer = Peer()
    async with Client(params(), mode=mode, elicitation_callback=peer.elicit) as client:
        result = await client.call_tool("clash", {})
        assert result.is_error
        assert "question key 'same' is taken" in result.content[0].text  # type: ignore[union-attr]
        if mode == "legacy":  # the same call without sampling: an error result that says why
            refused = await client.call_tool(MULTIPLE, {})
            assert refused.is_error and "does not support sampling" in json.dumps(
                refused.model_dump(mode="json")
            )
        else:
            with pytest.raises(MCPError) as missing:
                await client.call_tool(MULTIPLE, {})
            assert missing.value.error.code == -32021
