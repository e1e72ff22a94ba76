"""Starting a call: a request the session cannot answer at once (``tools/call``,
``resources/read``, ``prompts/get``) taken in as a :class:`~objmcp.protocol.calls.Call`
and handed to the runner as a :class:`~objmcp.protocol.actions.StartCall` (or, for a
modern-era retry whose call waits parked, a :class:`~objmcp.protocol.actions.Resume`).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any, Literal

from ..model.values.content import ToolResult
from . import answers
from . import jsonrpc as rpc
from .actions import Action, CallContext, Feature, Resume, StartCall
from .calls import Batch, Call
from .extensions import negotiated
from .jsonrpc import Message, ProtocolError, RequestId
from .modern import CLIENT_INFO_KEY, LOG_LEVEL_KEY, meta_of
from .notifications import LOG_LEVELS
from .revisions import Revision
from .sessionlike import SessionLike
from .state import RequestState, arguments_digest
from .tasks import core as core_tasks
from .tasks import extension_methods as task_methods
from .tasks import job_methods

__all__ = ["call_tool", "client_name", "start"]


def start(
    session: SessionLike,
    call: Call,
    kind: Literal["tool", "resource", "prompt"],
    target: str,
    arguments: object,
    params: dict[str, Any],
    actions: list[Action],
) -> None:
    """Start ``call``: with, in the modern era, the answers its retry brings."""
    session.calls.check_room("send this one again when one has been answered")
    call.caller_key = session.caller_key
    meta = meta_of(params)
    token = meta.get("progressToken")
    call.progress_token = token if token is not None and rpc.is_request_id(token) else None
    state: RequestState | None = None
    if call.revision.era == "modern":
        # a state is sealed over the arguments, and over the caller when known
        bound = arguments if call.caller_key is None else [call.caller_key, arguments]
        state = session.questions.retry(call.tool, bound, params)
        asked_level = meta.get(LOG_LEVEL_KEY)
        call.log_level = asked_level if asked_level in LOG_LEVELS else None
        if state is not None:
            call.digest = state.digest
        elif _scalars_only(arguments):  # a copy cannot be touched: digested if need be
            copied = dict(arguments)
            call.bound = copied if call.caller_key is None else [call.caller_key, copied]
        else:  # taken now, before the method can touch what the arguments hold
            call.digest = arguments_digest(bound)
        if state is not None:
            call.answers, call.expires, call.rounds = state.answers, state.expires, state.rounds
    call_id = session.calls.add(call)
    client = session.client_name
    if call.revision.era == "modern":
        client = client_name(meta.get(CLIENT_INFO_KEY))
    context = CallContext(
        call.request_id,
        call.revision,
        call.capabilities,
        meta,
        call.answers,
        state.kept if state is not None else None,
        caller=session.caller,
        client=client,
        extensions=negotiated(session.extensions_of(call.revision), call.capabilities),
    )
    start = StartCall(call_id, target, arguments, context, kind)
    parked = None
    if state is not None and state.park is not None:
        parked = session.parking.claim(state.park, state.rounds)
    actions.append(start if parked is None else Resume(parked, start))


def call_tool(
    session: SessionLike,
    request_id: RequestId,
    params: dict[str, Any],
    revision: Revision,
    capabilities: Mapping[str, Any],
    actions: list[Action],
    batch: Batch | None,
) -> Message | None:
    """``tools/call``: the call started (its answer comes when it ends), or answered at
    once when it cannot run (-32602 for an unknown tool; a tool that would ask for what
    its client cannot give)."""
    name = params.get("name")
    if not isinstance(name, str):
        raise ProtocolError(rpc.INVALID_PARAMS, 'tools/call needs a string "name"')
    toolbox = session.toolbox
    name, arguments = toolbox.resolve(name, params.get("arguments"))
    jobs = session.jobs
    if jobs is not None:
        name, arguments = jobs.resolve(toolbox, name, arguments)
        if name in jobs.tools(toolbox):
            if session.has_core_tasks(revision):  # forbidden: params.task is -32601
                core_tasks.requested(params, "never", name, knows=True)
            call = Call(request_id, revision, batch, capabilities=capabilities, tool=name)
            return job_methods.handle(session, jobs, call, arguments, actions)
    meta = toolbox.searching and name in toolbox.discovery.meta_tools
    if name not in toolbox and not meta:
        raise ProtocolError(rpc.INVALID_PARAMS, f"Unknown tool: {name}", {"tool": name})
    call = Call(request_id, revision, batch, capabilities=capabilities, tool=name)
    needs = toolbox[name].needs if name in toolbox else ()
    for need in needs:  # said ahead: refused before it runs
        feature = typing.cast(Feature, need)
        missing = session.questions.missing(call, feature)
        if missing is not None:
            raise missing  # 2026-07-28: -32021
        refusal = session.questions.refusal(call, feature)
        if refusal is not None:  # the handshake era: an error result, as when it asks
            said = f"{refusal}: the tool {name} would ask for it, so it did not run"
            answer = answers.call_result(session, ToolResult(said, is_error=True), revision)
            return rpc.result_response(request_id, answer)
    mode = toolbox[name].task if name in toolbox else None
    if mode == "always":
        task_methods.check_required(session, call, name)
    knows = isinstance(capabilities.get("tasks"), dict)
    # through search mode's call_tool, the list's word is call_tool's: optional
    listed = mode if name == params.get("name") else None
    core = session.has_core_tasks(revision)
    as_task = core and core_tasks.requested(params, listed, name, knows)
    if as_task:
        core_tasks.check_room(session)
    session.start(call, "tool", name, arguments, params, actions)
    if as_task:
        actions.extend(session.make_core_task(request_id))
    return None


def client_name(client_info: object) -> str | None:
    """The ``name`` of a ``clientInfo``, when it has a string one."""
    name = client_info.get("name") if isinstance(client_info, dict) else None
    return name if isinstance(name, str) else None


_SCALARS = (str, int, float, bool, type(None))


def _scalars_only(arguments: object) -> typing.TypeGuard[dict[str, object]]:
    """Whether ``arguments`` is an object of JSON scalars only (nothing in it can change)."""
    return isinstance(arguments, dict) and all(type(v) in _SCALARS for v in arguments.values())
