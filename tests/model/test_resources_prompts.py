"""Resources, resource templates, prompts and completions, through the official SDK client
in both eras against a real server, and in memory through ``objmcp.testing`` as the object
model builds them."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import PYTHON, stdio_server
from mcp import Client, StdioServerParameters, types
from mcp.shared.exceptions import MCPError

import objmcp
import objmcp.testing
from objmcp.testing import ResponseError, connect

SHELF = Path(__file__).resolve().parents[1] / "servers" / "shelf.py"

pytestmark = pytest.mark.anyio


def params() -> StdioServerParameters:
    return stdio_server(SHELF)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_resources_are_listed_and_read(mode: str) -> None:
    async with Client(params(), mode=mode) as client:
        tools = [tool.name for tool in (await client.list_tools()).tools]
        listed = {str(r.uri): r for r in (await client.list_resources()).resources}
        templates = (await client.list_resource_templates()).resource_templates
        everything = await client.read_resource("notes://all")
        third = await client.read_resource("notes://3")
        dot = await client.read_resource("pictures://dot.png")
        with pytest.raises(MCPError) as missing:
            await client.read_resource("nowhere://1")
        with pytest.raises(MCPError) as absent:
            await client.read_resource("notes://99")
        with pytest.raises(MCPError) as wrong:
            await client.read_resource("notes://three")
    assert tools == ["add"]  # resources and prompts are not also tools
    assert set(listed) == {"notes://all", "pictures://dot.png"}
    assert listed["notes://all"].mime_type == "application/json"
    assert listed["pictures://dot.png"].mime_type == "image/png"
    assert [(t.uri_template, t.name, t.title) for t in templates] == [
        ("notes://{number}", "note", "One note")
    ]
    (content,) = everything.contents
    assert json.loads(content.text) == {"1": "Buy milk", "2": "Call Ada", "3": "Café ☕ at noon"}  # type: ignore[union-attr]
    assert third.contents[0].text == "Café ☕ at noon"  # type: ignore[union-attr]
    assert str(third.contents[0].uri) == "notes://3"
    assert base64.b64decode(dot.contents[0].blob).startswith(b"\x89PNG")  # type: ignore[union-attr]
    assert missing.value.error.code == (-32602 if mode == "2026-07-28" else -32002)
    assert absent.value.error.code == -32603 and "no note 99" in absent.value.error.message
    assert wrong.value.error.code == -32602 and "number" in wrong.value.error.message


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_prompts_are_listed_rendered_and_completed(mode: str) -> None:
    async with Client(params(), mode=mode) as client:
        prompts = {p.name: p for p in (await client.list_prompts()).prompts}
        got = await client.get_prompt("summarize", {"tone": "funny", "count": "2"})
        hello = await client.get_prompt("greet", {"who": "team"})
        with pytest.raises(MCPError) as bad:
            await client.get_prompt("summarize", {"tone": "grumpy"})
        with pytest.raises(MCPError) as missing:
            await client.get_prompt("greet", {})
        ref = types.PromptReference(type="ref/prompt", name="summarize")
        tones = await client.complete(ref, {"name": "tone", "value": "f"})
        focus = await client.complete(ref, {"name": "focus", "value": ""})
        template = types.ResourceTemplateReference(type="ref/resource", uri="notes://{number}")
        nothing = await client.complete(template, {"name": "number", "value": "1"})
    summarize = prompts["summarize"]
    assert summarize.title == "Summarize notes"
    assert summarize.description == "Ask for a summary of the notes."
    assert [(a.name, a.required, a.description) for a in summarize.arguments or []] == [
        ("tone", True, "How it should sound."),
        ("focus", False, "What to dwell on."),
        ("count", False, "How many notes."),
    ]
    roles = [message.role for message in got.messages]
    assert roles == ["user", "assistant", "user"]
    first = got.messages[0].content.text  # type: ignore[union-attr]
    assert "funny tone" in first and "Call Ada" in first and "Café" not in first
    assert hello.messages[0].content.text == "Say hello to the team."  # type: ignore[union-attr]
    assert bad.value.error.code == -32602 and "tone" in bad.value.error.message
    assert missing.value.error.code == -32602 and "who" in missing.value.error.message
    assert tones.completion.values == ["formal", "friendly", "funny"]
    assert focus.completion.values == ["milk", "Ada"]
    assert nothing.completion.values == []


class Unmarked:
    """A class whose author never heard of objmcp."""

    def page(self, slug: str) -> str:
        return f"page {slug}"

    def intro(self, name: str) -> str:
        return f"Introduce {name}."

    def ping(self) -> str:
        return "pong"


# The handshake revision these tests were written for, and the modern one.
REVISIONS = ["2025-06-18", "2026-07-28"]


@pytest.mark.parametrize("revision", REVISIONS)
async def test_options_as_data_publish_unmarked_methods(revision: str) -> None:
    server = objmcp.Server(
        "pages", Unmarked(), resources={"page": "pages://{slug}"}, prompts=["intro"]
    )
    assert list(server.toolbox) == ["ping"]
    async with connect(server, revision=revision) as client:
        capabilities = client.server_capabilities
        tools = [tool["name"] for tool in await client.list_tools()]
        read = await client.request("resources/read", {"uri": "pages://hello%20world"})
        prompt = await client.request(
            "prompts/get", {"name": "intro", "arguments": {"name": "Ada"}}
        )
    assert set(capabilities) >= {"tools", "resources", "prompts", "completions"}
    assert tools == ["ping"]
    assert read["contents"][0]["text"] == "page hello world"
    assert prompt["messages"][0]["content"]["text"] == "Introduce Ada."


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"resources": {"page": "pages://{id}"}}, "must be parameters"),
        ({"resources": {"intro": "static://x"}}, "cover its required ones"),
        ({"resources": {"page": "pages://{slug"}}, "not a URI template"),
        ({"prompts": {"intro": {"complete": {"nope": str}}}}, "names no argument"),
        ({"prompts": ["absent"]}, "'absent', which the target does not have"),
    ],
)
async def test_what_cannot_be_published_is_refused_at_start(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(objmcp.TargetError, match=message):
        objmcp.Server("pages", Unmarked(), **options)


@pytest.mark.parametrize("revision", REVISIONS)
async def test_a_server_without_resources_or_prompts_lists_none_and_acts_on_none(
    revision: str,
) -> None:
    async with connect(objmcp.Server("pages", Unmarked()), revision=revision) as client:
        expected = {"tools", "logging"}
        if revision == "2026-07-28":  # it declares the tasks extension too
            expected.add("extensions")
            tasks = {"io.modelcontextprotocol/tasks": {}}
            assert client.server_capabilities["extensions"] == tasks
        if revision == "2025-11-25":  # and that revision's core tasks
            expected.add("tasks")
        assert set(client.server_capabilities) == expected
        lists = {
            "resources/list": "resources",
            "resources/templates/list": "resourceTemplates",
            "prompts/list": "prompts",
        }
        for method, key in lists.items():
            listed = await client.request(method, {})
            assert listed[key] == [], method
            assert "nextCursor" not in listed, method
        acting = {
            "completion/complete": {},
            "resources/read": {"uri": "pages://one"},
            "resources/subscribe": {"uri": "pages://one"},
            "prompts/get": {"name": "one"},
        }
        for method, params in acting.items():
            with pytest.raises(ResponseError) as refused:
                await client.request(method, params)
            assert refused.value.code == -32601, method


async def test_inspect_lists_what_the_sdk_client_lists() -> None:
    import subprocess

    from conftest import server_env

    shown = subprocess.run(
        [PYTHON, "-m", "objmcp", "inspect", f"{SHELF}:Shelf", "--json"],
        capture_output=True,
        env=server_env(),
        check=True,
        timeout=60,
    )
    printed = json.loads(shown.stdout)
    async with Client(params(), mode="legacy") as client:
        resources = (await client.list_resources()).resources
        templates = (await client.list_resource_templates()).resource_templates
        prompts = (await client.list_prompts()).prompts

    def dumped(items: Any) -> list[dict[str, Any]]:
        return [item.model_dump(mode="json", by_alias=True, exclude_none=True) for item in items]

    assert printed["resources"] == dumped(resources)
    assert printed["resourceTemplates"] == dumped(templates)
    assert printed["prompts"] == dumped(prompts)


class Desk:
    """A desk whose resource and prompt ask the user before they answer."""

    def __init__(self) -> None:
        self.started: list[str] = []

    @objmcp.resource("drafts://{title}")
    def draft(self, title: str, elicit: objmcp.Elicit) -> str:
        """A draft, addressed to whoever the user names."""
        self.started.append(title)
        answer = elicit(f"Who is {title!r} for?", str)
        return f"{title}, for {answer.value}" if answer.accepted else f"{title}, for nobody"

    @objmcp.prompt
    async def interview(self, topic: str, context: objmcp.Context) -> list[str]:
        """Questions on a topic, as many as the user wants."""
        self.started.append(topic)
        answer = await context.elicit(f"How many questions on {topic}?", int)
        count = answer.value if answer.accepted else 1
        return [f"Question {number} on {topic}" for number in range(1, count + 1)]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_a_resource_and_a_prompt_ask_the_user_mid_read(mode: str) -> None:
    asked: list[str] = []

    async def answer(context: Any, request: types.ElicitRequestParams) -> Any:
        asked.append(request.message)
        value = 3 if "How many" in request.message else "Ada"
        return types.ElicitResult(action="accept", content={"value": value})

    desk = Desk()
    transport = objmcp.testing.sdk_transport(desk)
    async with Client(transport, mode=mode, elicitation_callback=answer) as client:
        read = await client.read_resource("drafts://memo")
        got = await client.get_prompt("interview", {"topic": "tea"})
        listed = (await client.list_prompts()).prompts
        templates = (await client.list_resource_templates()).resource_templates
    assert read.contents[0].text == "memo, for Ada"  # type: ignore[union-attr]
    assert [m.content.text for m in got.messages] == [  # type: ignore[union-attr]
        "Question 1 on tea",
        "Question 2 on tea",
        "Question 3 on tea",
    ]
    assert asked == ["Who is 'memo' for?", "How many questions on tea?"]
    # each ran once: in 2026-07-28 the call waited, parked, for the client's retry
    assert desk.started == ["memo", "tea"]
    # the injected parameters are not the prompt's arguments
    assert [a.name for a in listed[0].arguments or []] == ["topic"]
    assert templates[0].uri_template == "drafts://{title}"


@pytest.mark.parametrize("era", ["handshake", "modern"])
async def test_a_read_that_asks_a_client_that_cannot_answer_fails_clearly(era: str) -> None:
    async with connect(Desk(), era=era) as client:  # the client declares no elicitation
        with pytest.raises(ResponseError) as refused:
            await client.request("resources/read", {"uri": "drafts://memo"})
    # 2026-07-28: MissingRequiredClientCapabilityError; before, an internal error that says why
    assert refused.value.code == (-32021 if era == "modern" else -32603)
    assert "does not support elicitation" in refused.value.message


@pytest.mark.parametrize("era", ["handshake", "modern"])
async def test_a_declined_question_in_a_prompt_is_the_methods_to_handle(era: str) -> None:
    def no(params: dict[str, Any]) -> objmcp.ElicitResult:
        return objmcp.ElicitResult("decline")

    async with connect(Desk(), era=era, elicit=no) as client:
        got = await client.request(
            "prompts/get", {"name": "interview", "arguments": {"topic": "x"}}
        )
        read = await client.request("resources/read", {"uri": "drafts://memo"})
    assert [m["content"]["text"] for m in got["messages"]] == ["Question 1 on x"]
    assert read["contents"][0]["text"] == "memo, for nobody"
