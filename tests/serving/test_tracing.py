"""OpenTelemetry spans of served calls, with the real SDK and its in-memory exporter: names
and attributes after the MCP semantic conventions, the trace continued from the client's
``_meta.traceparent`` (or the HTTP ``traceparent`` header), the method's own spans nested
(sync in a worker thread or the stdio reader's fast lane, async on the loop), errors."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2 as httpx
import pytest
from http_helpers import MODERN_META, initialize_message, modern, modern_headers
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

import objmcp
from objmcp.testing import connect

pytestmark = pytest.mark.anyio

EXPORTER = InMemorySpanExporter()
_PROVIDER = TracerProvider()
_PROVIDER.add_span_processor(SimpleSpanProcessor(EXPORTER))
trace.set_tracer_provider(_PROVIDER)  # once per process: the API allows no second one
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
TRACEPARENT = f"00-{TRACE_ID}-00f067aa0ba902b7-01"
mine = trace.get_tracer("the-object")


class Desk:
    """Work that traces itself."""

    def __init__(self) -> None:
        self.threads: list[str] = []

    def work(self, what: str) -> str:
        """Work in a worker thread (or the stdio reader's)."""
        self.threads.append(threading.current_thread().name)
        with mine.start_as_current_span("sync work"):
            return what.upper()

    async def awork(self, what: str) -> str:
        """Work on the loop."""
        with mine.start_as_current_span("async work"):
            await anyio.sleep(0)
            return what.lower()

    def fail(self) -> None:
        """Fail."""
        raise LookupError("nothing here")

    def read(self, key: str) -> str:
        """A resource."""
        return key


@pytest.fixture(autouse=True)
def spans() -> Iterator[InMemorySpanExporter]:
    EXPORTER.clear()
    yield EXPORTER
    EXPORTER.clear()


def finished(name: str) -> ReadableSpan:
    (span,) = [span for span in EXPORTER.get_finished_spans() if span.name == name]
    return span


def nested(call: str, inner: str) -> tuple[ReadableSpan, ReadableSpan]:
    outer, child = finished(call), finished(inner)
    assert child.parent is not None and outer.context is not None
    assert child.parent.span_id == outer.context.span_id
    assert child.context is not None and child.context.trace_id == outer.context.trace_id
    return outer, child


@pytest.mark.parametrize("era", ["handshake", "modern"])
async def test_a_call_is_a_span_of_the_clients_trace_with_the_methods_spans_inside(
    era: Any,
) -> None:
    async with connect(Desk(), era=era) as client:
        for tool in ("work", "awork"):
            params = {
                "name": tool,
                "arguments": {"what": "Hi"},
                "_meta": {"traceparent": TRACEPARENT},
            }
            await client.request("tools/call", params)
        version = client.protocol_version
    for tool, inner in (("work", "sync work"), ("awork", "async work")):
        span, _ = nested(f"tools/call {tool}", inner)
        assert span.kind == trace.SpanKind.SERVER
        assert span.context is not None and f"{span.context.trace_id:032x}" == TRACE_ID
        assert span.parent is not None and f"{span.parent.span_id:016x}" == "00f067aa0ba902b7"
        attributes = dict(span.attributes or {})
        assert attributes["mcp.method.name"] == "tools/call"
        assert attributes["mcp.protocol.version"] == version
        assert attributes["gen_ai.tool.name"] == tool
        assert attributes["gen_ai.operation.name"] == "execute_tool"
        assert attributes["jsonrpc.request.id"]
        assert span.status.status_code == StatusCode.UNSET


async def test_a_failed_call_and_a_missing_resource_are_error_spans() -> None:
    async with connect(Desk(), resources={"read": "desk://{key}"}) as client:
        assert (await client.call("fail")).is_error
        await client.request("resources/read", {"uri": "desk://k"})
        with pytest.raises(objmcp.testing.ResponseError):
            await client.request("resources/read", {"uri": "nowhere://k"})
    failed = finished("tools/call fail")
    assert failed.status.status_code == StatusCode.ERROR
    assert dict(failed.attributes or {})["error.type"] == "tool_error"
    (event,) = failed.events
    assert (
        event.name == "exception"
        and dict(event.attributes or {})["exception.type"] == "LookupError"
    )
    reads = {
        dict(span.attributes or {})["mcp.resource.uri"]: span
        for span in EXPORTER.get_finished_spans()
        if span.name == "resources/read"
    }
    assert reads["desk://k"].status.status_code == StatusCode.UNSET
    assert reads["nowhere://k"].status.status_code == StatusCode.ERROR
    assert dict(reads["nowhere://k"].attributes or {})["error.type"] == "-32002"


def test_the_stdio_fast_lane_traces_in_the_reader_thread() -> None:
    to_server, server_in = os.pipe()
    server_out, from_server = os.pipe()
    desk = Desk()
    server = objmcp.Server("desk", desk, input=to_server, output=from_server)
    serving = threading.Thread(target=server.run, daemon=True)
    serving.start()
    lines = os.fdopen(server_out, "rb")

    def ask(message: dict[str, Any]) -> Any:
        os.write(server_in, json.dumps(message).encode() + b"\n")
        return json.loads(lines.readline()) if "id" in message else None

    meta = {**MODERN_META, "traceparent": TRACEPARENT}
    call = {"name": "work", "arguments": {"what": "x"}, "_meta": meta}
    answer = ask({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": call})
    ask({"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": {"_meta": meta}})
    os.close(server_in)
    serving.join(10)
    lines.close()
    assert answer["result"]["content"][0]["text"] == "X"
    assert desk.threads[0].startswith("objmcp-reader")
    span, _ = nested("tools/call work", "sync work")
    assert span.context is not None and f"{span.context.trace_id:032x}" == TRACE_ID
    assert dict(span.attributes or {})["jsonrpc.request.id"] == "7"
    assert dict(span.attributes or {})["mcp.protocol.version"] == "2026-07-28"
    listed = finished("tools/list")
    assert dict(listed.attributes or {})["jsonrpc.request.id"] == "8"


async def test_the_http_traceparent_header_and_the_session_id() -> None:
    app = objmcp.asgi_app("desk", Desk())
    headers = {
        "accept": "application/json, text/event-stream",
        "traceparent": TRACEPARENT,
        **modern_headers("tools/call", "awork"),
    }
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
    ) as client:
        call = modern("tools/call", name="awork", arguments={"what": "Up"})
        answer = await client.post("/mcp", json=call, headers=headers)
        plain = {"accept": headers["accept"]}
        opened = await client.post("/mcp", json=initialize_message(), headers=plain)
        session = {
            **plain,
            "mcp-session-id": opened.headers["mcp-session-id"],
            "mcp-protocol-version": "2025-11-25",
        }
        initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        await client.post("/mcp", json=initialized, headers=session)
        handshake_call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "work", "arguments": {"what": "a"}},
        }
        await client.post("/mcp", json=handshake_call, headers=session)
    await app.aclose()
    assert answer.json()["result"]["content"][0]["text"] == "up"
    span, _ = nested("tools/call awork", "async work")
    assert span.context is not None and f"{span.context.trace_id:032x}" == TRACE_ID
    handshake_span, _ = nested("tools/call work", "sync work")
    attributes = dict(handshake_span.attributes or {})
    assert attributes["mcp.session.id"] == session["mcp-session-id"]
    assert handshake_span.parent is None  # no traceparent sent: a trace of its own


async def test_tracing_false_makes_no_spans() -> None:
    async with connect(Desk(), telemetry=objmcp.Telemetry(tracing=False)) as client:
        await client.call("work", what="x")
    assert [span.name for span in EXPORTER.get_finished_spans()] == ["sync work"]


async def test_serial_calls_nest_on_their_one_thread() -> None:
    async with connect(Desk(), limits=objmcp.Limits(concurrency="serial")) as client:
        assert (await client.call("work", what="s")).text == "S"
    nested("tools/call work", "sync work")


@pytest.mark.parametrize("era", ["handshake", "modern"])
async def test_requests_the_session_answers_itself_are_spans_too(era: Any) -> None:
    async with connect(Desk(), era=era) as client:
        await client.request("tools/list", {"_meta": {"traceparent": TRACEPARENT}})
        with pytest.raises(objmcp.testing.ResponseError):
            await client.request("tools/call", {"name": "nope", "arguments": {}})
        version = client.protocol_version
    listed = finished("tools/list")
    attributes = dict(listed.attributes or {})
    assert attributes["mcp.method.name"] == "tools/list"
    assert attributes["mcp.protocol.version"] == version
    assert listed.context is not None and f"{listed.context.trace_id:032x}" == TRACE_ID
    assert listed.status.status_code == StatusCode.UNSET
    refused = finished("tools/call nope")
    assert refused.status.status_code == StatusCode.ERROR
    assert dict(refused.attributes or {})["error.type"] == "-32602"
    assert dict(refused.attributes or {})["gen_ai.tool.name"] == "nope"
    if era == "handshake":
        assert finished("initialize").kind == trace.SpanKind.SERVER


class Asking:
    """Work that asks the user first, then traces itself."""

    def confirm(self, what: str, elicit: objmcp.Elicit) -> str:
        """Ask in a worker thread."""
        answer = elicit(f"Do {what}?", bool)
        with mine.start_as_current_span("sync work"):
            return f"{what}: {answer.value}"

    async def aconfirm(self, what: str, elicit: objmcp.Elicit) -> str:
        """Ask on the loop."""
        answer = await elicit(f"Do {what}?", bool)
        with mine.start_as_current_span("async work"):
            return f"{what}: {answer.value}"


async def test_a_question_to_the_client_is_a_span_inside_the_calls() -> None:
    def yes(params: dict[str, Any]) -> objmcp.ElicitResult:
        return objmcp.ElicitResult("accept", {"value": True})

    async with connect(Asking(), elicit=yes) as client:
        for tool in ("confirm", "aconfirm"):
            await client.call(tool, what="it")
            _, question = nested(f"tools/call {tool}", "elicitation/create")
            _, work = nested(
                f"tools/call {tool}", "sync work" if tool == "confirm" else "async work"
            )
            assert question.kind == trace.SpanKind.CLIENT
            attributes = dict(question.attributes or {})
            assert attributes["mcp.method.name"] == "elicitation/create"
            assert str(attributes["jsonrpc.request.id"]).startswith("objmcp-")
            assert question.end_time is not None and work.start_time is not None
            assert question.end_time <= work.start_time  # the method went on after the answer
            EXPORTER.clear()


async def test_a_task_s_work_stays_inside_its_call_s_span() -> None:
    # a call answered as a task (2026-07-28) runs on after its answer: its span lasts until
    # the method ends, and the method's own spans nest in it
    capabilities = {"extensions": {"io.modelcontextprotocol/tasks": {}}}
    async with connect(
        Slow(), era="modern", capabilities=capabilities, tasks=objmcp.Tasks(after=0.05)
    ) as client:
        created = await client.request("tools/call", {"name": "work", "arguments": {}})
        assert created["resultType"] == "task"
        for _ in range(200):
            task = await client.request("tasks/get", {"taskId": created["taskId"]})
            if task["status"] == "completed":
                break
            await anyio.sleep(0.02)
    assert task["status"] == "completed"
    call, work = nested("tools/call work", "slow work")
    assert call.end_time is not None and work.end_time is not None
    assert work.end_time <= call.end_time


class Slow:
    """Work that outlasts task_after, tracing itself."""

    def work(self) -> str:
        """Sleep, then trace."""
        time.sleep(0.2)
        with mine.start_as_current_span("slow work"):
            return "done"


async def test_each_tool_call_of_code_mode_is_a_span_inside_the_executes() -> None:
    # the calls the code makes run on the loop; their spans are the execute call's children
    code = "a = desk.work('x')\nb = desk.awork('Y')\na + b"
    async with connect(Desk(), discovery=objmcp.Discovery(mode="code")) as client:
        result = await client.call("execute", code=code)
    assert (result.text, result.is_error) == ("Xy", False)
    execute = finished("tools/call execute")
    for tool, inner in (("work", "sync work"), ("awork", "async work")):
        _, call = nested("tools/call execute", f"tools/call {tool}")
        assert call.kind == trace.SpanKind.INTERNAL
        assert dict(call.attributes or {})["gen_ai.tool.name"] == tool
        nested(f"tools/call {tool}", inner)  # the method's own spans inside the call's
    assert execute.status.status_code == StatusCode.UNSET
