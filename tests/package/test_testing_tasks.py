"""objmcp.testing drives 2026-07-28 tasks: ``call`` follows a call that became a task to its
result (through its questions too), and ``call_task``, ``get_task``, ``update_task``,
``cancel_task`` and ``follow_task`` take one step at a time; the fixture is
``tests/servers/jobs.py``, served in memory with a short ``task_after``. In the handshake
era the same methods drive 2025-11-25's core tasks (``update_task`` aside), and ``call``
follows a task only where the tool requires one."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

import anyio
import pytest
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

import objmcp
import objmcp.testing
from objmcp.testing import ResponseError, Task, connect, connect_sync

sys.path.insert(0, str(ROOT / "tests" / "servers"))
from jobs import Jobs

pytestmark = pytest.mark.anyio
TASKS = "io.modelcontextprotocol/tasks"


def name_is_ada(params: dict[str, Any]) -> objmcp.ElicitResult:
    assert params["message"] == "Your name?"
    return objmcp.ElicitResult("accept", {"value": "Ada"})


class Summaries:
    """A slow tool that asks the client's model: a client without sampling fails it."""

    async def summarize(self, text: str, sample: objmcp.Sample) -> str:
        """Works a little, then asks for a summary."""
        await anyio.sleep(0.3)
        return (await sample(text)).text


class Stoppable:
    """Works in a worker thread until it is cancelled, and says so."""

    def __init__(self) -> None:
        self.stopped = threading.Event()

    def work(self, cancelled: objmcp.Cancelled) -> str:
        """Works until cancelled (a minute at most)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if cancelled.is_set():
                self.stopped.set()
                return "stopped"
            time.sleep(0.02)
        return "done"


async def test_call_follows_a_task_to_its_result() -> None:
    async with connect(Jobs(), era="modern", tasks=objmcp.Tasks(after=0.1)) as client:
        assert client.capabilities == {"extensions": {TASKS: {}}}
        slow = await client.call("slow", seconds=0.5)
        assert (slow.text, slow.is_error) == ("slept 0.5", False)
        assert slow.task_id is not None
        quick = await client.call("quick")
        assert (quick.text, quick.task_id) == ("quick", None)
        always = await client.call("always")  # a task whatever task_after says
        assert always.text == "always a task" and always.task_id is not None


async def test_call_answers_a_task_s_question_with_the_function_given() -> None:
    async with connect(
        Jobs(), era="modern", elicit=name_is_ada, tasks=objmcp.Tasks(after=0.1)
    ) as client:
        hello = await client.call("ask_name")
        assert hello.text == "Hello, Ada!" and hello.task_id is not None
        assert [asked["method"] for asked in client.asked] == ["elicitation/create"]


async def test_a_call_given_up_while_it_is_a_task_cancels_the_task() -> None:
    stoppable = Stoppable()
    async with connect(stoppable, era="modern", tasks=objmcp.Tasks(after=0.1)) as client:
        with pytest.raises(TimeoutError), anyio.fail_after(1):
            await client.call("work")
        assert await anyio.to_thread.run_sync(stoppable.stopped.wait, 30)


async def test_without_the_extension_declared_a_slow_call_is_answered_plainly() -> None:
    async with connect(
        Jobs(), era="modern", capabilities={}, tasks=objmcp.Tasks(after=0.1)
    ) as client:
        slow = await client.call("slow", seconds=0.3)
        assert (slow.text, slow.task_id) == ("slept 0.3", None)
        assert slow.raw["resultType"] == "complete"


async def test_a_task_step_by_step_get_and_follow() -> None:
    async with connect(
        Jobs(), era="modern", capabilities={}, tasks=objmcp.Tasks(after=0.1)
    ) as client:
        task = await client.call_task("slow", seconds=1.0)  # declares the extension itself
        assert isinstance(task, Task)
        assert (task.status, task.ended, task.result, task.error) == ("working", False, None, None)
        assert task.poll_interval is not None and task.poll_interval > 0
        while (seen := await client.get_task(task.task_id)).status_message is None:
            await anyio.sleep(0.05)
        assert seen.status_message == "half-way"
        done = await client.follow_task(task.task_id)
        assert (done.status, done.ended) == ("completed", True)
        assert done.result is not None and done.result.text == "slept 1"
        assert done.result.task_id == task.task_id


async def test_a_task_s_question_answered_by_update_task() -> None:
    elicitation = {"elicitation": {}}  # declared, answered by the test itself
    async with connect(
        Jobs(), era="modern", capabilities=elicitation, tasks=objmcp.Tasks(after=0.1)
    ) as client:
        task = await client.call_task("ask_name")
        while (task := await client.get_task(task.task_id)).status == "working":
            await anyio.sleep(0.05)
        assert task.status == "input_required"
        ((key, asked),) = task.input_requests.items()
        assert asked["method"] == "elicitation/create"
        await client.update_task(
            task.task_id, {key: objmcp.ElicitResult("accept", {"value": "Bo"})}
        )
        done = await client.follow_task(task)
        assert done.result is not None and done.result.text == "Hello, Bo!"
        assert client.asked == []  # answered by the test, not by a function


async def test_cancel_task_leaves_it_cancelled_with_no_result() -> None:
    async with connect(Jobs(), era="modern", tasks=objmcp.Tasks(after=0.1)) as client:
        task = await client.call_task("blocking", seconds=30)
        await client.cancel_task(task.task_id)
        cancelled = await client.follow_task(task.task_id)
        assert (cancelled.status, cancelled.result, cancelled.error) == ("cancelled", None, None)
        with pytest.raises(ResponseError) as unknown:
            await client.get_task("no-such-task")
        assert unknown.value.code == -32602


async def test_a_failed_task_raises_its_error_from_call() -> None:
    async with connect(Summaries(), era="modern", tasks=objmcp.Tasks(after=0.1)) as client:
        task = await client.call_task("summarize", text="a long story")
        failed = await client.follow_task(task)
        assert failed.status == "failed" and failed.error is not None
        assert failed.error.code == -32021  # the client declared no sampling
        with pytest.raises(ResponseError) as raised:
            await client.call("summarize", text="again")
        assert raised.value.code == -32021


async def test_call_task_of_a_call_answered_plainly() -> None:
    async with connect(Jobs(), era="modern", tasks=objmcp.Tasks(after=0.1)) as client:
        with pytest.raises(AssertionError, match="quick was answered plainly"):
            await client.call_task("quick")


# --- 2025-11-25: the core tasks, in the handshake era -------------------------------------


async def test_in_2025_11_25_call_makes_a_task_only_of_a_tool_that_requires_one() -> None:
    async with connect(Jobs(), tasks=objmcp.Tasks(after=0.1)) as client:
        assert client.protocol_version == "2025-11-25"
        assert client.capabilities == {"tasks": {}}
        always = await client.call("always")
        assert always.text == "always a task" and always.task_id is not None
        related = always.raw["_meta"]["io.modelcontextprotocol/related-task"]
        assert related == {"taskId": always.task_id}
        slow = await client.call("slow", seconds=0.3)  # the client decides: task_after does not
        assert (slow.text, slow.task_id) == ("slept 0.3", None)
        assert [report.message for report in slow.progress] == ["half-way"]
    async with connect(Jobs(), capabilities={}) as client:  # a client with no tasks
        always = await client.call("always")
        assert (always.text, always.task_id) == ("always a task", None)
    async with connect(Jobs(), tools={"slow": {"task": "always"}}) as client:
        slow = await client.call("slow", seconds=0.2)  # a task: its progress still lands
        assert slow.task_id is not None
        assert [report.message for report in slow.progress] == ["half-way"]


async def test_in_2025_11_25_a_task_step_by_step() -> None:
    async with connect(Jobs(), elicit=name_is_ada) as client:
        task = await client.call_task("slow", seconds=0.3)
        assert (task.status, task.ended, task.result, task.error) == ("working", False, None, None)
        assert task.raw["ttl"] is None and task.poll_interval == task.raw["pollInterval"] / 1000
        assert (await client.get_task(task.task_id)).task_id == task.task_id
        done = await client.follow_task(task)
        assert (done.status, done.status_message) == ("completed", "half-way")
        assert done.result is not None and done.result.text == "slept 0.3"
        assert done.result.task_id == task.task_id
        asking = await client.call_task("ask_name")
        with pytest.raises(RuntimeError, match="2025-11-25 has no tasks/update"):
            await client.update_task(asking.task_id, {"name": "Bo"})
        answered = await client.follow_task(asking.task_id)  # the function answers
        assert answered.result is not None and answered.result.text == "Hello, Ada!"
        ((asked,),) = [client.asked]
        assert asked["method"] == "elicitation/create"
        assert asked["params"]["_meta"]["io.modelcontextprotocol/related-task"] == {
            "taskId": asking.task_id
        }


async def test_in_2025_11_25_cancel_task_and_a_task_failed_by_its_result() -> None:
    always = {"summarize": {"task": "always"}}
    async with connect(Summaries(), tools=always) as client:  # declares no sampling
        failed = await client.call("summarize", text="a long story")  # an error result
        assert failed.is_error and failed.task_id is not None
        task = await client.follow_task(failed.task_id)
        assert (task.status, task.error) == ("failed", None)
        assert task.result is not None and task.result.is_error
    async with connect(Jobs()) as client:
        task = await client.call_task("blocking", seconds=30)
        await client.cancel_task(task.task_id)
        cancelled = await client.follow_task(task)
        assert (cancelled.status, cancelled.result, cancelled.error) == ("cancelled", None, None)
        with pytest.raises(ResponseError) as ended:
            await client.cancel_task(task.task_id)
        assert ended.value.code == -32602
        with pytest.raises(ResponseError) as unknown:
            await client.get_task("no-such-task")
        assert unknown.value.code == -32602


async def test_in_2025_11_25_a_call_given_up_cancels_its_task() -> None:
    stoppable = Stoppable()
    async with connect(stoppable, tools={"work": {"task": "always"}}) as client:
        with pytest.raises(TimeoutError), anyio.fail_after(0.5):
            await client.call("work")
        assert await anyio.to_thread.run_sync(stoppable.stopped.wait, 30)


async def test_before_2025_11_25_there_are_no_tasks() -> None:
    async with connect(Jobs(), revision="2025-06-18") as client:
        assert client.capabilities == {}
        with pytest.raises(RuntimeError, match="declared no tasks at 2025-06-18"):
            await client.call_task("slow", seconds=0.2)
        assert (await client.call("always")).task_id is None


def test_the_sync_client_drives_core_tasks_too() -> None:
    with connect_sync(Jobs(), elicit=name_is_ada) as client:
        task = client.call_task("ask_name")
        done = client.follow_task(task)
        assert done.result is not None and done.result.text == "Hello, Ada!"
        assert client.call("always").task_id is not None


def test_the_sync_client_drives_tasks_too() -> None:
    with connect_sync(
        Jobs(), era="modern", elicit=name_is_ada, tasks=objmcp.Tasks(after=0.1)
    ) as client:
        task = client.call_task("blocking", seconds=30)
        client.cancel_task(task.task_id)
        assert client.get_task(task.task_id).status == "cancelled"
        asking = client.call_task("ask_name")
        done = client.follow_task(asking)
        assert done.result is not None and done.result.text == "Hello, Ada!"
        assert client.call("slow", seconds=0.3).task_id is not None


def test_the_task_names_are_public() -> None:
    assert {"Task"} <= set(objmcp.testing.__all__)
    assert objmcp.testing.Task.__module__ == "objmcp.testing"
    for name in ("call_task", "get_task", "update_task", "cancel_task", "follow_task"):
        assert callable(getattr(objmcp.testing.Client, name))
        assert callable(getattr(objmcp.testing.SyncClient, name))


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "taskId": _json,
            "status": st.sampled_from(
                ["working", "input_required", "completed", "failed", "cancelled"]
            )
            | _json,
            "statusMessage": _json,
            "pollIntervalMs": _json,
            "pollInterval": _json,
            "result": _json,
            "error": _json,
            "inputRequests": st.dictionaries(st.text(), st.dictionaries(st.text(), _json)),
        },
    )
)
def test_a_task_reads_whatever_the_server_sent_without_raising(raw: dict[str, Any]) -> None:
    task = Task(raw)
    assert task.ended == (raw.get("status") in ("completed", "failed", "cancelled"))
    assert (task.result is not None) <= (task.status in ("completed", "failed"))
    assert (task.error is not None) <= (task.status == "failed")
    interval = task.poll_interval
    said = raw.get("pollIntervalMs", raw.get("pollInterval"))
    assert interval is None or interval == said / 1000
    assert isinstance(task.task_id, str) and isinstance(task.input_requests, dict)
