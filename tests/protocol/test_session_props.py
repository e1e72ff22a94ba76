"""Property test of the sans-IO session: random conversations, promises kept.

Hypothesis drives :class:`objmcp.protocol.session.Session` with random sequences of
requests, notifications, garbage and batches, and finishes the calls it starts
in a random order. A model of the client side counts the requests waiting for
an answer and checks every action the session asks for:

- every response is a well-formed JSON-RPC 2.0 response, and answers a request
  that is waiting (so never two answers to one request, never one to a
  notification, and none to a cancelled call);
- a request whose id is in flight is refused at once, and never starts a second call;
- every request that is not cancelled has its one answer by the end;
- results of modern (``_meta``-versioned) requests carry ``resultType``,
  results of handshake ones do not.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from objmcp import Toolbox
from objmcp.protocol import answers as session_answers
from objmcp.protocol.jsonrpc import INVALID_REQUEST
from objmcp.protocol.session import (
    CLIENT_CAPABILITIES_KEY,
    PROTOCOL_VERSION_KEY,
    Action,
    CancelCall,
    Send,
    ServerInfo,
    Session,
    StartCall,
)


class Small:
    """A small object to serve."""

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    def echo(self, text: str) -> str:
        """Say it back."""
        return text


TOOLBOX = Toolbox(Small())
INFO = ServerInfo("props", instructions="Be nice.", title="Props")

# --- messages -----------------------------------------------------------------------------------

# Few ids, so that they collide: handshake-era requests use these ...
HANDSHAKE_IDS = st.sampled_from([0, 1, 2, -7, "a", "b"])
# ... modern-era ones these (so that a response says which era its request was) ...
MODERN_IDS = st.sampled_from(["m0", "m1", "m2"])
# ... and these are no ids at all.
BAD_IDS = st.sampled_from([None, True, False, 1.5, [1], {"id": 1}])
ANY_IDS = HANDSHAKE_IDS | MODERN_IDS | BAD_IDS

VERSIONS = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
    "2025-01-01",
    "2099-12-31",
    "2020-01-01",
    "latest",
    "2025-3-26",
]
ARGUMENTS = [
    {"a": 1, "b": 2},
    {"a": "one", "b": 2},
    {"a": 1},
    {"text": "hi"},
    {"text": 5},
    {"a": 1, "b": 2, "c": 3},
    {},
    "not an object",
    [1, 2],
    None,
]


def optional(key: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``{key: value}`` or ``{}``."""
    return values.map(lambda v: {key: v}) | st.just({})


def merged(*parts: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.tuples(*parts).map(lambda dicts: {k: v for d in dicts for k, v in d.items()})


initialize_params = merged(
    optional("protocolVersion", st.sampled_from(VERSIONS) | st.integers(0, 3)),
    optional("capabilities", st.sampled_from([{}, {"elicitation": {}}, "none"])),
    optional("clientInfo", st.just({"name": "props", "version": "0"})),
)
call_params = merged(
    optional("name", st.sampled_from(["add", "echo", "nope", 5])),
    optional("arguments", st.sampled_from(ARGUMENTS)),
)
meta = merged(
    optional(PROTOCOL_VERSION_KEY, st.sampled_from(["2026-07-28", "2025-06-18", "2030-01-01", 7])),
    optional(CLIENT_CAPABILITIES_KEY, st.sampled_from([{}, {"elicitation": {}}, "none", None])),
    optional("progressToken", st.integers(0, 3)),
)
method_params = st.one_of(
    st.tuples(st.just("initialize"), initialize_params),
    st.tuples(st.just("ping"), st.just({})),
    st.tuples(st.just("tools/list"), st.just({}) | optional("cursor", st.just("x"))),
    st.tuples(st.just("tools/call"), call_params),
    st.tuples(st.just("server/discover"), st.just({})),
    st.tuples(st.sampled_from(["resources/list", "logging/setLevel", "nope"]), st.just({})),
)


def is_modern(message: dict[str, Any]) -> bool:
    """Whether the session must answer ``message`` in the modern era (by its spec)."""
    method = message.get("method")
    params = message.get("params", {})
    params_meta = params.get("_meta") if isinstance(params, dict) else None
    return method == "server/discover" or (
        method != "initialize"
        and isinstance(params_meta, dict)
        and PROTOCOL_VERSION_KEY in params_meta
    )


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    method, params = draw(method_params)
    extra = draw(st.none() | st.just("no params") | meta)
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if extra == "no params":
        if params:
            message["params"] = params
    else:
        message["params"] = {**params, "_meta": extra} if isinstance(extra, dict) else params
    message["id"] = draw(MODERN_IDS if is_modern(message) else HANDSHAKE_IDS)
    return message


@st.composite
def notifications(draw: st.DrawFn) -> dict[str, Any]:
    method = draw(
        st.sampled_from(
            [
                "notifications/initialized",
                "notifications/cancelled",
                "notifications/cancelled",
                "notifications/progress",
                "notifications/roots/list_changed",
            ]
        )
    )
    params: dict[str, Any] = {}
    if method == "notifications/cancelled":
        params = draw(merged(optional("requestId", ANY_IDS), optional("reason", st.just("bored"))))
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params or draw(st.booleans()):
        message["params"] = params
    return message


@st.composite
def garbage(draw: st.DrawFn) -> object:
    request = draw(requests())
    request["id"] = draw(HANDSHAKE_IDS)
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.sampled_from([5, "x", None, True, 1.5, {}]))
    if kind == 1:
        del request["jsonrpc"]
    elif kind == 2:
        request["jsonrpc"] = draw(st.sampled_from(["1.0", 2.0, None]))
    elif kind == 3:
        request["id"] = draw(BAD_IDS)
    elif kind == 4:
        request["method"] = draw(st.sampled_from([5, None, ["ping"]]))
    elif kind == 5:
        request["params"] = draw(st.sampled_from([[1], "x", None, 3]))
    elif kind == 6:
        del request["method"]
    elif kind == 7:  # a response from the client, to nothing the server asked
        del request["method"]
        request.pop("params", None)
        request[draw(st.sampled_from(["result", "error"]))] = {}
        if draw(st.booleans()):
            request["id"] = draw(BAD_IDS)
    elif kind == 8:  # a notification with params that are not an object
        del request["id"]
        request["params"] = draw(st.sampled_from([[1], "x", 3]))
    else:  # a notification that is not 2.0
        del request["id"]
        request["jsonrpc"] = "1.0"
    return request


valid_calls = st.builds(
    lambda request_id, name, arguments: {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    },
    HANDSHAKE_IDS,
    st.sampled_from(["add", "echo"]),
    st.sampled_from(ARGUMENTS),
)
cancels = HANDSHAKE_IDS.map(
    lambda request_id: {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": request_id},
    }
)
single_messages = st.one_of(
    requests(), requests(), valid_calls, cancels, notifications(), garbage()
)


@dataclass(frozen=True)
class Receive:
    message: object


@dataclass(frozen=True)
class Finish:
    index: int


@dataclass(frozen=True)
class Duplicate:
    """A tools/call reusing the id of a call in flight (``index`` picks which)."""

    index: int
    message: dict[str, Any]


@dataclass(frozen=True)
class CancelActive:
    index: int


Op = Receive | Finish | Duplicate | CancelActive

ops = st.one_of(
    single_messages.map(Receive),
    st.lists(single_messages, max_size=6).map(Receive),  # a batch, empty ones included
    st.lists(single_messages, min_size=2, max_size=6).map(Receive),
    st.integers(0, 20).map(Finish),
    st.builds(Duplicate, st.integers(0, 20), requests()),
    st.integers(0, 20).map(CancelActive),
)
# Conversations that get somewhere: an initialize first, often for a batch-friendly revision.
openers = st.lists(
    st.sampled_from(["2025-03-26", "2025-03-26", "2025-06-18", "2024-11-05"]).map(
        lambda v: Receive(
            {"jsonrpc": "2.0", "id": "a", "method": "initialize", "params": {"protocolVersion": v}}
        )
    ),
    max_size=1,
)


def note(what: str) -> None:
    """Count ``what`` in hypothesis's statistics (when in a hypothesis test)."""
    if currently_in_test_context():
        event(what)


# --- the model ------------------------------------------------------------------------------


def is_id(value: object) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def cancel_target(message: object) -> object:
    """The request id a well-formed cancellation names, or None."""
    if classify(message)[0] != "notification":
        return None
    assert isinstance(message, dict)
    params = message.get("params", {})
    target = params.get("requestId") if isinstance(params, dict) else None
    if message["method"] != "notifications/cancelled" or not is_id(target):
        return None
    return target


def classify(message: object) -> tuple[str, object]:
    """What JSON-RPC says a message must get: ("request", id), ("null", None) for an
    invalid message, ("notification", None), or ("ignored", None) for a client's response."""
    if not isinstance(message, dict):
        return "null", None
    request_id = message.get("id")
    valid_id = is_id(request_id)
    jsonrpc_ok = message.get("jsonrpc") == "2.0"
    if "method" not in message and ("result" in message or "error" in message) and jsonrpc_ok:
        return ("ignored", None) if "id" in message else ("null", None)
    if "id" in message:
        return ("request", request_id) if valid_id else ("null", None)
    if jsonrpc_ok and isinstance(message.get("method"), str):
        return "notification", None  # never answered, even with params that are no object
    return "null", None


@dataclass
class Call:
    request_id: object
    tool: str
    arguments: object
    batched: bool


@dataclass
class Model:
    session: Session = field(default_factory=lambda: Session(TOOLBOX, INFO))
    waiting: Counter[object] = field(default_factory=Counter)
    """Request id -> how many requests with it wait for their answer."""
    null_expected: int = 0
    null_seen: int = 0
    active: dict[int, Call] = field(default_factory=dict)
    cancelled: dict[int, Call] = field(default_factory=dict)
    finished: set[int] = field(default_factory=set)
    answered: int = 0

    def active_ids(self) -> list[object]:
        return [call.request_id for call in self.active.values()]

    # --- what the client sends ---

    def expect(self, message: object) -> tuple[str, object]:
        kind, request_id = classify(message)
        if kind == "request":
            self.waiting[request_id] += 1
        elif kind == "null":
            self.null_expected += 1
        return kind, request_id

    def receive(self, message: object) -> None:
        if isinstance(message, list):
            self.receive_batch(message)
            return
        in_flight_before = list(self.active_ids())
        calls_before = dict(self.active)
        kind, request_id = self.expect(message)
        actions = self.session.receive(message)
        self.account(actions, batched=False)
        if kind == "request":
            assert len(actions) == 1, actions
            (action,) = actions
            if request_id in in_flight_before:
                assert isinstance(action, Send), action
                assert isinstance(action.message, dict)
                assert action.message["id"] == request_id
                assert action.message["error"]["code"] == INVALID_REQUEST
            elif isinstance(action, StartCall):
                assert action.context.request_id == request_id
            else:
                assert isinstance(action, Send) and isinstance(action.message, dict), action
                assert action.message["id"] == request_id
        elif kind == "null":
            assert len(actions) == 1, actions
            assert isinstance(actions[0], Send) and isinstance(actions[0].message, dict)
            assert actions[0].message["id"] is None and "error" in actions[0].message
        elif kind == "ignored":
            assert actions == []
        else:
            target = cancel_target(message)
            if target is not None and target in in_flight_before:
                assert sum(isinstance(a, CancelCall) for a in actions) == 1, actions
                self.assert_cancelled(target, calls_before)
            else:
                assert actions == [], (message, actions)
            assert all(isinstance(a, (CancelCall, Send)) for a in actions)
            assert all(isinstance(a.message, list) for a in actions if isinstance(a, Send))

    def receive_batch(self, batch: list[object]) -> None:
        revision = self.session.revision
        in_flight_before = list(self.active_ids())
        calls_before = dict(self.active)
        if not batch or revision is None or not revision.batches:
            self.null_expected += 1
            actions = self.session.receive(batch)
            assert len(actions) == 1, actions
            assert isinstance(actions[0], Send) and isinstance(actions[0].message, dict)
            assert actions[0].message["id"] is None
            assert actions[0].message["error"]["code"] == INVALID_REQUEST
            self.account(actions, batched=True)
            return
        for item in batch:
            self.expect(item)
        note("a batch is accepted")
        actions = self.session.receive(batch)
        self.account(actions, batched=True)
        for item in batch:
            target = cancel_target(item)
            if target is not None and target in in_flight_before:
                self.assert_cancelled(target, calls_before)

    def assert_cancelled(self, request_id: object, calls_before: dict[int, Call]) -> None:
        """The call that was in flight for ``request_id`` is cancelled."""
        (call_id,) = [i for i, c in calls_before.items() if c.request_id == request_id]
        assert call_id in self.cancelled, f"request {request_id!r} was not cancelled"

    def finish(self, call_id: int) -> None:
        call = self.active.get(call_id) or self.cancelled.get(call_id)
        assert call is not None
        result = TOOLBOX.call(call.tool, call.arguments)
        actions = session_answers.call_finished(self.session, call_id, result)
        if call_id in self.cancelled or call_id in self.finished:
            assert actions == [], f"an answer to cancelled or finished call {call_id}: {actions}"
            return
        del self.active[call_id]
        self.finished.add(call_id)
        self.account(actions, batched=call.batched)
        sent = [a for a in actions if isinstance(a, Send)]
        assert len(actions) == len(sent) <= 1, actions
        if not call.batched:
            assert len(sent) == 1 and isinstance(sent[0].message, dict), actions
            assert sent[0].message["id"] == call.request_id
            assert sent[0].message["result"]["isError"] is result.is_error
            assert sent[0].message["result"]["content"][0]["text"] == result.text
        elif sent:
            assert isinstance(sent[0].message, list)
            assert call.request_id in [r["id"] for r in sent[0].message]

    # --- what the session answers ---

    def account(self, actions: list[Action], batched: bool) -> None:
        for action in actions:
            if isinstance(action, Send):
                json.dumps(action.message, allow_nan=False)  # it can be written
                if isinstance(action.message, list):
                    assert action.message, "an empty batch response"
                    for response in action.message:
                        self.response(response)
                else:
                    self.response(action.message)
            elif isinstance(action, StartCall):
                assert action.call_id not in self.active
                assert action.call_id not in self.cancelled and action.call_id not in self.finished
                assert action.tool in TOOLBOX
                assert action.context.request_id not in self.active_ids(), "two calls, one id"
                assert self.waiting[action.context.request_id] > 0
                note("a batched call starts" if batched else "a call starts")
                self.active[action.call_id] = Call(
                    action.context.request_id, action.tool, action.arguments, batched
                )
            else:
                assert isinstance(action, CancelCall), action
                assert action.call_id in self.active, f"cancel of no call: {action}"
                call = self.active.pop(action.call_id)
                note("a batched call is cancelled" if call.batched else "a call is cancelled")
                self.cancelled[action.call_id] = call
                assert self.waiting[call.request_id] > 0
                self.waiting[call.request_id] -= 1

    def response(self, response: object) -> None:
        check_response(response)
        assert isinstance(response, dict)
        request_id = response["id"]
        self.answered += 1
        if request_id is None:
            self.null_seen += 1
            assert self.null_seen <= self.null_expected, f"an answer to no one: {response}"
        else:
            assert self.waiting[request_id] > 0, f"an answer no request waits for: {response}"
            self.waiting[request_id] -= 1
        if "result" in response:
            modern = isinstance(request_id, str) and request_id.startswith("m")
            if modern:
                assert response["result"].get("resultType") == "complete", response
            else:
                assert "resultType" not in response["result"], response

    def end(self, order: list[int]) -> None:
        for call_id in order:
            self.finish(call_id)
        assert not self.active
        assert self.session.in_flight == 0
        assert +self.waiting == Counter(), f"requests never answered: {+self.waiting}"
        assert self.null_seen == self.null_expected


def check_response(response: object) -> None:
    """A JSON-RPC 2.0 response object, as MCP narrows it."""
    assert isinstance(response, dict), response
    assert response.get("jsonrpc") == "2.0", response
    assert "id" in response, response
    request_id = response["id"]
    assert (
        request_id is None
        or isinstance(request_id, str)
        or (isinstance(request_id, int) and not isinstance(request_id, bool))
    ), response
    assert ("result" in response) != ("error" in response), response
    assert set(response) <= {"jsonrpc", "id", "result", "error"}, response
    if "result" in response:
        assert isinstance(response["result"], dict), response
        assert request_id is not None, response
    else:
        error = response["error"]
        assert isinstance(error, dict), response
        assert type(error.get("code")) is int, response
        assert isinstance(error.get("message"), str) and error["message"], response
        assert set(error) <= {"code", "message", "data"}, response


# --- the test -------------------------------------------------------------------------------


def run(model: Model, plan: list[Op]) -> None:
    for op in plan:
        if isinstance(op, Receive):
            model.receive(op.message)
        elif isinstance(op, Finish):
            candidates = sorted(model.active) + sorted(model.cancelled)
            if candidates:
                model.finish(candidates[op.index % len(candidates)])
            else:
                assert (
                    session_answers.call_finished(
                        model.session, 10**6, TOOLBOX.call("echo", {"text": ""})
                    )
                    == []
                )
        elif isinstance(op, Duplicate):
            ids = model.active_ids()
            message = dict(op.message)
            if ids:
                message["id"] = ids[op.index % len(ids)]
            model.receive(message)
        else:
            ids = model.active_ids()
            if ids:
                target = ids[op.index % len(ids)]
                model.receive(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/cancelled",
                        "params": {"requestId": target},
                    }
                )


@settings(max_examples=200, deadline=None)
@given(data=st.data(), opener=openers, plan=st.lists(ops, min_size=3, max_size=30))
def test_random_conversations_keep_the_promises(
    data: st.DataObject, opener: list[Op], plan: list[Op]
) -> None:
    model = Model()
    run(model, [*opener, *plan])
    order = data.draw(st.permutations(sorted(model.active)), label="finish order")
    model.end(list(order))


# --- examples the property found, or must keep finding ------------------------------------------


def initialized(version: str) -> Model:
    model = Model()
    model.receive(
        {
            "jsonrpc": "2.0",
            "id": "init",
            "method": "initialize",
            "params": {"protocolVersion": version},
        }
    )
    return model


def call(request_id: object, **params: Any) -> dict[str, Any]:
    message = {"name": "add", "arguments": {"a": 1, "b": 2}, **params}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": message}


def cancel(request_id: object) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": request_id},
    }


def test_a_duplicate_id_in_flight_is_refused_and_starts_nothing() -> None:
    model = initialized("2025-06-18")
    model.receive(call(1))
    model.receive(call(1))
    assert len(model.active) == 1
    model.end(sorted(model.active))


def test_a_cancelled_call_is_never_answered() -> None:
    model = initialized("2025-06-18")
    model.receive(call("x"))
    (call_id,) = model.active
    model.receive(cancel("x"))
    assert call_id in model.cancelled
    model.finish(call_id)
    model.end([])


def test_modern_requests_need_no_initialize() -> None:
    model = Model()
    modern = {PROTOCOL_VERSION_KEY: "2026-07-28", CLIENT_CAPABILITIES_KEY: {}}
    model.receive(
        {"jsonrpc": "2.0", "id": "m1", "method": "tools/list", "params": {"_meta": modern}}
    )
    model.receive(call("m2", _meta=modern))
    model.end(sorted(model.active))
    assert model.answered == 2


def test_a_batch_with_calls_answers_once_when_the_last_call_ends() -> None:
    model = initialized("2025-03-26")
    model.receive([{"jsonrpc": "2.0", "id": "p", "method": "ping"}, call(1), call(2)])
    assert len(model.active) == 2
    model.end(sorted(model.active, reverse=True))


def test_a_batch_that_cancels_its_own_call_is_answered_once() -> None:
    model = initialized("2025-03-26")
    model.receive([{"jsonrpc": "2.0", "id": "p", "method": "ping"}, call(1), cancel(1)])
    model.end([])


@settings(max_examples=100, deadline=None)
@given(
    before=st.lists(single_messages, max_size=3),
    between=st.lists(single_messages, max_size=3),
    after=st.lists(single_messages, max_size=3),
    request_id=HANDSHAKE_IDS,
    reverse=st.booleans(),
)
@example(before=[], between=[], after=[], request_id=1, reverse=False).via("the repro")
def test_batches_that_cancel_their_own_calls(
    before: list[object],
    between: list[object],
    after: list[object],
    request_id: int | str,
    reverse: bool,
) -> None:
    model = initialized("2025-03-26")
    ping = {"jsonrpc": "2.0", "id": "p", "method": "ping"}
    model.receive([ping, *before, call(request_id), *between, cancel(request_id), *after])
    model.end(sorted(model.active, reverse=reverse))
