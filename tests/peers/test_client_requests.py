"""Sampling, roots, URL questions, the injected logger and the one Context parameter,
through the official ``mcp`` Python SDK client in both eras, against a real server."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import ZOO, stdio_server
from mcp import Client, StdioServerParameters, types
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

MODES = ["legacy", "2026-07-28"]


def params() -> StdioServerParameters:
    return stdio_server(ZOO)


def text_of(result: Any) -> str:
    assert len(result.content) == 1
    return str(result.content[0].text)


def plain(value: Any) -> Any:
    """A pydantic model as the JSON it was read from."""
    return value.model_dump(mode="json", by_alias=True, exclude_none=True)


@pytest.mark.parametrize("mode", MODES)
async def test_a_tool_asks_the_clients_model(mode: str) -> None:
    asked: list[dict[str, Any]] = []

    async def model(context: Any, request: types.CreateMessageRequestParams) -> Any:
        asked.append(plain(request))
        said = request.messages[0].content
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=f"short: {said.text}"),  # type: ignore[union-attr]
            model="tiny-1",
            stop_reason="endTurn",
        )

    async with Client(params(), mode=mode, sampling_callback=model) as client:
        result = await client.call_tool("summarize", {"text": "a long story"})
        assert not result.is_error
        assert text_of(result) == "short: a long story [tiny-1, endTurn]"
        awaited = await client.call_tool("async_summarize", {"text": "more"})
        assert text_of(awaited) == "short: Summarize: more [tiny-1]"
    first = asked[0]
    assert [m["role"] for m in first["messages"]] == ["user", "assistant", "user"]
    assert first["messages"][1]["content"] == {"type": "text", "text": "Noted."}
    assert first["maxTokens"] == 50
    assert first["systemPrompt"] == "Be brief."
    assert first["temperature"] == 0.5
    assert first["stopSequences"] == ["END"]
    assert first["modelPreferences"] == {"hints": [{"name": "claude-small"}]}
    assert asked[1]["maxTokens"] == 1024


@pytest.mark.parametrize("mode", MODES)
async def test_sampling_without_the_capability_or_with_a_broken_answer_is_a_tool_error(
    mode: str,
) -> None:
    async with Client(params(), mode=mode) as client:
        if mode == "legacy":
            refused = await client.call_tool("summarize", {"text": "x"})
            assert refused.is_error
            assert "does not support sampling" in text_of(refused)
        else:  # 2026-07-28: MissingRequiredClientCapabilityError
            with pytest.raises(MCPError) as missing:
                await client.call_tool("summarize", {"text": "x"})
            assert missing.value.error.code == -32021

    async def failing(context: Any, request: types.CreateMessageRequestParams) -> Any:
        return types.ErrorData(code=-1, message="the user said no")

    async with Client(params(), mode=mode, sampling_callback=failing) as client:
        if mode == "legacy":
            failed = await client.call_tool("summarize", {"text": "x"})
            assert failed.is_error
            assert "the user said no" in text_of(failed)
        else:  # an input response cannot be an error: the client gives up the call itself
            with pytest.raises(MCPError, match="the user said no"):
                await client.call_tool("summarize", {"text": "x"})
        assert text_of(await client.call_tool("echo", {"text": "still here"})) == "still here"


@pytest.mark.parametrize("mode", MODES)
async def test_a_tool_lists_the_clients_roots(mode: str) -> None:
    async def roots(context: Any) -> Any:
        return types.ListRootsResult(
            roots=[
                types.Root(uri="file:///home/me/project", name="project"),  # type: ignore[arg-type]
                types.Root(uri="file:///tmp"),  # type: ignore[arg-type]
            ]
        )

    async with Client(params(), mode=mode, list_roots_callback=roots) as client:
        result = await client.call_tool("where", {})
    assert not result.is_error
    assert json.loads(text_of(result)) == ["project=file:///home/me/project", "None=file:///tmp"]

    async with Client(params(), mode=mode) as client:
        if mode == "legacy":
            refused = await client.call_tool("where", {})
            assert refused.is_error and "does not support roots" in text_of(refused)
        else:  # 2026-07-28: MissingRequiredClientCapabilityError
            with pytest.raises(MCPError) as missing:
                await client.call_tool("where", {})
            assert missing.value.error.code == -32021
            assert missing.value.error.data == {"requiredCapabilities": {"roots": {}}}


@pytest.mark.parametrize("mode", MODES)
async def test_a_tool_sends_the_user_to_a_page(mode: str) -> None:
    seen: list[Any] = []
    completed: list[Any] = []

    async def answer(context: Any, request: types.ElicitRequestParams) -> Any:
        seen.append(request)
        return types.ElicitResult(action="accept")

    async def messages(message: Any) -> None:
        if isinstance(message, types.ServerNotification):
            completed.append(message)

    async with Client(
        params(), mode=mode, elicitation_callback=answer, message_handler=messages
    ) as client:
        result = await client.call_tool("sign_in", {})
    assert not result.is_error, text_of(result)
    assert isinstance(seen[0], types.ElicitRequestURLParams)
    assert seen[0].url == "https://example.com/login"
    assert seen[0].message == "Sign in to continue"
    if mode == "legacy":  # 2025-11-25: an id, and a notification when the step is done
        assert text_of(result) == "accept:True"
        assert seen[0].elicitation_id
        ids = [getattr(n, "params", None) for n in completed]
        assert any(getattr(p, "elicitation_id", None) == seen[0].elicitation_id for p in ids)
    else:  # 2026-07-28 has neither
        assert text_of(result) == "accept:False"
        assert seen[0].elicitation_id is None


@pytest.mark.parametrize("mode", MODES)
async def test_the_injected_logger_reaches_the_client(mode: str) -> None:
    records: list[types.LoggingMessageNotificationParams] = []

    async def log(params: types.LoggingMessageNotificationParams) -> None:
        records.append(params)

    async with Client(params(), mode=mode, logging_callback=log) as client:
        if mode == "legacy":
            await client.set_logging_level("info")
            result = await client.call_tool("log_levels", {})
        else:
            meta = {"io.modelcontextprotocol/logLevel": "info"}
            result = await client.call_tool("log_levels", {}, meta=meta)
    assert text_of(result) == "logged"
    got = [(r.level, r.logger, r.data) for r in records if r.logger == "log_levels"]
    assert got == [
        ("info", "log_levels", "working"),
        ("notice", "log_levels", {"step": 2, "of": 3}),
        ("error", "log_levels", "trouble"),
    ]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("tool", ["everything", "async_everything"])
async def test_one_context_parameter_carries_it_all(mode: str, tool: str) -> None:
    progress: list[float] = []

    async def answer(context: Any, request: types.ElicitRequestParams) -> Any:
        return types.ElicitResult(action="accept", content={"value": "Ada"})

    async def report(done: float, total: float | None, message: str | None) -> None:
        progress.append(done)

    async with Client(params(), mode=mode, elicitation_callback=answer) as client:
        result = await client.call_tool(tool, {}, progress_callback=report)
        listed = {t.name: t for t in (await client.list_tools()).tools}
    assert (text_of(result), result.is_error) == (f"{tool}: Ada", False)
    assert listed[tool].input_schema.get("properties", {}) == {}
    assert progress[-1] == 2
