"""Sampling requests and the client's answers (sampling, roots), as plain conversions, and
the injected callables in memory: through ``Toolbox``, and over the protocol in both eras
through ``objmcp.testing``."""

from __future__ import annotations

from typing import Any, Literal

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

import objmcp
from objmcp.model.asking.sampling import read_roots, read_sample, sample_request
from objmcp.testing import ResponseError, connect

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
TEXT_BLOCK = st.builds(lambda text: {"type": "text", "text": text}, st.text())
MESSAGE = st.text() | st.fixed_dictionaries(
    {
        "role": st.sampled_from(["user", "assistant"]),
        "content": st.text() | TEXT_BLOCK | st.lists(TEXT_BLOCK, min_size=1, max_size=3),
    }
)
# CreateMessageRequest params as schema.ts (2025-11-25) has them, the fields objmcp sends.
PARAMS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["messages", "maxTokens"],
    "properties": {
        "messages": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["role", "content"],
                "properties": {
                    "role": {"enum": ["user", "assistant"]},
                    "content": {
                        "anyOf": [
                            {"$ref": "#/$defs/block"},
                            {"type": "array", "items": {"$ref": "#/$defs/block"}},
                        ]
                    },
                },
            },
        },
        "maxTokens": {"type": "integer"},
        "systemPrompt": {"type": "string"},
        "temperature": {"type": "number"},
        "stopSequences": {"type": "array", "items": {"type": "string"}},
        "modelPreferences": {
            "type": "object",
            "properties": {
                "hints": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"name": {"type": "string"}}},
                }
            },
        },
    },
    "$defs": {"block": {"type": "object", "required": ["type"]}},
}


@given(
    st.text() | st.lists(MESSAGE, min_size=1, max_size=4),
    st.integers(1, 10**6),
    st.none() | st.text(),
    st.none() | st.floats(0, 2),
    st.none() | st.lists(st.text(), max_size=3),
    st.none() | st.lists(st.text(), max_size=3),
)
def test_requests_fit_the_spec_and_keep_every_message(
    messages: Any,
    max_tokens: int,
    system: str | None,
    temperature: float | None,
    stop: list[str] | None,
    models: list[str] | None,
) -> None:
    params = sample_request(
        messages,
        max_tokens=max_tokens,
        system=system,
        temperature=temperature,
        stop=stop,
        models=models,
    )
    jsonschema.validate(params, PARAMS_SCHEMA)
    expected = [messages] if isinstance(messages, str) else messages
    assert len(params["messages"]) == len(expected)
    for sent, asked in zip(params["messages"], expected, strict=True):
        if isinstance(asked, str):
            assert sent == {"role": "user", "content": {"type": "text", "text": asked}}
        elif isinstance(asked["content"], str):
            assert sent["content"] == {"type": "text", "text": asked["content"]}
        else:
            assert sent["content"] == asked["content"]
    assert params["maxTokens"] == max_tokens
    assert params.get("systemPrompt") == system
    assert params.get("stopSequences") == stop
    hints = params.get("modelPreferences", {}).get("hints")
    assert hints == (None if models is None else [{"name": m} for m in models])


@pytest.mark.parametrize(
    ("arguments", "error", "named"),
    [
        ({"messages": []}, TypeError, "non-empty"),
        ({"messages": "hi", "max_tokens": 0}, ValueError, "max_tokens"),
        ({"messages": "hi", "max_tokens": True}, ValueError, "max_tokens"),
        ({"messages": [{"role": "system", "content": "x"}]}, ValueError, "role"),
        ({"messages": [{"role": "user", "content": 5}]}, TypeError, "content"),
        ({"messages": [3]}, TypeError, "message 0"),
        ({"messages": "hi", "temperature": float("inf")}, ValueError, "finite"),
        ({"messages": "hi", "stop": "END"}, TypeError, "stop"),
        ({"messages": "hi", "models": [1]}, TypeError, "models"),
        ({"messages": "hi", "metadata": [1]}, TypeError, "metadata"),
    ],
)
def test_requests_the_spec_cannot_carry_are_refused(
    arguments: dict[str, Any], error: type[Exception], named: str
) -> None:
    messages = arguments.pop("messages")
    with pytest.raises(error, match=named):
        sample_request(messages, **arguments)


@given(JSON)
def test_any_answer_is_read_or_refused_clearly(answer: Any) -> None:
    for read in (read_sample, read_roots):
        if not isinstance(answer, dict):
            continue
        try:
            read(answer)
        except objmcp.InteractionError as error:
            assert str(error).startswith("The client")


@given(
    st.text(),
    st.text(),
    st.none() | st.text(),
    st.lists(TEXT_BLOCK | st.just({"type": "image", "data": "", "mimeType": "image/png"})),
)
def test_a_completion_reads_back_its_text(
    model: str, role_text: str, stop_reason: str | None, blocks: list[dict[str, Any]]
) -> None:
    answer = {"role": "assistant", "model": model, "content": blocks}
    if stop_reason is not None:
        answer["stopReason"] = stop_reason
    result = read_sample(answer)
    assert result.text == "".join(b["text"] for b in blocks if b["type"] == "text")
    assert (result.model, result.stop_reason, result.content) == (
        model,
        stop_reason,
        tuple(blocks),
    )
    single = read_sample({**answer, "content": {"type": "text", "text": role_text}})
    assert single.text == role_text


@given(st.lists(st.tuples(st.text(), st.none() | st.text()), max_size=5))
def test_roots_read_back(pairs: list[tuple[str, str | None]]) -> None:
    roots = [{"uri": uri, **({} if name is None else {"name": name})} for uri, name in pairs]
    assert read_roots({"roots": roots}) == [objmcp.Root(uri, name) for uri, name in pairs]


class Helper:
    def summarize(self, text: str, sample: objmcp.Sample) -> str:
        return sample(f"sum {text}").text

    def folders(self, roots: objmcp.Roots) -> list[str]:
        return [root.uri for root in roots()]

    def all_in_one(self, context: objmcp.Context) -> str:
        context.progress(1)
        context.log.warning("careful")
        return f"{context.tool} {context.cancelled.is_set()}"


def test_toolbox_calls_hand_over_what_they_are_given() -> None:
    tools = objmcp.Toolbox(Helper())
    schemas = {spec["name"]: spec["inputSchema"] for spec in tools.specs()}
    assert schemas["all_in_one"].get("properties", {}) == {}
    assert schemas["folders"].get("properties", {}) == {}
    assert "sample" not in schemas["summarize"]["properties"]

    def sample(messages: Any, **options: Any) -> objmcp.SampleResult:
        return objmcp.SampleResult(text=f"<{messages}>", model="m")

    assert tools.call("summarize", {"text": "x"}, sample=sample).text == "<sum x>"
    refused = tools.call("summarize", {"text": "x"})
    assert refused.is_error and "does not support sampling" in refused.text
    roots = {objmcp.Roots: lambda: [objmcp.Root("file:///a")]}
    assert tools.call("folders", {}, injected=roots).text == '["file:///a"]'
    assert tools.call("folders", {}).is_error
    assert tools.call("all_in_one", {}).text == "all_in_one False"


@pytest.mark.anyio
@pytest.mark.parametrize("era", ["handshake", "modern"])
async def test_protocol_calls_hand_over_what_the_client_answers(
    era: Literal["handshake", "modern"],
) -> None:
    asked: list[dict[str, Any]] = []

    def sample(params: dict[str, Any]) -> objmcp.SampleResult:
        asked.append(params)
        text = params["messages"][0]["content"]["text"]
        return objmcp.SampleResult(text=f"<{text}>", model="m")

    roots = [objmcp.Root("file:///a")]
    async with connect(
        Helper(), era=era, sample=sample, roots=roots, log_level="warning"
    ) as client:
        schemas = {tool["name"]: tool["inputSchema"] for tool in await client.list_tools()}
        summarized = await client.call("summarize", text="x")
        folders = await client.call("folders")
        everything = await client.call("all_in_one")
    assert schemas["all_in_one"].get("properties", {}) == {}
    assert schemas["folders"].get("properties", {}) == {}
    assert "sample" not in schemas["summarize"]["properties"]
    assert (summarized.text, summarized.is_error) == ("<sum x>", False)
    (request,) = asked
    jsonschema.validate(request, PARAMS_SCHEMA)
    assert request["messages"] == [{"role": "user", "content": {"type": "text", "text": "sum x"}}]
    assert (folders.text, folders.is_error) == ('["file:///a"]', False)
    assert (everything.text, everything.is_error) == ("all_in_one False", False)
    assert everything.progress == [(1, None, None)]
    assert client.logs == [{"level": "warning", "logger": "all_in_one", "data": "careful"}]

    async with connect(Helper(), era=era) as unable:  # no sampling, no roots
        if era == "modern":  # 2026-07-28: MissingRequiredClientCapabilityError
            for tool, arguments, needed in (
                ("summarize", {"text": "x"}, {"sampling": {}}),
                ("folders", {}, {"roots": {}}),
            ):
                with pytest.raises(ResponseError) as missing:
                    await unable.call(tool, **arguments)
                assert missing.value.code == -32021
                assert missing.value.data == {"requiredCapabilities": needed}
        else:
            refused = await unable.call("summarize", text="x")
            no_roots = await unable.call("folders")
            assert refused.is_error and "does not support sampling" in refused.text
            assert no_roots.is_error
