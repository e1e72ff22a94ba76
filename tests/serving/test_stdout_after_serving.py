"""stdout stays the protocol's after serving on stdio ends: what runs at the process's exit
(OpenTelemetry's last batch of spans, docs/guides/production.md's own ``BatchSpanProcessor(
ConsoleSpanExporter())``, any ``atexit`` handler that prints) lands on stderr, never in the
client's pipe, which it reads to its end."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import RawServer

SERVER = '''
import atexit

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter

import objmcp

provider = TracerProvider()
# A delay longer than the test: every span is still batched when start returns.
provider.add_span_processor(
    BatchSpanProcessor(ConsoleSpanExporter(), schedule_delay_millis=600_000)
)
trace.set_tracer_provider(provider)
atexit.register(print, "printed at exit")


class Echo:
    def echo(self, text: str) -> str:
        """Say it back."""
        return text


objmcp.start("echo", Echo())
'''


def test_spans_flushed_at_exit_go_to_stderr_not_to_the_client(tmp_path: Path) -> None:
    script = tmp_path / "console_spans.py"
    script.write_text(SERVER)
    server = RawServer(str(script))
    server.initialize()
    called = server.request(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "hi"}},
        }
    )
    assert called["result"]["structuredContent"] == {"result": "hi"}
    out, err, status = server.close()
    assert status == 0, err.decode()
    for line in out.decode().splitlines():  # the rest of stdout, up to its end
        assert json.loads(line)["jsonrpc"] == "2.0", line
    printed = err.decode()
    assert '"name": "initialize"' in printed and '"name": "tools/call echo"' in printed
    assert "printed at exit" in printed
