"""The official ``mcp`` Python SDK client, in each of its modes, against real server processes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import NOTES, ZOO, stdio_server
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

MODES = ["legacy", "auto", "2026-07-28"]


def params(script: Any) -> StdioServerParameters:
    return stdio_server(script)


def text_of(result: Any) -> str:
    assert len(result.content) == 1
    assert result.content[0].type == "text"
    return str(result.content[0].text)


@pytest.mark.parametrize("mode", MODES)
async def test_lists_the_public_methods_with_their_schemas(mode: str) -> None:
    async with Client(params(ZOO), mode=mode) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert {"add", "echo", "describe", "fail", "sleep", "nap", "total", "options"} <= set(tools)
    assert "hidden_property" not in tools
    assert "_private" not in tools
    assert "ask" in tools
    assert "elicit" not in tools["ask"].input_schema.get("properties", {})
    add = tools["add"]
    assert add.description == "Add two integers."
    assert add.input_schema["properties"]["a"] == {"type": "integer", "description": "The first."}
    assert add.input_schema["required"] == ["a", "b"]
    assert add.input_schema["additionalProperties"] is False
    describe = tools["describe"].input_schema
    assert describe["properties"]["color"]["enum"] == ["red", "green"]
    assert "$defs" not in describe  # nothing recursive: every definition in place
    assert describe["properties"]["point"]["title"] == "Point"
    assert describe["properties"]["point"]["properties"]["x"]["description"] == "Across."
    assert describe["properties"]["when"]["format"] == "date-time"
    assert describe["properties"]["note"]["description"] == "A free note."


@pytest.mark.parametrize("mode", MODES)
async def test_negotiates_the_era_the_mode_asks_for(mode: str) -> None:
    async with Client(params(ZOO), mode=mode) as client:
        expected = "2025-11-25" if mode == "legacy" else "2026-07-28"
        assert client.protocol_version == expected
        if mode != "2026-07-28":  # a pinned client never asks who the server is
            assert client.server_info is not None
            assert client.server_info.name == "zoo"
            assert client.instructions == "A zoo of tools."


@pytest.mark.parametrize("mode", MODES)
async def test_calls_tools_and_reports_errors_as_results(mode: str) -> None:
    async with Client(params(ZOO), mode=mode) as client:
        added = await client.call_tool("add", {"a": 2, "b": 3})
        assert (text_of(added), added.is_error) == ("5", False)

        echoed = await client.call_tool("echo", {"text": "héllo ✓ 🐍"})
        assert text_of(echoed) == "héllo ✓ 🐍"

        wrong = await client.call_tool("add", {"a": "two", "b": 3})
        assert wrong.is_error
        assert "'a'" in text_of(wrong) and "integer" in text_of(wrong)

        missing = await client.call_tool("add", {"a": 1})
        assert missing.is_error and "'b'" in text_of(missing)

        failed = await client.call_tool("fail", {"message": "boom"})
        assert failed.is_error and text_of(failed) == "ValueError: boom"

        refused = await client.call_tool("refuse", {"message": "not today"})
        assert refused.is_error and text_of(refused) == "not today"

        nothing = await client.call_tool("nothing", {})
        assert (text_of(nothing), nothing.is_error) == ("null", False)

        nan = await client.call_tool("not_a_number", {})
        assert not nan.is_error and text_of(nan) == "NaN"  # the SDK checked it by its schema
        assert nan.structured_content == {"result": "NaN"}

        total = await client.call_tool("total", {"numbers": [1, 2, 3.5]})
        assert text_of(total) == "6.5"

        extra = await client.call_tool("options", {"name": "abc", "x": 1, "y": 2})
        assert json.loads(text_of(extra)) == {"len": 3, "x": 1, "y": 2}

        bad_extra = await client.call_tool("options", {"name": "abc", "x": "one"})
        assert bad_extra.is_error and "'x'" in text_of(bad_extra)

        if mode == "legacy":
            asked = await client.call_tool("ask", {})
            assert asked.is_error and "elicitation" in text_of(asked).lower()
        else:  # 2026-07-28 (auto too): MissingRequiredClientCapabilityError
            with pytest.raises(MCPError) as missing:
                await client.call_tool("ask", {})
            assert missing.value.error.code == -32021

        with pytest.raises(MCPError) as unknown:
            await client.call_tool("no_such_tool", {})
        assert unknown.value.error.code == -32602
        assert "no_such_tool" in unknown.value.error.message


@pytest.mark.parametrize("mode", MODES)
async def test_converts_arguments_into_python_types(mode: str) -> None:
    arguments = {
        "color": "green",
        "point": {"x": 1.5},
        "span": {"start": 1, "end": 4},
        "person": {"name": "Ada", "age": 36},
        "when": "2026-07-28T10:00:00+00:00",
        "day": "2026-07-28",
        "ident": "12345678-1234-5678-1234-567812345678",
        "amount": "10.25",
        "path": "/tmp/x.txt",
        "pair": [2, "b"],
        "labels": ["x", "y"],
    }
    async with Client(params(ZOO), mode=mode) as client:
        result = await client.call_tool("describe", arguments)
    assert not result.is_error, text_of(result)
    seen = json.loads(text_of(result))
    assert seen["color"] == "Color:<Color.GREEN: 'green'>"
    assert seen["point"] == "Point:Point(x=1.5, y=0.0)"
    assert seen["span"] == "Span:Span(start=1, end=4)"
    assert seen["person"] == "dict:{'name': 'Ada', 'age': 36}"
    assert seen["when"].startswith("datetime:datetime.datetime(2026, 7, 28, 10, 0")
    assert seen["day"] == "date:datetime.date(2026, 7, 28)"
    assert seen["ident"] == "UUID:UUID('12345678-1234-5678-1234-567812345678')"
    assert seen["amount"] == "Decimal:Decimal('10.25')"
    assert seen["path"] == "PosixPath:PosixPath('/tmp/x.txt')"
    assert seen["mode"] == "str:'fast'"
    assert seen["pair"] == "tuple:(2, 'b')"
    assert seen["labels"] in ("set:{'x', 'y'}", "set:{'y', 'x'}")

    async with Client(params(ZOO), mode=mode) as client:
        # a set argument may repeat items: they collapse, as in set(["x", "x"]) (issue 40)
        twice = await client.call_tool("describe", {**arguments, "labels": ["x", "x"]})
        assert not twice.is_error, text_of(twice)
        assert json.loads(text_of(twice))["labels"] == "set:{'x'}"
        bad_day = await client.call_tool("describe", {**arguments, "day": "yesterday"})
        assert bad_day.is_error and "'day'" in text_of(bad_day) and "date" in text_of(bad_day)
        bad_color = await client.call_tool("describe", {**arguments, "color": "blue"})
        assert bad_color.is_error and "'color'" in text_of(bad_color)
        assert '"red"' in text_of(bad_color) and '"blue"' in text_of(bad_color)


@pytest.mark.parametrize("mode", MODES)
async def test_a_slow_call_does_not_hold_up_a_fast_one(mode: str) -> None:
    import anyio

    order: list[str] = []
    async with Client(params(ZOO), mode=mode) as client:

        async def call(name: str, arguments: dict[str, Any]) -> None:
            result = await client.call_tool(name, arguments)
            order.append(text_of(result))

        async with anyio.create_task_group() as group:
            group.start_soon(call, "sleep", {"seconds": 2})
            await anyio.sleep(0.3)
            group.start_soon(call, "add", {"a": 1, "b": 1})
    assert order == ["2", "slept 2"]


@pytest.mark.parametrize("mode", MODES)
async def test_the_notes_example(mode: str) -> None:
    async with Client(params(NOTES), mode=mode) as client:
        added = await client.call_tool("add", {"title": "milk", "tags": ["shopping"]})
        assert json.loads(text_of(added)) == {"title": "milk", "body": "", "tags": ["shopping"]}
        again = await client.call_tool("add", {"title": "milk"})
        assert again.is_error and "exists already" in text_of(again)
        found = await client.call_tool("find", {"text": "SHOP"})
        assert [note["title"] for note in json.loads(text_of(found))] == ["milk"]


@pytest.mark.parametrize("mode", MODES)
async def test_progress_reaches_the_client(mode: str) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def record(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with Client(params(ZOO), mode=mode) as client:
        done = await client.call_tool("steps", {"count": 3}, progress_callback=record)
        assert text_of(done) == "did 3"
        assert seen == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]
        seen.clear()
        done = await client.call_tool("async_steps", {"count": 2}, progress_callback=record)
        assert text_of(done) == "did 2"
        assert [(p, t) for p, t, _ in seen] == [(1, 2), (2, 2)]
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert list(tools["steps"].input_schema["properties"]) == ["count"]
        assert list(tools["async_steps"].input_schema["properties"]) == ["count"]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_log_records_reach_the_client_at_the_level_it_asked(mode: str) -> None:
    records: list[tuple[str, str | None, object]] = []

    async def record(params: Any) -> None:
        records.append((params.level, params.logger, params.data))

    expected = [("info", "zoo.chatty", "working"), ("warning", "zoo.chatty", "careful")]
    if mode == "legacy":
        async with Client(params(ZOO), mode=mode, logging_callback=record) as client:
            assert text_of(await client.call_tool("chatty", {})) == "chatted"
            assert records == []  # nothing until the client asks
            await client.set_logging_level("info")
            assert text_of(await client.call_tool("chatty", {})) == "chatted"
    else:
        async with Client(
            params(ZOO), mode=mode, logging_callback=record, log_level="info"
        ) as client:
            assert text_of(await client.call_tool("chatty", {})) == "chatted"
    assert records == expected
