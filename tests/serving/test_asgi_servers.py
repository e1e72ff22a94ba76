"""The ASGI app on the ASGI servers people run, each started by its own command line:
hypercorn, granian, and uvicorn serving a Starlette site that mounts the app under
``/api``. The official SDK client lists, calls and answers a question in both eras."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
from conftest import PYTHON, ZOO
from http_helpers import HttpServer, text_of
from mcp import Client, types
from starlette.applications import Starlette
from starlette.routing import Mount

import objmcp
from objmcp import asgi_app

sys.path.insert(0, str(ZOO.parent))
from zoo import Zoo

pytestmark = pytest.mark.anyio

SERVERS = ZOO.parent
BIN = os.path.dirname(PYTHON)
COMMANDS = {
    "hypercorn": (
        [PYTHON, "-m", "hypercorn", "--bind", "127.0.0.1:{port}", "asgi_zoo:app"],
        "/mcp",
    ),
    "granian": (
        [
            os.path.join(BIN, "granian"),
            *("--interface", "asgi", "--host", "127.0.0.1", "--port", "{port}"),
            *("--log-level", "warning", "asgi_zoo:app"),
        ],
        "/mcp",
    ),
    "uvicorn, mounted in Starlette": (
        [PYTHON, "-m", "uvicorn", "--port", "{port}", "--log-level", "warning", "asgi_zoo:site"],
        "/api/mcp",
    ),
}


@pytest.fixture(scope="module", params=list(COMMANDS))
def served(request: pytest.FixtureRequest) -> Iterator[HttpServer]:
    command, path = COMMANDS[request.param]
    pythonpath = os.pathsep.join([str(SERVERS), os.environ.get("PYTHONPATH", "")])
    server = HttpServer(command=command, env={"PYTHONPATH": pythonpath})
    server.url = server.url.removesuffix("/mcp") + path
    yield server
    server.stop()


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_a_client_lists_calls_and_is_asked(served: HttpServer, mode: str) -> None:
    asked: list[str] = []

    async def answer(context: Any, request: types.ElicitRequestParams) -> Any:
        asked.append(request.message)
        return types.ElicitResult(action="accept", content={"value": True})

    async with Client(served.url, mode=mode, elicitation_callback=answer) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        added = await client.call_tool("add", {"a": 2, "b": 3})
        question = await client.call_tool("ask", {})
    assert {"add", "ask", "nap"} <= names
    assert text_of(added) == "5"
    assert (asked, text_of(question)) == (["Sure?"], "accept:True")


def test_the_mounted_app_answers_only_at_its_endpoint(served: HttpServer) -> None:
    base = served.url.removesuffix("/mcp")
    elsewhere = httpx.post(base + "/other", json={}, timeout=20)
    assert elsewhere.status_code == 404
    if base.endswith("/api"):  # the site's own route still answers beside the mount
        assert httpx.get(base.removesuffix("/api") + "/health", timeout=20).text == "ok"


async def test_a_mounted_resource_server_points_to_metadata_it_serves() -> None:
    # Regression (review): mounted, the 401 pointed to a root URL the app does not own.
    app = asgi_app(
        "zoo",
        Zoo(),
        auth=objmcp.Auth(
            verify=lambda token: False, authorization_servers=["https://auth.example.com"]
        ),
    )
    site = Starlette(routes=[Mount("/sub", app=app)])
    transport = httpx.ASGITransport(app=site)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        refused = await client.post("/sub/mcp", json={}, headers={"accept": "*/*"})
        challenge = refused.headers["www-authenticate"]
        pointed = challenge.split('resource_metadata="')[1].rstrip('"')
        described = await client.get(pointed)
        junk = await client.get("/sub/.well-known/oauth-protected-resourcejunk")
    assert refused.status_code == 401
    assert pointed == "http://127.0.0.1/sub/.well-known/oauth-protected-resource/mcp"
    assert described.status_code == 200
    assert described.json()["resource"] == "http://127.0.0.1/sub/mcp"
    assert junk.status_code == 404
