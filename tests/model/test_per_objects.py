"""One object per session or per caller on a :class:`~objmcp.Toolbox` (``per=``): what a
factory may be, the tools read from the class without making one, each call on its own
object (methods of every kind, resources and prompts), objects made once however many
calls race for them, made and closed where their calls run, and the least recently used
closed beyond ``max_objects`` (a property test against a model of the LRU)."""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from typing import Any, ClassVar

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp import Toolbox
from objmcp.model.calling.per import SESSION
from objmcp.testing import connect

pytestmark = pytest.mark.anyio


class Counter:
    """A count of one's own."""

    made: ClassVar[list[Counter]] = []
    closed: ClassVar[list[Counter]] = []

    def __init__(self, caller: objmcp.Caller | None = None) -> None:
        self.count = 0
        self.owner = caller.subject if caller is not None else None
        self.thread = threading.get_ident()
        self.threads: set[int] = set()
        Counter.made.append(self)

    def bump(self, by: int = 1) -> int:
        """Add to the count."""
        self.count += by
        self.threads.add(threading.get_ident())
        return self.count

    async def abump(self) -> int:
        """Add one, asynchronously."""
        self.count += 1
        return self.count

    bump_ten = functools.partialmethod(bump, 10)

    @staticmethod
    def double(value: int) -> int:
        """Twice the value (no object needed)."""
        return 2 * value

    @classmethod
    def kind(cls) -> str:
        """The class's name."""
        return cls.__name__

    def whose(self) -> str:
        """Who the object was made for."""
        return str(self.owner)

    @objmcp.resource("counter://count")
    def current(self) -> str:
        """The count, as a resource."""
        return str(self.count)

    @objmcp.prompt
    def tell(self) -> str:
        """The count, as a prompt."""
        return f"the count is {self.count}"

    @objmcp.hidden
    def close(self) -> None:
        """Counted."""
        self.threads.add(threading.get_ident())
        Counter.closed.append(self)


@pytest.fixture(autouse=True)
def _fresh() -> None:
    Counter.made.clear()
    Counter.closed.clear()


def on(session: object, caller: str | None = None) -> dict[object, object]:
    """What a call of ``session`` (by ``caller``) is given."""
    given: dict[object, object] = {SESSION: session}
    if caller is not None:
        given[objmcp.Caller] = objmcp.Caller(subject=caller)
    return given


def text(result: Any) -> str:
    assert not result.is_error, result.text
    return str(result.text)


async def test_the_tools_come_from_the_class_and_no_object_is_made() -> None:
    tools = Toolbox(Counter, per="session")
    assert sorted(tools) == ["abump", "bump", "bump_ten", "double", "kind", "whose"]
    assert Counter.made == []
    assert tools.tool("bump").input_schema["properties"] == {
        "by": {"type": "integer", "default": 1}
    }


async def test_each_session_calls_its_own_object_whatever_the_method() -> None:
    tools = Toolbox(Counter, per="session")
    assert text(await tools.acall("bump", {}, injected=on("a"))) == "1"
    assert text(await tools.acall("abump", {}, injected=on("a"))) == "2"
    assert text(await tools.acall("bump_ten", {}, injected=on("a"))) == "12"
    assert text(await tools.acall("bump", {"by": 5}, injected=on("b"))) == "5"
    assert text(await tools.acall("double", {"value": 4}, injected=on("b"))) == "8"
    assert text(await tools.acall("kind", {}, injected=on("c"))) == "Counter"
    assert len(Counter.made) == 2  # static and class methods need no object
    contents = await tools.read_resource("counter://count", injected=on("a"))
    assert contents[0]["text"] == "12"
    prompt = await tools.get_prompt("tell", {}, injected=on("b"))
    assert prompt["messages"][0]["content"]["text"] == "the count is 5"
    await tools.aclose()
    assert sorted(counter.count for counter in Counter.closed) == [5, 12]


async def test_per_caller_is_per_subject_and_the_factory_takes_the_caller() -> None:
    def make(caller: objmcp.Caller | None) -> Counter:
        return Counter(caller)

    tools = Toolbox(make, per="caller")
    await tools.acall("bump", {}, injected=on("one", "alice"))
    assert text(await tools.acall("bump", {}, injected=on("two", "alice"))) == "2"
    assert text(await tools.acall("whose", {}, injected=on("one", "bob"))) == "bob"
    assert text(await tools.acall("whose", {}, injected={})) == "None"  # the local caller
    assert [counter.owner for counter in Counter.made] == ["alice", "bob", None]
    await tools.aclose()


async def test_an_async_factory_and_one_object_for_calls_that_race_for_it() -> None:
    made = 0

    async def make() -> Counter:
        nonlocal made
        made += 1
        await anyio.sleep(0.05)
        return Counter()

    tools = Toolbox(make, per="session")
    async with anyio.create_task_group() as group:
        for _ in range(5):
            group.start_soon(lambda: tools.acall("bump", {}, injected=on("a")))
    assert made == 1 and Counter.made[0].count == 5
    await tools.aclose()


async def test_serial_objects_are_made_called_and_closed_on_its_one_thread() -> None:
    tools = Toolbox(Counter, per="session", concurrency="serial")
    await tools.acall("bump", {}, injected=on("a"))
    await tools.acall("bump", {}, injected=on("b"))
    await tools.aclose()
    threads = {counter.thread for counter in Counter.made}
    threads |= {thread for counter in Counter.made for thread in counter.threads}
    assert len(threads) == 1 and threading.get_ident() not in threads


def test_called_from_sync_code_it_keeps_one_local_object() -> None:
    tools = Toolbox(Counter, per="session")
    tools.call("bump")
    assert tools.call("bump").text == "2"
    tools.close()
    assert Counter.closed == Counter.made and len(Counter.made) == 1


async def test_a_failing_factory_is_an_error_result_tried_again_next_call() -> None:
    failures = iter([True, False])

    def make() -> Counter:
        if next(failures):
            raise OSError("the disk is not there")
        return Counter()

    tools = Toolbox(make, per="session")
    failed = await tools.acall("bump", {}, injected=on("a"))
    assert failed.is_error and failed.text == (
        "Could not make the Counter object for this session: OSError: the disk is not there"
    )
    assert text(await tools.acall("bump", {}, injected=on("a"))) == "1"
    await tools.aclose()


async def test_an_ended_session_closes_its_object_once_its_call_ends() -> None:
    release = anyio.Event()

    class Waiting(Counter):
        async def wait(self) -> int:
            """Wait to be released."""
            await release.wait()
            return self.count

    tools = Toolbox(Waiting, per="session")
    async with anyio.create_task_group() as group:
        group.start_soon(lambda: tools.acall("wait", {}, injected=on("a")))
        await anyio.sleep(0.05)
        tools.end_session("a")
        await tools.close_ended()
        assert Counter.closed == []  # its call still runs
        release.set()
    assert Counter.closed == Counter.made


def _unannotated():  # type: ignore[no-untyped-def]
    return Counter()


@pytest.mark.parametrize(
    ("target", "said"),
    [
        (Counter(), "pass the class"),
        (_unannotated, "says no class it returns"),
        ({"a": Counter}, "not the dict"),
    ],
)
def test_what_cannot_make_the_objects_is_refused(target: object, said: str) -> None:
    with pytest.raises(objmcp.TargetError, match=said):
        Toolbox(target, per="session")


def test_a_factory_that_needs_arguments_is_refused() -> None:
    def make(path: str) -> Counter:
        return Counter()

    with pytest.raises(objmcp.TargetError, match="needs the argument 'path'"):
        Toolbox(make, per="caller")
    with pytest.raises(ValueError, match="per must be"):
        Toolbox(Counter, per="user")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_objects"):
        Toolbox(Counter, per="session", max_objects=0)


@settings(max_examples=50, deadline=None)
@given(
    sessions=st.lists(st.sampled_from("abcdef"), max_size=30),
    ended=st.lists(st.sampled_from("abcdef"), max_size=3),
    cap=st.integers(1, 4),
)
def test_the_least_recently_used_objects_are_closed_beyond_max_objects(
    sessions: list[str], ended: list[str], cap: int
) -> None:
    Counter.made.clear()
    Counter.closed.clear()
    model: OrderedDict[str, int] = OrderedDict()  # session: its count
    tools = Toolbox(Counter, per="session", max_objects=cap)

    async def run() -> None:
        for session in sessions:
            said = await tools.acall("bump", {}, injected=on(session))
            model[session] = model.pop(session, 0) + 1
            while len(model) > cap:
                model.popitem(last=False)
            assert said.text == str(model[session])
        for session in ended:
            tools.end_session(session)
            model.pop(session, None)
        await tools.close_ended()
        live = [counter for counter in Counter.made if counter not in Counter.closed]
        assert sorted(counter.count for counter in live) == sorted(model.values())
        await tools.aclose()

    anyio.run(run)
    assert len(Counter.closed) == len(Counter.made)  # each closed, once
    assert len({id(counter) for counter in Counter.closed}) == len(Counter.made)


async def test_each_connection_to_a_server_is_a_session_closed_at_its_end() -> None:
    server = objmcp.Server("counter", Counter, objects=objmcp.Objects(per="session"))
    async with connect(server) as first:
        await first.call("bump")
        async with connect(server) as second:
            assert (await second.call("bump", by=5)).text == "5"
        assert [counter.count for counter in Counter.closed] == [5]
        assert (await first.call("bump")).text == "2"
    assert [counter.count for counter in Counter.closed] == [5, 2]
    await server.toolbox.aclose()
    assert len(Counter.closed) == 2  # each closed once
