"""The shared task store (objmcp.serving.shared_tasks) against a real Redis, with other
processes publishing and fetching: what one process publishes another answers, sealed at
rest, a caller's own, and a task whose process died ends failed, never "working"."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import textwrap
import time
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
import pytest
from conftest import PYTHON, server_env
from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp.serving.shared_tasks import LOST, SharedTasks, TaskSeal

pytestmark = pytest.mark.anyio

KEY = b"a state key of thirty-two bytes!!"
GUARD = 20.0  # seconds before a wait that never ends fails instead


def body(status: str, text: str = "", **more: Any) -> dict[str, Any]:
    found = {"taskId": "?", "status": status, "createdAt": "2026-12-06T00:00:00Z", **more}
    if text:
        found["result"] = {"content": [{"type": "text", "text": text}]}
    return found


@pytest.fixture
async def stores(redis_url: str) -> AsyncIterator[Callable[..., SharedTasks]]:
    """Stores of one deployment (a prefix of the test's own), closed at the end."""
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    made: list[SharedTasks] = []

    def store(**options: Any) -> SharedTasks:
        settings = {"ttl": 60.0, "max_tasks": 10, "prefix": prefix, **options}
        made.append(SharedTasks(redis_url, KEY, **settings))
        return made[-1]

    yield store
    for each in made:
        await each.aclose()


async def test_what_one_process_publishes_another_fetches_for_its_caller_only(
    stores: Callable[..., SharedTasks], redis_url: str
) -> None:
    owner = stores()
    await owner.renew()
    await owner.publish("t1", "alice", body("working"))
    await owner.publish("t2", "alice", body("completed", "the answer is 42"))
    prefix = owner._prefix
    script = textwrap.dedent(
        f"""
        import anyio, json
        from objmcp.serving.shared_tasks import SharedTasks

        async def main():
            store = SharedTasks({redis_url!r}, {KEY!r}, ttl=60, max_tasks=10, prefix={prefix!r})
            mine = [await store.fetch(i, "alice") for i in ("t1", "t2")]
            theirs = [await store.fetch(i, "bob") for i in ("t1", "t2")]
            anyone = await store.fetch("t2", None)
            listed = [t.task_id for t in await store.listed("alice")]
            await store.aclose()
            print(json.dumps({{
                "mine": [t.body["status"] if t else None for t in mine],
                "text": mine[1].body["result"]["content"][0]["text"] if mine[1] else None,
                "theirs": [t is None for t in theirs] + [anyone is None],
                "listed": listed,
            }}))

        anyio.run(main)
        """
    )
    command = [PYTHON, "-c", script]
    ran = subprocess.run(
        command, check=False, capture_output=True, text=True, env=server_env(), timeout=60
    )
    assert ran.returncode == 0, ran.stderr
    seen = json.loads(ran.stdout)
    assert seen["mine"] == ["working", "completed"]
    assert seen["text"] == "the answer is 42"
    assert seen["theirs"] == [True, True, True]
    assert seen["listed"] == ["t1", "t2"]


async def test_nothing_a_task_holds_is_in_redis_in_the_clear(
    stores: Callable[..., SharedTasks], redis_url: str
) -> None:
    from redis.asyncio import Redis

    owner = stores()
    await owner.publish("t-secret", "caller-key-7f3a", body("completed", "SECRET-RESULT-TEXT"))
    raw = Redis.from_url(redis_url)
    try:
        keys = [key async for key in raw.scan_iter(f"{owner._prefix}:*")]
        stored = b"".join([*keys, *[await raw.dump(key) or b"" for key in keys]])
    finally:
        await raw.aclose()
    assert keys, "the task was stored"
    for secret in (b"SECRET-RESULT-TEXT", b"caller-key-7f3a", b"completed"):
        assert secret not in stored


async def test_a_record_changed_or_moved_in_redis_opens_as_nothing(
    stores: Callable[..., SharedTasks], redis_url: str
) -> None:
    from redis.asyncio import Redis

    owner = stores()
    await owner.publish("t-a", None, body("completed", "a"))
    await owner.publish("t-b", None, body("completed", "b"))
    raw = Redis.from_url(redis_url)
    try:
        sealed = await raw.get(f"{owner._prefix}:task:t-a")
        await raw.set(f"{owner._prefix}:task:t-b", sealed)  # a's record under b's id
        flipped = bytearray(sealed)
        flipped[-1] ^= 1
        await raw.set(f"{owner._prefix}:task:t-a", bytes(flipped))
    finally:
        await raw.aclose()
    assert await owner.fetch("t-a", None) is None
    assert await owner.fetch("t-b", None) is None


async def test_a_task_whose_process_was_killed_ends_failed_saying_so(
    stores: Callable[..., SharedTasks], redis_url: str
) -> None:
    prefix = stores()._prefix
    script = textwrap.dedent(
        f"""
        import anyio
        from objmcp.serving.shared_tasks import SharedTasks

        async def main():
            store = SharedTasks({redis_url!r}, {KEY!r}, ttl=60, max_tasks=10, lease=0.5,
                                prefix={prefix!r})
            await store.renew()
            await store.publish("t-long", "alice", {{"taskId": "t-long", "status": "working"}})
            print("published", flush=True)
            while True:  # renewed while it lives
                await store.renew()
                await anyio.sleep(0.1)

        anyio.run(main)
        """
    )
    owner = subprocess.Popen(
        [PYTHON, "-c", script], stdout=subprocess.PIPE, text=True, env=server_env()
    )
    try:
        assert owner.stdout is not None and owner.stdout.readline() == "published\n"
        other = stores(lease=0.5)
        alive = await other.fetch("t-long", "alice")
        assert alive is not None and alive.body["status"] == "working"
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait(timeout=GUARD)
        deadline = time.monotonic() + GUARD
        while (found := await other.fetch("t-long", "alice")) is not None:
            if found.body["status"] != "working" or time.monotonic() > deadline:
                break
            await anyio.sleep(0.05)
    finally:
        owner.kill()
        owner.wait(timeout=GUARD)
    assert found is not None and found.body["status"] == "failed"
    assert found.body["statusMessage"] == LOST
    again = await other.fetch("t-long", "alice")  # published as failed: the same for all
    assert again is not None and again.body["status"] == "failed" and again.ended


async def test_ended_tasks_expire_and_a_caller_keeps_at_most_max_tasks(
    stores: Callable[..., SharedTasks], redis_url: str
) -> None:
    from redis.asyncio import Redis

    store = stores(ttl=30.0, max_tasks=3)
    for number in range(5):
        await store.publish(f"a{number}", "alice", body("completed", str(number)))
    await store.publish("b0", "bob", body("completed", "bob's"))
    kept = [task.task_id for task in await store.listed("alice")]
    assert kept == ["a2", "a3", "a4"]  # the two oldest forgotten
    assert await store.fetch("a0", "alice") is None
    assert [task.task_id for task in await store.listed("bob")] == ["b0"]
    raw = Redis.from_url(redis_url)
    try:
        left = await raw.pttl(f"{store._prefix}:task:a4")
    finally:
        await raw.aclose()
    assert 0 < left <= 30_000  # Redis forgets it at the end of its ttl


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=60)
@given(st.text(min_size=1), st.dictionaries(st.text(), JSON, max_size=5))
def test_a_sealed_record_opens_as_it_was_for_its_own_id_only(
    task_id: str, record: dict[str, Any]
) -> None:
    seal = TaskSeal(KEY)
    sealed = seal.seal(task_id, record)
    assert seal.open(task_id, sealed) == json.loads(json.dumps(record))
    assert seal.open(task_id + "x", sealed) is None
    assert TaskSeal(KEY[::-1]).open(task_id, sealed) is None
    assert json.dumps(record).encode() not in sealed or not record


def test_the_store_needs_a_positive_ttl_and_lease(redis_url: str) -> None:
    for bad in ({"ttl": 0}, {"lease": -1}, {"max_tasks": 0}):
        with pytest.raises(ValueError):
            SharedTasks(redis_url, KEY, **{"ttl": 1.0, "max_tasks": 1, **bad})  # type: ignore[arg-type]
