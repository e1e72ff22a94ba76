"""What a target publishes: its tools, resources and prompts, made and named.

:func:`collect` takes the members :mod:`objmcp.model.finding.introspect` finds in a
target, gives each its role (:mod:`objmcp.model.finding.publish`: a tool, a resource
or a prompt), makes it a :class:`~objmcp.Tool`, a resource or a prompt, and
refuses what MCP does not allow: a tool name it forbids, two members under one
name (but a module's function wins the name of its class), options that describe
no member. A callable known or found to be dangerous
(:mod:`objmcp.model.finding.danger`) is withheld unless the user names it (a change to a
process-wide setting only where callers share the process), and a tool's
name, or what it is found to do, gives its annotations' defaults.
:class:`~objmcp.Toolbox` merges what it finds into what it publishes; nothing here
calls a member.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._exceptions import TargetError
from ..calling.tool import Tool, make_tool
from ..describe.paramtypes import Uncarried
from . import introspect
from .danger import Danger, danger_of, inferred_hints
from .prompts import Prompt, make_prompt
from .publish import MARK, PromptOptions, ResourceOptions, ToolOptions, options_for, role_of
from .resources import Resource, make_resource

__all__ = ["Found", "collect"]

TOOL_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,128}")


@dataclass(eq=False)
class Found:
    """What one target publishes."""

    tools: dict[str, Tool] = field(default_factory=dict)
    resources: dict[str, Resource] = field(default_factory=dict)
    prompts: dict[str, Prompt] = field(default_factory=dict)
    owners: dict[int, object] = field(default_factory=dict)
    withheld: dict[str, str] = field(default_factory=dict)
    """Tools left out because they are dangerous and nobody named them: why, by name."""
    dangers: dict[str, Danger] = field(default_factory=dict)
    """Tools served although they do something dangerous (named, or a process-wide
    setting where no other caller shares the process), by name."""
    unnamed: set[str] = field(default_factory=set)
    """Which of :attr:`dangers` nobody named (withheld once callers share the process)."""
    uncallable: dict[str, str] = field(default_factory=dict)
    """Tools left out because no JSON arguments can call them: why, by name."""


def collect(
    target: object,
    include: Collection[str] | str | None,
    exclude: Collection[str] | str | None,
    tools: Mapping[str, ToolOptions | Mapping[str, Any]] | None,
    resources: Mapping[str, str | ResourceOptions | Mapping[str, Any]] | None,
    prompts: Mapping[str, PromptOptions | Mapping[str, Any]] | Sequence[str] | None,
    lenient: bool,
    shared: bool = False,
) -> Found:
    """The tools, resources and prompts ``target`` publishes, for a process that callers
    share (``shared``) or not; raises :class:`TargetError`."""
    include = [include] if isinstance(include, str) else include
    exclude = [exclude] if isinstance(exclude, str) else exclude
    described = {*(tools or ()), *(resources or ()), *(prompts or ())}
    found = Found()
    classes: set[str] = set()  # tools that make a module's class: a function wins their name
    for member in introspect.discover(target):
        described.discard(member.name)
        if member.owner is not None:
            found.owners.setdefault(id(member.owner), member.owner)
        role = role_of(member.name, member.function, resources, prompts)
        if isinstance(role, ResourceOptions):
            resource = make_resource(member.name, member.function, role)
            _put(found.resources, resource.uri, resource, "resource")
            continue
        if isinstance(role, PromptOptions):
            prompt = make_prompt(member.name, member.function, role)
            _put(found.prompts, prompt.name, prompt, "prompt")
            continue
        options = options_for(member.name, member.function, tools)
        name = options.name or member.name
        if options.hidden or not _selected({name, member.name}, include, exclude):
            continue
        named = bool({name, member.name} & {*(include or ()), *(tools or ())}) or _marked(
            member.function
        )
        danger = danger_of(member.function)
        if danger is not None and not named and (danger.effect.everywhere or shared):
            found.withheld[name] = danger.reason
            continue
        read_only, destructive = inferred_hints(name)
        if danger is not None:
            read_only, destructive = False, danger.effect.destructive or bool(destructive)
        options = options.over(ToolOptions(read_only=read_only, destructive=destructive))
        if not TOOL_NAME.fullmatch(name):
            raise TargetError(
                f"{name!r} is not a valid MCP tool name: use 1 to 128 characters "
                "among A-Z, a-z, 0-9, '_', '-' and '.' (rename it with "
                "tools={...: {'name': ...}}, or leave it out with exclude=)"
            )
        if member.maker and name in found.tools:
            continue  # a function has its name
        if name in classes:  # a function wins the name of a class
            del found.tools[name]
            found.dangers.pop(name, None)
            found.unnamed.discard(name)
            classes.discard(name)
        if name in found.tools:
            raise TargetError(
                f"Two callables would both be the tool '{name}': rename one, or "
                "leave one out with exclude="
            )
        try:
            tool = make_tool(name, member.function, options, lenient=lenient)
            if member.maker and not named and not _says_what_it_takes(tool):
                continue  # a class whose making nothing types: noise to a model
            found.tools[name] = tool
            if danger is not None:
                found.dangers[name] = danger
                if not named:
                    found.unnamed.add(name)
            if member.maker:
                classes.add(name)
        except Uncarried as error:
            if named or not member.maker:  # a class JSON cannot make: no fault, unless named
                found.uncallable[name] = str(error)
    if described:
        raise TargetError(
            f"tools=, resources= or prompts= describe "
            f"{', '.join(map(repr, sorted(described)))}, which the target does not "
            f"have; its tools are: {', '.join(found.tools) or 'none'}"
        )
    return found


def _marked(function: object) -> bool:
    """Whether the author marked ``function`` a tool (``@objmcp.tool``): named, as
    ``tools={...}`` names it."""
    return isinstance(getattr(function, MARK, None), ToolOptions)


def _says_what_it_takes(tool: Tool) -> bool:
    """Whether every parameter a model must give ``tool`` (a class's maker) has a type the
    library wrote: an annotation, a stub or its docstring."""
    required = set(tool.input_schema.get("required", ()))
    return all(p.type_from is not None for p in tool.parameters if p.name in required)


def _put(found: dict[str, Any], key: str, published: object, kind: str) -> None:
    if key in found:
        raise TargetError(f"Two methods would both be the {kind} {key!r}")
    found[key] = published


def _selected(
    names: set[str], include: Collection[str] | None, exclude: Collection[str] | None
) -> bool:
    """Whether a tool known by ``names`` (its own, and its published one) is served."""

    def matches(patterns: Collection[str]) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for name in names for p in patterns)

    if include is not None and not matches(include):
        return False
    return not (exclude is not None and matches(exclude))
