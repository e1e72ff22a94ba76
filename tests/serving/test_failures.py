"""Whatever the object does, the server answers and carries on."""

from __future__ import annotations

import dataclasses
import enum
import io
import json
import sqlite3
import subprocess
import sys
import threading
from typing import Literal

import anyio
import pytest
from conftest import PYTHON, ZOO, server_env
from test_raw_pipe import INIT, call, lines

import objmcp
from objmcp.testing import connect_sync

sys.path.insert(0, str(ZOO.parent))
import zoo

ERAS: list[Literal["handshake", "modern"]] = ["handshake", "modern"]


@pytest.mark.parametrize("era", ERAS)
def test_system_exit_and_unprintable_results_are_tool_errors(
    era: Literal["handshake", "modern"],
) -> None:
    # In memory, a SystemExit that escaped would end the server's task and come out of the
    # block (or leave a call unanswered): the server must answer and carry on, then end
    # cleanly.
    with connect_sync(zoo.Zoo(), era=era) as client:
        left = client.call("leave", code=3)
        assert (left.text, left.is_error) == ("SystemExit: 3", True)
        unprintable = client.call("unprintable")
        assert unprintable.is_error and "no text for you" in unprintable.text
        counted = client.call("count", limit=3)
        assert (counted.text, counted.is_error) == ("[0,1,2]", False)
        added = client.call("add", a=1, b=1)
        assert (added.text, added.is_error) == ("2", False)


def test_end_of_input_does_not_wait_for_a_thread_that_never_ends() -> None:
    # sleep(600) in a worker thread: the grace period (1 s here) ends, the call is
    # cancelled, and the process must exit without waiting for the thread.
    data = (
        json.dumps(INIT) + "\n" + json.dumps(call(2, "sleep", {"seconds": 600})) + "\n"
    ).encode()
    process = subprocess.run(
        [PYTHON, str(ZOO), "auto", "grace=1"],
        input=data,
        capture_output=True,
        env=server_env(),
        timeout=120,
        check=False,
    )
    assert process.returncode == 0
    assert [m["id"] for m in lines(process.stdout)] == [1]  # the cancelled call is not answered
    assert b"still running" in process.stderr


def test_star_args_after_ordinary_parameters() -> None:
    def log(level: str, *messages: str, sep: str = " ") -> str:
        return level + ":" + sep.join(messages)

    def pad(width: int = 1, *items: int) -> list[int]:
        return [width, *items]

    tools = objmcp.Toolbox({"log": log, "pad": pad})
    assert tools.call("log", {"level": "info", "messages": ["a", "b"]}).text == "info:a b"
    assert tools.call("log", {"level": "info", "sep": "-"}).text == "info:"
    assert tools.call("pad", {"items": [5, 6]}).text == "[1,5,6]"
    assert tools.call("pad", {"width": 2}).text == "[2]"


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


def test_keys_and_literals_convert() -> None:
    def by_number(counts: dict[int, str]) -> str:
        return repr(sorted(counts.items()))

    def by_color(counts: dict[Color, int]) -> str:
        return repr(sorted((k.value, v) for k, v in counts.items()))

    def only_red(color: Literal[Color.RED]) -> str:
        return repr(color)

    tools = objmcp.Toolbox({"by_number": by_number, "by_color": by_color, "only_red": only_red})
    assert (
        tools.call("by_number", {"counts": {"2": "b", "-1": "a"}}).text == "[(-1, 'a'), (2, 'b')]"
    )
    wrong = tools.call("by_number", {"counts": {"two": "b"}})
    assert wrong.is_error and "counts" in wrong.text
    assert tools.call("by_color", {"counts": {"red": 1}}).text == "[('red', 1)]"
    assert tools.call("by_color", {"counts": {"green": 1}}).is_error
    assert tools.call("only_red", {"color": "red"}).text == "<Color.RED: 'red'>"


def test_names_with_a_trailing_newline_are_refused() -> None:
    with pytest.raises(objmcp.TargetError):
        objmcp.Toolbox({"add\n": max})


def test_a_pydantic_model_without_a_schema_degrades_to_any_value() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Opaque:
        pass

    class Model(pydantic.BaseModel):  # type: ignore[misc,name-defined]
        model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)
        thing: Opaque

    def use(model: Model) -> str:
        return "ok"

    assert objmcp.Toolbox({"use": use})["use"].input_schema["properties"]["model"] == {}


def test_serial_objects_are_closed_on_their_thread_and_reusable() -> None:
    @dataclasses.dataclass
    class Database:
        connection: sqlite3.Connection | None = None
        closed_on: list[int] = dataclasses.field(default_factory=list)

        def query(self) -> int:
            if self.connection is None:
                self.connection = sqlite3.connect(":memory:")
            return int(self.connection.execute("select 41 + 1").fetchone()[0])

        def close(self) -> None:
            if self.connection is not None:
                self.connection.close()  # raises ProgrammingError on another thread
                self.connection = None
            self.closed_on.append(threading.get_ident())

    database = Database()
    tools = objmcp.Toolbox(database, concurrency="serial")

    async def use() -> None:
        assert (await tools.acall("query")).text == "42"
        await tools.aclose()
        assert (await tools.acall("query")).text == "42"  # a new thread after closing

    anyio.run(use)
    assert len(database.closed_on) == 1


def test_a_class_target_instance_is_closed() -> None:
    closed: list[str] = []

    class Service:
        def ping(self) -> str:
            return "pong"

        def close(self) -> None:
            closed.append("closed")

    objmcp.Toolbox(Service).close()
    objmcp.Toolbox({"a": Service(), "b": Service()}).close()
    assert closed == ["closed"] * 3


def test_text_streams_can_be_served() -> None:
    requests = json.dumps(INIT) + "\n" + json.dumps(call(2, "add", {"a": 2, "b": 5})) + "\n"
    output = io.StringIO()

    class Adder:
        def add(self, a: int, b: int) -> int:
            return a + b

    objmcp.start("adder", Adder(), input=io.StringIO(requests), output=output)
    answers = [json.loads(line) for line in output.getvalue().splitlines()]
    assert answers[1]["result"]["content"][0]["text"] == "7"


@pytest.mark.parametrize("era", ERAS)
def test_a_cancelled_error_raised_by_a_tool_is_its_failure_not_the_servers(
    era: Literal["handshake", "modern"],
) -> None:
    with connect_sync(zoo.Zoo(), era=era) as client:
        cancelled = client.call("cancelled_inside")
        assert cancelled.is_error and "CancelledError" in cancelled.text
        added = client.call("add", a=2, b=2)
        assert (added.text, added.is_error) == ("4", False)


def test_the_last_message_may_lack_its_newline() -> None:
    data = json.dumps(INIT) + "\n" + json.dumps(call(2, "add", {"a": 3, "b": 4}))
    process = subprocess.run(
        [PYTHON, str(ZOO)],
        input=data.encode(),
        capture_output=True,
        env=server_env(),
        timeout=60,
        check=False,
    )
    assert [m.get("result", {}).get("content") for m in lines(process.stdout)][1] == [
        {"type": "text", "text": "7"}
    ]


def test_a_call_cancelled_before_its_thread_starts_is_not_counted_as_running() -> None:
    class Slow:
        def wait(self) -> str:
            return "done"

    tools = objmcp.Toolbox(Slow())

    async def cancel_at_once() -> None:
        with anyio.CancelScope() as scope:
            scope.cancel()
            await tools.acall("wait")

    anyio.run(cancel_at_once)
    assert tools.abandoned == 0
