"""The warm pool that runs sync tools off an asyncio loop (objmcp.model.calling.warmpool):
real threads, real loops; each test guards against a hang with a deadline, never times
anything."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio
import anyio.from_thread
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp.model.calling.threads import ThreadRunner
from objmcp.model.calling.warmpool import THREAD_NAME, WarmPool

GUARD = 20.0  # seconds before a test that hangs fails instead

T = TypeVar("T")

request_name: contextvars.ContextVar[str] = contextvars.ContextVar("request_name")


def run(main: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(asyncio.wait_for(main(), GUARD))


def square(number: int) -> int:
    return number * number


def test_jobs_give_their_values_and_their_exceptions_in_the_submitters_context() -> None:
    async def main() -> list[object]:
        pool = WarmPool(asyncio.get_running_loop())
        request_name.set("first")
        first = pool.submit(lambda: (request_name.get(), threading.current_thread().name))
        request_name.set("second")
        second = pool.submit(request_name.get)
        failing = pool.submit(lambda: 1 / 0)
        stopping = pool.submit(lambda: next(iter(())))
        values: list[object] = [await first, await second]
        with pytest.raises(ZeroDivisionError):
            await failing
        with pytest.raises(RuntimeError, match="StopIteration"):
            await stopping
        pool.close()
        return values

    assert run(main) == [("first", THREAD_NAME), "second"]


def test_a_blocking_job_holds_only_its_own_thread() -> None:
    release = threading.Event()

    async def main() -> list[int]:
        pool = WarmPool(asyncio.get_running_loop())
        blocked = pool.submit(release.wait)
        await asyncio.sleep(0)  # the blocking job is handed over, and taken
        quick = [pool.submit(functools.partial(square, n)) for n in range(5)]
        values = [await future for future in quick]  # while the first job still blocks
        assert not blocked.done()
        release.set()
        assert await blocked is True
        pool.close()
        return values

    assert run(main) == [0, 1, 4, 9, 16]


def test_many_blocking_jobs_run_side_by_side() -> None:
    parties = 8
    barrier = threading.Barrier(parties, timeout=GUARD)

    async def main() -> list[int]:
        pool = WarmPool(asyncio.get_running_loop())
        futures = [pool.submit(barrier.wait) for _ in range(parties)]  # none ends alone
        indices = [await future for future in futures]
        pool.close()
        return sorted(indices)

    assert run(main) == list(range(parties))


def test_a_job_cancelled_before_it_started_never_runs() -> None:
    ran = threading.Event()

    async def main() -> None:
        pool = WarmPool(asyncio.get_running_loop())
        future = pool.submit(ran.set)
        future.cancel()  # in the turn it was submitted: not handed over yet
        await pool.submit(lambda: None)  # after it in the queue: it was skipped by then
        pool.close()

    run(main)
    assert not ran.is_set()


def test_a_job_reaches_the_loop_with_anyio_from_thread_and_no_token() -> None:
    async def main() -> tuple[int, int]:
        loop_thread = threading.get_ident()
        pool = WarmPool(asyncio.get_running_loop(), anyio.lowlevel.current_token())

        def on_loop() -> int:
            return threading.get_ident()

        def job() -> tuple[int, int]:
            anyio.from_thread.check_cancelled()  # a job is not cancellable from here
            return anyio.from_thread.run_sync(on_loop), threading.get_ident()

        reached, ran_in = await pool.submit(job)
        pool.close()
        assert ran_in != loop_thread
        return reached, loop_thread

    reached, loop_thread = run(main)
    assert reached == loop_thread


def test_idle_threads_end_and_a_closed_pool_keeps_none(monkeypatch: pytest.MonkeyPatch) -> None:
    from objmcp.model.calling import warmpool

    monkeypatch.setattr(warmpool, "IDLE_EXIT", 0.05)

    async def main() -> tuple[int, int]:
        pool = WarmPool(asyncio.get_running_loop())
        await pool.submit(lambda: None)
        busy = pool.threads
        while pool.threads:  # the idle one ends by itself
            await asyncio.sleep(0.01)
        await pool.submit(lambda: None)  # a new one is started for new work
        again = pool.threads
        pool.close()
        while pool.threads:
            await asyncio.sleep(0.01)
        return busy, again

    assert run(main) == (1, 1)


def test_the_thread_runner_runs_sync_jobs_in_the_pool_of_each_loop() -> None:
    runner = ThreadRunner()

    async def names() -> str:
        return await runner.run(lambda: threading.current_thread().name)

    first = anyio.run(names, backend="asyncio")
    second = anyio.run(names, backend="asyncio")  # a new loop: a new pool, the old one ends
    runner.stop()
    assert first == second == THREAD_NAME


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["value", "raise", "block"]), min_size=1, max_size=12))
def test_any_mix_of_jobs_each_gets_its_own_outcome(kinds: list[str]) -> None:
    release = threading.Event()

    def job(index: int, kind: str) -> int:
        if kind == "raise":
            raise ValueError(index)
        if kind == "block":
            release.wait(GUARD)
        return index

    async def main() -> list[object]:
        pool = WarmPool(asyncio.get_running_loop())
        futures = [pool.submit(functools.partial(job, i, k)) for i, k in enumerate(kinds)]
        outcomes: list[object] = []
        for index, future in enumerate(futures):
            if kinds[index] == "block":
                release.set()  # the quick ones before it were answered while it blocked
            try:
                outcomes.append(await future)
            except ValueError as error:
                outcomes.append(("raised", error.args[0]))
        pool.close()
        return outcomes

    expected = [("raised", i) if k == "raise" else i for i, k in enumerate(kinds)]
    assert run(main) == expected
