"""An object shared by two callers over Streamable HTTP, for the tests of
``tests/serving/test_http_session_shares.py`` and ``tests/serving/test_http_served_object.py``:
sessions shared among callers, the ids spans and hooks show, and tools added while serving.

``python commons.py PORT [MAX_SESSIONS]`` serves it with two bearer tokens (alice's and
bob's, each naming its user), ``max_sessions`` (1,000 unless given), spans kept in memory
and a hook that notes the request id of every call; ``seen`` tells both."""

from __future__ import annotations

import sys
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import objmcp

SPANS = InMemorySpanExporter()
TOKENS = {"alice-token": "alice", "bob-token": "bob"}


class Noting(objmcp.Hook):
    """Notes the request id of every tool call."""

    def __init__(self) -> None:
        self.request_ids: list[str | int | None] = []

    def before(self, call: objmcp.CallInfo) -> None:
        """Note the call's request id."""
        self.request_ids.append(call.request_id)


class Sprout:
    """What ``grow`` adds."""

    def sprout(self) -> str:
        """A tool served only once ``grow`` added it."""
        return "sprouted"


class Commons:
    """Tools two callers share."""

    def __init__(self, noting: Noting) -> None:
        self._noting = noting

    def quick(self) -> str:
        """Ends at once."""
        return "quick"

    async def ask(self, elicit: objmcp.Elicit) -> str:
        """Asks the user's name (the call waits for the answer)."""
        answer = await elicit("Your name?", str)
        return f"Hello, {answer.value}!"

    def seen(self) -> dict[str, Any]:
        """The request ids the hook noted, and those of the spans ended so far."""
        spans = [
            dict(span.attributes or {}).get("jsonrpc.request.id")
            for span in SPANS.get_finished_spans()
        ]
        return {"hooks": self._noting.request_ids, "spans": spans}

    def grow(self) -> str:
        """Serve ``sprout`` too, through the app's server."""
        APP.server.add(Sprout())
        return "grown"


if __name__ == "__main__":
    import uvicorn

    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(SPANS))
    trace.set_tracer_provider(provider)
    noting = Noting()
    APP = objmcp.asgi_app(
        "commons",
        Commons(noting),
        hooks=[noting],
        auth=objmcp.Auth(verify=lambda token: TOKENS.get(token, "")),
        http=objmcp.Http(max_sessions=int(sys.argv[2]) if len(sys.argv) > 2 else 1000),
    )
    uvicorn.run(APP, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
