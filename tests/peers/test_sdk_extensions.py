"""The official ``mcp`` Python SDK client against the atlas (``tests/servers/atlas.py``) in a
real process: the ``_meta`` of resources, templates and prompts as its types read them, the
server's extensions (SEP-2133) as it reads them, and an extension the client declares
(``advertise``) negotiated for a call, in each of its modes; and the TypeScript SDK 1.x
client, whose schemas check the capabilities and the tools' ``_meta`` of ``initialize``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import JS, stdio_server
from mcp import Client
from mcp.client.extension import advertise
from peer_helpers import run_script, text_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "servers"))

import atlas  # a fixture of tests/servers


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto", "2026-07-28"])
async def test_the_sdk_reads_the_meta_and_negotiates_an_extension(mode: str) -> None:
    declared = [advertise(atlas.MAPS, {"zoom": 3}), advertise("org.example/unknown")]
    async with Client(stdio_server(Path(atlas.__file__)), mode=mode, extensions=declared) as client:
        resources = (await client.list_resources()).resources
        templates = (await client.list_resource_templates()).resource_templates
        prompts = (await client.list_prompts()).prompts
        negotiated = await client.call_tool("negotiated", {})
        where = await client.call_tool("where", {"place": "Oslo"})
        if mode != "2026-07-28":  # a pinned client never asks what the server declares
            # auto discovers 2026-07-28, which has objmcp's own too (tasks, SEP-2663)
            own = {"io.modelcontextprotocol/tasks": {}} if mode == "auto" else {}
            assert client.server_capabilities.extensions == {**atlas.EXTENSIONS, **own}
    assert {r.uri: r.meta for r in resources} == {
        "atlas://index": {"com.example/size": 2},
        "atlas://legend": {"com.example/symbols": 1},
    }
    assert [t.meta for t in templates] == [{"com.example/kind": "place"}]
    assert {p.name: p.meta for p in prompts} == {
        "tour": {"com.example/tone": "calm"},
        "greet": {"com.example/tone": "warm"},
    }
    assert json.loads(negotiated.content[0].text) == {atlas.MAPS: {"zoom": 3}}
    assert where.content[0].text == "[map of Oslo]"


@pytest.mark.anyio
async def test_a_client_that_declares_no_extension_negotiates_none() -> None:
    async with Client(stdio_server(Path(atlas.__file__)), mode="auto") as client:
        negotiated = await client.call_tool("negotiated", {})
        where = await client.call_tool("where", {"place": "Oslo"})
    assert json.loads(negotiated.content[0].text) == {}
    assert where.content[0].text == "Oslo is up north"


def test_the_typescript_client_reads_the_declared_extensions(node: str) -> None:
    calls = [{"name": "negotiated", "arguments": {}}]
    report, _ = run_script(node, JS / "client.mjs", Path(atlas.__file__), {"calls": calls})
    assert report["capabilities"]["extensions"] == atlas.EXTENSIONS
    tools = {tool["name"]: tool for tool in report["tools"]}
    assert tools["negotiated"]["_meta"] == atlas.VIEW
    assert text_of(report["calls"][0]) == "{}"  # this client declares no extension
