"""objmcp: serve any plain Python object as a Model Context Protocol server.

    import objmcp
    objmcp.start("notes", Notes())   # serves stdin/stdout until EOF

The object's public methods become tools; their signatures, type hints and
docstrings become the tools' input schemas and descriptions.

``import objmcp`` loads what an object is written with (the decorators, the
injected parameters, the result types, the errors). What serves it (``Server``,
``Toolbox``, ``Tool``, ``Changes``, the HTTP app, and anyio below them) is
imported on first use, so that a module that only marks its methods for
objmcp stays quick to import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._exceptions import (
    ArgumentError,
    ElicitationUnavailable,
    ElicitError,
    FrameError,
    InteractionError,
    InteractionUnavailable,
    ObjmcpError,
    TargetError,
    ToolError,
    UnknownResourceError,
    UnknownToolError,
)
from .model.asking.questions import Question, ask_all
from .model.calling.caller import Caller
from .model.calling.headers import Header
from .model.calling.hooks import CallEnd, CallInfo, Hook
from .model.calling.inject import (
    Cancelled,
    Context,
    Elicit,
    ElicitResult,
    Log,
    Progress,
    ResourceUpdated,
    Root,
    Roots,
    Sample,
    SampleResult,
)
from .model.finding.publish import ToolOptions, hidden, prompt, resource, tool
from .model.values.content import ToolResult
from .model.values.media import Audio, File, Image, ResourceLink

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence

    from ._http import asgi_app
    from ._options import (
        About,
        Discovery,
        Limits,
        Objects,
        Sandbox,
        Tasks,
        Telemetry,
        Waiting,
    )
    from ._server import Server
    from .model.calling.tool import Tool
    from .model.calling.toolbox import Changes, Toolbox
    from .model.finding.publish import PromptOptions, ResourceOptions
    from .serving.asgi import McpApp
    from .serving.http_options import Auth, Http
    from .transport.framing import Framing

__version__ = "0.1.0"  # the one version: pyproject.toml reads it ([tool.hatch.version])

__all__ = [
    "About",
    "ArgumentError",
    "Auth",
    "Audio",
    "CallEnd",
    "CallInfo",
    "Caller",
    "Cancelled",
    "Changes",
    "Context",
    "Discovery",
    "Elicit",
    "ElicitError",
    "ElicitResult",
    "ElicitationUnavailable",
    "File",
    "FrameError",
    "Header",
    "Http",
    "Hook",
    "Image",
    "InteractionError",
    "InteractionUnavailable",
    "Limits",
    "Log",
    "McpApp",
    "ObjmcpError",
    "Objects",
    "Progress",
    "Question",
    "ResourceLink",
    "ResourceUpdated",
    "Root",
    "Roots",
    "Sample",
    "SampleResult",
    "Sandbox",
    "Server",
    "TargetError",
    "Tasks",
    "Telemetry",
    "Tool",
    "ToolError",
    "ToolResult",
    "ToolOptions",
    "Toolbox",
    "UnknownResourceError",
    "UnknownToolError",
    "Waiting",
    "asgi_app",
    "ask_all",
    "hidden",
    "prompt",
    "resource",
    "serve",
    "start",
    "tool",
]


def start(
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
    framing: Framing = "auto",
    hooks: Sequence[Hook] = (),
    limits: Limits | None = None,
    waiting: Waiting | None = None,
    tasks: Tasks | None = None,
    discovery: Discovery | None = None,
    objects: Objects | None = None,
    about: About | None = None,
    telemetry: Telemetry | None = None,
    input: object = None,
    output: object = None,
    sandbox: Sandbox | None = None,
) -> None:
    """Serve ``target`` as the MCP server ``name`` on stdin/stdout until end of input (blocking).

    The options are :class:`Server`'s. One line on stderr says what is served; Ctrl-C ends
    the process quietly, with exit status 130. Called while objmcp's command line imports
    the module (at its top level, not under ``if __name__ == "__main__":``), it raises
    :class:`TargetError` instead of serving.

    ``sandbox`` serves in a box (:class:`Sandbox`; Linux, bubblewrap): the program is run
    again from the top inside it (``python FILE`` or ``python -m MODULE``, with its
    arguments), where this call serves; what the program does before it calls ``start``
    is then done twice, once outside. Where no box can be made, :class:`TargetError`.
    """
    import sys

    from ._import_guard import refuse_serving_on_import
    from ._server import Server
    from ._startline import serving_line

    refuse_serving_on_import("objmcp.start()")
    if sandbox is not None:
        _enter_box(sandbox)
    try:
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
            framing=framing,
            hooks=hooks,
            limits=limits,
            waiting=waiting,
            tasks=tasks,
            discovery=discovery,
            objects=objects,
            about=about,
            telemetry=telemetry,
            input=input,
            output=output,
        )
        where = "on stdio" if server.input is None and server.output is None else "on its streams"
        sys.stderr.write(
            serving_line(server.info.name, where, server.toolbox, server.jobs is not None)
        )
        server.run()
    except KeyboardInterrupt:
        raise SystemExit(130) from None


def _enter_box(sandbox: Sandbox) -> None:
    """In the box, set it up in this process; outside, run the program again inside it
    (never returns)."""
    import os

    from .serving.box import BOX_ENV, Box, enter

    boxed = os.environ.get(BOX_ENV)
    if boxed is None:
        from .serving.bwrap import run_again_boxed

        run_again_boxed(sandbox)
    enter(Box.from_env(boxed))


async def serve(
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
    framing: Framing = "auto",
    hooks: Sequence[Hook] = (),
    limits: Limits | None = None,
    waiting: Waiting | None = None,
    tasks: Tasks | None = None,
    discovery: Discovery | None = None,
    objects: Objects | None = None,
    about: About | None = None,
    telemetry: Telemetry | None = None,
    input: object = None,
    output: object = None,
) -> None:
    """Serve ``target`` as the MCP server ``name`` inside a running event loop, until end of
    input. The options are :class:`Server`'s."""
    from ._import_guard import refuse_serving_on_import
    from ._server import Server

    refuse_serving_on_import("objmcp.serve()")
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
        framing=framing,
        hooks=hooks,
        limits=limits,
        waiting=waiting,
        tasks=tasks,
        discovery=discovery,
        objects=objects,
        about=about,
        telemetry=telemetry,
        input=input,
        output=output,
    )
    await server.serve()


_ON_FIRST_USE = {
    "Server": "_server",
    "Toolbox": "model.calling.toolbox",
    "Changes": "model.calling.toolbox",
    "Tool": "model.calling.tool",
    "McpApp": "serving.asgi",
    "asgi_app": "_http",
    "Limits": "_options",
    "Waiting": "_options",
    "Tasks": "_options",
    "Discovery": "_options",
    "Objects": "_options",
    "Sandbox": "_options",
    "About": "_options",
    "Telemetry": "_options",
    "Http": "serving.http_options",
    "Auth": "serving.http_options",
}


def __getattr__(name: str) -> Any:
    """The serving side (see the module's docstring) is imported when first asked for."""
    module = _ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module 'objmcp' has no attribute {name!r}")
    import importlib

    value = globals()[name] = getattr(importlib.import_module(f".{module}", __name__), name)
    return value


def __dir__() -> list[str]:
    """Every public name, the ones imported on first use included."""
    return sorted({*globals(), *__all__})


for _name in __all__:
    _value = globals().get(_name)
    if isinstance(_value, type) and issubclass(_value, Exception):
        _value.__module__ = "objmcp"  # tracebacks name the public place
del _name, _value
