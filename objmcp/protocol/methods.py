"""The method table: every request method but ``tools/call``, ``initialize`` and ``ping``.

Each entry of :data:`METHODS` names the handler of one method and the capability
gate it passes first: a method whose feature the server did not declare is answered
-32601, as if it did not exist, and a method not in the table is too. A handler
takes the session (as :class:`Served`, the part of it handlers need) and the
request, and returns the request's response, or None when a call was started or
what answers the request is among its actions.

The session looks ``tools/call`` up before the table, since it is the request a
server is for; ``initialize`` and ``ping`` belong to the handshake, before any
revision is known.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Protocol

from ..model.calling.caller import Caller
from ..model.calling.toolbox import Toolbox
from . import features, lists
from . import jsonrpc as rpc
from .actions import Action, CacheHint, Send, ServerInfo
from .calls import Batch, Call
from .features import Declared
from .jsonrpc import Message, ProtocolError, RequestId
from .modern import DEFAULT_HINT, complete, discover
from .notifications import LOG_LEVELS
from .revisions import Revision
from .subscriptions import LIST_KINDS, Subscriptions
from .surfaced import Surfaced
from .tasks.jobs import JobTools

__all__ = ["METHODS", "Method", "Request", "Served", "method_not_found"]


@dataclass(slots=True, eq=False)
class Request:
    """A request of a method of the table, as the session hands it over."""

    request_id: RequestId
    method: str
    params: dict[str, Any]
    revision: Revision
    capabilities: Mapping[str, Any]
    """The client's: from ``initialize``, or from the request's ``_meta``."""
    actions: list[Action]
    """Where the request's actions go, besides its response."""
    batch: Batch | None


class Served(Protocol):
    """What the handlers need of the session."""

    toolbox: Toolbox
    info: ServerInfo
    cache: dict[str, CacheHint]
    page_size: int | None
    log_level: str | None
    subscriptions: Subscriptions
    tool_list: lists.ToolList
    caller: Caller | None
    jobs: JobTools | None

    @property
    def surfaced(self) -> Surfaced:
        """The tools the searches of the caller of the request being answered found."""
        ...

    @property
    def caller_key(self) -> str | None:
        """The key of the caller of the request being answered (None: one client only)."""
        ...

    def capabilities(self, revision: Revision) -> dict[str, Any]:
        """What the server declares in ``revision`` now."""
        ...

    def owned_tasks(
        self, revision: Revision, capabilities: Mapping[str, Any], requested: object
    ) -> Callable[[str], bool] | None:
        """Which task ids the caller of a listen stream may hear of (None: no tasks in
        ``revision``); -32021 when its filter ``requested`` asks for tasks undeclared."""
        ...

    def declares(self, revision: Revision, gate: Declared) -> bool:
        """Whether a request of ``revision`` may use what ``gate`` needs."""
        ...

    def start(
        self,
        call: Call,
        kind: Literal["tool", "resource", "prompt"],
        target: str,
        arguments: object,
        params: dict[str, Any],
        actions: list[Action],
    ) -> None:
        """Start ``call``: the runner runs it and reports its end."""
        ...


def tools_list(session: Served, request: Request) -> Message | None:
    """``tools/list``: the tools as the revision has them, paged."""
    revision = request.revision
    toolbox = session.toolbox
    if toolbox.searching:
        session.surfaced.keep(toolbox)
        tools = lists.searching_entries(toolbox, session.surfaced.names, revision)
    else:
        tools = session.tool_list.entries(toolbox, revision)
    if session.jobs is not None:
        tools = session.jobs.listed(tools, toolbox, revision)
    hint: CacheHint | None = None
    caller = session.caller
    scoped = caller is not None and lists.scoped(toolbox)
    if caller is not None and scoped:
        tools = lists.reachable(tools, toolbox, caller)
    if scoped or toolbox.searching:  # the list is this caller's own: its scopes, its finds
        ttl, _ = session.cache.get(request.method, DEFAULT_HINT)
        hint = (ttl, "private")
    found = lists.page(request.method, "tools", tools, request.params, session.page_size)
    result = complete(found, revision, session.info, session.cache, request.method, hint)
    return rpc.result_response(request.request_id, result)


def other_list(session: Served, request: Request) -> Message | None:
    """One of :data:`~objmcp.protocol.lists.LISTS`: empty when its feature is not declared."""
    method, revision = request.method, request.revision
    feature: Declared = "prompts" if method == "prompts/list" else "resources"
    declared = session.declares(revision, feature)
    found = lists.listing(session.toolbox, method, revision) if declared else []
    paged = lists.page(method, lists.LISTS[method], found, request.params, session.page_size)
    result = complete(paged, revision, session.info, session.cache, cache=method)
    return rpc.result_response(request.request_id, result)


def set_level(session: Served, request: Request) -> Message | None:
    """``logging/setLevel`` (handshake era): the level of the log records to send."""
    level = request.params.get("level")
    if level not in LOG_LEVELS:
        raise ProtocolError(
            rpc.INVALID_PARAMS,
            f"Invalid params: level must be one of {', '.join(LOG_LEVELS)}, not {level!r}",
        )
    session.log_level = level
    return rpc.result_response(request.request_id, {})


def discover_server(session: Served, request: Request) -> Message | None:
    """``server/discover``: what ``initialize`` would say, for a modern client."""
    declared = session.capabilities(request.revision)
    result = discover(request.revision, declared, session.info, session.cache)
    return rpc.result_response(request.request_id, result)


def listen(session: Served, request: Request) -> Message | None:
    """Modern era: open a listen stream; its acknowledgement goes out now, its result
    when it ends (the handshake era has no such method)."""
    if request.revision.era != "modern":
        raise method_not_found(request.method, request.revision)
    declared = session.capabilities(request.revision)
    offered = [kind for kind in LIST_KINDS if kind in declared]

    def known(uri: str) -> bool:  # (no resources: it knows none)
        return session.toolbox.find_resource(uri) is not None

    asked = request.params.get("notifications")
    owned = session.owned_tasks(request.revision, request.capabilities, asked)
    ack = session.subscriptions.listen(
        request.request_id, asked, offered, known, owned, session.caller_key
    )
    request.actions.append(Send(ack, request.request_id))
    return None


def completion(session: Served, request: Request) -> Message | None:
    """``completion/complete``: the values an argument may take."""
    found = features.completion(session.toolbox, request.params)
    result = complete(found, request.revision, session.info, session.cache, cache=None)
    return rpc.result_response(request.request_id, result)


def read_or_get(session: Served, request: Request) -> Message | None:
    """``resources/read`` or ``prompts/get``: checked here, started as a call."""
    method, params = request.method, request.params
    try:
        kind, target, arguments, hint = features.read_or_get(session.toolbox, method, params)
    except ProtocolError as error:
        if error.code != features.RESOURCE_NOT_FOUND:
            raise
        code = request.revision.resource_not_found
        raise ProtocolError(code, error.message, error.data) from None
    call = Call(
        request.request_id,
        request.revision,
        request.batch,
        capabilities=request.capabilities,
        tool=f"{method} {target}",  # what a sealed state is bound to
        method=method,
        cache=hint,
    )
    session.start(call, kind, target, arguments, params, request.actions)
    return None


def subscribe(session: Served, request: Request) -> Message | None:
    """``resources/subscribe`` and ``resources/unsubscribe``."""
    features.subscribe(session.subscriptions, session.toolbox, request.method, request.params)
    return rpc.result_response(request.request_id, {})


class Method(NamedTuple):
    """An entry of the method table."""

    handler: Callable[[Served, Request], Message | None]
    gate: Declared | None = None
    """The feature the server must have declared for the method: without it, the method
    is answered -32601 as if it did not exist (None: no gate)."""


METHODS: dict[str, Method] = {
    "tools/list": Method(tools_list),
    "logging/setLevel": Method(set_level),  # handshake era: removed in modern
    "server/discover": Method(discover_server),
    "subscriptions/listen": Method(listen),  # modern era: -32601 in handshake
    # listed without a gate: an undeclared feature's list is empty, not refused
    "resources/list": Method(other_list),
    "resources/templates/list": Method(other_list),
    "prompts/list": Method(other_list),
    "completion/complete": Method(completion, "completion"),
    "resources/read": Method(read_or_get, "resources"),
    "prompts/get": Method(read_or_get, "prompts"),
    "resources/subscribe": Method(subscribe, "resources"),
    "resources/unsubscribe": Method(subscribe, "resources"),
}
"""Every method of a request but ``tools/call``, ``initialize`` and ``ping``: its
handler, and the capability gate it passes first. A method not here is answered -32601."""


def method_not_found(method: str, revision: Revision) -> ProtocolError:
    """The error for a method ``revision`` does not have (or the server did not declare)."""
    if method in revision.removed_methods:
        return ProtocolError(
            rpc.METHOD_NOT_FOUND, f"Method not found: {method} does not exist in {revision.version}"
        )
    return ProtocolError(rpc.METHOD_NOT_FOUND, f"Method not found: {method}")
