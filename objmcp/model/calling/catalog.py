"""What a toolbox publishes: its tools, resources and prompts, by name, and what changes them.

A :class:`Catalog` holds what :func:`~objmcp.model.finding.collect.collect` found in every
target a :class:`~objmcp.Toolbox` serves: the tools, resources and prompts, the objects
that own them (closed at the end), the callables withheld as dangerous and those served
although they are. Adding a target's, removing a name and withholding what only a
process of one caller may serve replace its dicts rather than mutate them, under a lock:
a reader on another thread keeps iterating the one it took. Nothing here calls a member.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping

from ..._exceptions import TargetError, UnknownToolError
from ..describe.specs import api_name
from ..finding.collect import Found
from ..finding.danger import effects_line, withheld_line
from ..finding.prompts import Prompt
from ..finding.resources import Resource
from .tool import Tool

__all__ = ["Catalog"]

logger = logging.getLogger("objmcp")


class Catalog:
    """The tools, resources and prompts a toolbox publishes, and what it left out.

    ``shared_process`` says callers share this process (over HTTP): tools that change a
    process-wide setting are then withheld unless named. Every change counts in
    :attr:`generation`."""

    def __init__(self, shared_process: bool = False) -> None:
        self.tools: Mapping[str, Tool] = {}
        """The tools, by name."""
        self.resources: Mapping[str, Resource] = {}
        """The resources and resource templates, by URI (template)."""
        self.prompts: Mapping[str, Prompt] = {}
        """The prompts, by name."""
        self.owners: Mapping[int, object] = {}
        """The objects whose methods are published, by id: closed with the toolbox."""
        self.generation = 0
        """How many times a change was made to what is published."""
        self.withheld: Mapping[str, str] = {}
        """Callables left out because they are dangerous and nobody named them (with
        ``include=``, by the exact name): why, by tool name."""
        self.dangers: Mapping[str, str] = {}
        """Tools served although they do something dangerous (named, or changing a
        process-wide setting where no other caller shares the process): why, by name."""
        self.shared_process = shared_process
        """Whether callers share this process: tools that change a process-wide setting
        are then withheld unless named (:meth:`serve_shared`)."""
        self._unnamed: frozenset[str] = frozenset()  # of dangers: withheld once shared
        self._api_names: dict[str, str] | None = None
        self._lock = threading.Lock()

    def merge(self, found: Found) -> None:
        """Publish what ``found`` holds too, as it is made (no change is counted, no lock
        taken); raises :class:`TargetError`, adding nothing, when a name or URI is taken."""
        for kind, new, old in (
            ("tool", found.tools, self.tools),
            ("resource", found.resources, self.resources),
            ("prompt", found.prompts, self.prompts),
        ):
            taken = sorted(set(new) & set(old))
            if taken:
                raise TargetError(f"There is already a {kind} {taken[0]!r}")
        self.tools = {**self.tools, **found.tools}
        self.resources = {**self.resources, **found.resources}
        self.prompts = {**self.prompts, **found.prompts}
        self.owners = {**self.owners, **found.owners}
        self._api_names = None
        if found.withheld:
            self.withheld = {**self.withheld, **found.withheld}
            logger.warning("%s", withheld_line(found.withheld))
        if found.dangers:
            served = {name: danger.reason for name, danger in found.dangers.items()}
            self.dangers = {**self.dangers, **served}
            self._unnamed = self._unnamed | found.unnamed
            logger.warning("%s", effects_line(served))
        for name, why in found.uncallable.items():
            logger.warning("tool %r left out: %s", name, why)

    def add(self, found: Found) -> None:
        """:meth:`merge` ``found``, a change counted. Safe to call from any thread."""
        with self._lock:
            self.merge(found)
            self.generation += 1

    def serve_shared(self) -> tuple[str, ...]:
        """Callers share this process from now on: withhold the tools served only because
        none did; returns their names. Safe to call from any thread."""
        with self._lock:
            self.shared_process = True
            names = tuple(name for name in self.tools if name in self._unnamed)
            if not names:
                return ()
            moved = {name: self.dangers[name] for name in names}
            self.tools = {key: value for key, value in self.tools.items() if key not in moved}
            self.dangers = {key: value for key, value in self.dangers.items() if key not in moved}
            self.withheld = {**self.withheld, **moved}
            self._api_names = None
            self.generation += 1
        logger.warning("%s", withheld_line(moved))
        return names

    def remove(self, name: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        """Stop publishing what is called ``name``; returns the tool names, resource URIs
        (templates) and prompt names removed. Raises :class:`KeyError` when nothing has
        that name. Safe to call from any thread."""
        with self._lock:
            removed = (
                (name,) if name in self.tools else (),
                (name,) if name in self.resources else (),
                (name,) if name in self.prompts else (),
            )
            if not any(removed):
                raise KeyError(f"nothing published is called {name!r}")
            self.tools = {key: value for key, value in self.tools.items() if key != name}
            self.dangers = {key: value for key, value in self.dangers.items() if key != name}
            self.resources = {k: v for k, v in self.resources.items() if k != name}
            self.prompts = {key: value for key, value in self.prompts.items() if key != name}
            self._api_names = None
            self.generation += 1
        return removed

    def by_api_name(self, name: str) -> Tool:
        """The tool :func:`~objmcp.model.describe.specs.api_name` names ``name`` (the name
        an LLM API was given for it); raises :class:`UnknownToolError`."""
        if self._api_names is None:
            self._api_names = {api_name(tool): tool for tool in self.tools}
        try:
            return self.tools[self._api_names[name]]
        except (KeyError, TypeError):
            raise UnknownToolError(str(name)) from None

    def find_resource(self, uri: str) -> tuple[Resource, dict[str, str]] | None:
        """The resource ``uri`` names (a static one first, then templates in order), and
        its variables' values; None when it names none."""
        static = self.resources.get(uri)
        if static is not None and not static.is_template:
            return static, {}
        for resource in self.resources.values():
            values = resource.match(uri)
            if values is not None and resource.is_template:
                return resource, values
        return None
