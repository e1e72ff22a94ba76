"""Interoperability over HTTP: the official TypeScript MCP SDK client, through its
``StreamableHTTPClientTransport`` (the handshake era), drives ``objmcp run --http``.

``tests/js/http.mjs`` runs scripted clients one after the other: each connects (``initialize``,
``notifications/initialized``, then the transport's GET stream), answers the server's
questions (elicitation, sampling) from its script, runs its steps (``listTools``, ``callTool``
with or without ``onprogress``, or aborted after some progress; ``setLoggingLevel``,
``terminateSession``, ``resume``: a new transport given the ended session's id) and prints one
JSON report: what the SDK handed back or threw, what its handlers were given, and every HTTP
exchange its transport made (status, the headers that matter, each SSE stream's messages).

Three groups, each one node process: a whole session against the zoo; who may connect (a
server with ``--token``, and the zoo with a foreign or a local ``Origin``); and a
``--stateless`` server. The servers are real ``objmcp run --http`` subprocesses on 127.0.0.1
(test_http's ``HttpServer``), one of each per module. The expected values come from calling
the zoo's methods directly, with hand-made stand-ins for what objmcp injects.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import sys
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import JS, ZOO
from http_helpers import HttpServer
from peer_helpers import drive_js
from test_ts_interactive import BOOL_SCHEMA

import objmcp

sys.path.insert(0, str(ZOO.parent))
from zoo import Zoo

DRIVER = JS / "http.mjs"
VERSION = "2025-11-25"  # the newest revision SDK 1.32.2 offers, and objmcp accepts
TOKEN = "ts-s3cret-token"
FOREIGN_ORIGIN = "http://evil.example"
LOCAL_ORIGIN = "http://localhost:3000"
SYSLOG = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
"""MCP's log levels, least severe first (RFC 5424 as the spec orders them)."""


# -- the driver ------------------------------------------------------------------------------


def step(
    label: str, op: str, params: dict[str, Any] | None = None, *, progress: bool = False
) -> dict[str, Any]:
    made: dict[str, Any] = {"label": label, "op": op, "progress": progress}
    if params is not None:
        made["params"] = params
    return made


def call(
    label: str, name: str, *, progress: bool = False, abort_at: int | None = None, **arguments: Any
) -> dict[str, Any]:
    """A callTool step; ``abort_at``: abort the call when that many progress reports came."""
    made = step(label, "callTool", {"name": name, "arguments": arguments}, progress=progress)
    if abort_at is not None:
        made["abortAtProgress"] = abort_at
    return made


def run_http(node: str, clients: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Run http.mjs with ``clients``; returns each client's report, by label."""
    report, _ = drive_js(node, DRIVER, {"clients": clients})
    reports: dict[str, dict[str, Any]] = report["clients"]
    assert list(reports) == [client["label"] for client in clients]
    for client in clients:
        report = reports[client["label"]]
        ran = [made["label"] for made in client.get("steps", [])] if report["connected"] else []
        assert list(report["steps"]) == ran
    return reports


def result_of(entry: dict[str, Any]) -> dict[str, Any]:
    assert "result" in entry, f"the step threw: {entry}"
    result: dict[str, Any] = entry["result"]
    return result


def text_of(entry: dict[str, Any]) -> str:
    """The single text block of a call's result."""
    content = result_of(entry)["content"]
    assert len(content) == 1 and content[0]["type"] == "text", content
    text: str = content[0]["text"]
    return text


def is_error(entry: dict[str, Any]) -> bool:
    return bool(result_of(entry).get("isError", False))


def exchanges(report: dict[str, Any], label: str | None = None) -> list[dict[str, Any]]:
    """The HTTP exchanges of a client (made while the step ``label`` ran, when given)."""
    return [e for e in report["http"] if label is None or e["step"] == label]


def request_exchange(report: dict[str, Any], label: str) -> dict[str, Any]:
    """The one POST of step ``label`` that carried a request (not an answer, nor a
    notification)."""
    (found,) = [
        e
        for e in exchanges(report, label)
        if e["method"] == "POST"
        and isinstance(e["sent"], dict)
        and {"method", "id"} <= e["sent"].keys()
    ]
    return found


def answered(exchange: dict[str, Any]) -> list[dict[str, Any]]:
    """The JSON-RPC messages a POST was answered with: its SSE events, or its JSON body."""
    if exchange["events"] is not None:
        events: list[dict[str, Any]] = exchange["events"]
        return events
    return [json.loads(exchange["body"])]


def refusal(report: dict[str, Any], status: int) -> dict[str, Any]:
    """A client whose connect was refused with ``status``: its one exchange."""
    assert not report["connected"]
    exchange: dict[str, Any]
    (exchange,) = report["http"]  # the initialize POST; nothing after it
    assert exchange["method"] == "POST" and exchange["sent"]["method"] == "initialize"
    assert exchange["status"] == status
    # The SDK throws its StreamableHTTPError with the status as code and the body as message,
    # and reports the same error to onerror first.
    fatal = report["fatal"]
    assert fatal["class"] == "StreamableHTTPError"
    assert fatal["code"] == status
    assert (
        fatal["message"] == f"Streamable HTTP error: Error POSTing to endpoint: {exchange['body']}"
    )
    assert report["errors"] == [{"step": "connect", "error": fatal}]
    return exchange


# -- what the zoo does, called directly --------------------------------------------------------


class StandIn:
    """What objmcp injects into a tool, played by hand: records what the zoo's method does
    with it and answers its questions from a list (awaitably for the async methods)."""

    def __init__(
        self,
        tool: str,
        answers: list[Any] | None = None,
        *,
        awaited: bool = False,
        cancel_after: int | None = None,
    ) -> None:
        self.tool = tool
        self.answers = list(answers or [])
        self.awaited = awaited
        self.asked: list[str] = []
        self.progressed: list[dict[str, Any]] = []
        self.logged: list[tuple[str, Any]] = []
        self.prompts: list[Any] = []
        self.log = _Log(self)
        self.cancelled = SimpleNamespace(
            is_set=lambda: cancel_after is not None and len(self.progressed) >= cancel_after
        )

    def done(self, value: Any) -> Any:
        if not self.awaited:
            return value

        async def later() -> Any:
            return value

        return later()

    def elicit(self, message: str, schema: object) -> Any:
        self.asked.append(message)
        return self.done(self.answers.pop(0))

    def progress(self, done: float, total: float | None = None, message: str | None = None) -> Any:
        report: dict[str, Any] = {"progress": done}
        if total is not None:
            report["total"] = total
        if message is not None:
            report["message"] = message
        self.progressed.append(report)
        return self.done(None)

    def sample(self, messages: Any, **options: Any) -> Any:
        self.prompts.append((messages, options))
        return self.done(self.answers.pop(0))


class _Log:
    def __init__(self, owner: StandIn) -> None:
        self.owner = owner

    def __call__(self, message: object, level: str = "info") -> Any:
        self.owner.logged.append((level, message))
        return self.owner.done(None)

    def __getattr__(self, level: str) -> Any:
        if level not in SYSLOG:
            raise AttributeError(level)
        return lambda message: self(message, level)


def elicit_result(answer: dict[str, Any]) -> objmcp.ElicitResult:
    """The answer a scripted elicitation answer (a primitive wrapped in "value") becomes."""
    content = answer.get("content", {})
    return objmcp.ElicitResult(answer["action"], content, content.get("value"))


def wire_records(stand_in: StandIn, level: str) -> list[dict[str, Any]]:
    """The notifications/message params of what ``stand_in`` logged, at ``level`` or above."""
    floor = SYSLOG.index(level)
    return [
        {"level": each, "logger": stand_in.tool, "data": data}
        for each, data in stand_in.logged
        if SYSLOG.index(each) >= floor
    ]


# -- the session: one client, every step -------------------------------------------------------

ADD: dict[str, Any] = {"a": 2, "b": 3}
FAIL_MESSAGE = "boom over HTTP: «reason» 42"
TEXT = "a long story"
SAMPLE: dict[str, Any] = {
    "role": "assistant",
    "model": "tiny-1",
    "content": {"type": "text", "text": "short story"},
    "stopReason": "endTurn",
}
STEPS = 3
LONG = 40  # steps of the call cancelled after its ABORT_AT-th progress report
ABORT_AT = 2
# The questions the calls below ask, answered in this order.
ANSWERS: dict[str, dict[str, Any]] = {
    "ask": {"action": "accept", "content": {"value": True}},
    "ask_declined": {"action": "decline"},
    "everything": {"action": "accept", "content": {"value": "Ada"}},
    "async_everything": {"action": "accept", "content": {"value": "Grace"}},
}
SESSION_STEPS = [
    step("tools", "listTools"),
    call("add", "add", **ADD),
    call("fail", "fail", message=FAIL_MESSAGE),
    call("ask", "ask"),
    call("ask_declined", "ask"),
    step("level_info", "setLoggingLevel", {"level": "info"}),
    call("everything", "everything", progress=True),
    call("async_everything", "async_everything", progress=True),
    call("summarize", "async_summarize", text=TEXT),
    call("steps", "steps", progress=True, count=STEPS),
    call("cancelled", "steps", progress=True, abort_at=ABORT_AT, count=LONG),
    call("log_levels", "log_levels"),
    step("level_error", "setLoggingLevel", {"level": "error"}),
    call("log_levels_error", "log_levels"),
    step("terminate", "terminateSession", {"settle": True}),
    step("after_end", "listTools"),
    step("resume", "resume"),
    step("in_ended_session", "listTools"),
]
ENDED = ["terminate", "after_end", "resume", "in_ended_session"]
"""The steps from terminateSession on."""
CALLED = {
    made["label"]: made["params"]["name"] for made in SESSION_STEPS if made["op"] == "callTool"
}
QUESTIONS = ["ask", "ask_declined", "everything", "async_everything"]
"""The calls that ask a question, in order."""
WITH_PROGRESS = [
    made["label"] for made in SESSION_STEPS if made["progress"] and "abortAtProgress" not in made
]
"""The calls that asked for progress (and were not cancelled)."""


class Reference:
    """The zoo's methods called directly, with the session's answers."""

    def __init__(self) -> None:
        zoo: Any = Zoo()  # Any: the stand-ins are not the Protocols the methods declare
        self.add = zoo.add(**ADD)
        self.asks = {
            label: StandIn(
                CALLED[label],
                [elicit_result(ANSWERS[label])],
                awaited=CALLED[label].startswith("async_"),
            )
            for label in QUESTIONS
        }
        self.texts: dict[str, str] = {
            "ask": zoo.ask(self.asks["ask"].elicit),
            "ask_declined": zoo.ask(self.asks["ask_declined"].elicit),
            "everything": zoo.everything(self.asks["everything"]),
            "async_everything": asyncio.run(zoo.async_everything(self.asks["async_everything"])),
        }
        sampled = objmcp.SampleResult(SAMPLE["content"]["text"], SAMPLE["model"])
        self.sampler = StandIn("async_summarize", [sampled], awaited=True)
        self.texts["summarize"] = asyncio.run(zoo.async_summarize(TEXT, self.sampler.sample))
        self.steps = StandIn("steps")
        self.texts["steps"] = zoo.steps(STEPS, self.steps.progress, self.steps.cancelled)
        self.cancelled = StandIn("steps", cancel_after=ABORT_AT)
        self.texts["cancelled"] = zoo.steps(LONG, self.cancelled.progress, self.cancelled.cancelled)
        self.log_levels = StandIn("log_levels")
        self.texts["log_levels"] = self.texts["log_levels_error"] = zoo.log_levels(
            self.log_levels.log
        )
        self.progress = {
            "everything": self.asks["everything"].progressed,
            "async_everything": self.asks["async_everything"].progressed,
            "steps": self.steps.progressed,
        }


@pytest.fixture(scope="module")
def reference() -> Reference:
    return Reference()


@pytest.fixture(scope="module")
def zoo_http() -> Iterator[HttpServer]:
    server = HttpServer()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def guarded() -> Iterator[HttpServer]:
    server = HttpServer("--token", TOKEN)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stateless() -> Iterator[HttpServer]:
    server = HttpServer("--stateless")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def session(node: str, zoo_http: HttpServer) -> dict[str, Any]:
    (report,) = run_http(
        node,
        [
            {
                "label": "session",
                "url": zoo_http.url,
                "capabilities": {"elicitation": {}, "sampling": {}},
                "answers": [ANSWERS[label] for label in QUESTIONS],
                "samples": [SAMPLE],
                "steps": SESSION_STEPS,
            }
        ],
    ).values()
    assert report["connected"], report["fatal"]
    return report


def test_the_session_opens_with_an_id_and_a_get_stream(session: dict[str, Any]) -> None:
    assert session["protocolVersion"] == VERSION
    session_id = session["sessionId"]
    # The spec: visible ASCII only (0x21 to 0x7E); objmcp makes it long enough to be unguessable.
    assert isinstance(session_id, str) and len(session_id) >= 32
    assert all(0x21 <= ord(c) <= 0x7E for c in session_id)
    opening, initialized = session["http"][:2]
    # The GET goes out as connect() returns: its step label is "connect" or the first step's.
    before_end = [e for e in session["http"] if e["step"] not in ENDED]
    (stream,) = [e for e in before_end if e["method"] == "GET"]
    assert opening["sent"]["method"] == "initialize"
    assert "mcp-session-id" not in opening["headers"]
    assert opening["status"] == 200
    assert opening["responseHeaders"]["mcp-session-id"] == session_id
    assert answered(opening)[0]["result"]["protocolVersion"] == VERSION
    assert initialized["sent"] == {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert (initialized["status"], initialized["body"]) == (202, "")
    assert stream["headers"]["accept"] == "text/event-stream"
    assert stream["status"] == 200
    assert stream["responseHeaders"]["content-type"] == "text/event-stream"
    # Everything the server said belonged to a request, so it went on that request's POST.
    assert stream["events"] == []
    # 2025-11-25: the stream opened with a priming event (an id, the delay, no data)
    (priming,) = stream["primings"]
    assert re.fullmatch(r"\d+-0", priming["id"]) and priming["retry"] == 500


def test_every_sse_stream_is_primed_and_its_events_numbered(session: dict[str, Any]) -> None:
    streams = [e for e in session["http"] if e["method"] == "POST" and e["events"] is not None]
    assert streams
    numbers = set()
    for exchange in streams:
        (priming,) = exchange["primings"]
        number, _, zero = priming["id"].partition("-")
        assert (zero, priming["retry"], priming["position"]) == ("0", 500, 0), exchange
        count = len(exchange["events"])
        assert exchange["eventIds"] == [f"{number}-{n}" for n in range(1, count + 1)], exchange
        numbers.add(number)
    assert len(numbers) == len(streams)  # ids unique across the session's streams


def test_every_request_of_the_session_carries_its_id_and_version(session: dict[str, Any]) -> None:
    during = [e for e in session["http"][1:] if e["step"] not in ENDED]
    assert len(during) > len(SESSION_STEPS) - len(ENDED)
    for exchange in during:
        assert exchange["headers"]["mcp-session-id"] == session["sessionId"], exchange
        assert exchange["headers"]["mcp-protocol-version"] == VERSION, exchange
        assert exchange["failed"] is None
        assert 200 <= exchange["status"] < 300, exchange
    for label, entry in session["steps"].items():
        if label not in ENDED:
            assert entry["sessionId"] == session["sessionId"], label


def test_the_tools_are_listed_as_the_zoo_defines_them(session: dict[str, Any]) -> None:
    listed = result_of(session["steps"]["tools"])
    specs = objmcp.Server("zoo", Zoo()).toolbox.specs()
    # 2025-11-25 adds each tool's execution.taskSupport (the core tasks) to its definition
    for tool in listed["tools"]:
        assert tool.pop("execution") == {"taskSupport": "optional"}, tool["name"]
    assert listed == {"tools": specs}  # one page: no nextCursor


def test_add(session: dict[str, Any], reference: Reference) -> None:
    entry = session["steps"]["add"]
    assert result_of(entry) == {
        "content": [{"type": "text", "text": str(reference.add)}],
        "structuredContent": {"result": reference.add},
        "isError": False,
    }
    # An answer with nothing before it comes as plain JSON.
    exchange = request_exchange(session, "add")
    assert exchange["responseHeaders"]["content-type"] == "application/json"
    assert answered(exchange) == [
        {"jsonrpc": "2.0", "id": exchange["sent"]["id"], "result": entry["result"]}
    ]


def test_an_exception_is_a_tool_error(session: dict[str, Any]) -> None:
    entry = session["steps"]["fail"]
    assert is_error(entry)
    assert "ValueError" in text_of(entry)
    assert FAIL_MESSAGE in text_of(entry)


def test_an_error_answer_leaves_the_session_as_it_was(node: str, zoo_http: HttpServer) -> None:
    """A JSON-RPC error in the handshake era comes with HTTP 200: the SDK 1.x client took a
    404 for the end of the session ("Error POSTing to endpoint"). Lists of what the zoo has
    none of are empty, not errors."""
    (report,) = run_http(
        node,
        [
            {
                "label": "errors",
                "url": zoo_http.url,
                "steps": [
                    call("unknown", "no_such_tool"),
                    step("resources", "listResources"),
                    step("templates", "listResourceTemplates"),
                    step("prompts", "listPrompts"),
                    call("after", "add", **ADD),
                ],
            }
        ],
    ).values()
    steps = report["steps"]
    assert steps["unknown"]["error"]["code"] == -32602, steps["unknown"]
    assert "no_such_tool" in steps["unknown"]["error"]["message"]
    assert steps["resources"]["result"]["resources"] == []
    assert steps["templates"]["result"]["resourceTemplates"] == []
    assert steps["prompts"]["result"]["prompts"] == []
    assert text_of(steps["after"]) == str(ADD["a"] + ADD["b"])
    statuses = {
        exchange["step"]: exchange["status"]
        for exchange in report["http"]
        if exchange["method"] == "POST" and exchange["step"] != "connect"
    }
    assert set(statuses.values()) == {200}, statuses
    assert report["errors"] == [], report["errors"]


def test_questions_are_asked_on_the_call_stream_and_answered(
    session: dict[str, Any], reference: Reference
) -> None:
    asked = session["asked"]
    assert [question["step"] for question in asked] == QUESTIONS
    assert [question["message"] for question in asked] == [
        message for label in QUESTIONS for message in reference.asks[label].asked
    ]
    assert [question["answer"] for question in asked] == [ANSWERS[label] for label in QUESTIONS]
    assert asked[0]["requestedSchema"] == BOOL_SCHEMA
    for label in QUESTIONS:
        entry = session["steps"][label]
        assert not is_error(entry), label
        assert text_of(entry) == reference.texts[label], label
        # The question came on the call's own SSE stream, before its answer; the client's
        # answer went back in a POST of its own, accepted with 202 and no body.
        exchange = request_exchange(session, label)
        assert exchange["responseHeaders"]["content-type"] == "text/event-stream"
        (question,) = [m for m in answered(exchange) if m.get("method") == "elicitation/create"]
        (reply,) = [
            e
            for e in exchanges(session, label)
            if isinstance(e["sent"], dict) and e["sent"].get("id") == question["id"]
        ]
        assert "result" in reply["sent"] and "method" not in reply["sent"]
        assert (reply["status"], reply["body"]) == (202, "")


def test_sampling_is_answered(session: dict[str, Any], reference: Reference) -> None:
    ((prompt, options),) = reference.sampler.prompts
    assert options == {}
    max_tokens = inspect.signature(objmcp.Sample.__call__).parameters["max_tokens"].default
    (sampled,) = session["sampled"]
    assert sampled["step"] == "summarize"
    assert sampled["params"] == {
        "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
        "maxTokens": max_tokens,
    }
    assert sampled["answer"] == SAMPLE
    entry = session["steps"]["summarize"]
    assert not is_error(entry)
    assert text_of(entry) == reference.texts["summarize"]
    exchange = request_exchange(session, "summarize")
    methods = [m.get("method") for m in answered(exchange)]
    assert methods == ["sampling/createMessage", None]


@pytest.mark.parametrize("label", WITH_PROGRESS)
def test_progress_reaches_the_callback_before_the_result(
    session: dict[str, Any], reference: Reference, label: str
) -> None:
    entry = session["steps"][label]
    assert text_of(entry) == reference.texts[label]
    expected = reference.progress[label]
    assert expected  # the zoo reports some
    assert entry["progress"] == expected
    # On the wire: the same, on the call's stream, for the token the client sent.
    exchange = request_exchange(session, label)
    token = exchange["sent"]["params"]["_meta"]["progressToken"]
    wire = [m["params"] for m in answered(exchange) if m.get("method") == "notifications/progress"]
    assert wire == [{"progressToken": token, **report} for report in expected]
    assert answered(exchange)[-1]["id"] == exchange["sent"]["id"]


def test_a_call_without_a_token_gets_no_progress(session: dict[str, Any]) -> None:
    for made in SESSION_STEPS:
        if made["op"] == "callTool" and not made["progress"]:
            label = made["label"]
            exchange = request_exchange(session, label)
            assert "_meta" not in exchange["sent"]["params"], label
            methods = [m.get("method") for m in answered(exchange)]
            assert "notifications/progress" not in methods, label
            assert session["steps"][label]["progress"] == [], label


def test_log_records_follow_the_level_the_client_set(
    session: dict[str, Any], reference: Reference
) -> None:
    assert result_of(session["steps"]["level_info"]) == {}
    assert result_of(session["steps"]["level_error"]) == {}
    expected = {
        "everything": wire_records(reference.asks["everything"], "info"),
        "async_everything": wire_records(reference.asks["async_everything"], "info"),
        "log_levels": wire_records(reference.log_levels, "info"),
        "log_levels_error": wire_records(reference.log_levels, "error"),
    }
    # The levels set leave something out, and something in.
    assert len(reference.log_levels.logged) > len(expected["log_levels"]) > 1
    assert len(expected["log_levels_error"]) == 1
    assert [(record["step"], record["params"]) for record in session["logs"]] == [
        (label, record) for label, records in expected.items() for record in records
    ]
    # Each went on its call's own stream.
    for label, records in expected.items():
        exchange = request_exchange(session, label)
        sent = [
            m["params"] for m in answered(exchange) if m.get("method") == "notifications/message"
        ]
        assert sent == records, label


def test_a_cancelled_calls_stream_ends_without_an_answer(session: dict[str, Any]) -> None:
    (stream,) = [
        e
        for e in session["http"]
        if e["method"] == "POST" and e["step"] == "cancelled" and e["events"] is not None
    ]
    assert stream["ended"] == "done", stream
    assert all("method" in message for message in stream["events"])  # no response


def test_each_post_stream_ends_with_its_answer(session: dict[str, Any]) -> None:
    # (The cancelled call's ends without one: above.)
    streams = [
        e
        for e in session["http"]
        if e["method"] == "POST" and e["events"] is not None and e["step"] != "cancelled"
    ]
    assert {e["step"] for e in streams} >= set(QUESTIONS) | set(WITH_PROGRESS)
    for exchange in streams:
        assert exchange["ended"] == "done", exchange
        *before, last = exchange["events"]
        assert last["id"] == exchange["sent"]["id"]
        assert all("method" in message for message in before)


def test_a_cancelled_call_stops_unanswered(session: dict[str, Any], reference: Reference) -> None:
    entry = session["steps"]["cancelled"]
    # The SDK rejects the aborted call itself, with the abort's reason.
    assert entry["error"]["class"] == "McpError"
    assert "http.mjs: cancelled" in entry["error"]["message"]
    expected = reference.cancelled.progressed  # what the zoo reported before it saw the flag
    assert len(expected) == ABORT_AT < LONG
    assert entry["progress"] == expected
    exchange = request_exchange(session, "cancelled")
    request_id = exchange["sent"]["id"]
    token = exchange["sent"]["params"]["_meta"]["progressToken"]
    # The SDK tells the server in a POST of its own, accepted with 202.
    (told,) = [
        e
        for e in exchanges(session, "cancelled")
        if isinstance(e["sent"], dict) and e["sent"].get("method") == "notifications/cancelled"
    ]
    assert told["sent"]["params"] == {"requestId": request_id, "reason": "http.mjs: cancelled"}
    assert (told["status"], told["body"]) == (202, "")
    # The call's stream carried progress, and no answer to the cancelled request.
    wire = answered(exchange)
    assert all(message.get("method") == "notifications/progress" for message in wire), wire
    assert [m["params"] for m in wire][:ABORT_AT] == [
        {"progressToken": token, **report} for report in expected
    ]
    assert len(wire) < LONG  # the zoo stopped early
    assert not is_error(session["steps"]["log_levels"])  # and the session went on


def test_ending_the_session(session: dict[str, Any]) -> None:
    steps = session["steps"]
    session_id = session["sessionId"]
    assert result_of(steps["terminate"]) is None
    (deleted,) = [e for e in exchanges(session, "terminate") if e["method"] != "GET"]
    assert deleted["method"] == "DELETE"
    assert deleted["headers"]["mcp-session-id"] == session_id
    assert deleted["status"] == 200
    assert steps["terminate"]["sessionId"] is None  # the transport forgot the id
    # objmcp ends the session's GET stream with the session (the client may see it end
    # just after the step, so steps["terminate"]["openGetStreams"] is not checked).

    # The transport's next request carries no session id: 400, which it throws.
    (after,) = [e for e in exchanges(session, "after_end") if e["method"] == "POST"]
    assert "mcp-session-id" not in after["headers"]
    assert after["status"] == 400
    error = steps["after_end"]["error"]
    assert (error["class"], error["code"]) == ("StreamableHTTPError", 400)
    assert error["message"] == f"Streamable HTTP error: Error POSTing to endpoint: {after['body']}"

    # A transport given the ended session's id (the SDK's way to resume one: connect() sends
    # no initialize) is told the session is gone: 404, which it throws with code 404.
    assert result_of(steps["resume"]) == {"sessionId": session_id}
    assert [e for e in exchanges(session, "resume") if e["method"] == "POST"] == []
    (gone,) = [e for e in exchanges(session, "in_ended_session") if e["method"] == "POST"]
    assert gone["headers"]["mcp-session-id"] == session_id
    assert gone["status"] == 404
    error = steps["in_ended_session"]["error"]
    assert (error["class"], error["code"]) == ("StreamableHTTPError", 404)
    assert error["message"] == f"Streamable HTTP error: Error POSTing to endpoint: {gone['body']}"
    assert "Session not found" in error["message"]

    # Those two are the only errors the client reported in the whole session.
    assert session["errors"] == [
        {"step": "after_end", "error": steps["after_end"]["error"]},
        {"step": "in_ended_session", "error": steps["in_ended_session"]["error"]},
    ]


# -- who may connect: a token, the Origin header -----------------------------------------------


@pytest.fixture(scope="module")
def access(node: str, zoo_http: HttpServer, guarded: HttpServer) -> dict[str, dict[str, Any]]:
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    return run_http(
        node,
        [
            {"label": "no_token", "url": guarded.url},
            {"label": "wrong_token", "url": guarded.url, "headers": {"Authorization": "Bearer x"}},
            {
                "label": "token",
                "url": guarded.url,
                "headers": bearer,
                "capabilities": {"elicitation": {}},
                "answers": [ANSWERS["ask"]],
                "steps": [
                    call("add", "add", a=20, b=22),
                    call("ask", "ask"),
                    step("terminate", "terminateSession"),
                ],
            },
            {"label": "foreign_origin", "url": zoo_http.url, "headers": {"Origin": FOREIGN_ORIGIN}},
            {
                "label": "local_origin",
                "url": zoo_http.url,
                "headers": {"Origin": LOCAL_ORIGIN},
                "steps": [call("add", "add", **ADD)],
            },
        ],
    )


def test_without_the_token_the_connect_fails_401(access: dict[str, dict[str, Any]]) -> None:
    exchange = refusal(access["no_token"], 401)
    assert "authorization" not in exchange["headers"]
    assert exchange["responseHeaders"]["www-authenticate"] == "Bearer"


def test_with_a_wrong_token_the_connect_fails_401(access: dict[str, dict[str, Any]]) -> None:
    exchange = refusal(access["wrong_token"], 401)
    assert exchange["headers"]["authorization"] == "Bearer x"
    assert exchange["responseHeaders"]["www-authenticate"] == 'Bearer error="invalid_token"'


def test_with_the_token_everything_works(
    access: dict[str, dict[str, Any]], reference: Reference
) -> None:
    report = access["token"]
    assert report["connected"], report["fatal"]
    assert report["protocolVersion"] == VERSION
    assert text_of(report["steps"]["add"]) == str(Zoo().add(20, 22))
    assert [question["message"] for question in report["asked"]] == reference.asks["ask"].asked
    assert text_of(report["steps"]["ask"]) == reference.texts["ask"]
    assert result_of(report["steps"]["terminate"]) is None
    # Every request (POSTs, the answer to the question, the GET stream, the DELETE) carried the
    # token and was served.
    methods = {e["method"] for e in report["http"]}
    assert methods == {"POST", "GET", "DELETE"}
    for exchange in report["http"]:
        assert exchange["headers"]["authorization"] == f"Bearer {TOKEN}", exchange
        assert 200 <= exchange["status"] < 300, exchange
    assert report["errors"] == []


def test_a_foreign_origin_is_refused_403(access: dict[str, dict[str, Any]]) -> None:
    exchange = refusal(access["foreign_origin"], 403)
    assert exchange["headers"]["origin"] == FOREIGN_ORIGIN  # Node's fetch sent it as given
    assert FOREIGN_ORIGIN in access["foreign_origin"]["fatal"]["message"]


def test_a_local_origin_is_served(access: dict[str, dict[str, Any]], reference: Reference) -> None:
    report = access["local_origin"]
    assert report["connected"], report["fatal"]
    assert text_of(report["steps"]["add"]) == str(reference.add)
    assert {e["headers"]["origin"] for e in report["http"]} == {LOCAL_ORIGIN}
    assert all(200 <= e["status"] < 300 for e in report["http"])
    assert report["errors"] == []


# -- stateless ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def stateless_run(node: str, stateless: HttpServer) -> dict[str, Any]:
    (report,) = run_http(
        node,
        [
            {
                "label": "stateless",
                "url": stateless.url,
                "capabilities": {"elicitation": {}},
                "answers": [ANSWERS["ask"]],
                "steps": [
                    call("add", "add", **ADD),
                    call("ask", "ask"),
                    step("terminate", "terminateSession"),
                    call("again", "add", a=1, b=1),
                ],
            }
        ],
    ).values()
    assert report["connected"], report["fatal"]
    return report


def test_a_stateless_server_serves_without_a_session(
    stateless_run: dict[str, Any], reference: Reference
) -> None:
    report = stateless_run
    assert report["protocolVersion"] == VERSION
    assert report["sessionId"] is None
    for exchange in report["http"]:
        assert "mcp-session-id" not in exchange["responseHeaders"], exchange
        assert "mcp-session-id" not in exchange["headers"], exchange
    # No GET stream: 405, which the transport takes as "none offered", reporting nothing.
    (stream,) = [e for e in report["http"] if e["method"] == "GET"]
    assert stream["status"] == 405
    assert "POST" in stream["responseHeaders"]["allow"]
    assert report["errors"] == []
    assert text_of(report["steps"]["add"]) == str(reference.add)
    assert text_of(report["steps"]["again"]) == str(Zoo().add(1, 1))
    # Without a session, no DELETE to send.
    assert "DELETE" not in {e["method"] for e in report["http"]}


def test_a_stateless_server_asks_no_questions(stateless_run: dict[str, Any]) -> None:
    entry = stateless_run["steps"]["ask"]
    assert is_error(entry)
    assert "ElicitationUnavailable" in text_of(entry) and "stateless" in text_of(entry)
    assert stateless_run["asked"] == []
