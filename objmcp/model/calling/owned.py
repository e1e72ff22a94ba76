"""The session's or caller's own object a call runs on (``per="session"`` or ``"caller"``).

:class:`OwnObjects` makes each object with the factory where the sync calls run, keeps them
in an :class:`~objmcp.model.calling.per.Objects` (closed as served objects are,
:mod:`objmcp.model.calling.closing`), and lends a call its object with the published
tool, resource or prompt rebound to it: the tools come from the class's shape
(:func:`~objmcp.model.calling.per.shape_of`), whose methods are never called.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, TypeVar

from ..finding.collect import Found
from ..finding.prompts import Prompt
from ..finding.resources import Resource
from .caller import Caller
from .closing import close_logged
from .per import Objects, Per, factory_of, rebinder, shape_of
from .threads import Place, ThreadRunner
from .tool import Tool

__all__ = ["OwnObjects"]

T = TypeVar("T")


class OwnObjects:
    """The objects of each session or caller made from ``target`` (a class, or a function
    annotated with the class it makes), and the way a call runs on its own.

    ``threads`` is where the sync calls run, the objects are made and sync closing runs;
    ``max_objects`` and ``idle`` as for :class:`~objmcp.model.calling.per.Objects`."""

    def __init__(
        self,
        per: Per,
        target: object,
        threads: ThreadRunner,
        *,
        max_objects: int,
        idle: float | None,
    ) -> None:
        factory = factory_of(target)
        self.shape = shape_of(factory.cls)
        """What the tools are found in: the class's shape, never made, never called."""
        self._threads = threads
        self.objects = Objects(
            per, factory, make=self._make, close=self._close, max_objects=max_objects, idle=idle
        )
        """The objects of each session or caller."""
        self._binders: dict[int, Callable[[object], Any]] = {}  # by the published's id
        self._shaped: list[Tool | Resource | Prompt] = []

    def bind(self, found: Found) -> None:
        """Take what was ``found`` in :attr:`shape`: each method of it is rebound to the
        object of a call, and the shape is no owner to close."""
        found.owners.pop(id(self.shape), None)  # never made, never closed
        published_all: list[Tool | Resource | Prompt] = [
            *found.tools.values(),
            *found.resources.values(),
            *found.prompts.values(),
        ]
        for published in published_all:
            binder = rebinder(published.function, self.shape)
            if binder is not None:
                self._binders[id(published)] = binder
        self._shaped = published_all  # kept alive: no other's id is ever one of these

    def rebinds(self, published: Tool | Resource | Prompt) -> bool:
        """Whether ``published`` runs on the object of each call (a method of the shape)."""
        return id(published) in self._binders

    @contextlib.asynccontextmanager
    async def lease(
        self, published: T, injected: Mapping[object, object] | None
    ) -> AsyncIterator[tuple[T, Place]]:
        """``published`` bound to the object of the call given ``injected``, used while the
        block runs, and the place of the call's sync job: a job abandoned in its thread
        keeps the object from being closed until it ends. Raises
        :class:`~objmcp.model.calling.per.ObjectUnavailable` when there is none."""
        objects = self.objects
        state = Place()
        async with objects.lease(injected) as live:
            state.on_abandoned_end = objects.releaser(live)
            try:
                yield live.rebound(published, self._binders), state
            finally:
                if state.abandoned:  # its thread runs on: the object is closed after it
                    live.running += 1

    async def _make(self, caller: Caller | None) -> object:
        """A new object of the factory, for ``caller``: made where the sync calls run."""
        factory = self.objects.factory
        made = await self._threads.run(lambda: factory(caller))
        while inspect.isawaitable(made):  # an async factory
            made = await made
        return made

    async def _close(self, owner: object) -> None:
        await close_logged(owner, self._threads)
