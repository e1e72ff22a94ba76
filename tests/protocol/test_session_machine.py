"""Stateful fuzz of the sans-IO session: conversations that go back and forth.

:mod:`test_session_props` throws random messages and batches at a session. Here a
:class:`hypothesis.stateful.RuleBasedStateMachine` plays both of its neighbours at
once, one step at a time: the client (requests of both eras, notifications,
cancellations, answers to the server's questions, retries of ``input_required``
calls, end of input) and the connection (calls that finish, ask the client,
report progress). The client is modelled with bookkeeping only: the requests
waiting for their answer, the calls they started, the questions asked.

Every action the session asks for is checked against the step that caused it (a
call starts only for a request just read, an answer to a question only for the
client's response just read, a cancel only for the cancellation just read), and:

- every message sent is well-formed JSON-RPC 2.0;
- every request gets exactly one answer: at once, or when the call it started is
  reported, or (a listen stream) at the end, or (in a batch) in the batch's one
  array once its last call ends; never two, none to a notification, none after the
  client cancelled it (teardown: none is left without its answer);
- an id is free again once its request is answered or cancelled: a request that
  reuses it is a fresh one, and a late report of the old call never answers it;
- every :class:`Answer` is for a question just answered by the client, still
  outstanding and of a running call, and carries that answer: a question is never
  answered twice and an answer never reaches another call;
- a retry's sealed state is good only for its own call, caller, round and time;
- after end of input nothing starts, nothing is asked, no answer reaches a call.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import objmcp
from objmcp import Toolbox
from objmcp.model.values.content import ToolResult
from objmcp.protocol import answers as session_answers
from objmcp.protocol import midcall
from objmcp.protocol.jsonrpc import INVALID_PARAMS, INVALID_REQUEST, ProtocolError, RequestId
from objmcp.protocol.revisions import REVISIONS
from objmcp.protocol.session import (
    CLIENT_CAPABILITIES_KEY,
    PROTOCOL_VERSION_KEY,
    Action,
    Answer,
    CancelCall,
    Feature,
    Resume,
    Send,
    ServerInfo,
    Session,
    StartCall,
)
from objmcp.protocol.state import StateSeal
from objmcp.protocol.subscriptions import SUBSCRIPTION_ID_KEY


class Desk:
    """A small object to serve: two tools, a resource template and a prompt."""

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    def echo(self, text: str) -> str:
        """Say it back."""
        return text

    @objmcp.resource("memo://{key}")
    def memo(self, key: str) -> str:
        """A memo, by key."""
        return key

    @objmcp.prompt
    def greet(self, name: str) -> str:
        """Greet someone."""
        return f"Hello {name}"


TOOLBOX = Toolbox(Desk())
INFO = ServerInfo("machine")
MODERN = "2026-07-28"
STATE_TTL = 60.0
MAX_ROUNDS = 3

# Few ids, so that they collide; the last two look like the ids of the server's questions.
IDS: tuple[RequestId, ...] = (1, 2, 3, "a", "b", "objmcp-1", "objmcp-2")
CALLERS = (None, "alice", "bob")
"""The callers, by key (None: no credentials were checked)."""
INIT_VERSIONS = ("2025-06-18", "2025-03-26", "2024-11-05", "2025-11-25", MODERN, "1999-01-01")
CAPABILITIES: tuple[dict[str, Any], ...] = (
    {"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}},
    {"elicitation": {}},
    {"sampling": {}, "roots": {}},
    {},
)
QUESTIONS: dict[Feature, str] = {
    "elicitation": "elicitation/create",
    "sampling": "sampling/createMessage",
    "roots": "roots/list",
}
STARTING_METHODS = ("tools/call", "resources/read", "prompts/get")
STARTERS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}),
    ("tools/call", {"name": "echo", "arguments": {"text": "hi"}}),
    ("tools/call", {"name": "echo", "arguments": "not an object"}),
    ("tools/call", {"name": "nope", "arguments": {}}),
    ("resources/read", {"uri": "memo://x"}),
    ("prompts/get", {"name": "greet", "arguments": {"name": "Ada"}}),
    ("subscriptions/listen", {"notifications": {"toolsListChanged": True}}),
)
BATCH_STARTERS = tuple((m, p) for m, p in STARTERS if m in STARTING_METHODS)
"""What may start a call in a batch (a listen stream, answered only at the end, may not)."""
BATCH_ITEMS = ("quick", "start", "start", "cancel", "answer", "notification")
QUICK_METHODS = ("tools/list", "ping", "server/discover", "nothing/here", "tools/call")
OTHER_NOTIFICATIONS = ("notifications/initialized", "notifications/progress", "notifications/x")

ids = st.sampled_from(IDS)
eras = st.sampled_from(["handshake", "modern", "handshake", "modern", "modern, unsupported"])
tokens = st.sampled_from([None, 0, "tok"])
often = st.integers(0, 3).map(lambda n: n > 0)
"""True three times in four."""


def keyed(caller_key: str | None) -> objmcp.Caller | None:
    """The caller whose :attr:`~objmcp.Caller.key` is ``caller_key`` (None: none)."""
    return objmcp.Caller(key=caller_key) if caller_key is not None else None


def cancellation(request_id: object) -> dict[str, Any]:
    """The client's ``notifications/cancelled`` for ``request_id``."""
    params = {"requestId": request_id, "reason": "bored"}
    return {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}


def note(what: str) -> None:
    """Count ``what`` in hypothesis's statistics (when in a hypothesis test)."""
    if currently_in_test_context():
        event(what)


def check_message(message: object) -> None:
    """A well-formed JSON-RPC 2.0 request, notification or response, as MCP narrows it."""
    json.dumps(message, allow_nan=False)
    assert isinstance(message, dict), message
    assert message.get("jsonrpc") == "2.0", message
    if "method" in message:
        assert isinstance(message["method"], str) and message["method"], message
        assert set(message) <= {"jsonrpc", "id", "method", "params"}, message
        assert "id" not in message or is_id(message["id"]), message
        assert isinstance(message.get("params", {}), dict), message
        return
    assert "id" in message and (message["id"] is None or is_id(message["id"])), message
    assert ("result" in message) != ("error" in message), message
    assert set(message) <= {"jsonrpc", "id", "result", "error"}, message
    if "result" in message:
        assert isinstance(message["result"], dict) and message["id"] is not None, message
    else:
        error = message["error"]
        assert isinstance(error, dict) and set(error) <= {"code", "message", "data"}, message
        assert type(error.get("code")) is int, message
        assert isinstance(error.get("message"), str) and error["message"], message


def is_id(value: object) -> bool:
    """Whether ``value`` can be a request id (MCP: a string or an integer)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def is_response(message: object) -> bool:
    """Whether ``message`` is a response (not a request or a notification)."""
    return isinstance(message, dict) and "method" not in message


def modern_meta(caller_caps: dict[str, Any], version: str = MODERN) -> dict[str, Any]:
    """The ``_meta`` that makes a request modern."""
    return {PROTOCOL_VERSION_KEY: version, CLIENT_CAPABILITIES_KEY: caller_caps}


@dataclass(eq=False)
class Batch:
    """A batch of the client's messages: its requests are answered in one array, once the
    last of its calls ends."""

    members: list[RequestId] = field(default_factory=list)
    sent: bool = False


@dataclass
class Request:
    """A request of the client that waits for its answer."""

    method: str
    params: dict[str, Any]
    caller: str | None
    capabilities: dict[str, Any]
    """The client capabilities in force for it (its ``_meta``'s, or initialize's)."""
    call_id: int | None = None
    """The call it started, if it did."""
    listening: bool = False
    """Whether it opened a listen stream (answered at close)."""
    batch: Batch | None = None
    """The batch it came in, if it did: its answer goes in the batch's array."""

    @property
    def meta(self) -> dict[str, Any]:
        """Its ``_meta``."""
        meta = self.params.get("_meta", {})
        assert isinstance(meta, dict)
        return meta

    @property
    def modern(self) -> bool:
        """Whether it names its revision in ``_meta`` (as the session's docstring says)."""
        return self.method == "server/discover" or (
            self.method != "initialize" and PROTOCOL_VERSION_KEY in self.meta
        )


@dataclass(frozen=True)
class Outcome:
    """How the connection reported the end of a call."""

    how: str
    """``"result"``, ``"error"`` or (modern era) ``"input"``."""
    mark: str
    """What its result or error says, and no other call's."""
    requests: dict[str, Any]
    """What it asks, by key (its ``inputRequests``), for ``"input"``."""
    park: bool
    """Whether it waits, parked, for the retry, for ``"input"``."""
    expires: float
    """When the state of its ``"input_required"`` answer expires."""


@dataclass
class Call:
    """A call the session started; the connection runs it until it reports its end."""

    call_id: int
    request_id: RequestId
    request: Request
    kind: str
    target: str
    answers: dict[str, Any] = field(default_factory=dict)
    rounds: int = 0
    """Modern era: the rounds of questions the state its retry brought had asked."""
    expires: float | None = None
    """Modern era: the deadline of the state its retry brought, if it was a retry."""
    wanted: bool = True
    """False once the client cancelled it: its end is reported to nobody."""
    reported: bool = False
    outcome: Outcome | None = None
    """How the connection reported its end."""

    @property
    def alive(self) -> bool:
        """Whether the session still waits for this call."""
        return self.wanted and not self.reported

    @property
    def modern(self) -> bool:
        """Whether its request was of the modern era."""
        return self.request.modern

    @property
    def token(self) -> object:
        """The ``progressToken`` of its request, if any."""
        return self.request.meta.get("progressToken")


@dataclass
class Question:
    """A question the server asked the client for a call."""

    call_id: int
    answered: bool = False


@dataclass(frozen=True)
class Suspended:
    """Modern era: an ``input_required`` answer the client may retry with its answer."""

    method: str
    params: dict[str, Any]
    """The request's own params (no ``_meta``, state or answers)."""
    caller: str | None
    answers: dict[str, Any]
    state: str
    keys: tuple[str, ...]
    """The keys of the questions it asks."""
    rounds: int
    """The rounds of questions asked, this one included."""
    parked: int | None
    """The call that waits, parked, for this retry (None: the retry runs it again)."""
    expires: float


@dataclass
class Moment:
    """What the current step is: which answers, calls and questions it may bring."""

    receiving: tuple[RequestId, ...] = ()
    """The requests just read."""
    reporting: int | None = None
    """The call whose end the connection reports."""
    cancelling: tuple[object, ...] = ()
    """The ids the client's cancellations name."""
    responding: list[tuple[str, object, object]] = field(default_factory=list)
    """The client's answers due to reach their calls, in order: ``(id, result, error)``."""
    progressing: int | None = None
    """The call that reports progress."""
    closing: bool = False
    """Whether the input ends."""
    streams_closed: set[RequestId] = field(default_factory=set)
    """The listen streams the end has answered so far."""
    null_allowed: int = 0
    """How many answers with id null may come (to a batch refused as a whole)."""


class SessionMachine(RuleBasedStateMachine):
    """A session between a random client and a random connection."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 1_000.0
        self.session = Session(
            TOOLBOX,
            INFO,
            seal=StateSeal(b"machine-key-machine-key"),
            clock=lambda: self.now,
            state_ttl=STATE_TTL,
            max_rounds=MAX_ROUNDS,
        )
        self.handshake: str | None = None
        """The revision the last successful ``initialize`` negotiated."""
        self.declared: dict[str, Any] = {}
        """The capabilities the last successful ``initialize`` declared."""
        self.waiting: dict[RequestId, Request] = {}
        self.used: set[RequestId] = set()
        """Ids of requests answered or cancelled: free to reuse."""
        self.calls: dict[int, Call] = {}
        self.questions: dict[str, Question] = {}
        self.suspended: list[Suspended] = []
        self.parks: set[int] = set()
        """The calls parked that a retry may resume (the model of the session's parking)."""
        self.batches: list[Batch] = []
        self.closed = False
        self.moment = Moment()
        self.marks = itertools.count()
        self.steps = 0
        self.close_at = 0
        """End of input comes after so many steps at the earliest (else talks are short)."""

    # --- what the session says --------------------------------------------------------------

    def absorb(self, actions: list[Action]) -> None:
        """Check each action against the model and the current step, and take it in."""
        arrays: list[Batch] = []
        for action in actions:
            if isinstance(action, Send) and isinstance(action.message, list):
                arrays.append(self.batch_sent(action.message, action.related))
            elif isinstance(action, Send):
                self.sent(action)
            elif isinstance(action, StartCall):
                self.started(action)
            elif isinstance(action, Resume):
                assert action.parked in self.parks, f"a resume of no parked call: {action}"
                self.parks.discard(action.parked)  # a park resumes once
                self.started(action.start)
            elif isinstance(action, CancelCall):
                self.cancelled(action)
            else:
                assert isinstance(action, Answer), action
                self.answered(action)
        for batch in arrays:  # once the step is taken in: its cancellations come after
            left = [
                m for m in batch.members if m in self.waiting and self.waiting[m].batch is batch
            ]
            assert not left, f"a batch answered without {left}"

    def sent(self, action: Send) -> None:
        """One message: a response, a notification (never a request: questions are asked in
        :meth:`question`)."""
        message = action.message
        assert isinstance(message, dict), action
        check_message(message)
        if is_response(message):
            self.response(message)
            assert action.related == message["id"], action
        elif "id" in message:
            raise AssertionError(f"a request to the client that no call asked: {message}")
        else:
            self.notification(message, action.related)

    def batch_sent(self, message: list[Any], related: RequestId | None) -> Batch:
        """The answer to a batch: one array with the answers to all of its requests still
        wanted, sent once; the batch."""
        assert message, "an empty batch response"
        for item in message:
            assert is_response(item), f"not a response in a batch: {item}"
            check_message(item)
        first = self.waiting.get(message[0]["id"])
        batch = first.batch if first is not None else None
        assert batch is not None, f"an array that answers no batch: {message}"
        assert not batch.sent, f"a batch answered twice: {message}"
        assert related in [item["id"] for item in message], (related, message)
        for item in message:
            self.response(item, batch)
        batch.sent = True
        return batch

    def response(self, message: dict[str, Any], batch: Batch | None = None) -> None:
        """A response (in the array of ``batch``): to a request that waits for it, when it
        can come (the request is read, its call reported, its stream closed)."""
        check_message(message)
        request_id = message["id"]
        if request_id is None:
            assert batch is None and self.moment.null_allowed > 0, f"to no one: {message}"
            self.moment.null_allowed -= 1
            return
        request = self.waiting.pop(request_id, None)
        assert request is not None, f"an answer no request waits for (a second? a late?): {message}"
        assert request.batch is batch, (
            f"a request of a batch answered outside its array: {message}"
            if batch is None
            else f"an array answers a request of another batch: {message}"
        )
        self.used.add(request_id)
        if request.call_id is not None:
            call = self.calls[request.call_id]
            assert self.moment.reporting == call.call_id or (batch and call.reported), (
                f"request {request_id!r} answered while call {self.moment.reporting} ends"
            )
            self.check_outcome(call, message)
        elif request.listening:
            assert self.moment.closing, f"a listen stream answered before the end: {message}"
            self.moment.streams_closed.add(request_id)
        else:
            assert batch or request_id in self.moment.receiving, f"out of turn: {message}"
        result = message.get("result")
        if result is not None:
            assert ("resultType" in result) == request.modern, message

    def check_outcome(self, call: Call, response: dict[str, Any]) -> None:
        """The answer to ``call``'s request says what the connection reported of it."""
        assert call.outcome is not None, f"an answer before the call ended: {response}"
        how, mark = call.outcome.how, call.outcome.mark
        if how == "input":
            result = response["result"]
            assert result["resultType"] == "input_required", result
            assert result["inputRequests"] == call.outcome.requests, result
            own = {
                name: value
                for name, value in call.request.params.items()
                if name not in ("_meta", "requestState", "inputResponses")
            }
            state = result["requestState"]
            self.suspended.append(
                Suspended(
                    call.request.method,
                    own,
                    call.request.caller,
                    call.answers,
                    state,
                    tuple(call.outcome.requests),
                    call.rounds + 1,
                    call.call_id if call.outcome.park else None,
                    call.outcome.expires,
                )
            )
            note("a call needs input")
        elif how == "error" and call.kind != "tool":
            assert response["error"]["message"] == mark, response
        else:
            result = response["result"]
            assert mark in json.dumps(result), response
            if call.kind == "tool":
                assert result["isError"] is (how == "error"), response

    def notification(self, message: dict[str, Any], related: RequestId | None) -> None:
        """A notification: a listen stream's acknowledgement, its end at close, a progress
        report of a running call; no other."""
        method, params = message["method"], message.get("params", {})
        if method == "notifications/subscriptions/acknowledged":
            stream = params["_meta"][SUBSCRIPTION_ID_KEY]
            assert stream in self.moment.receiving and stream == related, message
            request = self.waiting[stream]
            assert request.method == "subscriptions/listen" and not request.listening, message
            request.listening = True
        elif method == "notifications/cancelled":
            assert self.moment.closing, f"the server cancels before the end: {message}"
            assert params["requestId"] in self.moment.streams_closed, message
            assert related == params["requestId"], message
        elif method == "notifications/progress":
            progressing = self.moment.progressing
            call = self.calls[progressing] if progressing is not None else None
            assert call is not None and call.alive, f"progress of no running call: {message}"
            assert params["progressToken"] == call.token, message
            assert related == call.request_id, message
        else:
            raise AssertionError(f"an unexpected notification: {message}")

    def started(self, action: StartCall) -> None:
        """A call starts: for a request just read, with what it asked for."""
        request_id = action.context.request_id
        assert request_id in self.moment.receiving, f"a call no request just asked for: {action}"
        request = self.waiting[request_id]
        assert request.method in STARTING_METHODS and request.call_id is None, action
        assert action.call_id not in self.calls, f"call id {action.call_id} used twice"
        context, params = action.context, request.params
        kinds = {"tools/call": "tool", "resources/read": "resource", "prompts/get": "prompt"}
        assert action.kind == kinds[request.method], action
        assert action.tool == params.get("uri", params.get("name")), action
        assert action.arguments == params.get("arguments"), action
        assert context.client_capabilities == request.capabilities, (context, request)
        if request.modern:
            assert context.revision.version == request.meta[PROTOCOL_VERSION_KEY], context
        else:
            assert context.revision.version == self.handshake, context
        request.call_id = action.call_id
        self.calls[action.call_id] = Call(
            action.call_id, request_id, request, action.kind, action.tool, dict(context.answers)
        )

    def cancelled(self, action: CancelCall) -> None:
        """A running call stops: the client just cancelled its request, which gets no answer."""
        call = self.calls.get(action.call_id)
        assert call is not None and call.alive, f"a cancel of no running call: {action}"
        assert call.request_id in self.moment.cancelling, action
        call.wanted = False
        request = self.waiting.pop(call.request_id)
        assert request.call_id == call.call_id, action
        self.used.add(call.request_id)

    def answered(self, action: Answer) -> None:
        """The client's answer to a question goes to the call that asked: the answer just
        sent, to a question outstanding, once."""
        assert self.moment.responding, f"an answer nobody sent: {action}"
        ask_id, result, error = self.moment.responding.pop(0)
        assert action.ask_id == ask_id, f"the answer to {ask_id!r} went to {action.ask_id!r}"
        question = self.questions[ask_id]
        assert not question.answered, f"question {ask_id!r} answered twice"
        assert self.calls[question.call_id].alive, f"an answer for a call that is over: {action}"
        question.answered = True
        if isinstance(result, dict):
            assert action.result == result and action.error is None, action
        elif isinstance(error, dict):
            assert action.result is None and action.error == error, action
        else:
            assert action.result is None and isinstance(action.error, dict), action

    # --- what the client sends --------------------------------------------------------------

    def request(
        self,
        message: dict[str, Any],
        caller: str | None = None,
        starts: bool | None = None,
    ) -> list[Action]:
        """Send a request; ``starts`` says whether it must start a call (None: either)."""
        request_id = message["id"]
        actions = self.session.receive(message, keyed(caller))
        if request_id in self.waiting:
            assert len(actions) == 1 and isinstance(actions[0], Send), actions
            check_message(actions[0].message)
            refusal = actions[0].message
            assert isinstance(refusal, dict) and refusal["id"] == request_id, refusal
            assert refusal["error"]["code"] == INVALID_REQUEST, refusal
            note("a request reusing an id in flight is refused")
            return actions
        request = self.expect(message, caller)
        self.moment = Moment(receiving=(request_id,))
        self.absorb(actions)
        self.moment = Moment()
        assert len(actions) == 1, f"a request got {actions}"
        if isinstance(actions[0], (StartCall, Resume)):
            note(f"a {'modern' if request.modern else 'handshake'} call starts")
        if starts is not None:
            assert isinstance(actions[0], (StartCall, Resume)) == starts, (message, actions)
        if request_id in self.used:
            note("an id is reused")
        return actions

    def expect(
        self, message: dict[str, Any], caller: str | None, batch: Batch | None = None
    ) -> Request:
        """Take note of a request the client sends: it waits for its answer."""
        request = Request(message["method"], message.get("params", {}), caller, self.declared)
        request.batch = batch
        if request.modern:
            request.capabilities = request.meta.get(CLIENT_CAPABILITIES_KEY, {})
        self.waiting[message["id"]] = request
        if batch is not None:
            batch.members.append(message["id"])
        return request

    def notify(self, method: str, params: dict[str, Any] | None = None) -> list[Action]:
        """Send a notification: it gets no answer; a cancellation stops the call it names."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        cancelling = method == "notifications/cancelled" and params is not None
        target: Any = params.get("requestId") if params is not None and cancelling else None
        live = self.waiting.get(target) if is_id(target) else None
        stops = live.call_id if live is not None else None
        if stops is not None and not self.calls[stops].alive:
            stops = None
        self.moment = Moment(cancelling=(target,))
        actions = self.session.receive(message)
        self.absorb(actions)
        self.moment = Moment()
        others = [a for a in actions if not isinstance(a, CancelCall)]
        for action in others:  # the array of a batch whose last call was cancelled
            assert isinstance(action, Send) and isinstance(action.message, list), actions
        cancels = [a for a in actions if isinstance(a, CancelCall)]
        if stops is not None:
            assert cancels == [CancelCall(stops)], actions
            note("a running call is cancelled")
        else:
            assert actions == [], actions
        if live is not None and live.listening:
            del self.waiting[target]
            self.used.add(target)
            note("a listen stream is cancelled")
        return actions

    def due(
        self, response: dict[str, Any], answered: set[str], gone: Collection[RequestId]
    ) -> bool:
        """Whether ``response`` answers an outstanding question (not one in ``answered``
        already, nor of a call whose request is in ``gone``)."""
        ask_id = response["id"]
        question = self.questions.get(ask_id) if isinstance(ask_id, str) else None
        if question is None:
            note("a response to no question is ignored")
            return False
        call = self.calls[question.call_id]
        if question.answered or ask_id in answered:
            note("a second answer is ignored")
        elif not call.alive or call.request_id in gone:
            note(f"a late answer is ignored ({'reported' if call.reported else 'cancelled'})")
        else:
            answered.add(ask_id)
            return True
        return False

    def respond(self, response: dict[str, Any]) -> None:
        """Send the client's response to a question (or to no question of ours)."""
        due = self.due(response, set(), set())
        expected = [(response["id"], response.get("result"), response.get("error"))] if due else []
        self.moment = Moment(responding=expected)
        actions = self.session.receive(response)
        self.absorb(actions)
        assert not self.moment.responding, f"answers lost: {self.moment.responding}"
        self.moment = Moment()
        assert len(actions) == int(due), actions
        if due:
            note("an answer reaches its call")

    def send_batch(self, items: list[dict[str, Any]]) -> list[Action]:
        """Send ``items`` as one batch: requests (with ids of no request in flight),
        cancellations, answers to questions, other notifications."""
        allowed = self.handshake is not None and REVISIONS[self.handshake].batches
        batch = Batch()
        expected: list[tuple[str, object, object]] = []
        answered: set[str] = set()
        targets: list[RequestId] = []
        stopped: set[RequestId] = set()
        """Requests whose calls the batch cancels (of earlier messages, or of its own)."""
        for item in items if allowed else []:
            if "method" not in item:
                if self.due(item, answered, stopped):
                    expected.append((item["id"], item.get("result"), item.get("error")))
            elif "id" in item:
                self.expect(item, None, batch)
            elif item["method"] == "notifications/cancelled":
                target = item["params"]["requestId"]
                targets.append(target)
                request = self.waiting.get(target)
                call_id = request.call_id if request is not None else None
                own = request is not None and request.batch is batch
                if own or (call_id is not None and self.calls[call_id].alive):
                    stopped.add(target)
        if allowed:
            self.batches.append(batch)
            note("a batch is read")
        self.moment = Moment(
            receiving=tuple(batch.members),
            cancelling=tuple(targets),
            responding=expected,
            null_allowed=int(not allowed),
        )
        actions = self.session.receive(items)
        self.absorb(actions)
        assert not self.moment.responding, f"answers lost: {self.moment.responding}"
        assert not self.moment.null_allowed, f"a refused batch with no answer: {actions}"
        self.moment = Moment()
        for target in stopped:
            request = self.waiting.get(target)
            assert request is None or request.call_id is None, f"{target!r} not cancelled"
        return actions

    def report(self, call: Call, how: str) -> list[Action]:
        """The connection reports the end of ``call``: a result, an error, or (modern era) a
        question for the client."""
        mark = f"done {call.call_id}"
        requests = {  # one to three questions in one round, keyed anew each round
            f"r{call.rounds}.{n}": {
                "method": "elicitation/create",
                "params": {"message": f"{mark} {n}", "requestedSchema": {"type": "object"}},
            }
            for n in range(1 + call.call_id // 2 % 3)
        }
        park = bool(call.call_id % 2)
        if how == "input" and not call.modern:
            how = "result"  # handshake calls ask while they run; only modern ones stop to ask
        if how == "input":
            actions = session_answers.call_needs_input(
                self.session, call.call_id, requests, park=park
            )
            if park and call.alive:
                self.parks.add(call.call_id)
        elif call.kind == "tool":
            actions = session_answers.call_finished(
                self.session, call.call_id, ToolResult(mark, None, how == "error")
            )
        elif how == "error":
            failure = ProtocolError(INVALID_PARAMS, mark)
            actions = session_answers.request_finished(self.session, call.call_id, None, failure)
        else:
            body = {"contents": [{"uri": call.target, "text": mark}], "messages": []}
            actions = session_answers.request_finished(self.session, call.call_id, body)
        was_alive = call.alive
        if was_alive:  # a batched call's answer may go out later: what it says is fixed now
            expires = call.expires if call.expires is not None else self.now + STATE_TTL
            call.outcome = Outcome(how, mark, requests, park, expires)
        self.moment = Moment(reporting=call.call_id)
        self.absorb(actions)
        self.moment = Moment()
        call.reported = True
        if not was_alive:
            assert actions == [], f"an answer to a call that is over: {actions}"
            note("a report of a call that is over is dropped")
        elif call.request.batch is None:
            assert len(actions) == 1 and isinstance(actions[0], Send), actions
            assert isinstance(actions[0].message, dict), actions
            assert actions[0].message["id"] == call.request_id, actions
        else:
            assert len(actions) <= 1, actions
            assert all(isinstance(a, Send) and isinstance(a.message, list) for a in actions)
        return actions

    # --- rules: the client ------------------------------------------------------------------

    def tool_call(
        self,
        request_id: RequestId,
        name: str,
        arguments: object,
        era: str,
        token: int | str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A ``tools/call`` message in ``era``."""
        return self.message(
            request_id, "tools/call", {"name": name, "arguments": arguments}, era, token, extra
        )

    def message(
        self,
        request_id: RequestId,
        method: str,
        params: dict[str, Any],
        era: str,
        token: int | str | None = None,
        extra: dict[str, Any] | None = None,
        capabilities: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A request of ``method`` in ``era`` (its ``_meta`` says which)."""
        meta: dict[str, Any] = {}
        if era != "handshake":
            meta = modern_meta(capabilities or {}, MODERN if era == "modern" else "2025-06-18")
        if token is not None:
            meta["progressToken"] = token
        params = {**params, **(extra or {})}
        if meta:
            params["_meta"] = meta
        return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}

    def held(self) -> set[RequestId]:
        """Ids of batched requests whose answers wait for the rest of their batch: the session
        counts them in flight no more, and a client does not reuse them before its answer."""
        return {
            request_id
            for request_id, request in self.waiting.items()
            if request.batch is not None
            and (request.call_id is None or not self.calls[request.call_id].alive)
        }

    def running(self) -> list[RequestId]:
        """Ids of requests whose calls run."""
        alive = {call.request_id for call in self.calls.values() if call.alive}
        return sorted(alive, key=repr)

    def in_flight(self) -> list[RequestId]:
        """Ids of requests the session has in flight."""
        return sorted(set(self.waiting) - self.held(), key=repr)

    def pick_id(self, data: st.DataObject, free: bool) -> RequestId:
        """An id for a request: one no request in flight has, when ``free`` and there is one."""
        usable = [i for i in IDS if i not in self.held()] or [1000 + next(self.marks)]
        unused = [i for i in usable if i not in self.waiting]
        return data.draw(st.sampled_from(unused if free and unused else usable), label="id")

    def can_start(self, era: str) -> bool:
        """Whether a valid request of ``era`` starts a call (or is refused before)."""
        return era == "modern" or (era == "handshake" and self.handshake is not None)

    def send_initialize(
        self, request_id: RequestId, version: str, capabilities: dict[str, Any]
    ) -> None:
        """Send ``initialize``: when it succeeds, the handshake era has its revision."""
        params = {
            "protocolVersion": version,
            "capabilities": capabilities,
            "clientInfo": {"name": "m"},
        }
        message = {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}
        was_waiting = request_id in self.waiting
        (action,) = self.request(message, starts=False)
        assert isinstance(action, Send) and isinstance(action.message, dict)
        if was_waiting:
            return
        result = action.message.get("result")
        if result is not None:
            assert result["protocolVersion"] in REVISIONS, result
            assert REVISIONS[result["protocolVersion"]].era == "handshake", result
            self.handshake = result["protocolVersion"]
            self.declared = capabilities
            note("initialize succeeds")
        else:
            assert version not in REVISIONS, action.message

    @initialize(
        opener=st.one_of(
            st.tuples(ids, st.sampled_from(INIT_VERSIONS), st.sampled_from(CAPABILITIES)),
            *[st.tuples(ids, st.sampled_from(INIT_VERSIONS[:2]), st.just(CAPABILITIES[0]))] * 2,
            st.none(),
        ),
        initialized=st.booleans(),
        close_at=st.integers(20, 150),
    )
    def open(
        self,
        opener: tuple[RequestId, str, dict[str, Any]] | None,
        initialized: bool,
        close_at: int,
    ) -> None:
        """Start with a handshake, or with none (modern requests need none); say when the
        input may end."""
        self.close_at = close_at
        if opener is not None:
            self.send_initialize(*opener)
            if initialized:
                self.notify("notifications/initialized")

    @precondition(lambda self: not self.closed)
    @rule(
        data=st.data(),
        free=often,
        what=st.sampled_from(STARTERS),
        era=eras,
        token=tokens,
        caller=st.sampled_from(CALLERS),
        capabilities=st.sampled_from(CAPABILITIES),
    )
    def start(
        self,
        data: st.DataObject,
        free: bool,
        what: tuple[str, dict[str, Any]],
        era: str,
        token: int | str | None,
        caller: str | None,
        capabilities: dict[str, Any],
    ) -> None:
        """A request that starts a call when its era and target allow (``tools/call``,
        ``resources/read``, ``prompts/get``), or opens a listen stream (modern era)."""
        method, params = what
        request_id = self.pick_id(data, free)
        message = self.message(request_id, method, params, era, token, capabilities=capabilities)
        fresh = request_id not in self.waiting
        listen = method == "subscriptions/listen"
        known = method != "tools/call" or params["name"] in TOOLBOX
        starts = (self.can_start(era) and known and not listen) if fresh else None
        self.request(message, caller, starts)
        if listen and fresh:
            opened = request_id in self.waiting and self.waiting[request_id].listening
            assert opened == (era == "modern"), self.waiting
            if opened:
                note("a listen stream opens")

    @precondition(
        lambda self: not self.closed and (self.used - set(self.waiting) or self.in_flight())
    )
    @rule(data=st.data(), in_flight=st.booleans(), handshake=st.booleans())
    def reuse(self, data: st.DataObject, in_flight: bool, handshake: bool) -> None:
        """A call reusing the id of a request answered or cancelled: a fresh call; or the id
        of a request in flight: refused, and the first one kept."""
        free = sorted(self.used - set(self.waiting), key=repr)
        busy = self.in_flight()
        era = "handshake" if handshake and self.handshake is not None else "modern"
        if free and not (in_flight and busy):
            request_id = data.draw(st.sampled_from(free))
            message = self.tool_call(request_id, "echo", {"text": "again"}, era, "tok")
            self.request(message, starts=True)
        else:
            request_id = data.draw(st.sampled_from(busy))
            self.request(self.tool_call(request_id, "echo", {"text": "twin"}, era))

    @precondition(lambda self: not self.closed)
    @rule(data=st.data(), which=st.sampled_from(["running", "any", "absent"]), reason=st.booleans())
    def cancel(self, data: st.DataObject, which: str, reason: bool) -> None:
        """``notifications/cancelled`` for a running call, a listen stream, a finished
        request, an unknown id, or no valid id."""
        running = self.running()
        if which == "running" and running:
            target: object = data.draw(st.sampled_from(running))
        elif which == "any":
            target = data.draw(st.sampled_from([*IDS, *self.waiting]))
        else:
            target = data.draw(st.sampled_from([None, True, 1.5, "zzz", 99]))
        params: dict[str, Any] = {"requestId": target}
        if reason:
            params["reason"] = "bored"
        self.notify("notifications/cancelled", params)

    @precondition(lambda self: not self.closed)
    @rule(
        data=st.data(),
        kind=st.sampled_from(["request", "notification", "response", "initialize"]),
        era=eras,
    )
    def noise(self, data: st.DataObject, kind: str, era: str) -> None:
        """What needs nothing done: a request answered at once (a ``tools/call`` with no name
        is refused), a notification, a response with the id of no question of ours, or
        ``initialize`` again, mid-conversation."""
        if kind == "initialize":
            version = data.draw(st.sampled_from(INIT_VERSIONS))
            capabilities = data.draw(st.sampled_from(CAPABILITIES))
            self.send_initialize(self.pick_id(data, free=False), version, capabilities)
        elif kind == "request":
            method = data.draw(st.sampled_from(QUICK_METHODS))
            message = self.message(self.pick_id(data, free=False), method, {}, era)
            self.request(message, None, None if message["id"] in self.waiting else False)
        elif kind == "notification":
            method = data.draw(st.sampled_from(OTHER_NOTIFICATIONS))
            self.notify(method, data.draw(st.sampled_from([None, {}, {"progressToken": "tok"}])))
        else:
            issued = len(self.questions)
            strays: list[object] = [issued + 1, f"objmcp-{issued + 1}", "objmcp-0", "OBJMCP-1"]
            strays += [f" {ask_id}" for ask_id in self.questions]
            strays += [r for r in self.waiting if r not in self.questions]
            response = self.answer_to("objmcp-0", data.draw(st.sampled_from(["result", "error"])))
            response["id"] = data.draw(st.sampled_from(strays))
            self.respond(response)

    @precondition(lambda self: not self.closed)
    @rule(
        data=st.data(),
        kinds=st.lists(st.sampled_from(BATCH_ITEMS), min_size=1, max_size=4),
        era=eras,
    )
    def batch(self, data: st.DataObject, kinds: list[str], era: str) -> None:
        """A batch (answered, in 2025-03-26, once its last call ends): requests that are
        answered at once or start calls, cancellations of calls (its own too), answers to
        questions, a notification."""
        items: list[dict[str, Any]] = []
        members: list[RequestId] = []
        for kind in kinds:
            unused = [i for i in IDS if i not in self.waiting and i not in members]
            running = self.running()
            if kind in ("quick", "start") and unused:
                request_id = data.draw(st.sampled_from(unused))
                members.append(request_id)
                if kind == "quick":
                    method, params = data.draw(st.sampled_from(QUICK_METHODS)), {}
                else:
                    method, params = data.draw(st.sampled_from(BATCH_STARTERS))
                items.append(self.message(request_id, method, params, era))
            elif kind == "cancel" and running + members:
                target = data.draw(st.sampled_from(running + members))
                items.append(cancellation(target))
            elif kind == "answer" and self.questions:
                ask_id = data.draw(st.sampled_from(sorted(self.questions)))
                items.append(
                    self.answer_to(ask_id, data.draw(st.sampled_from(["result", "error"])))
                )
            elif kind == "notification":
                items.append({"jsonrpc": "2.0", "method": "notifications/initialized"})
        if items:
            self.send_batch(items)

    @precondition(lambda self: not self.closed and (self.askers() or self.questions))
    @rule(
        data=st.data(),
        ask=st.booleans(),
        feature=st.sampled_from(sorted(QUESTIONS)),
        which=st.sampled_from(
            ["outstanding", "outstanding", "outstanding", "over", "answered", "any"]
        ),
        how=st.sampled_from(["result", "error", "malformed"]),
        batched=st.booleans(),
        twice=st.booleans(),
    )
    def ask_or_answer(
        self,
        data: st.DataObject,
        ask: bool,
        feature: Feature,
        which: str,
        how: str,
        batched: bool,
        twice: bool,
    ) -> None:
        """A running handshake-era call asks the client for ``feature`` (as the connection
        lets it); or the client answers a question (``which``: outstanding, of a call that
        is over, answered already, or any), maybe ``twice``, maybe ``batched``."""
        if self.askers() and (ask or not self.questions):
            self.question(data.draw(st.sampled_from(self.askers())), feature)
            return
        chosen = {
            "outstanding": [a for a, q in self.questions.items() if self.awaits(q)],
            "over": [a for a, q in self.questions.items() if not self.calls[q.call_id].alive],
            "answered": [a for a, q in self.questions.items() if q.answered],
        }.get(which)
        ask_id = data.draw(st.sampled_from(sorted(chosen or self.questions)))
        responses = [self.answer_to(ask_id, how)]
        if twice:
            again = data.draw(st.sampled_from(["result", "error"]))
            responses.append(self.answer_to(ask_id, again))
        if batched:
            self.send_batch(responses)
        else:
            for response in responses:
                self.respond(response)

    def awaits(self, question: Question) -> bool:
        """Whether ``question`` waits for its answer."""
        return not question.answered and self.calls[question.call_id].alive

    def answer_to(self, ask_id: str, how: str) -> dict[str, Any]:
        """The client's response to the question ``ask_id``: a result marked as its own, an
        error, or a result that is no object."""
        mark = f"{ask_id}#{next(self.marks)}"
        response: dict[str, Any] = {"jsonrpc": "2.0", "id": ask_id}
        if how == "result":
            response["result"] = {"action": "accept", "content": {"mark": mark}}
        elif how == "error":
            response["error"] = {"code": -1, "message": mark}
        else:
            response["result"] = [mark]
        return response

    @precondition(lambda self: not self.closed and self.suspended)
    @rule(
        data=st.data(),
        free=often,
        variant=st.sampled_from(
            [
                *["as is"] * 3,
                *["other caller", "other arguments", "other target"],
                *["wrong key", "part", "forged", "none"],
            ]
        ),
    )
    def retry(self, data: st.DataObject, free: bool, variant: str) -> None:
        """Modern era: retry an ``input_required`` call with its answer; the state is good
        only as it was given, for the same call and caller, in time, for so many rounds."""
        request_id = self.pick_id(data, free)
        suspended = data.draw(st.sampled_from(self.suspended))
        method, params, caller = suspended.method, dict(suspended.params), suspended.caller
        state: str | None = suspended.state
        keys = list(suspended.keys)
        if variant == "other caller":
            caller = data.draw(st.sampled_from([c for c in CALLERS if c != caller]))
        elif variant == "other arguments" and method == "resources/read":
            params["uri"] = "memo://other"
        elif variant == "other arguments":
            params["arguments"] = {"other": params.get("arguments")}
        elif variant == "other target":
            others = [
                (m, p) for m, p in STARTERS if m in STARTING_METHODS and (m, p) != (method, params)
            ]
            method, params = data.draw(st.sampled_from(others))
        elif variant == "wrong key":
            keys = [f"{key}?" for key in keys]
        elif variant == "part":
            keys = keys[:-1]
        elif variant == "forged":
            state = "e30" + suspended.state[suspended.state.index(".") :]
        elif variant == "none":
            state = None
        answer = {"action": "accept", "content": {"mark": next(self.marks)}}
        extra: dict[str, Any] = {"inputResponses": dict.fromkeys(keys, answer)}
        if state is not None:
            extra["requestState"] = state
        message = self.message(request_id, method, params, "modern", extra=extra)
        in_time = self.now <= suspended.expires
        rounds_left = suspended.rounds <= MAX_ROUNDS
        # "mrtr" error handling: a good state without every answer runs the method again
        # (it asks again); answers with no state are ignored (the call starts afresh)
        accepted = (variant in ("as is", "wrong key", "part") and in_time and rounds_left) or (
            variant == "none"
        )
        wanted = {
            "as is": {**suspended.answers, **dict.fromkeys(keys, answer)},
            "wrong key": suspended.answers,
            "part": {**suspended.answers, **dict.fromkeys(keys, answer)},
            "none": {},
        }.get(variant)
        if request_id in self.waiting:
            self.request(message, caller)
            return
        resumes = suspended.parked in self.parks and variant == "as is"
        (action,) = self.request(message, caller, starts=accepted)
        if isinstance(action, (StartCall, Resume)):
            start = action if isinstance(action, StartCall) else action.start
            assert start.context.answers == wanted, (variant, start.context)
            assert isinstance(action, Resume) == resumes, (action, suspended)
            if isinstance(action, Resume):
                assert action.parked == suspended.parked, (action, suspended)
                note("a retry resumes its parked call")
            if variant != "none":
                self.calls[start.call_id].expires = suspended.expires
                self.calls[start.call_id].rounds = suspended.rounds
            note(f"a retry brings its answer ({variant})")
        else:
            assert isinstance(action, Send) and isinstance(action.message, dict)
            assert action.message["error"]["code"] == INVALID_PARAMS, action.message
            note(f"a retry is refused: {variant if variant != 'as is' else 'late or too many'}")

    @precondition(lambda self: self.parks)
    @rule(data=st.data())
    def unpark(self, data: st.DataObject) -> None:
        """The runner gives a parked call up (its park_timeout): a retry runs it again."""
        call_id = data.draw(st.sampled_from(sorted(self.parks)))
        midcall.unpark(self.session, call_id)
        self.parks.discard(call_id)
        note("a parked call is given up")

    @precondition(lambda self: self.suspended or self.closed)
    @rule(seconds=st.sampled_from([1.0, STATE_TTL + 1]))
    def wait(self, seconds: float) -> None:
        """Time passes: request states expire (and a step is left to take after the end)."""
        self.now += seconds

    @precondition(lambda self: not self.closed and self.steps >= self.close_at)
    @rule()
    def close(self) -> None:
        """End of input: the listen streams are answered (then ended), nothing else happens;
        from now on the client sends nothing, the connection only reports calls."""
        streams = {r for r, q in self.waiting.items() if q.listening}
        self.moment = Moment(closing=True)
        actions = self.session.close()
        self.absorb(actions)
        assert self.moment.streams_closed == streams, (streams, actions)
        self.moment = Moment()
        assert all(isinstance(a, Send) for a in actions), actions
        assert len(actions) == 2 * len(streams), actions
        if streams:
            note("listen streams are answered at close")
        self.closed = True

    # --- rules: the connection --------------------------------------------------------------

    def askers(self) -> list[Call]:
        """The calls that can ask the client: running, of the handshake era."""
        return [c for c in self.calls.values() if c.alive and not c.modern]

    def question(self, call: Call, feature: Feature) -> str | None:
        """``call`` asks the client for ``feature``, unless the session refuses (as the
        connection does); the question's id."""
        if midcall.refusal(self.session, call.call_id, feature) is not None:
            note("a question is refused")
            return None
        method = QUESTIONS[feature]
        params = {"message": f"for call {call.call_id}"}
        actions, ask_id = midcall.ask(self.session, call.call_id, method, params)
        assert ask_id not in self.questions, f"question id {ask_id!r} used twice"
        (send,) = actions
        assert isinstance(send, Send), actions
        check_message(send.message)
        assert send.message == {"jsonrpc": "2.0", "id": ask_id, "method": method, "params": params}
        assert send.related == call.request_id, send
        self.questions[ask_id] = Question(call.call_id)
        note("a call asks the client")
        return ask_id

    @precondition(lambda self: self.calls)
    @rule(
        data=st.data(),
        how=st.sampled_from(["result", "error", "input", "input"]),
        stale=st.integers(0, 3).map(lambda n: n == 0),
    )
    def finish(self, data: st.DataObject, how: str, stale: bool) -> None:
        """The connection reports that a call ended (``stale``: maybe one reported already)."""
        running = [c for c in self.calls.values() if not c.reported]
        if stale or not running:
            running = list(self.calls.values())
        self.report(data.draw(st.sampled_from(running)), how)

    @precondition(lambda self: any(not c.reported for c in self.calls.values()))
    @rule(data=st.data())
    def progress(self, data: st.DataObject) -> None:
        """A call the connection runs reports progress: sent only while the session waits for
        it (not once cancelled), if its request asked."""
        call = data.draw(st.sampled_from([c for c in self.calls.values() if not c.reported]))
        self.moment = Moment(progressing=call.call_id)
        actions = midcall.progress(self.session, call.call_id, 1, 2, "half")
        self.absorb(actions)
        self.moment = Moment()
        assert len(actions) == int(call.alive and call.token is not None), actions

    # --- invariants -------------------------------------------------------------------------

    @invariant()
    def calls_agree(self) -> None:
        """The session runs exactly the calls the client still waits for."""
        self.steps += 1
        alive = [c for c in self.calls.values() if c.alive]
        assert self.session.in_flight == len(alive), (self.session.in_flight, alive)
        for call in self.calls.values():
            if not call.alive:
                assert midcall.refusal(self.session, call.call_id, "roots") is not None, call
        waiting_calls = {
            q.call_id
            for q in self.waiting.values()
            if q.call_id is not None and not self.calls[q.call_id].reported
        }
        assert waiting_calls == {c.call_id for c in alive}

    @invariant()
    def batches_answer(self) -> None:
        """A batch whose calls are all over has had its answer."""
        for batch in self.batches:
            held = [
                self.waiting[m]
                for m in batch.members
                if m in self.waiting and self.waiting[m].batch is batch
            ]
            running = [r for r in held if r.call_id is not None and self.calls[r.call_id].alive]
            assert running or not held, f"a batch whose answer never comes: {held}"

    def teardown(self) -> None:
        """End of input, every call reported: every request has had its one answer, and no
        answer to a question reaches anyone any more."""
        self.close()
        for call in list(self.calls.values()):
            if not call.reported:
                self.report(call, "result")
        assert not self.waiting, f"requests never answered: {self.waiting}"
        assert self.session.in_flight == 0
        for ask_id in self.questions:
            self.respond(self.answer_to(ask_id, "result"))


SessionMachine.TestCase.settings = settings(max_examples=120, stateful_step_count=60, deadline=None)
TestSessionMachine = SessionMachine.TestCase


# --- interleavings the machine must keep finding, spelled out ------------------------------------


def handshake(version: str = "2025-06-18") -> SessionMachine:
    """A machine whose client has initialized with every capability."""
    machine = SessionMachine()
    machine.send_initialize("init", version, CAPABILITIES[0])
    return machine


def start_call(machine: SessionMachine, request_id: RequestId, era: str = "handshake") -> Call:
    """Start an ``echo`` call with ``request_id``; the call."""
    message = machine.tool_call(request_id, "echo", {"text": "hi"}, era, "tok")
    (action,) = machine.request(message, starts=True)
    assert isinstance(action, StartCall)
    return machine.calls[action.call_id]


def test_an_answer_after_a_cancel_reaches_no_call_not_even_one_reusing_the_id() -> None:
    machine = handshake()
    first = start_call(machine, 1)
    asked = machine.question(first, "elicitation")
    assert asked is not None
    machine.notify("notifications/cancelled", {"requestId": 1})
    second = start_call(machine, 1)
    machine.respond(machine.answer_to(asked, "result"))
    machine.report(first, "result")
    assert second.alive
    machine.teardown()


def test_answers_reach_the_call_that_asked_and_only_once() -> None:
    machine = handshake()
    one, two = start_call(machine, 1), start_call(machine, 2)
    first, second = machine.question(one, "sampling"), machine.question(two, "roots")
    assert first is not None and second is not None
    machine.report(two, "result")
    machine.respond(machine.answer_to(second, "result"))
    machine.respond(machine.answer_to(first, "error"))
    machine.respond(machine.answer_to(first, "result"))
    machine.teardown()


def test_a_batch_answers_each_question_once() -> None:
    machine = handshake("2025-03-26")
    call = start_call(machine, "a")
    first, second = machine.question(call, "sampling"), machine.question(call, "roots")
    assert first is not None and second is not None
    answers = [machine.answer_to(ask_id, "result") for ask_id in (first, second, first)]
    machine.send_batch(answers)
    machine.teardown()


def test_a_listen_stream_is_answered_at_the_end_and_a_late_report_at_none() -> None:
    machine = SessionMachine()
    params = {"notifications": {"toolsListChanged": True}}
    machine.request(machine.message("s", "subscriptions/listen", params, "modern"), starts=False)
    call = start_call(machine, "m", "modern")
    machine.close()
    machine.report(call, "result")
    machine.teardown()


def test_a_retry_brings_its_answer_and_its_state_fits_no_other_caller() -> None:
    machine = SessionMachine()
    message = machine.tool_call(1, "echo", {"text": "hi"}, "modern")
    (action,) = machine.request(message, "alice", starts=True)
    assert isinstance(action, StartCall)
    machine.report(machine.calls[action.call_id], "input")
    (suspended,) = machine.suspended
    extra = {"requestState": suspended.state, "inputResponses": {"r0.0": {"action": "accept"}}}
    retry = machine.tool_call(1, "echo", {"text": "hi"}, "modern", None, extra)
    machine.request(retry, "bob", starts=False)
    (action,) = machine.request(retry, "alice", starts=True)
    assert isinstance(action, Resume) and action.parked == 1  # parked: the call resumes
    assert action.start.context.answers == {"r0.0": {"action": "accept"}}
    again = machine.tool_call(2, "echo", {"text": "hi"}, "modern", None, extra)
    (action,) = machine.request(again, "alice", starts=True)
    assert isinstance(action, StartCall)  # a park resumes once: the same state replays
    assert action.context.answers == {"r0.0": {"action": "accept"}}
    machine.teardown()


def test_a_park_given_up_or_never_opened_replays_and_parks_are_bounded() -> None:
    session = Session(Toolbox({"echo": lambda text: text}), ServerInfo("t"), max_parked=1)
    meta = {"_meta": {PROTOCOL_VERSION_KEY: "2026-07-28", CLIENT_CAPABILITIES_KEY: {}}}

    def call(request_id: int, **extra: Any) -> Action:
        params = {"name": "echo", "arguments": {"text": "hi"}, **meta, **extra}
        message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
        (action,) = session.receive(message)
        return action

    def ask(action: Action, park: bool) -> str:
        assert isinstance(action, StartCall)
        roots = {"method": "roots/list", "params": {}}
        (sent,) = session_answers.call_needs_input(
            session, action.call_id, {"q0": roots}, park=park
        )
        assert isinstance(sent, Send) and isinstance(sent.message, dict)
        return str(sent.message["result"]["requestState"])

    first = call(1)
    state = ask(first, park=True)
    assert session.parking.full  # one park at most
    midcall.unpark(session, first.call_id)
    assert not session.parking.full
    answers = {"inputResponses": {"q0": {}}}
    replay = call(2, requestState=state, **answers)
    assert isinstance(replay, StartCall)  # given up: the retry runs the method again
    assert replay.context.answers == {"q0": {}}
    unparked = ask(replay, park=False)
    assert isinstance(call(3, requestState=unparked, inputResponses={"q1": {}}), StartCall)


def test_a_batched_question_expires_from_when_it_was_asked() -> None:
    machine = handshake("2025-03-26")
    message = machine.message(1, "tools/call", STARTERS[1][1], "modern")
    other = machine.message(2, "tools/call", STARTERS[1][1], "modern")
    machine.send_batch([message, other])
    first, second = machine.calls.values()
    machine.report(first, "input")
    machine.now += STATE_TTL / 2
    machine.report(second, "result")
    (suspended,) = machine.suspended
    machine.now += STATE_TTL / 2 + 1
    extra = {"requestState": suspended.state, "inputResponses": {"q0": {}}}
    retry = machine.message(3, "tools/call", STARTERS[1][1], "modern", extra=extra)
    machine.request(retry, starts=False)
    machine.teardown()


# --- regressions: objmcp bugs the machine found -------------------------------------------------


def opened(version: str) -> Session:
    """A session a client initialized with ``version``."""
    session = Session(TOOLBOX, INFO)
    params = {"protocolVersion": version, "capabilities": {}}
    session.receive({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params})
    return session


PING = {"jsonrpc": "2.0", "id": "p", "method": "ping"}
READ = {"jsonrpc": "2.0", "id": "r", "method": "resources/read", "params": {"uri": "memo://x"}}
MODERN_CALL = {
    "jsonrpc": "2.0",
    "id": "m",
    "method": "tools/call",
    "params": {"name": "echo", "arguments": {"text": "hi"}, "_meta": modern_meta({})},
}


def started(actions: list[Action]) -> int:
    """The id of the one call ``actions`` start."""
    (start,) = [a for a in actions if isinstance(a, StartCall)]
    return start.call_id


def batch_of(actions: list[Action]) -> list[Any]:
    """What ``actions`` send: for an array, the ids it answers; for a lone response, its id."""
    sent = [action.message for action in actions if isinstance(action, Send)]
    return [[m["id"] for m in s] if isinstance(s, list) else s.get("id") for s in sent]


def test_a_batched_read_is_answered_in_the_batch_array() -> None:
    """A batch's requests are answered in one array once all are done (JSON-RPC 2.0), as a
    batched ``tools/call`` is; a batched read is not: the array goes out without it, at once,
    and the read is answered alone when it ends (``_start_request`` gives its call no batch,
    ``request_finished`` sends its answer directly)."""
    session = opened("2025-03-26")
    actions = session.receive([PING, READ])
    assert batch_of(actions) == [], "the ping's answer waits for the read's"
    assert batch_of(
        session_answers.request_finished(session, started(actions), {"contents": []})
    ) == [["p", "r"]]


def test_a_batched_modern_call_that_needs_input_lets_its_batch_be_answered() -> None:
    """A modern request in a 2025-03-26 batch whose call stops for input: its
    ``input_required`` answer goes out alone (``call_needs_input`` ignores the call's batch)
    and the call stays pending in the batch, so the ping's answer is never sent."""
    session = opened("2025-03-26")
    call = started(session.receive([PING, MODERN_CALL]))
    assert batch_of(session_answers.call_needs_input(session, call, "elicitation/create", {})) == [
        ["p", "m"]
    ]
