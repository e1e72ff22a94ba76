"""A tool's ``_meta`` (``meta=``, by decorator or as data): what MCP Apps
(``_meta.ui.resourceUri``) and vendor extensions are built on, listed in the revisions
whose ``Tool`` has a ``_meta``."""

from __future__ import annotations

import pytest

import objmcp
from objmcp.testing import connect

UI = {"ui": {"resourceUri": "ui://board/view.html"}}


class Board:
    """A board with a view."""

    @objmcp.tool(meta=UI)
    def show(self) -> str:
        return "shown"

    def plain(self) -> str:
        return "plain"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("revision", "listed"),
    [("2025-03-26", False), ("2025-06-18", True), ("2025-11-25", True), ("2026-07-28", True)],
)
async def test_a_tools_meta_is_listed_where_the_revision_has_it(
    revision: str, listed: bool
) -> None:
    async with connect(Board(), revision=revision) as client:
        tools = {tool["name"]: tool for tool in await client.list_tools()}
        shown = await client.call("show")
    assert ("_meta" in tools["show"]) is listed
    if listed:
        assert tools["show"]["_meta"] == UI
    assert "_meta" not in tools["plain"]
    assert shown.text == "shown"


def test_meta_as_data_and_its_checks() -> None:
    tools = objmcp.Toolbox(Board(), tools={"plain": {"meta": {"vendor/x": 1}}})
    assert tools.specs("mcp")[1]["_meta"] == {"vendor/x": 1}
    with pytest.raises(TypeError, match="meta"):
        objmcp.tool(meta=["not", "a", "mapping"])
