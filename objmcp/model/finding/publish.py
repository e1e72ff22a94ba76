"""How an author says how a callable is published: ``@objmcp.tool(...)``,
``@objmcp.hidden``, or the same as data (``tools={"method": {...}}``) for code
that cannot be edited.

The decorators only mark the function (an attribute), so the object stays as
it was for every other use; :func:`options_for` reads the mark and merges the
data given for the same name over it.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, overload

from ..._exceptions import TargetError
from ..calling.headers import header_name_problem

__all__ = [
    "PromptOptions",
    "ResourceOptions",
    "ToolOptions",
    "hidden",
    "options_for",
    "prompt",
    "resource",
    "role_of",
    "tool",
]

F = TypeVar("F", bound=Callable[..., Any])

MARK = "__objmcp_tool__"

NEEDS = ("elicitation", "elicitation.url", "sampling", "roots")
"""What a tool may say it will ask the client for (``ToolOptions.needs``)."""

_TASK_MODES = ("never", "optional", "always")

_HINTS = {
    "read_only": "readOnlyHint",
    "destructive": "destructiveHint",
    "idempotent": "idempotentHint",
    "open_world": "openWorldHint",
}


@dataclass(frozen=True)
class ToolOptions:
    """How one callable is published; ``None`` leaves a field to objmcp.

    ``name``, ``title`` and ``description`` replace what objmcp would use (the
    callable's name, nothing, its docstring); ``read_only``, ``destructive``,
    ``idempotent`` and ``open_world`` are MCP's tool annotations (hints for the
    client); ``structured=False`` sends no ``outputSchema``/``structuredContent``
    (``True`` insists on them); ``icons`` are MCP ``Icon`` objects
    (``{"src": ..., "mimeType": ..., "sizes": [...]}``); ``hidden`` publishes
    nothing; ``needs`` names what the tool will ask the client for
    (``"elicitation"``, ``"elicitation.url"``, ``"sampling"``, ``"roots"``), so that a
    2026-07-28 client that did not declare it is refused before the method runs;
    ``scopes`` are the OAuth scopes a caller's token must grant to see and call the tool
    over HTTP (a caller without them is refused 403 and does not see it listed; on
    stdio, and over HTTP with no token asked, there is no caller and they do not apply);
    ``meta`` is the tool's ``_meta`` in ``tools/list`` (MCP Apps' ``{"ui": {"resourceUri":
    ...}}``, a vendor's keys), in the revisions whose ``Tool`` has one (2025-06-18 on);
    ``input_schema`` and ``output_schema`` replace the schemas objmcp would build from the
    signature and the return annotation with hand-written JSON Schemas (2020-12),
    published and checked exactly as given (:mod:`objmcp.model.describe.handwritten`);
    ``headers`` maps parameters to the names of the ``Mcp-Param-*`` headers an HTTP client
    mirrors them into (``{"region": "Region"}``: ``x-mcp-header`` in the input schema);
    ``task`` says when a 2026-07-28 call to it is answered as a task (``"never"``;
    ``"optional"``: at once, to a client with the tasks extension; ``"always"``: the same,
    and a client without it is refused -32021; None: once it runs past ``task_after``),
    and in 2025-11-25 its ``execution.taskSupport`` (``"never"``: forbidden, ``"always"``:
    required, else optional).
    """

    name: str | None = None
    title: str | None = None
    description: str | None = None
    read_only: bool | None = None
    destructive: bool | None = None
    idempotent: bool | None = None
    open_world: bool | None = None
    structured: bool | None = None
    icons: tuple[Mapping[str, Any], ...] | None = None
    hidden: bool = False
    needs: tuple[str, ...] | None = None
    meta: Mapping[str, Any] | None = None
    scopes: tuple[str, ...] | None = None
    input_schema: Mapping[str, Any] | None = None
    output_schema: Mapping[str, Any] | None = None
    headers: Mapping[str, str] | None = None
    task: str | None = None

    def __post_init__(self) -> None:
        for key in ("name", "title", "description"):
            value = getattr(self, key)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"the tool option {key} must be a string, not {value!r}")
        for key in (*_HINTS, "structured", "hidden"):
            value = getattr(self, key)
            if value is not None and not isinstance(value, bool):
                raise TypeError(f"the tool option {key} must be True or False, not {value!r}")
        if self.meta is not None:
            object.__setattr__(self, "meta", checked_meta(self.meta, "the tool option meta"))
        for key in ("input_schema", "output_schema"):
            value = getattr(self, key)
            if value is not None:
                if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
                    raise TypeError(f"the tool option {key} must be a JSON Schema (a mapping)")
                object.__setattr__(self, key, copy.deepcopy(dict(value)))
        if self.headers is not None:
            if not isinstance(self.headers, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in self.headers.items()
            ):
                raise TypeError(
                    "the tool option headers maps parameter names to header names "
                    '({"region": "Region"})'
                )
            for header in self.headers.values():
                problem = header_name_problem(header)
                if problem is not None:
                    raise TypeError(f"the tool option headers: {problem}")
            object.__setattr__(self, "headers", dict(self.headers))
        if self.task is not None and self.task not in _TASK_MODES:
            raise TypeError(
                f"the tool option task takes 'never', 'optional' or 'always', not {self.task!r}"
            )
        if self.needs is not None:
            if isinstance(self.needs, str) or not isinstance(self.needs, Sequence):
                raise TypeError("the tool option needs must be a list of names")
            unknown = [need for need in self.needs if need not in NEEDS]
            if unknown:
                raise TypeError(
                    f"the tool option needs takes {', '.join(map(repr, NEEDS))}, not {unknown[0]!r}"
                )
            object.__setattr__(self, "needs", tuple(self.needs))
        if self.scopes is not None:
            if isinstance(self.scopes, str) or not isinstance(self.scopes, Sequence):
                raise TypeError("the tool option scopes must be a list of scope names")
            if not all(isinstance(s, str) and s and " " not in s for s in self.scopes):
                raise TypeError("each scope must be a non-empty string without spaces")
            object.__setattr__(self, "scopes", tuple(self.scopes))
        if self.icons is not None:
            if isinstance(self.icons, (str, Mapping)) or not isinstance(self.icons, Sequence):
                raise TypeError("the tool option icons must be a list of Icon objects")
            if not all(
                isinstance(i, Mapping) and isinstance(i.get("src"), str) for i in self.icons
            ):
                raise TypeError('each icon must be a mapping with a string "src"')
            object.__setattr__(self, "icons", tuple(dict(icon) for icon in self.icons))

    def over(self, base: ToolOptions) -> ToolOptions:
        """These options, falling back on ``base`` where they say nothing."""
        changes = {
            field.name: getattr(self, field.name)
            for field in dataclasses.fields(self)
            if getattr(self, field.name) is not None
        }
        changes["hidden"] = self.hidden or base.hidden
        return dataclasses.replace(base, **changes)

    def annotations(self) -> dict[str, Any]:
        """MCP's ``ToolAnnotations`` these options give (empty when they give none)."""
        found: dict[str, Any] = {}
        if self.title is not None:
            found["title"] = self.title
        for key, hint in _HINTS.items():
            value = getattr(self, key)
            if value is not None:
                found[hint] = value
        return found


@overload
def tool(function: F, /) -> F: ...


@overload
def tool(
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    read_only: bool | None = None,
    destructive: bool | None = None,
    idempotent: bool | None = None,
    open_world: bool | None = None,
    structured: bool | None = None,
    icons: Sequence[Mapping[str, Any]] | None = None,
    needs: Sequence[str] | None = None,
    scopes: Sequence[str] | None = None,
    meta: Mapping[str, Any] | None = None,
    input_schema: Mapping[str, Any] | None = None,
    output_schema: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    task: str | None = None,
) -> Callable[[F], F]: ...


def tool(function: Any = None, /, **options: Any) -> Any:
    """Say how a method (or function) is published, as ``@objmcp.tool`` or
    ``@objmcp.tool(title="Add a note", read_only=False, ...)``; the options are
    those of :class:`ToolOptions`. The function itself is returned unchanged,
    marked."""
    if "hidden" in options:
        raise TypeError("use @objmcp.hidden to hide a tool")
    chosen = ToolOptions(**options)

    def mark(target: F) -> F:
        return _mark(target, chosen)

    return mark(function) if function is not None else mark


def hidden(function: F) -> F:
    """Publish nothing for this method, though it is public."""
    return _mark(function, ToolOptions(hidden=True))


def _mark(function: F, options: ToolOptions) -> F:
    return _mark_as(function, MARK, options)


def options_for(
    name: str, function: object, given: Mapping[str, ToolOptions | Mapping[str, Any]] | None
) -> ToolOptions:
    """How the member ``name`` is published: its mark, with what ``given`` says of it
    over that."""
    marked = getattr(function, MARK, None)
    options = marked if isinstance(marked, ToolOptions) else ToolOptions()
    extra = (given or {}).get(name)
    if extra is None:
        return options
    if isinstance(extra, Mapping):
        try:
            extra = ToolOptions(**extra)
        except TypeError as error:
            raise TargetError(f"tools={{{name!r}: ...}}: {error}") from None
    if not isinstance(extra, ToolOptions):
        raise TargetError(f"tools={{{name!r}: ...}} must be a mapping of tool options")
    return extra.over(options)


@dataclass(eq=False)
class ResourceOptions:
    """How a method is published as a resource: ``uri`` (with ``{variables}`` for a
    template, filled from the method's parameters), what clients show of it,
    ``cache``: how long (ms) and by whom (``"public"`` or ``"private"``) its reads
    may be cached, in the revisions that say so, and ``meta``: its ``_meta`` in
    ``resources/list`` or ``resources/templates/list`` (2025-06-18 on)."""

    uri: str
    name: str | None = None
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    cache: tuple[int, Literal["public", "private"]] | None = None
    meta: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        for key in ("uri", "name", "title", "description", "mime_type"):
            value = getattr(self, key)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"the resource option {key} must be a string, not {value!r}")
        if self.cache is not None:
            check_cache_hint(self.cache, f"the cache of resource {self.uri!r}")
        if self.meta is not None:
            self.meta = checked_meta(self.meta, "the resource option meta")


@dataclass(eq=False)
class PromptOptions:
    """How a method is published as a prompt: its name, title and description (the
    method's name and docstring when not given), per argument, a function that
    completes what the user has typed (``complete={"topic": lambda typed: [...]}``),
    and ``meta``: its ``_meta`` in ``prompts/list`` (2025-06-18 on)."""

    name: str | None = None
    title: str | None = None
    description: str | None = None
    complete: Mapping[str, Callable[[str], Sequence[str]]] | None = None
    meta: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        for key in ("name", "title", "description"):
            value = getattr(self, key)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"the prompt option {key} must be a string, not {value!r}")
        if self.complete is not None and not all(callable(f) for f in self.complete.values()):
            raise TypeError("complete= maps argument names to functions")
        if self.meta is not None:
            self.meta = checked_meta(self.meta, "the prompt option meta")


RESOURCE_MARK = "__objmcp_resource__"
PROMPT_MARK = "__objmcp_prompt__"


def resource(
    uri: str,
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    mime_type: str | None = None,
    cache: tuple[int, Literal["public", "private"]] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> Callable[[F], F]:
    """Publish a method as a resource (not a tool): ``@objmcp.resource("notes://{id}")``.

    With ``{variables}`` in ``uri`` it is a template whose variables are the method's
    parameters (converted to their types); without, a resource read by calling the
    method with no arguments. What the method returns is the resource's content: a
    ``str`` as text, ``bytes`` as a blob, an :class:`~objmcp.File` as it says,
    anything else as JSON. ``cache=(60_000, "public")`` lets clients of the revisions
    with caching hints keep a read for a minute and share it; ``meta`` is its ``_meta``
    in the lists (2025-06-18 on).
    """
    chosen = ResourceOptions(uri, name, title, description, mime_type, cache, meta)

    def mark(target: F) -> F:
        return _mark_as(target, RESOURCE_MARK, chosen)

    return mark


@overload
def prompt(function: F, /) -> F: ...


@overload
def prompt(
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    complete: Mapping[str, Callable[[str], Sequence[str]]] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> Callable[[F], F]: ...


def prompt(function: Any = None, /, **options: Any) -> Any:
    """Publish a method as a prompt (not a tool), as ``@objmcp.prompt`` or
    ``@objmcp.prompt(title=..., complete={...})``: its parameters are the prompt's
    arguments; it returns a string (one user message) or a list of messages (strings,
    ``{"role": ..., "content": ...}`` dicts, or media such as :class:`~objmcp.Image`)."""
    chosen = PromptOptions(**options)

    def mark(target: F) -> F:
        return _mark_as(target, PROMPT_MARK, chosen)

    return mark(function) if function is not None else mark


def checked_meta(meta: object, what: str) -> dict[str, Any]:
    """A copy of ``meta``, an MCP ``_meta`` object; TypeError unless it is a mapping with
    string keys."""
    if not isinstance(meta, Mapping) or not all(isinstance(key, str) for key in meta):
        raise TypeError(f"{what} must be a mapping with string keys, not {meta!r}")
    return dict(meta)


def check_cache_hint(hint: object, what: str) -> None:
    """Raise ValueError unless ``hint`` is ``(ttl_ms, "public" | "private")``."""
    if not (
        isinstance(hint, tuple)
        and len(hint) == 2
        and isinstance(hint[0], int)
        and not isinstance(hint[0], bool)
        and hint[0] >= 0
        and hint[1] in ("public", "private")
    ):
        raise ValueError(
            f"{what} must be (milliseconds, 'public' or 'private'), such as "
            f"(60_000, 'private'), not {hint!r}"
        )


def _mark_as(function: F, attribute: str, options: object) -> F:
    inner = function.__func__ if isinstance(function, (staticmethod, classmethod)) else function
    try:
        setattr(inner, attribute, options)
    except (AttributeError, TypeError):
        raise TypeError(
            f"{function!r} cannot be marked (it takes no attributes); give the options "
            "as data instead (tools=, resources= or prompts=)"
        ) from None
    return function


def role_of(
    name: str,
    function: object,
    resources: Mapping[str, str | ResourceOptions | Mapping[str, Any]] | None,
    prompts: Mapping[str, PromptOptions | Mapping[str, Any]] | Sequence[str] | None,
) -> ResourceOptions | PromptOptions | None:
    """What the member ``name`` is published as when it is not a tool: a resource, a
    prompt (by its mark, or by the data given for its name), or None (a tool)."""
    given_resource = (resources or {}).get(name)
    if given_resource is not None:
        if isinstance(given_resource, str):
            return ResourceOptions(given_resource)
        if isinstance(given_resource, Mapping):
            try:
                return ResourceOptions(**given_resource)
            except TypeError as error:
                raise TargetError(f"resources={{{name!r}: ...}}: {error}") from None
        return given_resource
    if prompts is not None and not isinstance(prompts, Mapping):
        if name in prompts:
            return PromptOptions()
    elif prompts is not None and name in prompts:
        given_prompt = prompts[name]
        if isinstance(given_prompt, Mapping):
            try:
                return PromptOptions(**given_prompt)
            except TypeError as error:
                raise TargetError(f"prompts={{{name!r}: ...}}: {error}") from None
        return given_prompt
    for attribute in (RESOURCE_MARK, PROMPT_MARK):
        marked = getattr(function, attribute, None)
        if isinstance(marked, (ResourceOptions, PromptOptions)):
            return marked
    return None
