"""The zoo as an ASGI application, for ASGI servers run by their own command lines
(``hypercorn asgi_zoo:app``, ``granian --interface asgi asgi_zoo:app``), and mounted in a
Starlette site under ``/api`` beside a route of its own (``uvicorn asgi_zoo:site``)."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route
from zoo import Zoo

import objmcp

app = objmcp.asgi_app("zoo", Zoo())


async def health(request: Request) -> PlainTextResponse:
    """A route of the site's own, beside the mounted MCP endpoint."""
    return PlainTextResponse("ok")


site = Starlette(routes=[Route("/health", health), Mount("/api", app=app)])
