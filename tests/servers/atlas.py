"""An atlas whose tools, resources and prompts carry ``_meta`` (by decorator and as data),
served with a ``_meta`` of its own and two MCP extensions declared; a tool tells which
extensions the client of its call negotiated.

Run: ``python atlas.py`` serves stdio; ``python atlas.py http=PORT`` Streamable HTTP on
127.0.0.1.
"""

from __future__ import annotations

import json
import sys

import objmcp

MAPS = "com.example/maps"
UI = "io.modelcontextprotocol/ui"
EXTENSIONS = {MAPS: {"styles": ["road", "terrain"]}, UI: {}}
SERVER_META = {"com.example/build": "42"}
VIEW = {"ui": {"resourceUri": "ui://atlas/view.html"}}


class Atlas:
    """Maps of places."""

    @objmcp.tool(meta=VIEW)
    def negotiated(self, context: objmcp.Context) -> str:
        """The extensions negotiated for this call, with the client's settings, as JSON."""
        return json.dumps(dict(context.extensions), sort_keys=True)

    def where(self, place: str, context: objmcp.Context) -> str:
        """Where a place is: drawn on a map for a client that negotiated maps."""
        if MAPS in context.extensions:
            return f"[map of {place}]"
        return f"{place} is up north"

    @objmcp.resource("atlas://index", meta={"com.example/size": 2})
    def index(self) -> str:
        """The places the atlas has."""
        return "Oslo, Lima"

    @objmcp.resource("atlas://place/{name}", meta={"com.example/kind": "place"})
    def place(self, name: str) -> str:
        """One place."""
        return f"{name}: a place"

    @objmcp.prompt(meta={"com.example/tone": "calm"})
    def tour(self, city: str) -> str:
        """A tour of a city."""
        return f"Show me {city}."

    def legend(self) -> str:
        """What the symbols mean (a resource given as data)."""
        return "o: a city"

    def greet(self) -> str:
        """A greeting (a prompt given as data)."""
        return "Hello."

    def plain(self) -> str:
        """A tool with no _meta."""
        return "plain"


def server() -> objmcp.Server:
    """The atlas's server."""
    return objmcp.Server(
        "atlas",
        Atlas(),
        resources={"legend": {"uri": "atlas://legend", "meta": {"com.example/symbols": 1}}},
        prompts={"greet": {"meta": {"com.example/tone": "warm"}}},
        about=objmcp.About(meta=SERVER_META, extensions=EXTENSIONS),
    )


if __name__ == "__main__":
    given = dict(argument.split("=", 1) for argument in sys.argv[1:])
    if "http" not in given:
        server().run()
    else:
        import uvicorn

        app = objmcp.McpApp(server())
        uvicorn.run(app, host="127.0.0.1", port=int(given["http"]), log_level="warning")
