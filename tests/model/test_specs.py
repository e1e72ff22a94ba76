"""The same tools for LLM APIs without MCP: definitions checked against the providers'
own SDK types, and canned replies dispatched through ``Toolbox.call``."""

from __future__ import annotations

import json
import logging
import re
import sys
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from anthropic.types import Message, ToolParam
from conftest import NOTES, ZOO
from google.genai import types as gemini
from jsonschema import Draft202012Validator
from openai.types.chat import ChatCompletion, ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam, Response
from openai.types.shared_params import FunctionDefinition
from pydantic import TypeAdapter

import objmcp
from objmcp.testing import connect_sync

sys.path.insert(0, str(ZOO.parent))
sys.path.insert(0, str(NOTES.parent))
import notes
import zoo

API_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")


@dataclass
class Tree:
    """A tree of labels."""

    label: str
    children: list[Tree]


class Odd:
    def plant(self, tree: Tree, depth: int = 1) -> int:
        """Count the labels."""
        return 1 + sum(self.plant(child) for child in tree.children)

    def pick(self, level: int | None = None, code: Any = None) -> str:
        """Optional things."""
        return f"{level}"


def toolboxes() -> list[objmcp.Toolbox]:
    return [
        objmcp.Toolbox(zoo.Zoo()),
        objmcp.Toolbox(notes.Notes()),
        objmcp.Toolbox(Odd()),
        objmcp.Toolbox({"notes.v1": notes.Notes(), "stats": __import__("statistics")}),
    ]


def typed_dict(kind: Any, value: dict[str, Any]) -> None:
    """Check a dict against an SDK TypedDict: types, required keys, and no unknown keys."""
    TypeAdapter(kind).validate_python(value, strict=True)
    unknown = set(value) - (kind.__required_keys__ | kind.__optional_keys__)
    assert not unknown, f"unknown keys for {kind.__name__}: {sorted(unknown)}"


def walk(node: Any) -> Any:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from walk(item)


@pytest.mark.parametrize("tools", toolboxes(), ids=repr)
def test_anthropic_tools(tools: objmcp.Toolbox) -> None:
    for spec in tools.specs("anthropic"):
        typed_dict(ToolParam, spec)
        assert API_NAME.fullmatch(spec["name"])
        assert spec["input_schema"]["type"] == "object"
        Draft202012Validator.check_schema(spec["input_schema"])


@pytest.mark.parametrize("tools", toolboxes(), ids=repr)
def test_openai_tools(tools: objmcp.Toolbox) -> None:
    for chat, responses in zip(tools.specs("openai"), tools.specs("openai-responses"), strict=True):
        typed_dict(ChatCompletionFunctionToolParam, chat)
        typed_dict(FunctionDefinition, chat["function"])
        typed_dict(FunctionToolParam, responses)
        assert responses == {"type": "function", **chat["function"]}
        assert API_NAME.fullmatch(responses["name"])
        Draft202012Validator.check_schema(responses["parameters"])
        if responses["strict"]:  # OpenAI's documented strict-mode rules
            schema = responses["parameters"]
            assert "anyOf" not in schema
            for node in walk(schema):
                assert "default" not in node
                if node.get("type") == "object":
                    assert node.get("additionalProperties") is False
                    assert sorted(node.get("required", [])) == sorted(node.get("properties", {}))


def test_strict_only_where_the_schema_allows_it() -> None:
    strict = {
        spec["name"]: spec["strict"] for spec in objmcp.Toolbox(zoo.Zoo()).specs("openai-responses")
    }
    assert strict["add"] is True  # every parameter required, nothing else
    assert strict["options"] is False  # **extra: additional properties
    assert strict["describe"] is False  # defaults, optional parameters
    assert strict["total"] is False  # an optional *numbers


@pytest.mark.parametrize("tools", toolboxes(), ids=repr)
def test_gemini_declarations(tools: objmcp.Toolbox, caplog: pytest.LogCaptureFixture) -> None:
    for spec in tools.specs("gemini"):
        declaration = gemini.FunctionDeclaration.model_validate(spec)  # forbids unknown keys
        assert API_NAME.fullmatch(spec["name"])
        assert declaration.parameters is not None
        assert declaration.parameters.type == gemini.Type.OBJECT
        for node in walk(spec["parameters"]):
            assert not {"$ref", "$defs", "const", "prefixItems", "uniqueItems"} & set(node)
            assert all(isinstance(v, str) for v in node.get("enum", []))


def test_gemini_translations_are_said() -> None:
    tools = objmcp.Toolbox(zoo.Zoo())
    logger = logging.getLogger("objmcp")
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    handler = Keep()
    logger.addHandler(handler)
    try:
        spec = {s["name"]: s for s in tools.specs("gemini")}
        odd = {s["name"]: s for s in objmcp.Toolbox(Odd()).specs("gemini")}
    finally:
        logger.removeHandler(handler)
    describe = spec["describe"]["parameters"]["properties"]
    assert describe["point"]["properties"]["x"] == {"type": "NUMBER", "description": "Across."}
    assert describe["labels"]["nullable"] is True
    assert describe["amount"]["anyOf"] == [
        {"type": "NUMBER", "description": "A decimal number."},
        {"type": "STRING", "description": "A decimal number."},
    ]
    assert "uuid" in describe["ident"]["description"]
    children = odd["plant"]["parameters"]["properties"]["tree"]["properties"]["children"]
    assert children["items"]["type"] == "OBJECT"
    said = "\n".join(records)
    assert "fixed-length tuple" in said and "recursive type Tree" in said


@pytest.mark.parametrize("era", ["handshake", "modern"])
def test_mcp_specs_are_exactly_what_tools_list_serves(era: Literal["handshake", "modern"]) -> None:
    server = objmcp.Server("zoo", zoo.Zoo())
    with connect_sync(server, era=era) as client:
        listed = client.request("tools/list")
    tools = listed["tools"]
    if era == "handshake":  # 2025-11-25 says each tool's taskSupport too (its core tasks)
        support = {"never": "forbidden", "always": "required"}
        for tool in tools:
            mode = server.toolbox[tool["name"]].task
            assert tool.pop("execution") == {"taskSupport": support.get(mode or "", "optional")}
    assert tools == server.toolbox.specs("mcp")


def test_jsonschema_specs_name_their_dialect() -> None:
    for spec in objmcp.Toolbox(zoo.Zoo()).specs("jsonschema"):
        assert spec["schema"]["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(spec["schema"])


def test_names_are_fitted_and_callable_both_ways() -> None:
    tools = objmcp.Toolbox({"notes.v1": notes.Notes()})
    names = [spec["name"] for spec in tools.specs("anthropic")]
    assert names == ["notes_v1_add", "notes_v1_find", "notes_v1_remove"]
    assert tools.call("notes_v1_add", {"title": "a"}).text == '{"title":"a","body":"","tags":[]}'
    assert tools.call("notes.v1_remove", {"title": "a"}).text == "true"
    clash = objmcp.Toolbox({"a.b": max, "a_b": min})
    with pytest.raises(ValueError, match=re.escape("'a.b' and 'a_b'")):
        clash.specs("openai")
    assert len(clash.specs("mcp")) == 2
    with pytest.raises(ValueError, match="Unknown spec format"):
        tools.specs("claude")  # type: ignore[arg-type]


def test_a_canned_anthropic_reply_is_dispatched() -> None:
    reply = Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-test",
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
            "content": [
                {"type": "text", "text": "Adding."},
                {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 2, "b": 40}},
                {"type": "tool_use", "id": "toolu_2", "name": "add", "input": {"a": "x", "b": 1}},
            ],
        }
    )
    tools = objmcp.Toolbox(zoo.Zoo())
    results = [
        tools.call(block.name, block.input) for block in reply.content if block.type == "tool_use"
    ]
    assert (results[0].text, results[0].is_error) == ("42", False)
    assert results[1].is_error and "'a'" in results[1].text


def test_a_canned_openai_chat_reply_is_dispatched() -> None:
    reply = ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-test",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": "echo", "arguments": '{"text": "héllo"}'},
                            },
                            {
                                "id": "call_2",
                                "type": "function",
                                "function": {"name": "echo", "arguments": '{"text": '},
                            },
                        ],
                    },
                }
            ],
        }
    )
    tools = objmcp.Toolbox(zoo.Zoo())
    calls = reply.choices[0].message.tool_calls or []
    results = [tools.call(c.function.name, c.function.arguments) for c in calls]  # type: ignore[union-attr]
    assert (results[0].text, results[0].is_error) == ("héllo", False)
    assert results[1].is_error and "not valid JSON" in results[1].text


def test_a_canned_openai_responses_reply_is_dispatched() -> None:
    reply = Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 0,
            "model": "gpt-test",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_1",
                    "name": "total",
                    "arguments": json.dumps({"numbers": [1, 2.5]}),
                    "status": "completed",
                }
            ],
        }
    )
    tools = objmcp.Toolbox(zoo.Zoo())
    calls = [item for item in reply.output if item.type == "function_call"]
    assert [tools.call(c.name, c.arguments).text for c in calls] == ["3.5"]  # type: ignore[union-attr]


def test_a_canned_gemini_reply_is_dispatched() -> None:
    reply = gemini.GenerateContentResponse.model_validate(
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [{"functionCall": {"name": "add", "args": {"a": 1, "b": 2}}}],
                    }
                }
            ]
        }
    )
    tools = objmcp.Toolbox(zoo.Zoo())
    calls = reply.function_calls or []
    assert [tools.call(c.name or "", c.args).text for c in calls] == ["3"]


def test_elicit_is_given_by_the_caller_or_refused_clearly() -> None:
    asked: list[tuple[str, object]] = []

    def answer(message: str, schema: object) -> objmcp.ElicitResult:
        asked.append((message, schema))
        return objmcp.ElicitResult("accept", {"value": True}, True)

    tools = objmcp.Toolbox(zoo.Zoo())
    answered = tools.call("ask", {}, elicit=answer)
    assert not answered.is_error and "accept" in answered.text
    assert asked == [("Sure?", bool)]
    refused = tools.call("ask", {})
    assert refused.is_error and "elicit=" in refused.text


def test_progress_is_given_by_the_caller_or_goes_nowhere() -> None:
    seen: list[tuple[float, float | None]] = []

    def report(done: float, total: float | None = None, message: str | None = None) -> None:
        seen.append((done, total))

    async def report_async(done: float, total: float | None = None) -> None:
        seen.append((done, total))

    tools = objmcp.Toolbox(zoo.Zoo())
    assert tools.call("steps", {"count": 2}, progress=report).text == "did 2"
    assert tools.call("async_steps", {"count": 2}, progress=report_async).text == "did 2"
    assert seen == [(1, 2), (2, 2), (1, 2), (2, 2)]
    assert tools.call("steps", {"count": 1}).text == "did 1"
    assert tools.call("async_steps", {"count": 1}).text == "did 1"
