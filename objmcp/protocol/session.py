"""The MCP session: messages in, actions out, no I/O (after h11).

Theory of operation
-------------------
The runner decodes a frame and hands the JSON value to :meth:`Session.receive`,
which returns the :class:`Action` list the runner must carry out, in order:

- :class:`Send` a message (a response, or a batch of them);
- :class:`StartCall` a tool (the runner calls it, however long it takes);
- :class:`CancelCall` a call the client gave up on.

When a started call ends, the runner reports it with :meth:`Session.call_finished`
and gets the actions that answer it. The session keeps the promises:

1. Every request gets exactly one response, unless the client cancels it; a
   notification gets none. A response to a cancelled call is never sent.
2. A request id still in flight cannot be reused: the second request gets -32600.
3. The era is decided per message: a request is *modern* when its
   ``params._meta`` names ``io.modelcontextprotocol/protocolVersion`` (and it
   is not ``initialize``); it is then answered from its ``_meta`` alone. Other
   requests belong to the connection's handshake, which starts at ``initialize``.
4. What differs by revision is looked up in :mod:`objmcp.protocol.revisions`.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model import inject
from ..model.content import ToolResult
from ..model.jsontext import LONG_TEXT, LongMessage
from ..model.media import fits
from ..model.prompts import MAX_COMPLETIONS, complete_values
from ..model.specs import mcp_tool
from ..model.tool import Tool
from ..model.toolbox import Changes, Toolbox
from . import jsonrpc as rpc
from .actions import (
    Action,
    Answer,
    CacheHint,
    CallContext,
    CancelCall,
    Feature,
    Send,
    ServerInfo,
    StartCall,
)
from .jsonrpc import Message, ProtocolError, RequestId
from .limits import (
    DEFAULT_MAX_CALLS,
    DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_STRING,
    check_limits,
    over_limits,
    text_within_limits,
)
from .revisions import HANDSHAKE_VERSIONS, MODERN_VERSIONS, REVISIONS, Revision
from .revisions import negotiate_handshake as _negotiate
from .state import RequestState, StateError, StateSeal, arguments_digest
from .subscriptions import LIST_KINDS, SUBSCRIPTION_ID_KEY, ListKind, Subscriptions

__all__ = [
    "Action",
    "Answer",
    "CallContext",
    "CacheHint",
    "CancelCall",
    "Feature",
    "Send",
    "ServerInfo",
    "Session",
    "check_listing",
    "StartCall",
]

logger = logging.getLogger("objmcp")

PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
RESOURCE_NOT_FOUND = -32002
"""The error code of a read of a URI no resource has (the spec's examples use it)."""
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
LOG_LEVELS = tuple(inject.LOG_LEVELS)
"""The syslog levels of ``notifications/message``, least severe first."""

DEFAULT_HINT: CacheHint = (0, "private")
"""Every cacheable result is stale at once and private unless the server says otherwise."""


@dataclass(eq=False)
class _Batch:
    responses: list[Message] = field(default_factory=list)
    pending: set[int] = field(default_factory=set)
    open: bool = True
    """Still being read: its answer cannot go out yet, whatever finishes."""

    def finish(self, call_id: int | None = None) -> list[Action]:
        """The call ``call_id`` of the batch is over (or the batch has been read): the
        batch's answer, when nothing is left to wait for."""
        self.pending.discard(call_id)
        if self.pending or self.open or not self.responses:
            return []
        return [Send(self.responses, _id_of(self.responses[0]))]


@dataclass(eq=False)
class _Call:
    request_id: RequestId
    revision: Revision
    batch: _Batch | None
    progress_token: str | int | None = None
    capabilities: Mapping[str, Any] = field(default_factory=dict)
    log_level: str | None = None  # modern era: the request's own logLevel
    tool: str = ""  # a tool's name, or "<method> <target>": what a sealed state is bound to
    digest: str = ""  # modern era: of what a sealed state is bound to (arguments, caller)
    answers: tuple[Any, ...] = ()
    expires: float | None = None  # modern era: the first question's deadline, kept
    method: str = "tools/call"
    cache: CacheHint | None = None  # a resource's own caching hint


class Session:
    """One client connection's protocol state. Feed it decoded messages; do what it says."""

    def __init__(
        self,
        toolbox: Toolbox,
        info: ServerInfo,
        *,
        seal: StateSeal | None = None,
        clock: Callable[[], float] = time.time,
        state_ttl: float = 600.0,
        max_rounds: int = 16,
        page_size: int | None = None,
        cache: Mapping[str, CacheHint] | None = None,
        declare: Collection[str] = (),
        max_calls: int = DEFAULT_MAX_CALLS,
        max_depth: int = DEFAULT_MAX_DEPTH,
        max_string: int = DEFAULT_MAX_STRING,
    ) -> None:
        check_limits(max_calls=max_calls, max_depth=max_depth, max_string=max_string)
        self.toolbox = toolbox
        self.info = info
        self.seal = seal or StateSeal()
        self.clock = clock
        self.state_ttl = state_ttl
        self.max_rounds = max_rounds
        self.max_calls = max_calls
        """Requests that may run at once; more are refused with :data:`~rpc.SERVER_BUSY`."""
        self.max_depth = max_depth
        """Levels of nesting a message may have; deeper ones are refused."""
        self.max_string = max_string
        """Characters a string of a message may have; longer ones are refused."""
        check_listing(page_size)
        self.page_size = page_size
        """Lists longer than this come in pages, with an opaque cursor (None: one page)."""
        self.cache: dict[str, CacheHint] = dict(cache or {})
        """Modern era: the ``ttlMs`` and ``cacheScope`` of each cacheable result."""
        check_declare(declare)
        self.declare = frozenset(declare)
        """Capabilities declared even while nothing is published for them (``resources``,
        ``prompts``): a handshake client keeps what initialize declared."""
        self.revision: Revision | None = None
        """The handshake revision negotiated by ``initialize``, if any."""
        self.client_capabilities: Mapping[str, Any] = {}
        self.declared: Mapping[str, Any] = {}
        """Handshake era: the capabilities ``initialize`` declared (the session keeps them)."""
        self.log_level: str | None = None
        """Handshake era: the level ``logging/setLevel`` asked for (None: send no log)."""
        self._calls: dict[int, _Call] = {}
        self._in_flight: dict[RequestId, int] = {}
        self._call_ids = itertools.count(1)
        self._ask_ids = itertools.count(1)
        self._asks: dict[str, int] = {}  # our requests to the client -> the call that asked
        self._tool_list_cache: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self._caller: str | None = None
        self._vouched = False  # the message being read is within the limits (by its text)
        self.subscriptions = Subscriptions()
        """Who asked to hear of which changes."""

    @property
    def in_flight(self) -> int:
        """How many calls are running."""
        return len(self._calls)

    # --- input ----------------------------------------------------------------------------

    def assume(self, version: str) -> None:
        """Serve as if ``initialize`` had chosen the handshake revision ``version``, for a
        client that sends none (stateless HTTP); raises ValueError for an unknown one."""
        revision = REVISIONS.get(version)
        if revision is None or revision.era != "handshake":
            raise ValueError(f"{version!r} is not a handshake revision")
        self.revision = revision
        self.declared = self._capabilities(revision)

    def receive(
        self, message: object, caller: str | None = None, *, source: bytes | None = None
    ) -> list[Action]:
        """Take one decoded JSON-RPC message (or batch) and say what to do.

        ``caller`` names who sent it, when the transport knows (a digest of their
        credentials): a modern-era request state is then good for that caller only.
        ``source`` is the JSON text it was decoded from, when the transport has it: it
        spares walking the message for ``max_depth`` and ``max_string`` when it vouches
        for them (see ``text_within_limits``)."""
        self._caller = caller
        self._vouched = source is not None and text_within_limits(
            source, self.max_depth, self.max_string
        )
        try:
            if isinstance(message, list):
                return self._receive_batch(message)
            actions: list[Action] = []
            response = self._receive_one(message, actions, None)
            if response is not None:
                actions.append(Send(response, _id_of(response)))
            return actions
        finally:
            self._caller = None
            self._vouched = False

    def parse_error(self, detail: str) -> list[Action]:
        """The answer to a frame that is not JSON: -32700 with id null."""
        return [Send(rpc.error_response(None, rpc.PARSE_ERROR, f"Parse error: {detail}"))]

    def progress(
        self, call_id: int, done: float, total: float | None = None, message: str | None = None
    ) -> list[Action]:
        """A running call reports progress: the notification to send, if the client asked
        for progress (a ``progressToken``) and still waits for the call."""
        call = self._calls.get(call_id)
        if call is None or call.progress_token is None:
            return []
        params: dict[str, Any] = {"progressToken": call.progress_token, "progress": done}
        if total is not None:
            params["total"] = total
        if message is not None and call.revision.progress_message:
            params["message"] = message
        progress = {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}
        return [Send(progress, call.request_id)]

    def log(self, call_id: int | None, level: str, logger_name: str, data: object) -> list[Action]:
        """A log record, of a call (or of none): the ``notifications/message`` to send, if
        the client asked for records of this level (``logging/setLevel`` in the handshake
        era, the request's ``logLevel`` in the modern one)."""
        call = self._calls.get(call_id) if call_id is not None else None
        if call is not None and call.revision.era == "modern":
            threshold = call.log_level
        elif call is None and call_id is not None:
            return []  # the call is over: its records go to stderr only
        else:
            threshold = self.log_level
        if threshold is None or LOG_LEVELS.index(level) < LOG_LEVELS.index(threshold):
            return []
        params = {"level": level, "logger": logger_name, "data": data}
        record = {"jsonrpc": "2.0", "method": "notifications/message", "params": params}
        return [Send(record, call.request_id if call is not None else None)]

    def refusal(self, call_id: int, feature: Feature) -> str | None:
        """Why the call ``call_id`` cannot ask the client for ``feature`` now, or None when
        it can: ``"elicitation"`` (a form), ``"elicitation.url"``, ``"sampling"`` or
        ``"roots"``."""
        call = self._calls.get(call_id)
        if call is None:
            return "The call is over: there is nobody to ask"
        revision, capabilities = call.revision, call.capabilities
        if feature in ("elicitation", "elicitation.url"):
            kind = "URL elicitation" if feature == "elicitation.url" else "elicitation"
            since = "2025-11-25" if feature == "elicitation.url" else "2025-06-18"
            has = revision.url_elicitation if feature == "elicitation.url" else revision.elicitation
            if not has:
                return (
                    f"The client does not support {kind}: revision {revision.version} "
                    f"has none (it came in {since})"
                )
            declared = capabilities.get("elicitation")
            modes = declared if isinstance(declared, dict) else None
            if feature == "elicitation.url":
                able = modes is not None and isinstance(modes.get("url"), dict)
            else:  # an empty object stands for form mode, as it did before modes
                able = modes is not None and (not modes or isinstance(modes.get("form"), dict))
            if not able:
                return f"The client does not support {kind} (it did not declare the capability)"
            return None
        if not isinstance(capabilities.get(feature), dict):
            return f"The client does not support {feature} (it did not declare the capability)"
        return None

    def elicitation_complete(self, elicitation_id: str) -> list[Action]:
        """A URL question's out-of-band step is done: tell the client, in the revision that
        has ``notifications/elicitation/complete``."""
        if self.revision is None or not self.revision.elicitation_ids:
            return []
        method = "notifications/elicitation/complete"
        params = {"elicitationId": elicitation_id}
        return [Send({"jsonrpc": "2.0", "method": method, "params": params})]

    def changed(self, changes: Changes) -> list[Action]:
        """What was published changed: the ``list_changed`` notifications due."""
        kinds: list[ListKind] = []
        if changes.tools:
            kinds.append("tools")
        if changes.resources:
            kinds.append("resources")
        if changes.prompts:
            kinds.append("prompts")
        return [
            Send(message, _stream_of(message))
            for kind in kinds
            for message in self.subscriptions.list_changed(kind, kind in self.declared)
        ]

    def resource_updated(self, uri: str) -> list[Action]:
        """The resource ``uri`` changed: the notifications its subscribers are due."""
        updates = self.subscriptions.resource_updated(uri)
        return [Send(message, _stream_of(message)) for message in updates]

    def close(self) -> list[Action]:
        """The server stops serving this connection: end the open listen streams
        gracefully (their result, then ``notifications/cancelled`` as stdio asks)."""
        actions: list[Action] = []
        for request_id in list(self.subscriptions.listens):
            self.subscriptions.listens.pop(request_id)
            revision = REVISIONS[MODERN_VERSIONS[-1]]
            result = self._complete({}, revision, cache=None)
            result["_meta"] = {**result.get("_meta", {}), SUBSCRIPTION_ID_KEY: request_id}
            actions.append(Send(rpc.result_response(request_id, result), request_id))
            params = {"requestId": request_id, "reason": "The server is shutting down"}
            cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}
            actions.append(Send(cancel, request_id))
        return actions

    def _answers(self, tool: str, arguments: object, params: dict[str, Any]) -> RequestState | None:
        """Modern era: what a retried call brings: its state's answers and the new one, the
        state's expiry, and where the call waits."""
        if "requestState" not in params and "inputResponses" not in params:
            return None
        try:
            state = self.seal.open(params.get("requestState"), tool, arguments, self.clock())
        except StateError as error:
            raise ProtocolError(rpc.INVALID_PARAMS, f"Invalid params: {error}") from None
        key = f"q{len(state.answers)}"
        responses = params.get("inputResponses")
        if not isinstance(responses, dict) or not isinstance(responses.get(key), dict):
            raise ProtocolError(
                rpc.INVALID_PARAMS, f"Invalid params: inputResponses has no answer for {key!r}"
            )
        if len(state.answers) >= self.max_rounds:
            raise ProtocolError(
                rpc.INVALID_PARAMS, f"Invalid params: more than {self.max_rounds} rounds of input"
            )
        return RequestState(
            tool, state.digest, (*state.answers, responses[key]), state.expires, state.park
        )

    def call_needs_input(
        self, call_id: int, method: str, params: dict[str, Any], park: str | None = None
    ) -> list[Action]:
        """Modern era: a call stopped to ask; it is answered ``input_required``, with the
        question and a sealed state the client sends back with its answer. ``park`` names
        where the suspended call waits for it, when it does (else the retry replays)."""
        call = self._end(call_id)
        if call is None:
            return []
        expires = call.expires if call.expires is not None else self.clock() + self.state_ttl
        state = RequestState(call.tool, call.digest, call.answers, expires, park)
        result: dict[str, Any] = {
            "resultType": "input_required",
            "inputRequests": {f"q{len(call.answers)}": {"method": method, "params": params}},
            "requestState": self.seal.seal(state),
            "_meta": {SERVER_INFO_KEY: self.info.implementation(call.revision)},
        }
        return _answer(call, call_id, rpc.result_response(call.request_id, result))

    def ask(self, call_id: int, method: str, params: dict[str, Any]) -> tuple[list[Action], str]:
        """Send the client a request on behalf of a running call (``elicitation/create``,
        ``sampling/createMessage``, ``roots/list``);
        its answer comes back from :meth:`receive` as an :class:`Answer` with the id returned."""
        ask_id = f"objmcp-{next(self._ask_ids)}"
        self._asks[ask_id] = call_id
        request = {"jsonrpc": "2.0", "id": ask_id, "method": method, "params": params}
        call = self._calls.get(call_id)
        return [Send(request, call.request_id if call is not None else None)], ask_id

    def request_finished(
        self, call_id: int, body: dict[str, Any] | None, error: ProtocolError | None = None
    ) -> list[Action]:
        """A started resource read or prompt ended with the result ``body``, or ``error``:
        the answer to send, if it is still wanted."""
        call = self._end(call_id)
        if call is None:
            return []
        if error is not None or body is None:
            failure = error or ProtocolError(rpc.INTERNAL_ERROR, "Internal error")
            return _answer(call, call_id, failure.response(call.request_id))
        cache = call.method if call.method == "resources/read" else None
        result = self._complete(body, call.revision, cache=cache, hint=call.cache)
        return _answer(call, call_id, rpc.result_response(call.request_id, result))

    def call_finished(self, call_id: int, result: ToolResult) -> list[Action]:
        """A started call ended with ``result``: the answer to send, if it is still wanted."""
        call = self._end(call_id)
        if call is None:
            return []
        try:
            answer = self._call_result(result, call.revision)
        except Exception:  # a bug of ours: an internal error for this call alone
            logger.exception("objmcp failed on the answer of a call")
            failed = rpc.error_response(call.request_id, rpc.INTERNAL_ERROR, "Internal error")
            return _answer(call, call_id, failed)
        response = rpc.result_response(call.request_id, answer)
        if result.content is not None or len(result.text) >= LONG_TEXT:
            long_texts = _long_texts(result)
            if long_texts:
                response = LongMessage(response, long_texts)
        return _answer(call, call_id, response)

    # --- messages -------------------------------------------------------------------------

    def _receive_batch(self, batch: list[object]) -> list[Action]:
        if not batch:
            message = "Invalid Request: an empty batch"
            return [Send(rpc.error_response(None, rpc.INVALID_REQUEST, message))]
        if self.revision is None or not self.revision.batches:
            where = f"in revision {self.revision.version}" if self.revision else "before initialize"
            allowed = ", ".join(v for v, r in REVISIONS.items() if r.batches)
            message = (
                f"Invalid Request: JSON-RPC batches are not allowed {where} (only in {allowed})"
            )
            return [Send(rpc.error_response(None, rpc.INVALID_REQUEST, message))]
        group = _Batch()
        actions: list[Action] = []
        for item in batch:
            response = self._receive_one(item, actions, group)
            if response is not None:
                group.responses.append(response)
        group.open = False
        return [*actions, *group.finish()]

    def _receive_one(
        self, message: object, actions: list[Action], batch: _Batch | None
    ) -> Message | None:
        """Handle one message; return its immediate response, or None (notification, call)."""
        if not isinstance(message, dict):
            return rpc.error_response(
                None, rpc.INVALID_REQUEST, "Invalid Request: a message must be a JSON object"
            )
        has_id = "id" in message
        request_id = message.get("id")
        answerable_id = request_id if rpc.is_request_id(request_id) else None
        if message.get("jsonrpc") != "2.0":
            return rpc.error_response(
                answerable_id, rpc.INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"'
            )
        method = message.get("method")
        problem = None if self._vouched else over_limits(message, self.max_depth, self.max_string)
        if method is None:
            if has_id and ("result" in message or "error" in message):
                if problem is not None:  # the question it answers fails
                    error = {"code": rpc.INVALID_REQUEST, "message": f"Too large: {problem}"}
                    message = {"jsonrpc": "2.0", "id": request_id, "error": error}
                self._response(message, actions)
                return None
            return rpc.error_response(
                answerable_id, rpc.INVALID_REQUEST, 'Invalid Request: no "method"'
            )
        if not isinstance(method, str):
            return rpc.error_response(
                answerable_id, rpc.INVALID_REQUEST, 'Invalid Request: "method" must be a string'
            )
        if problem is not None:
            if not has_id:
                logger.warning("dropped a notification over a limit: %s", problem)
                return None
            return rpc.error_response(
                answerable_id, rpc.INVALID_REQUEST, f"Invalid Request: {problem}"
            )
        params = message.get("params", {})
        if not has_id:
            if isinstance(params, dict):
                self._notification(method, params, actions)
            else:
                logger.debug("ignoring notification %s: its params are not an object", method)
            return None
        if not isinstance(params, dict):
            return rpc.error_response(
                answerable_id, rpc.INVALID_REQUEST, 'Invalid Request: "params" must be an object'
            )
        if answerable_id is None:  # not a string or an integer
            return rpc.error_response(
                None, rpc.INVALID_REQUEST, "Invalid Request: an id must be a string or an integer"
            )
        assert request_id is not None
        if request_id in self._in_flight or request_id in self.subscriptions.listens:
            return rpc.error_response(
                request_id,
                rpc.INVALID_REQUEST,
                f"Invalid Request: id {request_id!r} is already in use by a request in flight",
            )
        try:
            return self._request(request_id, method, params, actions, batch)
        except ProtocolError as error:
            return error.response(request_id)

    def _end(self, call_id: int) -> _Call | None:
        """Forget a call that ended (and its questions); None when it was cancelled."""
        call = self._calls.pop(call_id, None)
        if self._asks:
            self._forget_asks(call_id)
        if call is not None:
            self._in_flight.pop(call.request_id, None)
        return call

    def _forget_asks(self, call_id: int) -> None:
        """A call that ended waits for no answer: late ones are ignored."""
        for ask_id in [a for a, asker in self._asks.items() if asker == call_id]:
            del self._asks[ask_id]

    def _response(self, message: dict[str, Any], actions: list[Action]) -> None:
        ask_id = message.get("id")
        if not isinstance(ask_id, str) or ask_id not in self._asks:
            logger.debug("ignoring a response to no question of ours: id %r", ask_id)
            return
        del self._asks[ask_id]
        result, error = message.get("result"), message.get("error")
        if isinstance(result, dict):
            actions.append(Answer(ask_id, result, None))
        else:
            said = (
                error if isinstance(error, dict) else {"message": f"a malformed answer: {error!r}"}
            )
            actions.append(Answer(ask_id, None, said))

    def _notification(self, method: str, params: dict[str, Any], actions: list[Action]) -> None:
        if method == "notifications/cancelled":
            target = params.get("requestId")
            call_id = None
            if isinstance(target, (str, int)) and rpc.is_request_id(target):
                call_id = self._in_flight.pop(target, None)
                if self.subscriptions.listens.pop(target, None) is not None:
                    logger.debug("the client closed its listen stream %r", target)
            if call_id is not None:
                call = self._end(call_id)
                if call is not None and call.batch is not None:
                    actions.extend(call.batch.finish(call_id))
                actions.append(CancelCall(call_id))
        elif method == "notifications/initialized":
            logger.debug("client says it is initialized")
        else:
            logger.debug("ignoring notification %s", method)

    def _request(
        self,
        request_id: RequestId,
        method: str,
        params: dict[str, Any],
        actions: list[Action],
        batch: _Batch | None,
    ) -> Message | None:
        meta = params.get("_meta")
        modern = method == "server/discover" or (
            method != "initialize" and isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta
        )
        if modern:
            revision, capabilities = _modern_revision(meta)
            if method in revision.removed_methods:
                raise _method_not_found(method, revision)
            return self._dispatch(
                request_id, method, params, revision, capabilities, actions, batch
            )
        if method == "initialize":
            return rpc.result_response(request_id, self._initialize(params))
        if method == "ping":
            return rpc.result_response(request_id, {})
        if self.revision is None:
            raise ProtocolError(
                rpc.INVALID_REQUEST,
                f"Invalid Request: the server is not initialized; send initialize before {method} "
                f"(or name a revision in _meta: {', '.join(MODERN_VERSIONS)})",
            )
        return self._dispatch(
            request_id, method, params, self.revision, self.client_capabilities, actions, batch
        )

    def _dispatch(
        self,
        request_id: RequestId,
        method: str,
        params: dict[str, Any],
        revision: Revision,
        capabilities: Mapping[str, Any],
        actions: list[Action],
        batch: _Batch | None,
    ) -> Message | None:
        if method == "tools/call":
            name = params.get("name")
            if not isinstance(name, str):
                raise ProtocolError(rpc.INVALID_PARAMS, 'tools/call needs a string "name"')
            if name not in self.toolbox:
                raise ProtocolError(rpc.INVALID_PARAMS, f"Unknown tool: {name}", {"tool": name})
            call = _Call(request_id, revision, batch, capabilities=capabilities, tool=name)
            self._start(call, "tool", name, params.get("arguments"), params, actions)
            return None
        if method == "tools/list":
            return rpc.result_response(request_id, self._tools_list(revision, params))
        if method == "logging/setLevel":
            level = params.get("level")
            if level not in LOG_LEVELS:
                raise ProtocolError(
                    rpc.INVALID_PARAMS,
                    f"Invalid params: level must be one of {', '.join(LOG_LEVELS)}, not {level!r}",
                )
            self.log_level = level
            return rpc.result_response(request_id, {})
        if method == "server/discover":
            return rpc.result_response(request_id, self._discover(revision))
        if method == "subscriptions/listen" and revision.era == "modern":
            capabilities = self._capabilities(revision)
            offered = [kind for kind in LIST_KINDS if kind in capabilities]
            known = self._known_uri  # (no resources: it knows none)
            requested = params.get("notifications")
            ack = self.subscriptions.listen(request_id, requested, offered, known)
            actions.append(Send(ack, request_id))
            return None
        feature = method.split("/", maxsplit=1)[0]
        # A handshake client keeps what initialize declared; a modern one asks each time.
        has = self.declared if revision.era == "handshake" else self._capabilities(revision)
        if feature == "completion":
            declared = "prompts" in has or "resources" in has
        else:
            declared = feature in has
        if method in _LISTS:  # clients list them undeclared too: the SDKs' servers say none
            found = self._listing(method) if declared else []
            page = self._page(method, _LISTS[method], found, params)
            return rpc.result_response(request_id, self._complete(page, revision, cache=method))
        if not declared:
            raise _method_not_found(method, revision)  # a feature the server did not declare
        if method == "completion/complete":
            return rpc.result_response(
                request_id, self._complete(self._completion(params), revision, cache=None)
            )
        if method in ("resources/read", "prompts/get"):
            self._start_request(request_id, method, params, revision, capabilities, actions, batch)
            return None
        if method in ("resources/subscribe", "resources/unsubscribe"):
            uri = params.get("uri")
            if not isinstance(uri, str):
                raise ProtocolError(rpc.INVALID_PARAMS, f'{method} needs a string "uri"')
            if method == "resources/unsubscribe":
                self.subscriptions.uris.discard(uri)
            elif self._known_uri(uri):
                self.subscriptions.uris.add(uri)
            else:
                raise ProtocolError(RESOURCE_NOT_FOUND, f"Resource not found: {uri}", {"uri": uri})
            return rpc.result_response(request_id, {})
        raise _method_not_found(method, revision)

    def _known_uri(self, uri: str) -> bool:
        return self.toolbox.find_resource(uri) is not None

    def _start_request(
        self,
        request_id: RequestId,
        method: str,
        params: dict[str, Any],
        revision: Revision,
        capabilities: Mapping[str, Any],
        actions: list[Action],
        batch: _Batch | None = None,
    ) -> None:
        """Start a resource read or a prompt: checked here, run by the runner."""
        if method == "resources/read":
            uri = params.get("uri")
            if not isinstance(uri, str):
                raise ProtocolError(rpc.INVALID_PARAMS, 'resources/read needs a string "uri"')
            found = self.toolbox.find_resource(uri)
            if found is None:
                raise ProtocolError(RESOURCE_NOT_FOUND, f"Resource not found: {uri}", {"uri": uri})
            kind: Literal["resource", "prompt"] = "resource"
            target, arguments, hint = uri, None, found[0].cache
        else:
            name = params.get("name")
            if not isinstance(name, str) or name not in self.toolbox.prompts:
                raise ProtocolError(rpc.INVALID_PARAMS, f"Unknown prompt: {name}")
            kind, target, arguments, hint = "prompt", name, params.get("arguments"), None
        call = _Call(
            request_id,
            revision,
            batch,
            capabilities=capabilities,
            tool=f"{method} {target}",  # what a sealed state is bound to
            method=method,
            cache=hint,
        )
        self._start(call, kind, target, arguments, params, actions)

    def _start(
        self,
        call: _Call,
        kind: Literal["tool", "resource", "prompt"],
        target: str,
        arguments: object,
        params: dict[str, Any],
        actions: list[Action],
    ) -> None:
        """Start ``call``: with, in the modern era, the answers its retry brings."""
        if len(self._calls) >= self.max_calls:
            raise ProtocolError(
                rpc.SERVER_BUSY,
                f"Server busy: {len(self._calls)} requests are running on this connection, "
                f"the most it takes at once (max_calls); send this one again when one has "
                "been answered",
            )
        meta = _meta_of(params)
        token = meta.get("progressToken")
        call.progress_token = token if token is not None and rpc.is_request_id(token) else None
        state: RequestState | None = None
        if call.revision.era == "modern":
            # a state is sealed over the arguments, and over the caller when known
            bound = arguments if self._caller is None else [self._caller, arguments]
            state = self._answers(call.tool, bound, params)
            asked_level = meta.get(LOG_LEVEL_KEY)
            call.log_level = asked_level if asked_level in LOG_LEVELS else None
            # taken now, before the method can touch the arguments; a retry's state has it
            call.digest = state.digest if state is not None else arguments_digest(bound)
            if state is not None:
                call.answers, call.expires = state.answers, state.expires
        call_id = next(self._call_ids)
        self._calls[call_id] = call
        self._in_flight[call.request_id] = call_id
        if call.batch is not None:
            call.batch.pending.add(call_id)
        park = state.park if state is not None else None
        context = CallContext(
            call.request_id, call.revision, call.capabilities, meta, call.answers, park
        )
        actions.append(StartCall(call_id, target, arguments, context, kind))

    def _completion(self, params: dict[str, Any]) -> dict[str, Any]:
        ref, argument = params.get("ref"), params.get("argument")
        if not isinstance(ref, dict) or not isinstance(argument, dict):
            raise ProtocolError(
                rpc.INVALID_PARAMS, "completion/complete needs a ref and an argument"
            )
        name, typed = argument.get("name"), argument.get("value", "")
        if not isinstance(name, str) or not isinstance(typed, str):
            raise ProtocolError(rpc.INVALID_PARAMS, "the argument needs a string name and value")
        if ref.get("type") == "ref/prompt" and ref.get("name") in self.toolbox.prompts:
            values = complete_values(self.toolbox.prompts[ref["name"]], name, typed)
        elif ref.get("type") == "ref/resource" and ref.get("uri") in self.toolbox.resources:
            hint = self.toolbox.resources[ref["uri"]].hints.get(name, str)
            values = complete_values(hint, name, typed)
        else:
            raise ProtocolError(
                rpc.INVALID_PARAMS, f"Invalid params: no prompt or template {ref!r}"
            )
        shown = values[:MAX_COMPLETIONS]
        return {
            "completion": {
                "values": shown,
                "total": len(values),
                "hasMore": len(values) > len(shown),
            }
        }

    # --- results --------------------------------------------------------------------------

    def _capabilities(self, revision: Revision) -> dict[str, Any]:
        found: dict[str, Any] = {"tools": {"listChanged": True}, "logging": {}}
        has_resources = bool(self.toolbox.resources) or "resources" in self.declare
        has_prompts = bool(self.toolbox.prompts) or "prompts" in self.declare
        if has_resources:
            found["resources"] = {"subscribe": True, "listChanged": True}
        if has_prompts:
            found["prompts"] = {"listChanged": True}
        if revision.completions and (has_prompts or has_resources):
            found["completions"] = {}
        return found

    def _initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        requested = params.get("protocolVersion")
        data: dict[str, Any] = {"supported": list(HANDSHAKE_VERSIONS)}
        if not isinstance(requested, str):
            raise ProtocolError(
                rpc.INVALID_PARAMS, 'initialize needs a string "protocolVersion"', data
            )
        revision = _negotiate(requested)
        if revision is None:
            data["requested"] = requested
            raise ProtocolError(rpc.INVALID_PARAMS, "Unsupported protocol version", data)
        capabilities = params.get("capabilities")
        self.client_capabilities = capabilities if isinstance(capabilities, dict) else {}
        self.revision = revision
        self.declared = self._capabilities(revision)
        result: dict[str, Any] = {
            "protocolVersion": revision.version,
            "capabilities": self.declared,
            "serverInfo": self.info.implementation(revision),
        }
        if self.info.instructions:
            result["instructions"] = self.info.instructions
        return result

    def _discover(self, revision: Revision) -> dict[str, Any]:
        result: dict[str, Any] = {
            "supportedVersions": list(MODERN_VERSIONS),
            "capabilities": self._capabilities(revision),
        }
        if self.info.instructions:
            result["instructions"] = self.info.instructions
        return self._complete(result, revision, cache="server/discover")

    def _tools_list(self, revision: Revision, params: dict[str, Any]) -> dict[str, Any]:
        key = (revision.version, self.toolbox.generation)
        tools = self._tool_list_cache.get(key)
        if tools is None:
            tools = [self._tool_entry(tool, revision) for tool in self.toolbox.values()]
            kept = self._tool_list_cache.items()
            self._tool_list_cache = {k: v for k, v in kept if k[1] == key[1]}
            self._tool_list_cache[key] = tools
        page = self._page("tools/list", "tools", tools, params)
        return self._complete(page, revision, cache="tools/list")

    def _listing(self, method: str) -> list[dict[str, Any]]:
        resources = self.toolbox.resources.values()
        if method == "resources/list":
            return [resource.listing() for resource in resources if not resource.is_template]
        if method == "resources/templates/list":
            return [resource.listing() for resource in resources if resource.is_template]
        return [prompt.listing() for prompt in self.toolbox.prompts.values()]

    def _tool_entry(self, tool: Tool, revision: Revision) -> dict[str, Any]:
        entry = mcp_tool(tool)
        return {key: value for key, value in entry.items() if key in revision.tool_fields}

    def _call_result(self, result: ToolResult, revision: Revision) -> dict[str, Any]:
        if result.content is None:
            content = [{"type": "text", "text": result.text}]
        else:
            content = [fits(block, revision.content_types) for block in result.content]
        answer: dict[str, Any] = {"content": content, "isError": result.is_error}
        if result.structured is not None and "outputSchema" in revision.tool_fields:
            answer["structuredContent"] = result.structured
        return self._complete(answer, revision, cache=None)

    def _complete(
        self,
        result: dict[str, Any],
        revision: Revision,
        cache: str | None,
        hint: CacheHint | None = None,
    ) -> dict[str, Any]:
        """Add what ``revision`` puts on every result (``cache`` names the method whose
        caching hints a cacheable result carries; ``hint``, when given, is its own)."""
        if revision.result_type:
            result = {"resultType": "complete", **result}
            result["_meta"] = {SERVER_INFO_KEY: self.info.implementation(revision)}
        if cache is not None and revision.cache_hints:
            ttl, scope = hint or self.cache.get(cache, DEFAULT_HINT)
            result["ttlMs"] = ttl
            result["cacheScope"] = scope
        return result

    def _page(
        self, method: str, key: str, items: list[Any], params: dict[str, Any]
    ) -> dict[str, Any]:
        """One page of a list, from the request's ``cursor``: ``{key: [...]}`` and a
        ``nextCursor`` when more follow."""
        start = 0
        cursor = params.get("cursor")
        if cursor is not None:
            start = _read_cursor(cursor, method, len(items))
        if self.page_size is None:
            return {key: items[start:]}
        end = start + self.page_size
        page: dict[str, Any] = {key: items[start:end]}
        if end < len(items):
            page["nextCursor"] = _make_cursor(method, end)
        return page


def check_declare(declare: Collection[str]) -> None:
    """Raise ValueError for a capability objmcp cannot declare in advance."""
    if isinstance(declare, str) or not set(declare) <= {"resources", "prompts"}:
        raise ValueError(f"declare takes 'resources' and/or 'prompts' (a list), not {declare!r}")


def _answer(call: _Call, call_id: int, response: Message) -> list[Action]:
    """Send the response that ends ``call``: alone, or in its batch's array once the
    batch's last call has ended."""
    if call.batch is None:
        return [Send(response, call.request_id)]
    call.batch.responses.append(response)
    return call.batch.finish(call_id)


def _long_texts(result: ToolResult) -> list[str]:
    """The strings of a tool's result that are long: its text, and those of its blocks."""
    found = [result.text] if len(result.text) >= LONG_TEXT else []
    for block in result.content or ():
        for value in block.values():
            inner = value.values() if isinstance(value, dict) else (value,)
            found.extend(text for text in inner if type(text) is str and len(text) >= LONG_TEXT)
    return found


def check_listing(page_size: int | None) -> None:
    """Raise ValueError for a page size no list could have."""
    if page_size is not None and page_size < 1:
        raise ValueError(f"page_size must be at least 1, not {page_size}")


def _make_cursor(method: str, offset: int) -> str:
    import base64  # only a paged list needs it

    return base64.urlsafe_b64encode(f"{method}|{offset}".encode()).decode().rstrip("=")


def _read_cursor(cursor: object, method: str, length: int) -> int:
    """The offset a cursor of ours stands for; -32602 for anything else."""
    refusal = ProtocolError(
        rpc.INVALID_PARAMS, f"Invalid params: {cursor!r} is not a cursor of {method}"
    )
    if not isinstance(cursor, str):
        raise refusal
    import base64

    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        named, _, number = text.partition("|")
        offset = int(number)
    except (ValueError, UnicodeDecodeError):
        raise refusal from None
    if named != method or not 0 <= offset <= length or number != str(offset):
        raise refusal
    return offset


def _id_of(message: Message) -> RequestId | None:
    found = message.get("id")
    return found if rpc.is_request_id(found) else None


def _stream_of(message: Message) -> RequestId | None:
    """The listen stream a notification goes on (None: the connection's own)."""
    meta = message.get("params", {}).get("_meta", {})
    found = meta.get(SUBSCRIPTION_ID_KEY) if isinstance(meta, dict) else None
    return found if rpc.is_request_id(found) else None


def _meta_of(params: dict[str, Any]) -> dict[str, Any]:
    meta = params.get("_meta")
    return meta if isinstance(meta, dict) else {}


def _modern_revision(meta: object) -> tuple[Revision, Mapping[str, Any]]:
    if not isinstance(meta, dict):
        raise ProtocolError(
            rpc.INVALID_PARAMS,
            f"Invalid params: a request without initialize needs params._meta with "
            f"{PROTOCOL_VERSION_KEY} and {CLIENT_CAPABILITIES_KEY}",
        )
    version = meta.get(PROTOCOL_VERSION_KEY)
    if not isinstance(version, str):
        raise ProtocolError(
            rpc.INVALID_PARAMS, f"Invalid params: _meta needs {PROTOCOL_VERSION_KEY} as a string"
        )
    revision = REVISIONS.get(version)
    if revision is None or revision.era != "modern":
        raise ProtocolError(
            rpc.UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
            {"supported": list(MODERN_VERSIONS), "requested": version},
        )
    capabilities = meta.get(CLIENT_CAPABILITIES_KEY)
    if not isinstance(capabilities, dict):
        raise ProtocolError(
            rpc.INVALID_PARAMS, f"Invalid params: _meta needs {CLIENT_CAPABILITIES_KEY} (an object)"
        )
    return revision, capabilities


_LISTS = {
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
}
"""The list methods of the features, by the key of their items: answered in every
revision, an empty list when the server has none (its capability not declared)."""


def _method_not_found(method: str, revision: Revision) -> ProtocolError:
    if method in revision.removed_methods:
        return ProtocolError(
            rpc.METHOD_NOT_FOUND, f"Method not found: {method} does not exist in {revision.version}"
        )
    return ProtocolError(rpc.METHOD_NOT_FOUND, f"Method not found: {method}")
