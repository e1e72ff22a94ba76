"""The zoo, measured: real libraries served as they are, by objmcp and by FastMCP.

For each target of ``bench/zoo_cases.py`` (the standard library and libraries from PyPI,
served whole and as instances): the tools served, the share of their parameters with a
type (a schema narrower than "any JSON value"; for objmcp, only a type the library gives by
an annotation, a stub, its docstring or a plain default: ``Parameter.type_from``, never a
guess from a parameter's name) and with a description, and the sample
calls that pass, run through a real MCP client (the official SDK's) against a real
``objmcp run`` process. Beside it, the same for FastMCP's ``Tool.from_function`` on
every callable objmcp serves, where it can build a tool, with the sample calls run by
the tools it built.

Run: ``.venv/bin/python bench/zoo_figures.py`` (``--json FILE`` keeps the figures,
``--markdown`` prints the table of docs/internals/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

from figures import ROOT, server_env, source_base  # noqa: E402
from zoo_cases import TARGETS, UNCHECKED, Call, Target  # noqa: E402

if (_working_copy := source_base()) is not None:
    sys.path.insert(0, str(_working_copy))  # loaded here as served: the working copy of objmcp

SCHEMA_WORDS = {"description", "title", "default", "examples", "deprecated"}
"""Keys of a parameter's schema that say nothing of its type."""


@dataclass
class Outcome:
    """One sample call: whether it passed, and what came back when it did not."""

    tool: str
    passed: bool
    detail: str = ""


@dataclass
class Figures:
    """What one server made of one target."""

    tools: int = 0
    params: int = 0
    typed: int = 0
    described: int = 0
    calls: int = 0
    passed: int = 0
    served_dangerous: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    """Each call's, in the order of the target's calls."""


def is_typed(schema: dict[str, Any]) -> bool:
    """Whether a parameter's schema says more than "any JSON value"."""
    return bool(set(schema) - SCHEMA_WORDS)


TypeSources = Mapping[str, Mapping[str, str | None]]
"""What gave each parameter its type, by tool and parameter name (None: nothing did)."""


def count_params(
    tools: Iterable[dict[str, Any]], figures: Figures, sources: TypeSources | None = None
) -> None:
    """Add the parameters of ``tools`` (MCP tool definitions) to ``figures``; with
    ``sources``, a parameter is typed only when its schema is and something the library
    says gave it its type."""
    for tool in tools:
        figures.tools += 1
        given = sources.get(tool["name"], {}) if sources is not None else None
        for name, schema in tool["inputSchema"].get("properties", {}).items():
            figures.params += 1
            figures.typed += is_typed(schema) and (given is None or given.get(name) is not None)
            figures.described += bool(schema.get("description"))


def type_sources(toolbox: Any) -> dict[str, dict[str, str | None]]:
    """What gave each parameter of a toolbox's tools its type (``Parameter.type_from``)."""
    return {
        name: {parameter.name: parameter.type_from for parameter in tool.parameters}
        for name, tool in toolbox.items()
    }


def close(got: Any, expected: Any) -> bool:
    """``got`` is ``expected``, floats within rounding; a NaN or an infinity expected is the
    string that names it (``"NaN"``, ``"Infinity"``, ``"-Infinity"``: JSON has no such
    number), or the same float (a bare answer's text, which Python's ``json`` reads)."""
    if isinstance(expected, float) and not math.isfinite(expected):
        if isinstance(got, float):
            return got == expected or (math.isnan(got) and math.isnan(expected))
        return bool(got == _non_finite_name(expected))
    if isinstance(expected, float) and isinstance(got, (int, float)):
        return math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(expected, list) and isinstance(got, list):
        return len(got) == len(expected) and all(map(close, got, expected))
    if isinstance(expected, dict) and isinstance(got, dict):
        return got.keys() == expected.keys() and all(close(got[k], expected[k]) for k in got)
    return type(got) is type(expected) and bool(got == expected)


def _non_finite_name(number: float) -> str:
    """The name a NaN or an infinity is sent as."""
    return "NaN" if math.isnan(number) else ("Infinity" if number > 0 else "-Infinity")


def judge(call: Call, content: list[dict[str, Any]], is_error: bool) -> Outcome:
    """Whether a call's result (MCP content blocks) is what the library itself gives."""
    shown = json.dumps(content)[:300]
    if is_error:
        return Outcome(call.tool, False, f"error: {shown}")
    expected = call.expect()
    if expected is UNCHECKED:
        return Outcome(call.tool, True)
    if call.image:
        return _judge_image(call.tool, content, expected)
    texts = [block["text"] for block in content if block.get("type") == "text"]
    if not texts:
        return Outcome(call.tool, False, f"no text: {shown}")
    text = texts[0]
    if isinstance(expected, str) and text == expected:
        return Outcome(call.tool, True)
    try:
        got = json.loads(text)
    except ValueError:
        return Outcome(call.tool, False, f"{text[:200]!r} is not {expected!r}")
    if close(got, expected):
        return Outcome(call.tool, True)
    return Outcome(call.tool, False, f"{text[:200]!r} is not {expected!r}")


def _judge_image(tool: str, content: list[dict[str, Any]], size: tuple[int, int]) -> Outcome:
    import base64
    import io

    from PIL import Image

    images = [block for block in content if block.get("type") == "image"]
    if not images:
        return Outcome(tool, False, f"no image block: {json.dumps(content)[:200]}")
    with Image.open(io.BytesIO(base64.b64decode(images[0]["data"]))) as image:
        if (
            image.size == tuple(size)
            and images[0].get("mimeType") == f"image/{image.format}".lower()
        ):
            return Outcome(tool, True)
        return Outcome(tool, False, f"an image of {image.size} in {image.format}")


def server_command(target: Target) -> list[str]:
    """The command that serves ``target`` on stdio, every tool listed (a library of more
    than 40 tools gets the search tools by default: the zoo measures what is served)."""
    options = ("--discovery", "off", *target.options)
    return [sys.executable, "-m", "objmcp", "run", target.spec, *options]


async def serve_and_call(target: Target) -> tuple[list[dict[str, Any]], list[Outcome]]:
    """Serve ``target`` in a real process, list its tools and make its calls, through the
    official SDK's client."""
    from mcp import Client, StdioServerParameters
    from mcp.shared.exceptions import MCPError

    env = server_env()
    server = StdioServerParameters(
        command=sys.executable,
        args=server_command(target)[1:],
        env={"PYTHONPATH": env.get("PYTHONPATH", ""), "PATH": os.environ.get("PATH", "")},
        cwd=str(ROOT),
    )
    outcomes: list[Outcome] = []
    async with Client(server, mode="legacy") as client:
        tools = [
            tool.model_dump(by_alias=True, exclude_none=True) for tool in await _every_tool(client)
        ]
        for call in target.calls:
            try:
                result = await client.call_tool(call.tool, call.arguments)
            except MCPError as error:  # an unknown tool, say
                outcomes.append(Outcome(call.tool, False, f"{error.code}: {error}"))
                continue
            content = [block.model_dump(by_alias=True) for block in result.content]
            outcomes.append(judge(call, content, bool(result.is_error)))
    return tools, outcomes


async def _every_tool(client: Any) -> list[Any]:
    found: list[Any] = []
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        found.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            return found


def measure_objmcp(target: Target, timeout: float | None = None) -> Figures:
    """objmcp's figures for ``target``, served in a real process (all its calls within
    ``timeout`` seconds, else :class:`TimeoutError`); its parameters' types told by the
    target loaded here, as the server loads it."""
    tools, outcomes = asyncio.run(asyncio.wait_for(serve_and_call(target), timeout))
    with loaded_toolbox(target) as toolbox:
        sources = type_sources(toolbox)
    figures = Figures()
    count_params(tools, figures, sources)
    add_outcomes(figures, outcomes)
    names = {tool["name"] for tool in tools}
    figures.served_dangerous = sorted(names & set(target.withheld))
    return figures


def measure_fastmcp(target: Target) -> Figures:
    """FastMCP's figures for ``target``: ``Tool.from_function`` on every callable objmcp
    serves, and the sample calls run by the tools it could build."""
    with loaded_toolbox(target) as toolbox:
        return _measure_fastmcp(target, toolbox)


@contextmanager
def loaded_toolbox(target: Target) -> Iterator[Any]:
    """The toolbox of ``target`` loaded in this process, as ``objmcp run`` loads it (from
    the repository's root, warnings quiet), closed after."""
    import logging

    import objmcp
    from objmcp.cli.targets import load_target

    logging.disable(logging.WARNING)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        toolbox = objmcp.Toolbox(load_target(target.spec))
    finally:
        os.chdir(cwd)
        logging.disable(logging.NOTSET)
    try:
        yield toolbox
    finally:
        logging.disable(logging.ERROR)  # a thread-bound object closed from another thread
        toolbox.close()
        logging.disable(logging.NOTSET)


def _measure_fastmcp(target: Target, toolbox: Any) -> Figures:
    import warnings

    from fastmcp.tools import Tool

    figures = Figures()
    built: dict[str, Any] = {}
    for name, tool in toolbox.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # pydantic's, on defaults JSON cannot carry
                built[name] = Tool.from_function(tool.function, name=name)
        except Exception:  # FastMCP refuses the callable: no tool
            continue
    count_params(
        ({"inputSchema": tool.parameters} for tool in built.values()),
        figures,
    )
    outcomes = []
    for call in target.calls:
        if call.tool not in built:
            outcomes.append(Outcome(call.tool, False, "no tool"))
            continue
        try:
            result = asyncio.run(built[call.tool].run(call.arguments))
        except Exception as error:
            outcomes.append(Outcome(call.tool, False, f"{type(error).__name__}: {error}"[:200]))
            continue
        content = [block.model_dump(by_alias=True) for block in result.content]
        outcomes.append(judge(call, content, False))
    add_outcomes(figures, outcomes)
    figures.served_dangerous = sorted(set(built) & set(target.withheld))
    return figures


def add_outcomes(figures: Figures, outcomes: list[Outcome]) -> None:
    """Add the outcomes of calls (in the order of the target's calls) to ``figures``."""
    figures.calls += len(outcomes)
    figures.passed += sum(outcome.passed for outcome in outcomes)
    figures.failures += [f"{o.tool}: {o.detail}" for o in outcomes if not o.passed]
    figures.outcomes += outcomes


def share(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a whole percentage (a dash for nothing)."""
    return f"{100 * part / whole:.0f}%" if whole else "-"


def markdown(rows: dict[str, dict[str, Figures]]) -> str:
    """The table of docs/internals/benchmarks.md: one row per target, objmcp's figures
    then FastMCP's."""
    lines = [
        "| target | tools | typed | described | calls | FastMCP tools | typed | calls |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    total = {"objmcp": Figures(), "fastmcp": Figures()}
    for spec, servers in rows.items():
        ours, theirs = servers["objmcp"], servers["fastmcp"]
        for name, figures in servers.items():
            for key in ("tools", "params", "typed", "described", "calls", "passed"):
                setattr(total[name], key, getattr(total[name], key) + getattr(figures, key))
        lines.append(_row(f"`{spec}`", ours, theirs))
    lines.append(_row("**all**", total["objmcp"], total["fastmcp"]))
    return "\n".join(lines)


def _row(label: str, ours: Figures, theirs: Figures) -> str:
    return (
        f"| {label} | {ours.tools} | {share(ours.typed, ours.params)} "
        f"| {share(ours.described, ours.params)} | {ours.passed}/{ours.calls} "
        f"| {theirs.tools} | {share(theirs.typed, theirs.params)} "
        f"| {theirs.passed}/{theirs.calls} |"
    )


def main() -> None:
    """Measure every target of the zoo and print (or keep) the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="print the docs' table (docs/internals/benchmarks.md)",
    )
    parser.add_argument("--only", action="append", help="measure only these targets")
    options = parser.parse_args()
    rows: dict[str, dict[str, Figures]] = {}
    for target in TARGETS:
        if options.only and target.spec not in options.only:
            continue
        rows[target.spec] = {"objmcp": measure_objmcp(target), "fastmcp": measure_fastmcp(target)}
        ours = rows[target.spec]["objmcp"]
        print(
            f"{target.spec}: {ours.tools} tools, {share(ours.typed, ours.params)} typed, "
            f"{ours.passed}/{ours.calls} calls" + "".join(f"\n  {f}" for f in ours.failures),
            file=sys.stderr,
        )
    if options.json:
        options.json.write_text(
            json.dumps(
                {spec: {k: asdict(v) for k, v in row.items()} for spec, row in rows.items()},
                indent=1,
            )
        )
    if options.markdown:
        print(markdown(rows))


if __name__ == "__main__":
    main()
