"""The bench's ``add`` served by objmcp with tracing as ``OBJMCP_BENCH_TRACE`` says: ``off``
(``tracing=False``), ``noop`` (on, OpenTelemetry's default no-op provider) or ``memory``
(on, the SDK's provider exporting to memory, every span kept)."""

import os

from objmcp_add import Adder

import objmcp

if __name__ == "__main__":
    mode = os.environ.get("OBJMCP_BENCH_TRACE", "off")
    if mode == "memory":
        from opentelemetry import trace
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(InMemorySpanExporter()))
        trace.set_tracer_provider(provider)
    objmcp.start("bench", Adder(), telemetry=objmcp.Telemetry(tracing=mode != "off"))
