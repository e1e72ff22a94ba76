"""What becomes a tool, and under which name: the object model alone, no protocol."""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import statistics
import subprocess
import threading
import typing
from typing import Any, Literal

import pytest
from conftest import NOTES, PYTHON, server_env

import objmcp
from objmcp.testing import connect_sync


class Base:
    def inherited(self) -> str:
        """From the base."""
        return "base"

    def overridden(self) -> str:
        return "base"


class Child(Base):
    """A child."""

    limit = 3
    helper = functools.partial(max, 0)

    def overridden(self) -> str:
        return "child"

    @staticmethod
    def pure(x: int) -> int:
        return x + 1

    @classmethod
    def named(cls) -> str:
        return cls.__name__

    @property
    def exploding(self) -> str:
        raise AssertionError("a property was called")

    class Nested:
        pass

    def _hidden(self) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"__getattr__ was called for {name}")


class NotesDict(dict[str, str]):
    def remember(self, key: str, value: str) -> None:
        self[key] = value


class NeedsArguments:
    def __init__(self, path: str) -> None:
        self.path = path

    def read(self) -> str:
        return self.path

    @staticmethod
    def version() -> str:
        return "1"


def test_an_instance_publishes_its_public_methods_along_the_mro() -> None:
    tools = objmcp.Toolbox(Child())
    assert list(tools) == ["helper", "overridden", "pure", "named", "inherited"]
    assert tools.call("overridden").text == "child"
    assert tools.call("inherited").text == "base"
    assert tools.call("pure", {"x": 1}).text == "2"
    assert tools.call("named").text == "Child"


def test_builtin_bases_publish_nothing() -> None:
    assert list(objmcp.Toolbox(NotesDict())) == ["remember"]


def test_a_class_is_instantiated_only_when_it_can_be() -> None:
    assert "overridden" in objmcp.Toolbox(Child)
    assert list(objmcp.Toolbox(NeedsArguments)) == ["version"]


def test_modules_publish_their_own_functions() -> None:
    names = set(objmcp.Toolbox(math))
    assert {"gcd", "hypot", "sqrt"} <= names
    assert "pi" not in names
    # its classes too, the exception aside: NormalDist; not LinearRegression, which
    # statistics defines though its __all__ leaves it out, a NamedTuple of untyped fields
    # (a result, not something a model makes)
    assert set(objmcp.Toolbox(statistics)) == {*statistics.__all__} - {"StatisticsError"}
    assert objmcp.Toolbox(math).call("gcd", {"integers": [12, 18]}).text == "6"
    assert objmcp.Toolbox(math).call("hypot", {"coordinates": [3, 4]}).text == "5.0"


def test_a_mapping_names_callables_by_key_and_objects_by_prefix() -> None:
    tools = objmcp.Toolbox({"gcd": math.gcd, "child": Child(), "stats": statistics})
    assert "gcd" in tools and "child_pure" in tools and "stats_mean" in tools
    assert tools.call("stats_mean", {"data": [1, 2, 3]}).text == "2"


def test_collisions_and_bad_names_are_refused_at_start() -> None:
    with pytest.raises(objmcp.TargetError, match="child_pure"):
        objmcp.Toolbox({"child": Child(), "child_pure": math.gcd})
    with pytest.raises(objmcp.TargetError, match="not a valid MCP tool name"):
        objmcp.Toolbox({"has space": math.gcd})
    with pytest.raises(objmcp.TargetError, match="not a valid MCP tool name"):
        objmcp.Toolbox({"x" * 129: math.gcd})


def test_include_and_exclude_take_globs() -> None:
    assert list(objmcp.Toolbox(Child(), include=["p*", "named"])) == ["pure", "named"]
    assert "pure" not in objmcp.Toolbox(Child(), exclude=["pu?e"])


def test_injected_and_untyped_parameters() -> None:
    def tool(a, elicit, log=None):  # type: ignore[no-untyped-def]
        """Docstring types count.

        Args:
            a (int): A number.
        """
        return a

    made = objmcp.Toolbox({"tool": tool})["tool"]
    assert made.input_schema["properties"] == {
        "a": {"type": "integer", "description": "A number."},
        "log": {"default": None},
    }
    assert made.input_schema["required"] == ["a"]


def test_serial_concurrency_runs_every_call_on_one_thread() -> None:
    class Recorder:
        def where(self) -> int:
            return threading.get_ident()

    async def many(tools: objmcp.Toolbox) -> set[str]:
        import anyio

        seen: set[str] = set()

        async def one() -> None:
            seen.add((await tools.acall("where")).text)

        async with anyio.create_task_group() as group:
            for _ in range(20):
                group.start_soon(one)
        return seen

    import anyio

    assert len(anyio.run(many, objmcp.Toolbox(Recorder(), concurrency="serial"))) == 1
    assert str(threading.get_ident()) not in anyio.run(
        many, objmcp.Toolbox(Recorder(), concurrency="serial")
    )


@pytest.mark.parametrize("era", ["handshake", "modern"])
def test_the_served_object_is_closed_when_serving_ends(era: Literal["handshake", "modern"]) -> None:
    closed: list[bool] = []

    class Closable:
        def ping(self) -> str:
            return "pong"

        def close(self) -> None:
            closed.append(True)

    with connect_sync(Closable(), era=era) as client:
        if era == "handshake":  # the protocol's ping, which the modern era no longer has
            assert client.request("ping") == {}
        assert client.call("ping").text == "pong"
        assert closed == []  # not before serving ends
    assert closed == [True]


def test_the_public_surface() -> None:
    assert sorted(objmcp.__all__) == [
        "About",
        "ArgumentError",
        "Audio",
        "Auth",
        "CallEnd",
        "CallInfo",
        "Caller",
        "Cancelled",
        "Changes",
        "Context",
        "Discovery",
        "Elicit",
        "ElicitError",
        "ElicitResult",
        "ElicitationUnavailable",
        "File",
        "FrameError",
        "Header",
        "Hook",
        "Http",
        "Image",
        "InteractionError",
        "InteractionUnavailable",
        "Limits",
        "Log",
        "McpApp",
        "Objects",
        "ObjmcpError",
        "Progress",
        "Question",
        "ResourceLink",
        "ResourceUpdated",
        "Root",
        "Roots",
        "Sample",
        "SampleResult",
        "Sandbox",
        "Server",
        "TargetError",
        "Tasks",
        "Telemetry",
        "Tool",
        "ToolError",
        "ToolOptions",
        "ToolResult",
        "Toolbox",
        "UnknownResourceError",
        "UnknownToolError",
        "Waiting",
        "asgi_app",
        "ask_all",
        "hidden",
        "prompt",
        "resource",
        "serve",
        "start",
        "tool",
    ]
    assert objmcp.ToolError.__module__ == "objmcp"
    records = [objmcp.Limits, objmcp.Waiting, objmcp.Tasks, objmcp.Discovery, objmcp.Objects]
    records += [objmcp.About, objmcp.Telemetry, objmcp.Http, objmcp.Auth]
    for record in records:  # the option records: frozen, and made from keywords only
        with pytest.raises(dataclasses.FrozenInstanceError):
            record().path = "/"  # type: ignore[attr-defined]
        with pytest.raises(TypeError):
            record(1)
    assert typing.get_type_hints(objmcp.ElicitResult)["action"] is not None
    assert issubclass(objmcp.TargetError, ValueError)
    assert issubclass(objmcp.ElicitationUnavailable, objmcp.InteractionUnavailable)
    assert issubclass(objmcp.ElicitError, objmcp.InteractionError)


@pytest.mark.parametrize(
    ("target", "tool", "arguments", "expected"),
    [
        ("statistics", "median", {"data": [3, 1, 2]}, "2"),
        (f"{NOTES}:Notes", "add", {"title": "t"}, '{"title":"t","body":"","tags":[]}'),
        ("examples.notes:Notes()", "remove", {"title": "t"}, "false"),
    ],
)
def test_python_m_objmcp_serves_a_target(
    target: str, tool: str, arguments: dict[str, Any], expected: str
) -> None:
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-06-18"},
        },
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        },
    ]
    data = "".join(json.dumps(m) + "\n" for m in messages).encode()
    process = subprocess.run(
        [PYTHON, "-m", "objmcp", target],
        input=data,
        capture_output=True,
        env=server_env(),
        timeout=60,
        check=False,
        cwd=str(NOTES.parent.parent),
    )
    assert process.returncode == 0, process.stderr.decode()
    answers = [json.loads(line) for line in process.stdout.splitlines()]
    assert answers[1]["result"]["content"][0]["text"] == expected


@pytest.mark.parametrize(
    ("named", "schema"),
    [
        ("int", {"type": "integer"}),
        ("int, optional", {"type": "integer"}),
        ("list of str", {"type": "array", "items": {"type": "string"}}),
        ("list[int]", {"type": "array", "items": {"type": "integer"}}),
        ("str or None", {"anyOf": [{"type": "string"}, {"type": "null"}]}),
        ("Optional[float]", {"anyOf": [{"type": "number"}, {"type": "null"}]}),
        ("frobnicator", {}),
    ],
)
def test_types_named_in_docstrings(named: str, schema: dict[str, Any]) -> None:
    def tool(x):  # type: ignore[no-untyped-def]
        return x

    tool.__doc__ = f"""Do it.

    Args:
        x ({named}): The input.
    """
    made = objmcp.Toolbox({"tool": tool})["tool"]
    assert made.input_schema["properties"]["x"] == {**schema, "description": "The input."}
