"""The front of a boxed server: what ``objmcp run --http --sandbox`` serves in its own process.

The served code runs in boxed children (:class:`~objmcp.serving.boxed_child.BoxedChild`);
the front serves their tools as its own, without importing the target. At start, one
child lists its tools (with what the front must know of each: when a call is a task, what
it asks the client, the scopes it needs: :data:`~objmcp.serving.box.FRONT_TOOL`); the
front makes a class with one method per tool (:func:`front_target`), whose schemas,
descriptions and annotations are the child's, and which forwards each call to a child.
So the front's own pipeline does all it does for any tool: credentials and scopes,
tasks (and the queue, and the shared store), hooks, tracing, ``call_timeout``, search.

Whose child a call reaches follows ``per``: with ``"shared"`` one child serves every
caller (a child that died is started again at the next call); with ``"session"`` or
``"caller"`` the front's objects are children, one per session or caller, made, kept
and closed as the front keeps any object (``max_objects``, ``object_idle``), and each
child serves its one object. A question the boxed tool asks goes to the front's client
through the front's own ``Elicit``; progress and cancellation go both ways.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .._exceptions import TargetError
from ..model.calling.caller import Caller
from ..model.calling.inject import Context
from ..model.finding.publish import ToolOptions
from ..model.values.content import ToolResult
from .box import FRONT_TOOL
from .boxed_child import BoxedChild, ChildGone

__all__ = ["front_target", "listed_tools"]

logger = logging.getLogger("objmcp")

_ANSWERED: dict[str, dict[str, Any]] = {"elicitation": {"form": {}, "url": {}}, "roots": {}}
"""What the front can answer for a boxed tool, when its own client can."""
_HINTS = {
    "readOnlyHint": "read_only",
    "destructiveHint": "destructive",
    "idempotentHint": "idempotent",
    "openWorldHint": "open_world",
}


def listed_tools(child: BoxedChild) -> list[dict[str, Any]]:
    """Every tool ``child`` lists (all its pages)."""
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        listed = child.request("tools/list", {"cursor": cursor} if cursor else {})
        tools += [entry for entry in listed.get("tools", []) if isinstance(entry, dict)]
        cursor = listed.get("nextCursor")
        if not cursor:
            return tools


def front_target(
    command: Sequence[str], per: str, name: str, client: Mapping[str, Any]
) -> tuple[object, dict[str, ToolOptions]]:
    """What the front serves for the boxed server ``command`` starts: its target (an object
    with a child, or the class that makes one per session or caller) and the options of
    its tools (by attribute). Raises :class:`TargetError` when the box cannot serve."""
    first = BoxedChild(command, client)
    try:
        tools = listed_tools(first)
    except (ChildGone, RuntimeError) as error:
        first.close()
        raise TargetError(
            f"the boxed server of {name} could not list its tools ({error}): its error is "
            "above, on stderr"
        ) from None
    _say_what_is_left(first, name)
    methods: dict[str, Any] = {}
    options: dict[str, ToolOptions] = {}
    for index, entry in enumerate(tools):
        attribute = f"tool_{index}"
        methods[attribute] = _forwarding(str(entry["name"]))
        options[attribute] = _options_of(entry)
    cls = type(f"Boxed{_class_name(name)}", (_Front,), methods)
    cls.command, cls.client = list(command), dict(client)  # type: ignore[attr-defined]
    if per == "shared":
        return cls(child=first), options
    first.close()
    return cls, options


_LEFT = (
    ("resources/list", "resources"),
    ("resources/templates/list", "resourceTemplates"),
    ("prompts/list", "prompts"),
)
"""The lists a boxed server may have beside its tools, and the key of each list's items."""


def _say_what_is_left(child: BoxedChild, name: str) -> None:
    """Warn when the boxed server has resources or prompts, which the front does not serve."""
    left = []
    for method, key in _LEFT:
        try:
            found = child.request(method, {}).get(key)
        except (ChildGone, RuntimeError):
            found = None
        if found:
            left.append(key)
    if left:
        logger.warning(
            "%s has %s, which a boxed server over HTTP does not serve (only its tools): "
            "serve it on stdio with --sandbox to have them",
            name,
            " and ".join(
                "resource templates" if key == "resourceTemplates" else key for key in left
            ),
        )


class _Front:
    """A boxed server's tools, served by the front: each forwards to :attr:`child`."""

    command: list[str]
    client: dict[str, Any]

    def __init__(self, caller: Caller | None = None, *, child: BoxedChild | None = None) -> None:
        self.child = child if child is not None else BoxedChild(self.command, self.client)
        self.caller = caller
        """Whose object this is (``per="caller"``): its child serves that caller alone."""

    def __exit__(self, *exc_info: object) -> None:
        self.child.close()

    def __enter__(self) -> _Front:
        return self


def _forwarding(tool: str) -> Callable[..., ToolResult]:
    """The method that calls ``tool`` in the front's child."""

    def forward(self: _Front, context: Context, **arguments: Any) -> ToolResult:
        capabilities = {
            key: value for key, value in _ANSWERED.items() if key in context.client_capabilities
        }
        try:
            result = self.child.call(
                tool,
                arguments,
                lambda method, params: _relay(context, method, params),
                capabilities=capabilities,
                caller=context.caller or self.caller,
                progress=lambda params: _progress(context, params),
                cancelled=context.cancelled.is_set,
            )
        except ChildGone as gone:
            return ToolResult(f"sandbox: {gone}", is_error=True)
        except RuntimeError as error:
            return ToolResult(f"the boxed server refused the call: {error}", is_error=True)
        return _result(result)

    forward.__name__ = forward.__qualname__ = tool
    return forward


def _relay(context: Context, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """The answer of the front's client to the question a boxed tool asked."""
    if method == "elicitation/create":
        message = str(params.get("message", ""))
        if params.get("mode") == "url":
            answer = context.elicit.url(message, str(params.get("url", "")))
        else:
            answer = context.elicit(message, params.get("requestedSchema") or {})
        reply: dict[str, Any] = {"action": answer.action}
        if answer.accepted and answer.content:
            reply["content"] = dict(answer.content)
        return reply
    if method == "roots/list":
        roots = [{"uri": root.uri, "name": root.name} for root in context.list_roots()]
        return {"roots": [{k: v for k, v in root.items() if v is not None} for root in roots]}
    raise RuntimeError(f"the boxed tool asked for {method}, which the front does not relay")


def _progress(context: Context, params: Mapping[str, Any]) -> None:
    done = params.get("progress")
    if isinstance(done, (int, float)):
        total = params.get("total")
        message = params.get("message")
        context.progress(
            done,
            total if isinstance(total, (int, float)) else None,
            message if isinstance(message, str) else None,
        )


def _result(result: Mapping[str, Any]) -> ToolResult:
    """The child's ``CallToolResult`` as the front's result, its blocks as they are."""
    blocks = [block for block in result.get("content") or () if isinstance(block, dict)]
    text = "\n".join(str(block.get("text", "")) for block in blocks if block.get("type") == "text")
    structured = result.get("structuredContent")
    return ToolResult(
        text,
        structured,
        bool(result.get("isError")),
        structured if isinstance(structured, dict) else None,
        tuple(blocks),
    )


def _options_of(entry: Mapping[str, Any]) -> ToolOptions:
    """The front's options for the tool the child listed as ``entry``."""
    meta = dict(entry.get("_meta") or {})
    said = meta.pop(FRONT_TOOL, None) or {}
    hints: dict[str, Any] = {
        option: value
        for key, option in _HINTS.items()
        if isinstance(value := (entry.get("annotations") or {}).get(key), bool)
    }
    return ToolOptions(
        name=str(entry["name"]),
        title=entry.get("title") or (entry.get("annotations") or {}).get("title"),
        description=str(entry.get("description") or ""),
        input_schema=entry.get("inputSchema") or {"type": "object"},
        output_schema=entry.get("outputSchema"),
        structured=None if entry.get("outputSchema") else False,
        icons=tuple(entry["icons"]) if entry.get("icons") else None,
        meta=meta or None,
        task=said.get("task"),
        needs=tuple(said["needs"]) if said.get("needs") else None,
        scopes=tuple(said["scopes"]) if said.get("scopes") else None,
        **hints,
    )


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_") if part)
