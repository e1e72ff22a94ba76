"""Progressive discovery: a whole library behind three meta-tools.

A target with hundreds of tools costs a model tens of thousands of tokens of schemas
on every turn, and a worse choice among them. In ``"search"`` mode (or ``"auto"``,
above a threshold) what is listed is three tools instead:

- ``search_tools(query, limit=10)``: the best matches (:mod:`objmcp.model.discovery.search`),
  each tool's name, its description's first line and its parameters in brief; a
  query may name a class or a submodule for all of its tools;
- ``describe_tools(names)``: the full definitions (input schema, description) of
  the tools named;
- ``call_tool(name, arguments)``: a call of the tool named, which
  :meth:`Discovery.resolve` turns into that very call before anything runs, so it is
  validated, converted, injected and answered exactly as a direct call is.

What each costs is bounded: a query of :data:`MAX_QUERY` characters, :data:`MAX_NAMES`
names described at once (a tool error beyond either), names looked up in an index made
once per change of the tools; ``call_tool``'s arguments sent as JSON text are read
before the call only up to :data:`MAX_CALL_TEXT` characters and ``max_values`` values.

Their descriptions say what the library is (``about``: the server's instructions,
the target's docstring's first lines), so that a model knows when to search. Every
real tool stays callable by its name. :class:`Discovery` holds the meta-tools and
the index, rebuilt when what is published changes, at the first search after.
"""

from __future__ import annotations

import inspect
import json
import threading
import types
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from ..._exceptions import ToolError
from ..calling.caller import Caller
from ..calling.tool import Tool
from ..describe.specs import api_name, mcp_tool
from ..values.jsoncount import DEFAULT_MAX_VALUES, values_over
from .metanames import MAX_NAMES, check_names, free_names, meta_tools
from .search import SearchIndex

if TYPE_CHECKING:
    from .codemode import CodeMode

__all__ = [
    "DEFAULT_THRESHOLD",
    "MAX_CALL_TEXT",
    "MAX_LIMIT",
    "MAX_NAMES",
    "MAX_QUERY",
    "Discovery",
    "DiscoveryMode",
    "about_target",
    "brief",
    "check_mode",
]

DiscoveryMode = Literal["off", "search", "auto", "code"]
DEFAULT_THRESHOLD = 40
"""Above this many tools ``"auto"`` searches (VS Code warns above 128; models choose
worse well before)."""
MAX_LIMIT = 100
"""The most tools one search gives."""
MAX_QUERY = 1000
"""The most characters a search's query may have (what a model asks is a line)."""
MAX_CALL_TEXT = 64 * 1024
"""The most characters of ``call_tool``'s arguments sent as JSON text that are read where
the call is resolved, on the event loop (well under a millisecond's parsing); a longer
text is refused, the arguments to be sent as an object."""


def check_mode(mode: object, threshold: object) -> None:
    """Raise ValueError for a discovery mode or threshold objmcp does not have."""
    if mode not in ("off", "search", "auto", "code"):
        raise ValueError(f"discovery must be 'off', 'search', 'auto' or 'code', not {mode!r}")
    if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 0:
        raise ValueError(f"discovery_threshold must be a whole number >= 0, not {threshold!r}")


def about_target(target: object, limit: int = 300) -> str:
    """What ``target`` is, in a few words: its name and its docstring's first lines."""
    # an instance is read through its class: its own __getattr__ is never asked
    own = isinstance(target, (types.ModuleType, type)) or inspect.isroutine(target)
    named = target if own else type(target)
    name = str(getattr(named, "__name__", "") or type(target).__name__)
    doc = named.__doc__ if not isinstance(target, Mapping) else None
    if isinstance(target, (str, int, float)) or not isinstance(doc, str):
        doc = ""
    lines = [line.strip() for line in doc.strip().splitlines()]
    said: list[str] = []
    for line in lines:
        if not line:
            if said:
                break
            continue
        if set(line) <= set("=-~*#"):
            continue  # an underline of a heading
        said.append(line)
    text = " ".join(said)
    if len(text) > limit:
        text = text[: limit - 3].rsplit(" ", 1)[0] + "..."
    return f"{name}: {text}" if text else str(name)


class Discovery:
    """The meta-tools of a toolbox's tools, and the index they search.

    ``tools`` gives the real tools as they are now and ``generation`` how many times
    they changed; ``about`` says what the library is.
    """

    def __init__(
        self,
        tools: Callable[[], Mapping[str, Tool]],
        generation: Callable[[], int],
        about: str,
        code: CodeMode | None = None,
    ) -> None:
        self._tools = tools
        self._generation = generation
        self.about = about
        """What the library is, said in the meta-tools' descriptions."""
        self.code = code
        """Code mode (``execute`` instead of ``call_tool``, and the tools said as Python),
        or None."""
        self._lock = threading.Lock()
        self._index: tuple[int, SearchIndex] | None = None
        self._meta: tuple[int, dict[str, Tool]] | None = None
        self._renamed: tuple[int, dict[str, str | None]] | None = None

    def published(self) -> Mapping[str, Tool]:
        """The real tools as published now, by name."""
        return self._tools()

    @property
    def generation(self) -> int:
        """How many times the published tools changed."""
        return self._generation()

    @property
    def index(self) -> SearchIndex:
        """The search index of the tools as published now (built at the first search, and
        again after a change)."""
        generation = self._generation()
        built = self._index
        if built is None or built[0] != generation:
            with self._lock:
                built = self._index
                if built is None or built[0] != generation:
                    built = (generation, SearchIndex(self._tools().values()))
                    self._index = built
        return built[1]

    @property
    def meta_tools(self) -> Mapping[str, Tool]:
        """``search_tools``, ``describe_tools`` and ``call_tool`` (``execute`` in code
        mode), by name (a name a real tool has is prefixed ``objmcp_``)."""
        generation = self._generation()
        made = self._meta
        if made is None or made[0] != generation:
            made = (generation, self._make_meta())
            self._meta = made
        return made[1]

    def names(self) -> tuple[str, str, str]:
        """The names of the search, describe and call meta-tools, in that order."""
        search, describe, call = self.meta_tools
        return search, describe, call

    def search(
        self, query: str, limit: int = 10, caller: Caller | None = None
    ) -> list[dict[str, Any]]:
        """The tools best matching ``query``, at most ``limit``: name, one-line
        description, parameters in brief (of those ``caller``'s scopes reach, when
        there is one)."""
        if not isinstance(query, str):
            raise ToolError(f"query must be a string, not {type(query).__name__}")
        if len(query) > MAX_QUERY:
            raise ToolError(
                f"The query has {len(query):,} characters, over the {MAX_QUERY:,} searched: "
                "say what you want done in a few words"
            )
        limit = max(1, min(int(limit), MAX_LIMIT))
        tools = self._tools()
        if caller is None:
            return [brief(tools[name]) for name in self.index.search(query, limit) if name in tools]
        found = [
            name
            for name in self.index.search(query, MAX_LIMIT)
            if name in tools and caller.allows(tools[name].scopes)
        ]
        return [brief(tools[name]) for name in found[:limit]]

    def describe(self, names: list[str], caller: Caller | None = None) -> list[dict[str, Any]]:
        """The full definitions of the tools named (as ``tools/list`` gives them), and
        for a name no tool has (or ``caller``'s scopes do not reach), a line saying so; at
        most :data:`MAX_NAMES` names (a :class:`ToolError` beyond)."""
        check_names(names)
        tools = self._tools()
        described: list[dict[str, Any]] = []
        for name in names:
            real = self.real_name(name)
            tool = tools.get(real) if real is not None else None
            if tool is not None and caller is not None and not caller.allows(tool.scopes):
                tool = None
            if tool is None:
                search = self.names()[0]
                described.append(
                    {"name": name, "unknown": f"no tool is called so: {search} finds them"}
                )
            else:
                described.append(mcp_tool(tool))
        return described

    def resolve(
        self, name: str, arguments: object, max_values: int = DEFAULT_MAX_VALUES
    ) -> tuple[str, object]:
        """The call ``name`` with ``arguments`` stands for: the tool named and its
        arguments when ``name`` is ``call_tool`` and names a real tool; else as given
        (``call_tool`` itself then says what is wrong, as for arguments sent as JSON
        text of more than :data:`MAX_CALL_TEXT` characters or ``max_values`` values)."""
        if self.code is not None or name != self.names()[2]:
            return name, arguments
        if isinstance(arguments, (str, bytes)):
            if len(arguments) > MAX_CALL_TEXT or values_over(arguments, max_values):
                return name, arguments
            try:
                arguments = json.loads(arguments)
            except ValueError:
                return name, arguments
        if not isinstance(arguments, dict) or not set(arguments) <= {"name", "arguments"}:
            return name, arguments
        inner = self.real_name(arguments.get("name"))
        if inner is None:
            return name, arguments
        return inner, arguments.get("arguments")

    def real_name(self, name: object) -> str | None:
        """The tool ``name`` stands for: itself, or the one :meth:`Toolbox.specs` renamed
        to fit an LLM API (``a.b`` as ``a_b``), when the model wrote that; else None."""
        if not isinstance(name, str):
            return None
        if name in self._tools():
            return name
        return self._api_names().get(name)

    def _api_names(self) -> dict[str, str | None]:
        """The tools by the name :meth:`Toolbox.specs` gives them, where that differs
        (None for a name two tools were given), made again after a change."""
        generation = self._generation()
        made = self._renamed
        if made is None or made[0] != generation:
            renamed: dict[str, str | None] = {}
            for tool in self._tools():
                fitted = api_name(tool)
                if fitted != tool:
                    renamed[fitted] = None if fitted in renamed else tool
            made = (generation, renamed)
            self._renamed = made
        return made[1]

    def found(self, name: str, value: object) -> list[str]:
        """The real tools the result ``value`` of the meta-tool ``name`` brought up (by a
        search or a description), for a session to list them."""
        search, describe, _ = self.names()
        if self.code is not None or name not in (search, describe) or not isinstance(value, list):
            return []  # in code mode the tools are called from code, never listed
        tools = self._tools()
        return [
            entry["name"]
            for entry in value
            if isinstance(entry, dict) and entry.get("name") in tools and "unknown" not in entry
        ]

    def _make_meta(self) -> dict[str, Tool]:
        if self.code is not None:
            return self.code.meta_tools(self)
        taken = self._tools()
        search, describe, call = free_names(taken)
        count = len(taken)
        about = self.about

        def search_tools(
            query: str, limit: int = 10, caller: Caller | None = None
        ) -> list[dict[str, Any]]:
            """Search the tools.

            Args:
                query: What you want done, in words ("median of some numbers"), or a
                    tool's name, or a class or module's name for all of its tools.
                limit: How many tools to give at most (1 to 100).
            """
            return self.search(query, limit, caller)

        def describe_tools(names: list[str], caller: Caller | None = None) -> list[dict[str, Any]]:
            """Describe tools.

            Args:
                names: The names of the tools, as search_tools gives them.
            """
            return self.describe(names, caller)

        def call_tool(name: str, arguments: dict[str, Any] | None = None) -> object:
            """Call a tool.

            Args:
                name: The tool's name, as search_tools gives it.
                arguments: The tool's arguments, as its input schema says.
            """
            raise ToolError(
                f"Unknown tool {name!r}: {search} finds the tools by what they do"
                if name not in self._tools()
                else f"{call}'s arguments for the tool {name!r} came as JSON text of more than "
                f"{MAX_CALL_TEXT:,} characters: send them as a JSON object, or call {name!r} "
                "by its name"
            )

        texts = {
            search: (
                f"Find tools of {about} ({count} tools, not listed here: search first). "
                "Gives the best matches for a query: each tool's name, what it does in one "
                "line, and its parameters (? marks an optional one). "
                f"Then call one with {call} (or by its name), after {describe} if you need "
                "its full input schema."
            ),
            describe: (
                f"The full definitions of tools of {about.split(':', 1)[0]} found with "
                f"{search}: description and input schema of each name given."
            ),
            call: (
                f"Call a tool of {about.split(':', 1)[0]} found with {search}, by its name, "
                "with its arguments as its input schema says; the result is the tool's own."
            ),
        }
        return meta_tools(
            {
                search: (search_tools, texts[search], True),
                describe: (describe_tools, texts[describe], True),
                call: (call_tool, texts[call], None),
            }
        )


def brief(tool: Tool) -> dict[str, Any]:
    """A tool in brief, as a search gives it: its name, its description's first line, and
    its parameters as ``name: type`` (``name?`` for an optional one)."""
    entry: dict[str, Any] = {"name": tool.name}
    first = (tool.description or "").strip().split("\n", 1)[0].strip()
    if first:
        entry["description"] = first
    schema = tool.input_schema
    required = set(schema.get("required", ()))
    said = []
    for key, value in schema.get("properties", {}).items():
        kind = _kind(value) if isinstance(value, dict) else "any"
        said.append(f"{key}{'' if key in required else '?'}: {kind}")
    entry["parameters"] = ", ".join(said)
    return entry


def _kind(schema: dict[str, Any]) -> str:
    """A schema's kind in a word or two: ``number``, ``array of string``, ``any``."""
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(dict.fromkeys(str(k) for k in kind))
    if kind == "array" and isinstance(schema.get("items"), dict):
        return f"array of {_kind(schema['items'])}"
    if isinstance(kind, str):
        return kind
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"][:6])
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list):  # each kind once: number | number | string is number | string
        kinds = (part for o in options if isinstance(o, dict) for part in _kind(o).split(" | "))
        return " | ".join(dict.fromkeys(kinds))
    if "properties" in schema:
        return "object"
    return "any"
