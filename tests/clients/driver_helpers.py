"""What the drivers of ``tests/clients`` share: exceptions as data, steps and the runs that
record them.

Each driver runs under ``.venv-clients/bin/python -P`` (its folder not heading ``sys.path``,
so that no file here shadows a package) and puts its own folder last on ``sys.path`` to import
this module. The report a driver prints is ``{"client", "transport", "steps": {name:
outcome}}``: an outcome is what the step observed or, when it raised, ``{"error": {"type",
"message", "code"}}``; a failing step never stops the run.

- ``SessionRun``: steps run in sessions (``sdk1.py``, ``langchain_adapters.py``); when a step
  ends its session, the next ones run in a new session, except a step that checks the session
  survived (``follows``), reported as not run.
- ``StepRun``: steps that are coroutines of their own (``openai_agents.py``,
  ``pydantic_ai_toolset.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import anyio

STEP_TIMEOUT = 30.0  # a generous bound on one step, so a dead session cannot hang the run
Outcome = dict[str, Any]
L = TypeVar("L")  # what a step runs over: a session, or a session with what was loaded on it


def leaf_of(exc: BaseException) -> BaseException:
    """The first leaf of an exception group, as anyio task groups wrap them; ``exc`` if it is
    not a group."""
    group = getattr(exc, "exceptions", None)  # BaseExceptionGroup, Python 3.11+
    while group:
        exc = group[0]
        group = getattr(exc, "exceptions", None)
    return exc


def error_of(exc: BaseException) -> Outcome:
    """An exception as data: its type, message and JSON-RPC code, if it has one (of the first
    leaf of an exception group)."""
    exc = leaf_of(exc)
    error = getattr(exc, "error", None)
    return {"type": type(exc).__name__, "message": str(exc), "code": getattr(error, "code", None)}


def not_run(why: str) -> Outcome:
    return {"error": {"type": "NotRun", "message": why, "code": None}}


@dataclass
class Step(Generic[L]):
    """One step: its name, what it does in a session, and whether it checks that the session
    the step before it used is still alive (then it is not run in a new one)."""

    name: str
    action: Callable[[L], Awaitable[Outcome]]
    follows: bool = False


class SessionGivenUp(Exception):
    """A step timed out: the session is left, the next steps get a new one."""


class SessionRun(Generic[L]):
    """The report being written: each step's outcome, by name."""

    def __init__(self) -> None:
        self.steps: dict[str, Outcome] = {}

    async def sessions(
        self,
        label: str,
        connect: Callable[[], AbstractAsyncContextManager[L]],
        steps: list[Step[L]],
    ) -> None:
        """Run ``steps`` in a session, opening a new one whenever a step ended the last."""
        pending = list(steps)
        ended: list[Outcome] = []  # the sessions that ended under a step, and how
        closed = False
        while pending:
            in_flight: list[str] = []
            opened = False
            try:
                async with connect() as link:
                    opened = True
                    fresh = True
                    while pending:
                        step = pending.pop(0)
                        if step.follows and fresh and ended:
                            self.steps[step.name] = not_run(
                                f"the session it checks ended at {ended[-1]['step']!r}"
                            )
                            continue
                        in_flight[:] = [step.name]
                        await self.step(step, link)
                        in_flight.clear()
                        fresh = False
            except Exception as exc:
                closed = False
                where = in_flight[0] if in_flight else None
                if where is not None and where not in self.steps:
                    self.steps[where] = {"error": error_of(exc)}
                ended.append({"step": where, **error_of(exc)})
                if not opened:  # no session at all: the rest cannot run
                    for step in pending:
                        self.steps[step.name] = not_run(f"no session: {error_of(exc)}")
                    break
            else:
                closed = True
        self.steps[f"{label}.session"] = {"closed": closed, "ended": ended}

    async def step(self, step: Step[L], link: L) -> None:
        """Run one step and record what it observed, or how it failed."""
        try:
            with anyio.fail_after(STEP_TIMEOUT):
                self.steps[step.name] = await step.action(link)
        except TimeoutError as exc:
            self.steps[step.name] = {"error": error_of(exc)}
            raise SessionGivenUp(f"{step.name} timed out") from exc
        except Exception as exc:
            self.steps[step.name] = {"error": error_of(exc)}


class StepRun:
    """The report being written: each step's outcome, by name (a step that raised: its
    exception as ``errors`` gives it as data)."""

    def __init__(self, errors: Callable[[BaseException], Outcome] = error_of) -> None:
        self.steps: dict[str, Outcome] = {}
        self.errors = errors

    async def step(self, name: str, action: Callable[[], Awaitable[Outcome]]) -> None:
        """Run one step and record what it observed, or how it failed."""
        try:
            self.steps[name] = await asyncio.wait_for(action(), STEP_TIMEOUT)
        except Exception as exc:
            self.steps[name] = {"error": self.errors(exc)}
