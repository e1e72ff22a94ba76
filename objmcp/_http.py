"""A target served over Streamable HTTP: :func:`asgi_app` makes the server and the ASGI
application around it (:class:`~objmcp.serving.asgi.McpApp`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ._options import About, Discovery, Limits, Objects, Tasks, Telemetry, Waiting
from ._server import Server
from .model.calling.hooks import Hook
from .model.finding.publish import PromptOptions, ResourceOptions, ToolOptions
from .serving.asgi import McpApp
from .serving.http_options import Auth, Http

__all__ = ["asgi_app"]


def asgi_app(
    name: str,
    target: object,
    *,
    version: str = "1.0.0",
    title: str | None = None,
    instructions: str | None = None,
    include: Collection[str] | None = None,
    exclude: Collection[str] | None = None,
    tools: Mapping[str, ToolOptions | Mapping[str, Any]] | None = None,
    resources: Mapping[str, str | ResourceOptions | Mapping[str, Any]] | None = None,
    prompts: Mapping[str, PromptOptions | Mapping[str, Any]] | Sequence[str] | None = None,
    hooks: Sequence[Hook] = (),
    limits: Limits | None = None,
    waiting: Waiting | None = None,
    tasks: Tasks | None = None,
    discovery: Discovery | None = None,
    objects: Objects | None = None,
    about: About | None = None,
    telemetry: Telemetry | None = None,
    http: Http | None = None,
    auth: Auth | None = None,
) -> McpApp[Server]:
    """Serve ``target`` over Streamable HTTP: an ASGI application for any ASGI server
    (uvicorn, hypercorn, granian), mountable in Starlette or FastAPI.

    The options are :class:`~objmcp.Server`'s (there are no streams to give), and the
    endpoint's :class:`~objmcp.Http` and :class:`~objmcp.Auth` records. Its clients share
    the server's process: a tool that changes a process-wide setting is withheld unless
    named (:attr:`objmcp.Objects.shared_process`).

    The app's ``server`` is the :class:`~objmcp.Server` it serves: ``app.server.add(...)``
    and ``app.server.remove(...)`` change the tools, resources and prompts while serving
    (from any thread), and every client listening (a handshake-era session's GET stream,
    a 2026-07-28 ``subscriptions/listen``) hears the list changed.
    """
    server = Server(
        name,
        target,
        version=version,
        title=title,
        instructions=instructions,
        include=include,
        exclude=exclude,
        tools=tools,
        resources=resources,
        prompts=prompts,
        hooks=hooks,
        limits=limits,
        waiting=waiting,
        tasks=tasks,
        discovery=discovery,
        objects=objects,
        about=about,
        telemetry=telemetry,
    )
    return McpApp(server, http=http or Http(), auth=auth or Auth())
