"""Only what the object publishes is reachable: no private or dunder name, no attribute
path, no property evaluated, nothing inherited from ``object``; a tool name is looked up
in the table built at start, never on the object. Tried through the official SDK client
against a real server process (tests/servers/vault.py), in both eras."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import ROOT, stdio_server
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

VAULT = ROOT / "tests" / "servers" / "vault.py"
PUBLISHED = {"peek", "touches", "inherited"}
SECRETS = ("instance-secret", "class-attribute-secret", "module-global-secret")
UNREACHABLE = [
    "_private",
    "_secret",
    "_Vault__secret",
    "__secret",
    "__init__",
    "__class__",
    "__dict__",
    "__call__",
    "__repr__",
    "__eq__",
    "__reduce__",
    "__getattribute__",
    "__init_subclass__",
    "__globals__",
    "peek.__globals__",
    "peek.__func__",
    "__class__.__init__.__globals__",
    "exposed",
    "password",
    "touched",
    "SECRET",
    "peek/../_private",
    "../_private",
    "vault.peek",
    "Vault.peek",
    "peek ",
    " peek",
    "PEEK",
    "peek\x00",
    "",
]


def server() -> StdioServerParameters:
    return stdio_server(VAULT)


def text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_only_published_methods_are_listed_or_called(mode: str) -> None:
    refused: dict[str, str] = {}
    async with Client(server(), mode=mode) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        for name in UNREACHABLE:
            try:
                result = await client.call_tool(name, {})
            except MCPError as error:
                refused[name] = f"error {error.error.code}: {error.error.message}"
            else:
                assert result.is_error, (name, result)
                refused[name] = text(result)
        assert text(await client.call_tool("peek", {})) == "nothing to see"
        assert text(await client.call_tool("inherited", {})) == "inherited ok"
        touched = text(await client.call_tool("touches", {}))
    assert listed == PUBLISHED
    assert touched == "0"  # listing and calling never evaluated the property
    for name, why in refused.items():
        assert "unknown tool" in why.lower() or "not found" in why.lower(), (name, why)
        assert not any(secret in why for secret in SECRETS), (name, why)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_no_resource_or_prompt_reaches_the_object(mode: str) -> None:
    async with Client(server(), mode=mode) as client:
        for uri in ("file:///etc/passwd", "vault://_secret", "python://Vault/__dict__"):
            with pytest.raises(MCPError) as read:
                await client.read_resource(uri)
            assert not any(secret in read.value.error.message for secret in SECRETS)
        for name in ("_private", "__init__", "peek"):
            with pytest.raises(MCPError) as got:
                await client.get_prompt(name)
            assert not any(secret in got.value.error.message for secret in SECRETS)
