"""A target a toolbox serves, made and collected where its sync calls will run.

A target is served as it is, or made first when it is a :class:`MadeBy` (its factory
called on the thread the sync calls run on: the one of ``concurrency="serial"``, for
objects bound to the thread that made them); finding a class's tools makes its
instance, so what it publishes is collected there too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..finding.collect import Found
from .threads import ThreadRunner

__all__ = ["MadeBy", "made_and_collected"]


@dataclass(frozen=True)
class MadeBy:
    """A target yet to be made: the object ``factory()`` returns, made where the sync calls
    will run (on the one thread of ``concurrency="serial"``, for objects bound to the thread
    that made them). ``objmcp run module:factory()`` serves its factory so."""

    factory: Callable[[], object]


def made_and_collected(
    target: object, collecting: Callable[[object], Found], threads: ThreadRunner
) -> tuple[object, Found]:
    """The target, made if it is a :class:`MadeBy`, and what ``collecting`` finds it
    publishes; both where the sync calls run (``threads``), since finding a class's tools
    makes its instance."""

    def make_and_collect() -> tuple[object, Found]:
        made = target.factory() if isinstance(target, MadeBy) else target
        return made, collecting(made)

    return threads.run_blocking(make_and_collect)
