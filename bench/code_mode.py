"""Code mode against plain and search mode: what a model is sent to do multi-step tasks (issue 44).

    .venv-clients/bin/python bench/code_mode.py [--quick] [--half tuning|held-out|both]
        [--json FILE] [--no-overhead] [--limit N] [--python SERVER_PYTHON]

The tasks, the rule they were written by and their halves are in ``code_mode_tasks.py``:
each asks one question of one library that takes 3 to 8 chained calls. A Pydantic AI
``Agent`` whose model is an offline ``FunctionModel`` (a scripted agent) does each through
``MCPToolset`` over stdio to ``objmcp run --discovery MODE LIBRARY`` (a server of its own for
each task and mode), finding the API the way the mode offers it:

- ``plain`` (``--discovery off``): the model is given every tool's definition; it reads the
  ones it needs there and calls each tool.
- ``search`` (``--discovery search``): each tool it needs that no earlier search showed is
  searched for (``search_tools``, the step's request in words; searched again by its name
  when it is not among the hits: a miss), read with ``describe_tools``, and called through
  ``call_tool``.
- ``code`` (``--discovery code``): the same searches give the tools' Python stubs (a tool
  the search misses is read with ``describe_tools`` by its name); then ONE ``execute``
  whose code chains every call, each tool named as its stub's module says.

Every agent checks each parameter it passes in the definition or stub it read (and gives up
if it is not there), and gives up at the first failed call: one shot, no retries.

**Bytes** are what the model is sent: the tool definitions it is given (each once per task,
as compact JSON of its name, description and parameters; a tool that joins the list during
the task, as the tools a search finds do in search mode, is counted too), and every tool
result (``ToolReturnPart.model_response_str()``, a retry's text). The user's question and the
model's own words are left out; what the model *writes* (its arguments, its code) is shown
beside, not counted.

**Answers** are checked against the library called directly, in the server's Python
(``--direct``: the same calls, each result passed on as JSON as a channel would), never
against objmcp's output.

**Tuning.** The agents' one free choice, the number of hits a search asks for
(:data:`SEARCH_LIMIT`, the same in search and code mode), was set on the tuning half alone:
the smallest of 3, 4, 5 and 10 at which no request of a tuning task misses its tool (at 3,
"average of a list of numbers" misses ``mean``). The held-out half was run once, at the end.

**Execute's own time** (``--overhead``, in the server's Python, no client): an
``objmcp.Server`` over ``calendar`` in code mode answers ``await server.handle(message)``; an
``execute`` that makes k calls of ``calendar.isleap`` is timed against k direct
``tools/call`` of it, and an ``execute`` that calls nothing against one direct call; each
pair runs back to back, in alternating order, and the median of the differences is what an
execute adds.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import importlib
import inspect
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from code_mode_tasks import HALVES, TASKS, Step, Task, chosen

ROOT = Path(__file__).resolve().parents[1]
SERVER_PYTHON = ROOT / ".venv" / "bin" / "python"
MODES = ("plain", "search", "code")
DISCOVERY = {"plain": "off", "search": "search", "code": "code"}
SEARCH_LIMIT = 4  # the hits a search asks for (see the docstring's Tuning)


# --- reading the steps ---


def evaluated(expression: str, scope: dict[str, Any]) -> Any:
    """``expression`` (a task's own source, never a tool's output) evaluated over
    ``scope``: the task's inputs and the results so far, as the model reads them."""
    return eval(expression, {**scope})


def keywords(arguments: str, scope: dict[str, Any]) -> dict[str, Any]:
    """A step's keyword arguments, evaluated over ``scope``."""
    found: dict[str, Any] = evaluated(f"dict({arguments})", scope)
    return found


def names_of(arguments: str) -> list[str]:
    """The keywords a step passes."""
    call = ast.parse(f"f({arguments})", mode="eval").body
    assert isinstance(call, ast.Call)
    return [keyword.arg for keyword in call.keywords if keyword.arg is not None]


def as_json(value: Any) -> Any:
    """``value`` as a JSON channel passes it on (tuples as lists, iterators drained)."""
    return json.loads(json.dumps(_drained(value)))


def _drained(value: Any) -> Any:
    if isinstance(value, (str, bytes, dict)):
        return value
    if isinstance(value, (Iterator, list, tuple)):
        return [_drained(item) for item in value]
    return value


# --- the library called directly (in the server's Python) ---


def call_directly(function: Callable[..., Any], arguments: dict[str, Any]) -> Any:
    """``function`` called with ``arguments`` by name as its signature takes them: a
    positional-only parameter by position, ``*args`` from the list under its name."""
    positional: list[Any] = []
    named = dict(arguments)
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind is parameter.POSITIONAL_ONLY and parameter.name in named:
            positional.append(named.pop(parameter.name))
        elif parameter.kind is parameter.VAR_POSITIONAL and parameter.name in named:
            positional.extend(named.pop(parameter.name))
    return function(*positional, **named)


def direct_answer(task: Task) -> Any:
    """The task's answer from its library called directly."""
    library = importlib.import_module(task.library)
    scope: dict[str, Any] = dict(task.inputs)
    for number, step in enumerate(task.steps, 1):
        value = call_directly(getattr(library, step.tool), keywords(step.arguments, scope))
        scope[f"s{number}"] = as_json(value)
    return as_json(evaluated(task.final, scope))


def direct_answers() -> dict[str, Any]:
    """Every task's answer, by its name."""
    return {task.name: direct_answer(task) for task in TASKS}


# --- the scripted agents (in .venv-clients) ---


class GaveUp(Exception):
    """The agent cannot go on: a tool or a parameter it needs is not where it looked, or a
    call failed."""


@dataclass
class Returned:
    """What a call gave the model: its text as sent, and whether it was an error."""

    text: str
    error: bool


Play = Generator[tuple[str, dict[str, Any]], Returned, Any]
"""An agent's plan: it yields each tool call (name, arguments), is sent what it returned,
and returns the answer."""


def value_of(text: str) -> Any:
    """A tool result as the model reads it: JSON when it is, else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def checked(returned: Returned, what: str) -> str:
    """The text of a call that must not have failed."""
    if returned.error:
        raise GaveUp(f"{what} failed: {returned.text[:300]}")
    return returned.text


@dataclass
class Script:
    """The scripted agent of each mode for ``task``: ``limit`` hits a search; the tools
    its searches missed are noted in ``misses``."""

    task: Task
    limit: int
    misses: list[str] = field(default_factory=list)

    def plain(self, listed: dict[str, dict[str, Any]]) -> Play:
        """Plain mode: read each tool's definition in the list, call it."""
        scope: dict[str, Any] = dict(self.task.inputs)
        for number, step in enumerate(self.task.steps, 1):
            schema = listed.get(step.tool)
            if schema is None:
                raise GaveUp(f"{step.tool} is not in the list")
            expect_parameters(step, schema)
            returned = yield step.tool, keywords(step.arguments, scope)
            scope[f"s{number}"] = value_of(checked(returned, step.tool))
        return evaluated(self.task.final, scope)

    def search(self) -> Play:
        """Search mode: search for each tool no earlier search showed, describe it, call it
        through ``call_tool``."""
        scope: dict[str, Any] = dict(self.task.inputs)
        seen: set[str] = set()
        described: dict[str, dict[str, Any]] = {}
        for number, step in enumerate(self.task.steps, 1):
            if step.tool not in seen:
                seen |= yield from self.hits(step.query)
            if step.tool not in seen:  # a miss: a tool's name always finds it first
                self.misses.append(step.tool)
                seen |= yield from self.hits(step.tool)
            if step.tool not in described:
                returned = yield "describe_tools", {"names": [step.tool]}
                definitions = value_of(checked(returned, "describe_tools"))
                described.update({item["name"]: item for item in definitions if "name" in item})
                if step.tool not in described:
                    raise GaveUp(f"describe_tools did not describe {step.tool}")
            expect_parameters(step, described[step.tool].get("inputSchema", {}))
            arguments = keywords(step.arguments, scope)
            returned = yield "call_tool", {"name": step.tool, "arguments": arguments}
            scope[f"s{number}"] = value_of(checked(returned, step.tool))
        return evaluated(self.task.final, scope)

    def hits(self, query: str) -> Generator[tuple[str, dict[str, Any]], Returned, set[str]]:
        """The names ``search_tools`` finds for ``query``."""
        returned = yield "search_tools", {"query": query, "limit": self.limit}
        hits = value_of(checked(returned, "search_tools"))
        return {hit["name"] for hit in hits if isinstance(hit, dict) and "name" in hit}

    def code(self) -> Play:
        """Code mode: search (describe what a search misses), then one ``execute``."""
        known: dict[str, tuple[str, str]] = {}
        for step in self.task.steps:
            if step.tool not in known:
                returned = yield "search_tools", {"query": step.query, "limit": self.limit}
                known.update(stubs_of(checked(returned, "search_tools")))
            if step.tool not in known:
                self.misses.append(step.tool)
                returned = yield "describe_tools", {"names": [step.tool]}
                known.update(stubs_of(checked(returned, "describe_tools")))
            if step.tool not in known:
                raise GaveUp(f"no stub of {step.tool}")
            parameters = known[step.tool][1]
            for name in names_of(step.arguments):
                if not re.search(rf"(^|, )\*?{name}:", parameters) and "**" not in parameters:
                    raise GaveUp(f"the stub of {step.tool} has no parameter {name}")
        returned = yield "execute", {"code": code_of(self.task, known)}
        return value_of(checked(returned, "execute"))


def expect_parameters(step: Step, schema: dict[str, Any]) -> None:
    """Give up unless the input schema read names every keyword the step passes."""
    properties = schema.get("properties") or {}
    missing = [name for name in names_of(step.arguments) if name not in properties]
    if missing and schema.get("additionalProperties") in (None, False):
        raise GaveUp(f"{step.tool} has no parameter {', '.join(missing)} in what was read")


STUB_MODULE = re.compile(r"^# module (\w+)", re.MULTILINE)
STUB_DEF = re.compile(r"^def (\w+)\((.*)\) ->", re.MULTILINE)


def stubs_of(text: str) -> dict[str, tuple[str, str]]:
    """The functions the stubs define: name to (module, signature's parameters)."""
    found: dict[str, tuple[str, str]] = {}
    for block in re.split(r"(?=^# module )", text, flags=re.MULTILINE):
        module = STUB_MODULE.match(block)
        if module is not None:
            for name, parameters in STUB_DEF.findall(block):
                found.setdefault(name, (module.group(1), parameters))
    return found


def code_of(task: Task, known: dict[str, tuple[str, str]]) -> str:
    """The program that chains the task's calls, each tool called in its stub's module, as
    its stub says (an argument its stub takes as ``*name`` passed unpacked)."""
    lines = [f"{name} = {value!r}" for name, value in task.inputs.items()]
    for number, step in enumerate(task.steps, 1):
        module, parameters = known[step.tool]
        arguments = step.arguments
        for name in names_of(arguments):
            if re.search(rf"(^|, )\*{name}:", parameters):
                arguments = re.sub(rf"\b{name}=", "*", arguments)
        lines.append(f"s{number} = {module}.{step.tool}({arguments})")
    return "\n".join([*lines, task.final])


@dataclass
class Tally:
    """What one run sent the model and what the model wrote."""

    definitions: dict[str, int] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    returned: list[int] = field(default_factory=list)
    written: int = 0

    @property
    def sent(self) -> int:
        """Every byte the model was sent: definitions (each once) and results."""
        return sum(self.definitions.values()) + sum(self.returned)


def definition_bytes(tool: Any) -> int:
    """The bytes of a tool definition as the model is given it (compact JSON)."""
    shown: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description or "",
        "parameters": tool.parameters_json_schema,
    }
    if getattr(tool, "include_return_schema", None) and tool.return_schema:
        shown["returns"] = tool.return_schema
    return len(json.dumps(shown, separators=(",", ":"), ensure_ascii=False).encode())


async def run_task(task: Task, mode: str, limit: int, python: Path, log: Path) -> dict[str, Any]:
    """One task done by the scripted agent of ``mode``: its answer and its tally."""
    from fastmcp.client.transports import StdioTransport
    from pydantic_ai import Agent  # type: ignore[import-not-found]
    from pydantic_ai.mcp import MCPToolset  # type: ignore[import-not-found]
    from pydantic_ai.messages import (  # type: ignore[import-not-found]
        ModelRequest,
        ModelResponse,
        RetryPromptPart,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import FunctionModel  # type: ignore[import-not-found]

    tally = Tally()
    script = Script(task, limit)
    plan: Play | None = None
    gave_up: list[str] = []

    def model(messages: list[Any], info: Any) -> Any:
        nonlocal plan
        listed = {tool.name: tool for tool in info.function_tools}
        for name, tool in listed.items():
            tally.definitions.setdefault(name, definition_bytes(tool))
        returned = None
        for part in messages[-1].parts if isinstance(messages[-1], ModelRequest) else ():
            if isinstance(part, ToolReturnPart):
                returned = Returned(part.model_response_str(), part.outcome != "success")
            elif isinstance(part, RetryPromptPart):
                returned = Returned(part.model_response(), True)
            else:
                continue
            tally.returned.append(len(returned.text.encode()))
        try:
            if plan is None:
                schemas = {name: tool.parameters_json_schema for name, tool in listed.items()}
                plays = {
                    "plain": lambda: script.plain(schemas),
                    "search": script.search,
                    "code": script.code,
                }
                plan = plays[mode]()
                name, arguments = next(plan)
            else:
                assert returned is not None, "a turn with no tool result"
                name, arguments = plan.send(returned)
        except StopIteration as done:
            return ModelResponse(parts=[TextPart(json.dumps(done.value))])
        except GaveUp as reason:
            gave_up.append(str(reason))
            return ModelResponse(parts=[TextPart(f"gave up: {reason}")])
        tally.calls.append(name)
        tally.written += len(json.dumps(arguments, separators=(",", ":")).encode())
        return ModelResponse(parts=[ToolCallPart(name, arguments)])

    transport = StdioTransport(
        command=str(python),
        args=["-m", "objmcp", "run", "--discovery", DISCOVERY[mode], task.library],
        env={"PYTHONPATH": str(ROOT)},
        cwd=str(ROOT),
        keep_alive=False,
        log_file=log,
    )
    toolset = MCPToolset(transport, id=task.library, init_timeout=120, read_timeout=120)
    async with toolset:
        agent = Agent(FunctionModel(model), toolsets=[toolset], retries=1)
        result = await agent.run(task.question)
    return {
        "output": result.output,
        "gave_up": gave_up[0] if gave_up else None,
        "misses": script.misses,
        "calls": tally.calls,
        "returned": tally.returned,
        "tools_given": sorted(tally.definitions),
        "definitions": sum(tally.definitions.values()),
        "results": sum(tally.returned),
        "sent": tally.sent,
        "written": tally.written,
    }


async def run_all(
    tasks: list[tuple[str, Task]], limit: int, python: Path, logs: Path
) -> list[dict[str, Any]]:
    """Every task in every mode, one after the other."""
    done = []
    for half, task in tasks:
        runs = {}
        for mode in MODES:
            log = logs / f"{task.name}-{mode}.log"
            runs[mode] = await run_task(task, mode, limit, python, log)
        done.append({"task": task.name, "library": task.library, "half": half, "runs": runs})
    return done


# --- execute's own time (in the server's Python) ---

OVERHEAD_CALLS = (0, 1, 4, 8, 32)
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


async def overhead(repeats: int) -> dict[str, Any]:
    """What an ``execute`` making k calls of ``calendar.isleap`` takes beyond k direct
    calls of it (k = 0: beyond one direct call): medians over ``repeats`` pairs, in ms."""
    import calendar

    import objmcp

    server = objmcp.Server("overhead", calendar, discovery=objmcp.Discovery(mode="code"))
    numbers = iter(range(1, 1 << 30))

    async def timed(name: str, arguments: dict[str, Any]) -> float:
        message = {
            "jsonrpc": "2.0",
            "id": next(numbers),
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments, "_meta": META},
        }
        start = time.perf_counter()
        answer = await server.handle(message)
        elapsed = time.perf_counter() - start
        result = answer.get("result") if isinstance(answer, dict) else None
        if not isinstance(result, dict) or result.get("isError"):
            raise RuntimeError(f"{name} failed: {answer}")
        return elapsed * 1000

    async def execute(calls: int) -> float:
        if not calls:
            return await timed("execute", {"code": "1 + 1"})
        code = f"for i in range({calls}):\n    calendar.isleap(year=2000 + i)\n{calls}"
        return await timed("execute", {"code": code})

    async def direct(calls: int) -> float:
        times = [await timed("isleap", {"year": 2000 + i}) for i in range(max(calls, 1))]
        return sum(times)

    first = await execute(1)  # the sandbox's first worker starts here
    for _ in range(5):
        await execute(1)
        await direct(1)
    rows = []
    for calls in OVERHEAD_CALLS:
        executes, directs = [], []
        for number in range(repeats):
            if number % 2:
                executes.append(await execute(calls))
                directs.append(await direct(calls))
            else:
                directs.append(await direct(calls))
                executes.append(await execute(calls))
        pairs = list(zip(executes, directs, strict=True))
        rows.append(
            {
                "calls": calls,
                "execute_ms": statistics.median(executes),
                "direct_ms": statistics.median(directs),
                "added_ms": statistics.median(e - d for e, d in pairs),
                "ratio": statistics.median(e / d for e, d in pairs),
            }
        )
    return {"tool": "calendar.isleap", "repeats": repeats, "first_execute_ms": first, "rows": rows}


# --- the figures ---


def right(run: dict[str, Any], expected: Any) -> bool:
    """Whether the agent's final answer is the library's."""
    if run["gave_up"]:
        return False
    try:
        said = json.loads(run["output"])
    except ValueError:
        return False
    return bool(as_json(said) == expected)


def totals(done: Iterable[dict[str, Any]], expected: dict[str, Any]) -> dict[str, Any]:
    """The figures of some tasks: per mode, then search and code against plain (their
    bytes in all, and the median of the tasks' own ratios)."""
    done = list(done)
    figures: dict[str, Any] = {"tasks": len(done)}
    for mode in MODES:
        runs = [(item["task"], item["runs"][mode]) for item in done]
        sent = sum(run["sent"] for _, run in runs)
        figures[mode] = {
            "bytes": sent,
            "bytes_per_task": sent / len(runs),
            "definitions": sum(run["definitions"] for _, run in runs),
            "results": sum(run["results"] for _, run in runs),
            "written": sum(run["written"] for _, run in runs),
            "calls": sum(len(run["calls"]) for _, run in runs),
            "misses": sum(len(run["misses"]) for _, run in runs),
            "right": sum(right(run, expected[name]) for name, run in runs),
        }
    for mode in ("search", "code"):
        ratio = figures[mode]["bytes"] / figures["plain"]["bytes"]
        each = [item["runs"][mode]["sent"] / item["runs"]["plain"]["sent"] for item in done]
        figures[f"{mode}/plain"] = {
            "ratio": ratio,
            "fewer_percent": 100 * (1 - ratio),
            "median_task_ratio": statistics.median(each),
        }
    return figures


def figures_of(done: list[dict[str, Any]], expected: dict[str, Any]) -> dict[str, Any]:
    """The figures of each half run, and of all tasks run."""
    halves = {half: [item for item in done if item["half"] == half] for half in HALVES}
    found = {half: totals(items, expected) for half, items in halves.items() if items}
    found["all"] = totals(done, expected)
    return found


def report(
    done: list[dict[str, Any]],
    expected: dict[str, Any],
    figures: dict[str, Any],
    spent: dict[str, Any] | None,
) -> str:
    """The figures as text."""
    libraries = ", ".join(dict.fromkeys(item["library"] for item in done))
    lines = [
        f"Code mode against plain and search mode (issue 44): {len(done)} tasks over {libraries}.",
        "Halves by position: tuning = even positions; HELD OUT = odd positions (run once, "
        "nothing tuned on them).",
        "Bytes: what the model is sent (tool definitions once a task, every tool result); "
        "'wrote': its arguments and code (not counted).",
        "",
        f"{'task':30} {'half':8} {'calls':>5} {'plain':>8} {'search':>8} {'code':>6} "
        f"{'code/plain':>10}  right p/s/c",
    ]
    for item in done:
        runs, name = item["runs"], item["task"]
        marks = "/".join("y" if right(runs[mode], expected[name]) else "N" for mode in MODES)
        lines.append(
            f"{name:30} {item['half']:8} {len(runs['plain']['calls']):>5} "
            f"{runs['plain']['sent']:>8,} {runs['search']['sent']:>8,} "
            f"{runs['code']['sent']:>6,} {runs['code']['sent'] / runs['plain']['sent']:>10.3f}"
            f"  {marks}"
        )
        for mode in MODES:
            if runs[mode]["gave_up"]:
                lines.append(f"    {mode} gave up: {runs[mode]['gave_up'][:400]}")
    for half, found in figures.items():
        title = {"tuning": "tuning half", "held-out": "HELD-OUT half", "all": "all tasks"}[half]
        lines += [
            "",
            f"== {title} ({found['tasks']} tasks)",
            f"{'mode':7} {'bytes':>9} {'bytes/task':>11} {'definitions':>12} {'results':>8} "
            f"{'wrote':>7} {'calls':>6} {'misses':>6} {'right':>6}",
        ]
        for mode in MODES:
            row = found[mode]
            lines.append(
                f"{mode:7} {row['bytes']:>9,} {row['bytes_per_task']:>11,.0f} "
                f"{row['definitions']:>12,} {row['results']:>8,} {row['written']:>7,} "
                f"{row['calls']:>6} {row['misses']:>6} {row['right']:>3}/{found['tasks']}"
            )
        for mode in ("code", "search"):
            pair = found[f"{mode}/plain"]
            lines.append(
                f"{mode}/plain bytes: {pair['ratio']:.3f} ({pair['fewer_percent']:.1f}% fewer); "
                f"median of the tasks' ratios {pair['median_task_ratio']:.3f}"
            )
    if spent is not None:
        lines += [
            "",
            f"== execute's own time (in-process Server.handle, {spent['tool']}; medians of "
            f"{spent['repeats']} back-to-back pairs; the process's first execute took "
            f"{spent['first_execute_ms']:.0f} ms)",
            f"{'calls k':>7} {'execute ms':>11} {'k direct ms':>12} {'added ms':>9} {'ratio':>6}",
        ]
        lines += [
            f"{row['calls']:>7} {row['execute_ms']:>11.2f} {row['direct_ms']:>12.2f} "
            f"{row['added_ms']:>9.2f} {row['ratio']:>6.2f}"
            for row in spent["rows"]
        ]
        lines.append("(k = 0: an execute calling nothing against one direct call)")
    return "\n".join(lines)


def in_server_python(python: Path, *arguments: str) -> Any:
    """This file run under the server's Python with ``arguments``: its JSON output."""
    done = subprocess.run(
        [str(python), str(Path(__file__).resolve()), *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
        check=True,
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="two tuning tasks, few timings")
    parser.add_argument("--half", choices=(*HALVES, "both"), default="both")
    parser.add_argument("--json", type=Path, help="write the figures there")
    parser.add_argument("--no-overhead", action="store_true", help="skip execute's timing")
    parser.add_argument("--limit", type=int, default=SEARCH_LIMIT, help="hits a search asks")
    parser.add_argument("--python", type=Path, default=SERVER_PYTHON, help="the server's")
    parser.add_argument("--direct", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--overhead", type=int, metavar="REPEATS", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.direct:  # in the server's Python
        print(json.dumps(direct_answers()))
        return
    if options.overhead:  # in the server's Python
        print(json.dumps(asyncio.run(overhead(options.overhead))))
        return
    expected = in_server_python(options.python, "--direct")
    tasks = chosen(options.half, options.quick)
    with tempfile.TemporaryDirectory() as logs:
        done = asyncio.run(run_all(tasks, options.limit, options.python, Path(logs)))
    for item in done:
        for run in item["runs"].values():
            run["right"] = right(run, expected[item["task"]])
    figures = figures_of(done, expected)
    spent = None
    if not options.no_overhead:
        repeats = "6" if options.quick else "40"
        spent = in_server_python(options.python, "--overhead", repeats)
    print(report(done, expected, figures, spent))
    if options.json:
        written = {
            "held_out": "the tasks at odd positions (code_mode_tasks.py)",
            "search_limit": options.limit,
            "tasks": [{**item, "expected": expected[item["task"]]} for item in done],
            "halves": figures,
            "overhead": spent,
        }
        options.json.write_text(json.dumps(written, indent=1))


if __name__ == "__main__":
    main()
