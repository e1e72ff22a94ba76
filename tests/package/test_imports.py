"""What ``import objmcp`` loads, and that what it leaves out still works when used.

``import objmcp`` gives the vocabulary of an object (decorators, injected
parameters, result types, errors); the serving side comes on first use, and the
standard library's value types are found through ``sys.modules`` when a hint or a
value has them. The standard-type server is driven by the official SDK client.
"""

from __future__ import annotations

import inspect
import json
import subprocess
from typing import Any

import pytest
from conftest import PYTHON, ROOT, stdio_server
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import Client

LATE = ROOT / "tests" / "servers" / "late.py"
SERVING = (
    "anyio",
    "objmcp._server",
    "objmcp.protocol.session",
    "objmcp.serving.runner",
    "objmcp.model.calling.toolbox",
)
STANDARD = ("datetime", "uuid", "decimal", "pathlib", "secrets", "hashlib", "hmac", "base64")


def loaded_after(code: str, watched: tuple[str, ...]) -> list[str]:
    """The ``watched`` modules loaded in a fresh interpreter after running ``code``."""
    report = f"[m for m in {watched!r} if m in sys.modules]"
    probe = f"import json, sys\n{code}\nprint(json.dumps({report}))"
    done = subprocess.run(
        [PYTHON, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return list(json.loads(done.stdout.splitlines()[-1]))


def test_import_objmcp_leaves_the_serving_side_and_the_standard_value_types_out() -> None:
    assert loaded_after("import objmcp", SERVING + STANDARD) == []


def test_typeshed_is_read_as_data_and_typeshed_client_never_imported() -> None:
    code = (
        "import math, objmcp\n"
        "assert objmcp.Toolbox(math)['sqrt'].input_schema['properties']['x']['type'] == 'number'"
    )
    assert loaded_after(code, ("typeshed_client",)) == []


def test_serving_needs_none_of_the_standard_value_types() -> None:
    loaded = loaded_after("import objmcp, objmcp.serving.reader; objmcp.Server", SERVING + STANDARD)
    assert loaded == list(SERVING)


@pytest.mark.parametrize("name", ["Server", "Toolbox", "Tool", "Changes", "McpApp", "asgi_app"])
def test_a_name_imported_on_first_use_is_the_real_one(name: str) -> None:
    import importlib

    import objmcp

    home = {
        "Server": "_server",
        "Toolbox": "model.calling.toolbox",
        "Tool": "model.calling.tool",
        "Changes": "model.calling.toolbox",
        "McpApp": "serving.asgi",
        "asgi_app": "_http",
    }
    module = importlib.import_module(f"objmcp.{home[name]}")
    assert getattr(objmcp, name) is getattr(module, name)
    assert name in dir(objmcp)


def test_every_public_name_is_there_and_an_unknown_one_says_so() -> None:
    import objmcp

    assert [name for name in objmcp.__all__ if not hasattr(objmcp, name)] == []
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        objmcp.Nothing  # noqa: B018


def test_star_import_gives_every_public_name_in_a_fresh_interpreter() -> None:
    code = (
        "from objmcp import *\nimport objmcp\n"
        "print([n for n in objmcp.__all__ if n not in globals()])"
    )
    done = subprocess.run(
        [PYTHON, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"


def text_of(result: Any) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return str(result.content[0].text)


@pytest.mark.anyio
async def test_standard_types_imported_after_objmcp_have_schemas_and_convert() -> None:
    params = stdio_server(LATE)
    async with Client(params, mode="legacy") as client:
        tools = {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}
        assert text_of(await client.call_tool("loaded_before", {})) == "[]"

        assert tools["shift"]["properties"]["day"]["format"] == "date"
        assert tools["later"]["properties"]["when"]["format"] == "date-time"
        assert tools["noon"]["properties"]["at"]["format"] == "time"
        assert tools["version"]["properties"]["ident"]["format"] == "uuid"
        assert tools["half"]["properties"]["amount"]["type"] == ["number", "string"]
        assert tools["parent"]["properties"]["path"]["type"] == "string"

        shifted = await client.call_tool("shift", {"day": "2026-11-23", "days": 9})
        assert text_of(shifted) == "2026-12-02"
        later = await client.call_tool("later", {"when": "2026-11-23T23:50:00Z", "minutes": 20})
        assert text_of(later) == "2026-11-24T00:10:00+00:00"
        assert text_of(await client.call_tool("noon", {"at": "13:05:00"})) == "true"
        ident = "12345678-1234-5678-9234-567812345678"
        assert text_of(await client.call_tool("version", {"ident": ident})) == "5"
        assert text_of(await client.call_tool("half", {"amount": "1.10"})) == "0.55"
        assert text_of(await client.call_tool("half", {"amount": 3})) == "1.5"
        assert (
            text_of(await client.call_tool("parent", {"path": "/srv/notes/a.txt"})) == "/srv/notes"
        )

        for tool, arguments, expected in [
            ("shift", {"day": "2026-11-23T10:00:00", "days": 1}, "expected an ISO 8601 date"),
            ("shift", {"day": "2026-02-30", "days": 1}, "expected an ISO 8601 date"),
            ("later", {"when": "yesterday", "minutes": 1}, "expected an ISO 8601 date-time"),
            ("noon", {"at": "25:00"}, "expected an ISO 8601 time"),
            ("version", {"ident": "not-a-uuid"}, "expected a UUID"),
            ("half", {"amount": "half"}, "expected a decimal number"),
        ]:
            refused = await client.call_tool(tool, arguments)
            assert refused.is_error, (tool, arguments)
            assert expected in text_of(refused), (tool, text_of(refused))


def test_calls_that_fit_need_neither_jsonschema_nor_docstring_parser() -> None:
    """jsonschema's validator is made for the first arguments (or result) the quick check
    cannot vouch for; a one-line docstring is read without docstring_parser. What they
    say is the same as ever once they are needed."""
    code = """
import sys
import objmcp

class Plain:
    def add(self, a: int, b: int) -> int:
        '''Add two integers.'''
        return a + b

    def half(self, n: float) -> str:
        '''Half of n, as text.'''
        return str(n / 2)

toolbox = objmcp.Toolbox(Plain())
results = [toolbox.call("add", {"a": 2, "b": 3}).text, toolbox.call("half", {"n": 3}).text]
before = [m for m in ("jsonschema", "docstring_parser") if m in sys.modules]
refused = toolbox.call("add", {"a": "two", "b": 3})
after = [m for m in ("jsonschema", "docstring_parser") if m in sys.modules]
print(json.dumps([results, before, refused.is_error, refused.text, after]))
"""
    done = subprocess.run(
        [PYTHON, "-c", "import json\n" + code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    results, before, is_error, refusal, after = json.loads(done.stdout)
    assert results == ["5", "1.5"]
    assert before == []
    assert is_error
    assert refusal == "Invalid argument 'a': expected integer, got string \"two\""
    assert after == ["jsonschema"]


@given(st.text(st.characters(exclude_characters=":@", exclude_categories=("Cs",)), min_size=1))
@settings(max_examples=500, deadline=None)
def test_a_one_line_docstring_reads_as_docstring_parser_reads_it(line: str) -> None:
    import docstring_parser

    from objmcp.model.describe.docs import read_docs

    def function() -> None:
        pass

    function.__doc__ = line
    docs = read_docs(function)
    cleaned = inspect.getdoc(function) or ""
    if not cleaned:
        assert docs.description == ""
        return
    parsed = docstring_parser.parse(cleaned)
    parts = [p for p in (parsed.short_description, parsed.long_description) if p]
    between = "\n\n" if parsed.blank_after_short_description else "\n"  # the author's break
    assert docs.description == between.join(parts).strip()
    assert docs.params == {
        p.arg_name.lstrip("*"): p.description.strip() for p in parsed.params if p.description
    }


def test_a_standard_class_its_module_replaced_with_a_subclass_still_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """freezegun puts a subclass in ``datetime.datetime``'s place: a hint written before
    (the real class) keeps its schema and its conversion."""
    import datetime

    from objmcp.model.describe.schema import SchemaBuilder
    from objmcp.model.values.convert import from_json

    real = datetime.datetime

    class Frozen(real):
        pass

    monkeypatch.setattr(datetime, "datetime", Frozen)
    assert SchemaBuilder().schema(real, "when") == {"type": "string", "format": "date-time"}
    value = from_json("2024-01-02T03:04:05Z", real, "when")
    assert isinstance(value, real)
    assert value == real(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)


OTEL_CALL = """
import anyio, objmcp
class Clock:
    def now(self) -> int:
        return 1
meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}
call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "now", "arguments": {}, "_meta": meta}}
server = objmcp.Server("clock", Clock(), telemetry=objmcp.Telemetry(tracing=TRACING))
answer = anyio.run(server.handle, call)
assert answer["result"]["content"][0]["text"] == "1", answer
"""


@pytest.mark.parametrize(
    ("setup", "tracing", "loaded"),
    [
        ("", "True", ["opentelemetry.trace"]),
        ("", "False", []),
        ("import sys; sys.modules['opentelemetry'] = None  # not installed", "True", []),
    ],
)
def test_opentelemetry_is_imported_only_to_trace(
    setup: str, tracing: str, loaded: list[str]
) -> None:
    assert loaded_after("import objmcp", ("opentelemetry", "opentelemetry.trace")) == []
    code = setup + OTEL_CALL.replace("TRACING", tracing)
    assert loaded_after(code, ("opentelemetry.trace",)) == loaded
