"""Interoperability: the official TypeScript MCP SDK client reads objmcp's surface: structured
output, images and audio, resources, prompts, completions and paginated lists.

``tests/js/surface.mjs`` connects one SDK client per server through its ``StdioClientTransport``
(the handshake era), runs the scripted steps (each a ``Client`` method: ``listTools``,
``callTool``, ``readResource``, ``getPrompt``, ``complete`` ...; or ``pages``, which follows
``nextCursor`` to the end) and prints one JSON report: what the SDK handed back after its own
schemas, the bytes Node decoded from each base64 payload, and whether the client held an output
schema validator for each tool it called (``callTool`` checks ``structuredContent`` against the
``outputSchema`` listed before, and throws when it does not fit). Each group of tests below is
one node process against real zoo and shelf server subprocesses; the expected values are
computed from the fixtures themselves.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import inspect
import json
import math
import mimetypes
import re
import subprocess
import sys
import typing
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import test_ts_client
from conftest import PYTHON, ZOO, server_env
from test_ts_client import JS, TIMEOUT

import objmcp
from objmcp._publish import PROMPT_MARK, RESOURCE_MARK

sys.path.insert(0, str(ZOO.parent))
import shelf
import zoo

DRIVER = JS / "surface.mjs"
SHELF = ZOO.parent / "shelf.py"

# The session-scoped fixture that finds node and runs `npm ci` in tests/js when needed.
node = test_ts_client.node

# The page size of the paged zoo: small enough for many pages, and the zoo's tool count is not a
# multiple of it, so the last page is a short one (checked below).
PAGE_SIZE = 3


def server(path: Path, *args: str) -> dict[str, Any]:
    return {"command": PYTHON, "args": [str(path), *args]}


def step(label: str, on: str, op: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    made: dict[str, Any] = {"label": label, "server": on, "op": op}
    if params is not None:
        made["params"] = params
    return made


def run_surface(
    node: str, servers: dict[str, dict[str, Any]], steps: list[dict[str, Any]]
) -> dict[str, Any]:
    """Run surface.mjs with ``servers`` and ``steps``; returns its report (checked whole)."""
    done = subprocess.run(
        [node, str(DRIVER)],
        input=json.dumps({"servers": servers, "steps": steps}),
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=server_env(),
        cwd=JS,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, f"driver exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    # Split on "\n" only: JSON.stringify leaves U+2028/U+2029 raw and splitlines() breaks there.
    lines = done.stdout.split("\n")
    assert len(lines) == 2 and lines[1] == "", f"expected one report line, got:\n{done.stdout}"
    report: dict[str, Any] = json.loads(lines[0])
    assert list(report["steps"]) == [made["label"] for made in steps]
    assert set(report["servers"]) == set(servers)
    for name, seen in report["servers"].items():
        assert seen["protocolVersion"] == "2025-11-25", name
    assert report["errors"] == []
    return report


def result_of(entry: dict[str, Any]) -> dict[str, Any]:
    """The result of a step that must not have thrown."""
    assert "result" in entry, f"the step threw: {entry}"
    assert "error" not in entry
    result: dict[str, Any] = entry["result"]
    return result


def error_of(entry: dict[str, Any]) -> dict[str, Any]:
    """The JSON-RPC error of a step that must have thrown one."""
    assert "result" not in entry, f"the step did not throw: {entry}"
    error: dict[str, Any] = entry["error"]
    assert error["name"] == "McpError"
    return error


def strict_b64(text: str) -> bytes:
    """Decode base64, refusing anything but the alphabet and padding."""
    return base64.b64decode(text, validate=True)


def assert_decoded(decoded: dict[str, Any] | None, text: str, expected: bytes) -> None:
    """Python's strict decoding of ``text`` and Node's (``decoded``) both give ``expected``."""
    assert strict_b64(text) == expected
    assert decoded == {"hex": expected.hex(), "canonical": True}


# -- tools: structured output and media ------------------------------------------------------

UNICODE = 'héllo ✓ 🦊 中文 \u2028 "quotes" \\ tab\tend\nnew line'
DESCRIBE_ARGUMENTS: dict[str, Any] = {
    "color": "green",
    "point": {"x": 1, "y": 2.5},
    "span": {"start": 3, "end": 7},
    "person": {"name": "Ada", "age": 36},
    "when": "2024-01-02T03:04:05",
    "day": "2024-01-02",
    "ident": "12345678-1234-5678-1234-567812345678",
    "amount": "1.50",
    "path": "/tmp/some/file.txt",
    "mode": "slow",
}
# The same arguments as the Python values describe takes.
DESCRIBE_VALUES: dict[str, Any] = {
    "color": zoo.Color.GREEN,
    "point": zoo.Point(1.0, 2.5),
    "span": zoo.Span(3, 7),
    "person": zoo.Person(name="Ada", age=36),
    "when": datetime.datetime(2024, 1, 2, 3, 4, 5),
    "day": datetime.date(2024, 1, 2),
    "ident": uuid.UUID("12345678-1234-5678-1234-567812345678"),
    "amount": Decimal("1.50"),
    "path": Path("/tmp/some/file.txt"),
    "mode": "slow",
}
PICTURE_SIZE = 5

# The tool calls, made after one tools/list (which is when the client caches its validators).
TOOL_CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "origin": ("origin", {}),
    "describe": ("describe", DESCRIBE_ARGUMENTS),
    "add": ("add", {"a": 20, "b": 22}),
    "echo": ("echo", {"text": UNICODE}),
    "liar": ("liar", {}),
    "not_a_number": ("not_a_number", {}),
    "plain_total": ("plain_total", {"numbers": [4, 5, 6]}),
    "picture": ("picture", {"size": PICTURE_SIZE}),
    "beep": ("beep", {}),
    "gallery": ("gallery", {}),
    "after": ("add", {"a": 1, "b": 2}),
}


class ToolsRun:
    def __init__(self, report: dict[str, Any]) -> None:
        self.report = report
        steps = report["steps"]
        self.tools = {tool["name"]: tool for tool in result_of(steps["tools"])["tools"]}
        self.calls = {label: steps[label] for label in TOOL_CALLS}

    def schema(self, label: str) -> dict[str, Any] | None:
        schema: dict[str, Any] | None = self.tools[TOOL_CALLS[label][0]].get("outputSchema")
        return schema


@pytest.fixture(scope="module")
def tools_run(node: str) -> ToolsRun:
    steps = [step("tools", "zoo", "listTools")]
    steps += [
        step(label, "zoo", "callTool", {"name": name, "arguments": arguments})
        for label, (name, arguments) in TOOL_CALLS.items()
    ]
    return ToolsRun(run_surface(node, {"zoo": server(ZOO)}, steps))


def test_the_client_validated_every_call_with_an_output_schema(tools_run: ToolsRun) -> None:
    # The client held a validator exactly for the tools listed with an outputSchema, and each
    # such call came back as a result (a structuredContent that broke the schema would have
    # made callTool throw instead).
    for label, entry in tools_run.calls.items():
        assert entry["validator"] == (tools_run.schema(label) is not None), label
        result_of(entry)
    structured = ["origin", "describe", "add", "echo", "liar", "not_a_number", "picture"]
    assert all(tools_run.schema(label) is not None for label in structured)
    assert tools_run.schema("plain_total") is None


# Each tool's return value computed here, and whether it goes out wrapped ({"result": ...}: the
# declared type is not an object) or as it is (a dataclass, a dict).
RETURNED: dict[str, tuple[typing.Callable[[], Any], bool]] = {
    "origin": (lambda: dataclasses.asdict(zoo.Zoo().origin()), False),
    "describe": (lambda: zoo.Zoo().describe(**DESCRIBE_VALUES), False),
    "add": (lambda: zoo.Zoo().add(20, 22), True),
    "echo": (lambda: zoo.Zoo().echo(UNICODE), True),
}


@pytest.mark.parametrize("label", RETURNED)
def test_structured_content_is_what_the_method_computed(tools_run: ToolsRun, label: str) -> None:
    compute, wrapped = RETURNED[label]
    value = compute()
    result = result_of(tools_run.calls[label])
    assert result.get("isError") is False
    assert result["structuredContent"] == ({"result": value} if wrapped else value)
    # It fits the listed schema here too (wrapped, the schema says so) ...
    schema = tools_run.schema(label)
    assert schema is not None
    jsonschema.validate(result["structuredContent"], schema)
    assert (schema.get("required") == ["result"]) == wrapped
    # ... and the one text block says the same: the JSON of an object, the text of the rest.
    (block,) = result["content"]
    assert block["type"] == "text"
    if wrapped:
        assert block["text"] == str(value)
    else:
        assert json.loads(block["text"]) == value


def test_a_dataclass_return_is_its_fields_schema(tools_run: ToolsRun) -> None:
    schema = tools_run.schema("origin")
    assert schema is not None and schema["type"] == "object"
    fields = dataclasses.fields(zoo.Point)
    assert list(schema["properties"]) == [field.name for field in fields]
    assert schema["required"] == [f.name for f in fields if f.default is dataclasses.MISSING]


def test_a_result_that_breaks_its_schema_is_a_tool_error(tools_run: ToolsRun) -> None:
    returned = zoo.Zoo().liar()
    schema = tools_run.schema("liar")
    assert schema is not None
    # What liar returns does not fit what it declares: sent as structuredContent, the client
    # would have refused it.
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"result": returned}, schema)
    result = result_of(tools_run.calls["liar"])
    assert result["isError"] is True
    assert "structuredContent" not in result
    (block,) = result["content"]
    assert block["type"] == "text"
    assert repr(returned) in block["text"]
    assert "integer" in block["text"]


def test_a_result_with_no_json_form_is_a_tool_error(tools_run: ToolsRun) -> None:
    assert math.isnan(zoo.Zoo().not_a_number())
    result = result_of(tools_run.calls["not_a_number"])
    assert result["isError"] is True
    assert "structuredContent" not in result


def test_an_unstructured_tool_sends_text_only(tools_run: ToolsRun) -> None:
    result = result_of(tools_run.calls["plain_total"])
    assert result.get("isError") is False
    assert "structuredContent" not in result
    assert result["content"] == [{"type": "text", "text": str(zoo.Zoo().plain_total([4, 5, 6]))}]


def test_an_image_is_the_bytes_the_tool_made(tools_run: ToolsRun) -> None:
    entry = tools_run.calls["picture"]
    result = result_of(entry)
    expected = zoo.Zoo().picture(PICTURE_SIZE)
    (block,) = result["content"]
    assert block["type"] == "image"
    assert block["mimeType"] == "image/png"
    assert_decoded(entry["decoded"][0], block["data"], expected)
    # Its declared bytes return type gives base64 text as the structured result.
    schema = tools_run.schema("picture")
    assert schema is not None
    assert schema["properties"]["result"]["contentEncoding"] == "base64"
    assert strict_b64(result["structuredContent"]["result"]) == expected


def test_audio_is_the_bytes_the_tool_made(tools_run: ToolsRun) -> None:
    entry = tools_run.calls["beep"]
    result = result_of(entry)
    expected = zoo.Zoo().beep().data
    assert expected[:4] == b"RIFF" and expected[8:12] == b"WAVE"
    (block,) = result["content"]
    assert block["type"] == "audio"
    assert block["mimeType"] == "audio/wav"
    assert_decoded(entry["decoded"][0], block["data"], expected)


def test_a_mixed_result_is_one_block_per_item(tools_run: ToolsRun) -> None:
    entry = tools_run.calls["gallery"]
    result = result_of(entry)
    items = zoo.Zoo().gallery()
    blocks = result["content"]
    assert len(blocks) == len(items) == len(entry["decoded"])
    for item, block, decoded in zip(items, blocks, entry["decoded"], strict=True):
        if isinstance(item, str):
            assert block == {"type": "text", "text": item}
            assert decoded is None
        elif isinstance(item, objmcp.Image):
            assert block["type"] == "image" and block["mimeType"] == item.mime_type
            assert_decoded(decoded, block["data"], item.data)
        elif isinstance(item, objmcp.File):
            assert block["type"] == "resource"
            resource = block["resource"]
            assert resource["uri"] == item.uri
            assert resource.get("mimeType") == (item.mime_type or mimetypes.guess_type(item.uri)[0])
            if isinstance(item.data, str):
                assert resource["text"] == item.data and "blob" not in resource
                assert decoded is None
            else:
                assert "text" not in resource
                assert_decoded(decoded, resource["blob"], item.data)
        else:
            assert isinstance(item, objmcp.ResourceLink)
            assert block == {
                "type": "resource_link",
                "uri": item.uri,
                "name": item.name,
                "mimeType": item.mime_type,
            }
            assert decoded is None
    # The kinds are all there, so each branch above ran.
    assert [block["type"] for block in blocks] == [
        "text",
        "image",
        "resource",
        "resource",
        "resource_link",
    ]


def test_the_session_goes_on(tools_run: ToolsRun) -> None:
    result = result_of(tools_run.calls["after"])
    assert result["structuredContent"] == {"result": zoo.Zoo().add(1, 2)}


# -- resources, prompts, completions ---------------------------------------------------------


def marked(mark: str) -> dict[str, tuple[Any, Any]]:
    """The shelf's methods carrying ``mark``: name -> (function, options)."""
    found = {}
    for name, function in inspect.getmembers(shelf.Shelf, inspect.isfunction):
        options = getattr(function, mark, None)
        if options is not None:
            found[name] = (function, options)
    return found


RESOURCES = marked(RESOURCE_MARK)
PROMPTS = marked(PROMPT_MARK)


def prompt_ref(name: str) -> dict[str, str]:
    return {"type": "ref/prompt", "name": name}


def template_ref(uri: str) -> dict[str, str]:
    return {"type": "ref/resource", "uri": uri}


def completion(ref: dict[str, str], name: str, value: str) -> dict[str, Any]:
    return {"ref": ref, "argument": {"name": name, "value": value}}


SUMMARY_ARGUMENTS = {"tone": "funny", "focus": "milk", "count": "2"}

SHELF_STEPS: dict[str, tuple[str, dict[str, Any] | None]] = {
    "resources": ("listResources", None),
    "templates": ("listResourceTemplates", None),
    "all": ("readResource", {"uri": "notes://all"}),
    "note": ("readResource", {"uri": "notes://3"}),
    "dot": ("readResource", {"uri": "pictures://dot.png"}),
    "unknown_uri": ("readResource", {"uri": "nowhere://1"}),
    "not_a_number": ("readResource", {"uri": "notes://three"}),
    "prompts": ("listPrompts", None),
    "summarize": ("getPrompt", {"name": "summarize", "arguments": SUMMARY_ARGUMENTS}),
    "greet": ("getPrompt", {"name": "greet", "arguments": {"who": "team"}}),
    "bad_tone": ("getPrompt", {"name": "summarize", "arguments": {"tone": "grumpy"}}),
    "bad_count": ("getPrompt", {"name": "summarize", "arguments": {"tone": "funny", "count": "x"}}),
    "no_tone": ("getPrompt", {"name": "summarize", "arguments": {"focus": "milk"}}),
    "unknown_prompt": ("getPrompt", {"name": "no_such_prompt", "arguments": {}}),
    "tone_fr": ("complete", completion(prompt_ref("summarize"), "tone", "fr")),
    "tone_all": ("complete", completion(prompt_ref("summarize"), "tone", "")),
    "who_t": ("complete", completion(prompt_ref("greet"), "who", "t")),
    "focus": ("complete", completion(prompt_ref("summarize"), "focus", "mi")),
    "count": ("complete", completion(prompt_ref("summarize"), "count", "1")),
    "number": ("complete", completion(template_ref("notes://{number}"), "number", "1")),
    "unknown_ref": ("complete", completion(template_ref("nowhere://{x}"), "x", "")),
}


@pytest.fixture(scope="module")
def shelf_run(node: str) -> dict[str, Any]:
    steps = [step(label, "shelf", op, params) for label, (op, params) in SHELF_STEPS.items()]
    report = run_surface(node, {"shelf": server(SHELF)}, steps)
    capabilities = report["servers"]["shelf"]["capabilities"]
    assert {"resources", "prompts", "completions"} <= set(capabilities)
    steps_seen: dict[str, Any] = report["steps"]
    return steps_seen


def first_paragraph(function: Any) -> str:
    return (inspect.getdoc(function) or "").split("\n\n", 1)[0]


def test_resources_and_templates_are_listed(shelf_run: dict[str, Any]) -> None:
    expected_resources, expected_templates = [], []
    for name, (function, options) in RESOURCES.items():
        entry: dict[str, Any] = {"name": options.name or name}
        if options.title is not None:
            entry["title"] = options.title
        entry["description"] = first_paragraph(function)
        if "{" in options.uri:
            entry["uriTemplate"] = options.uri
            if options.mime_type is not None:
                entry["mimeType"] = options.mime_type
            expected_templates.append(entry)
        else:
            entry["uri"] = options.uri
            entry["mimeType"] = options.mime_type or mimetypes.guess_type(options.uri)[0]
            expected_resources.append(entry)
    assert expected_resources and expected_templates

    def by(key: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
        return {entry[key]: entry for entry in entries}

    listed = result_of(shelf_run["resources"])
    assert "nextCursor" not in listed
    assert by("uri", listed["resources"]) == by("uri", expected_resources)
    templates = result_of(shelf_run["templates"])
    assert "nextCursor" not in templates
    assert by("uriTemplate", templates["resourceTemplates"]) == by(
        "uriTemplate", expected_templates
    )


def test_a_json_resource_reads_as_the_method_returned(shelf_run: dict[str, Any]) -> None:
    (content,) = result_of(shelf_run["all"])["contents"]
    assert content["uri"] == "notes://all"
    assert content["mimeType"] == RESOURCES["everything"][1].mime_type
    assert "blob" not in content
    notes = shelf.Shelf().everything()
    assert json.loads(content["text"]) == {str(key): value for key, value in notes.items()}


def test_a_template_variable_is_converted_to_its_type(shelf_run: dict[str, Any]) -> None:
    # The note's number must arrive as an int: as the text "3" it finds no note.
    with pytest.raises(KeyError):
        shelf.Shelf().note("3")  # type: ignore[arg-type]
    assert typing.get_type_hints(shelf.Shelf.note)["number"] is int
    (content,) = result_of(shelf_run["note"])["contents"]
    assert content == {"uri": "notes://3", "mimeType": "text/plain", "text": shelf.Shelf().note(3)}


def test_a_blob_resource_decodes_to_the_same_bytes(shelf_run: dict[str, Any]) -> None:
    entry = shelf_run["dot"]
    (content,) = result_of(entry)["contents"]
    assert content["uri"] == "pictures://dot.png"
    assert content["mimeType"] == mimetypes.guess_type("pictures://dot.png")[0]
    assert "text" not in content
    (decoded,) = entry["decoded"]
    assert_decoded(decoded, content["blob"], shelf.Shelf().dot())


def test_an_unknown_uri_is_resource_not_found(shelf_run: dict[str, Any]) -> None:
    error = error_of(shelf_run["unknown_uri"])
    assert error["code"] == -32002
    assert "nowhere://1" in error["message"]


def test_a_variable_that_does_not_convert_is_invalid_params(shelf_run: dict[str, Any]) -> None:
    error = error_of(shelf_run["not_a_number"])
    assert error["code"] == -32602
    assert "number" in error["message"]


def test_prompts_are_listed_with_their_arguments(shelf_run: dict[str, Any]) -> None:
    listed = result_of(shelf_run["prompts"])
    assert "nextCursor" not in listed
    prompts = {prompt["name"]: prompt for prompt in listed["prompts"]}
    assert set(prompts) == set(PROMPTS)
    for name, (function, options) in PROMPTS.items():
        prompt = prompts[name]
        assert prompt.get("title") == options.title, name
        assert prompt["description"] == first_paragraph(function), name
        doc = inspect.getdoc(function) or ""
        parameters = list(inspect.signature(function).parameters.values())[1:]  # not self
        expected = []
        for parameter in parameters:
            argument: dict[str, Any] = {"name": parameter.name}
            said = re.search(rf"^\s+{parameter.name}: (.+)$", doc, re.MULTILINE)
            if said:
                argument["description"] = said.group(1)
            argument["required"] = parameter.default is inspect.Parameter.empty
            expected.append(argument)
        assert prompt["arguments"] == expected, name
    # Both kinds of argument are there: required and optional, described and not.
    arguments = [a for prompt in prompts.values() for a in prompt["arguments"]]
    assert {a["required"] for a in arguments} == {True, False}
    assert {"description" in a for a in arguments} == {True, False}


def as_message(item: object) -> dict[str, Any]:
    """The prompt message of one item a prompt method returns (a string is a user's text)."""
    if isinstance(item, str):
        return {"role": "user", "content": {"type": "text", "text": item}}
    assert isinstance(item, dict) and isinstance(item["content"], str)
    return {"role": item["role"], "content": {"type": "text", "text": item["content"]}}


def test_prompt_arguments_are_converted_and_rendered(shelf_run: dict[str, Any]) -> None:
    tone, focus, count = SUMMARY_ARGUMENTS["tone"], SUMMARY_ARGUMENTS["focus"], 2
    assert SUMMARY_ARGUMENTS["count"] == str(count)
    # As the strings they are on the wire, the arguments would not do.
    with pytest.raises((TypeError, AttributeError)):
        shelf.Shelf().summarize(tone, focus, SUMMARY_ARGUMENTS["count"])  # type: ignore[arg-type]
    items = shelf.Shelf().summarize(shelf.Tone(tone), focus, count)
    got = result_of(shelf_run["summarize"])
    assert got["messages"] == [as_message(item) for item in items]
    assert [message["role"] for message in got["messages"]] == ["user", "assistant", "user"]
    assert got["description"] == first_paragraph(shelf.Shelf.summarize)


def test_a_prompt_returning_a_string_is_one_user_message(shelf_run: dict[str, Any]) -> None:
    got = result_of(shelf_run["greet"])
    assert got["messages"] == [as_message(shelf.Shelf().greet("team"))]


@pytest.mark.parametrize(
    ("label", "named"),
    [("bad_tone", "tone"), ("bad_count", "count"), ("no_tone", "tone"), ("unknown_prompt", "")],
)
def test_bad_prompt_arguments_are_invalid_params(
    shelf_run: dict[str, Any], label: str, named: str
) -> None:
    error = error_of(shelf_run[label])
    assert error["code"] == -32602
    assert named in error["message"]


def completed(shelf_run: dict[str, Any], label: str) -> list[str]:
    """The values of a completion, checked against its total and hasMore."""
    done = result_of(shelf_run[label])["completion"]
    values: list[str] = done["values"]
    assert done.get("total", len(values)) == len(values)
    assert done.get("hasMore", False) is False
    return values


def test_an_enum_argument_completes_from_its_members(shelf_run: dict[str, Any]) -> None:
    tones = [tone.value for tone in shelf.Tone]
    assert completed(shelf_run, "tone_all") == tones
    fr = [tone for tone in tones if tone.startswith("fr")]
    assert fr and len(fr) < len(tones)
    assert completed(shelf_run, "tone_fr") == fr


def test_a_literal_argument_completes_from_its_values(shelf_run: dict[str, Any]) -> None:
    choices = typing.get_args(typing.get_type_hints(shelf.Shelf.greet)["who"])
    t = [value for value in choices if value.startswith("t")]
    assert t and len(t) < len(choices)
    assert completed(shelf_run, "who_t") == t


def test_a_named_completer_gives_the_values(shelf_run: dict[str, Any]) -> None:
    completer = PROMPTS["summarize"][1].complete["focus"]
    assert completed(shelf_run, "focus") == [str(value) for value in completer("mi")]


def test_arguments_with_no_choices_complete_to_nothing(shelf_run: dict[str, Any]) -> None:
    # A plain int prompt argument, and the template's int variable: nothing to offer.
    assert typing.get_type_hints(shelf.Shelf.summarize)["count"] is int
    assert completed(shelf_run, "count") == []
    assert typing.get_type_hints(shelf.Shelf.note)["number"] is int
    assert completed(shelf_run, "number") == []


def test_completing_an_unknown_template_is_invalid_params(shelf_run: dict[str, Any]) -> None:
    error = error_of(shelf_run["unknown_ref"])
    assert error["code"] == -32602
    assert "nowhere://{x}" in error["message"]


# -- pagination ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def paging_run(node: str) -> dict[str, Any]:
    servers = {"whole": server(ZOO), "paged": server(ZOO, "auto", f"page_size={PAGE_SIZE}")}
    steps = [
        step("whole", "whole", "pages"),
        step("paged", "paged", "pages"),
        step("paged_bad", "paged", "listTools", {"cursor": "not-a-cursor"}),
        step("whole_bad", "whole", "listTools", {"cursor": "not-a-cursor"}),
    ]
    steps_seen: dict[str, Any] = run_surface(node, servers, steps)["steps"]
    return steps_seen


def test_the_pages_cover_the_whole_list_once_in_order(paging_run: dict[str, Any]) -> None:
    whole = paging_run["whole"]
    assert "error" not in whole and whole["exhausted"] is False
    (only,) = whole["pages"]
    assert "nextCursor" not in only
    tools = only["tools"]
    # Enough tools for several pages, and a short last one.
    assert len(tools) > 2 * PAGE_SIZE and len(tools) % PAGE_SIZE != 0

    paged = paging_run["paged"]
    assert "error" not in paged and paged["exhausted"] is False
    pages = paged["pages"]
    assert len(pages) == math.ceil(len(tools) / PAGE_SIZE)
    *full, last = pages
    for page in full:
        assert len(page["tools"]) == PAGE_SIZE
        assert isinstance(page["nextCursor"], str) and page["nextCursor"]
    assert 0 < len(last["tools"]) < PAGE_SIZE
    assert "nextCursor" not in last
    cursors = [page["nextCursor"] for page in full]
    assert len(set(cursors)) == len(cursors)
    joined = [tool for page in pages for tool in page["tools"]]
    assert joined == tools


@pytest.mark.parametrize("label", ["paged_bad", "whole_bad"])
def test_a_cursor_the_server_did_not_make_is_invalid_params(
    paging_run: dict[str, Any], label: str
) -> None:
    error = error_of(paging_run[label])
    assert error["code"] == -32602
    assert "cursor" in error["message"]
