"""Interoperability: the OpenAI Agents SDK (``openai-agents`` 0.24, ``agents.mcp``) against objmcp.

The SDK cannot be imported here (it lives in ``.venv-clients``, with the ``mcp`` 1.x SDK it is
built on), so the driver ``tests/clients/openai_agents.py`` runs under
``.venv-clients/bin/python``. It connects ``MCPServerStdio`` (spawning ``objmcp run``) or
``MCPServerStreamableHttp`` (to ``objmcp run --http`` started here) to
``tests/servers/clients.py:Desk``; lists and calls the tools; runs every tool's input schema
through the SDK's strict-mode converter (``ensure_strict_json_schema``) and its MCP-to-FunctionTool
conversion with ``convert_schemas_to_strict=True``, which silently falls back to a non-strict tool
when the converter refuses a schema; and runs a whole agent offline, a ``ScriptedModel`` asking
for the calls a strict-mode model would write. A module fixture runs the driver once per
transport; each test checks one behaviour in its report, so a failure names the client, the
transport and the behaviour.

A sweep (issue 21) runs both strict conversions on every tool of every test fixture
(``tests/servers/*.py``, ``examples/notes.py``), in one more driver run and no server: the tool
definitions are made here, with ``Toolbox(...).specs("mcp")``, and handed to the driver in a
file. Every tool must convert strictly but those whose schema cannot be strict, by the rule of
:func:`why_not_strict`; they are listed, each with its reason, in ``CANNOT_BE_STRICT``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from conftest import ROOT
from peer_helpers import CLIENTS, TOOLS, Report, drive, served_report, step

import objmcp
from objmcp.cli.targets import load_target
from objmcp.protocol.session import Session

DRIVER = CLIENTS / "openai_agents.py"
TRANSPORTS = ["stdio", "http"]

# Every object a test fixture serves tools from, by TARGET (relative to ROOT), with the arguments
# its class needs (lab.py's Lab installs Gadgets, each with a label, while it is served; its
# Annex has no tools). A fixture file not here is in NOT_SWEPT, with the reason.
FIXTURES: dict[str, tuple[str, ...]] = {
    "tests/servers/afternoon.py:Afternoon": (),
    "tests/servers/asker.py:Asker": (),
    "tests/servers/atlas.py:Atlas": (),
    "tests/servers/chores.py:Chores": (),
    "tests/servers/clients.py:Desk": (),
    "tests/servers/clients.py:Library": (),
    "tests/servers/clients.py:Frontdesk": (),
    "tests/servers/clients.py:Sketchpad": (),
    "tests/servers/conformance.py:Conformance": (),
    "tests/servers/endless.py:Endless": (),
    "tests/servers/errands.py:Errands": (),
    "tests/servers/faulty.py:Faulty": (),
    "tests/servers/forms.py:Forms": (),
    "tests/servers/jobs.py:Jobs": (),
    "tests/servers/lab.py:Lab": (),
    "tests/servers/lab.py:Gadget": ("gadget",),
    "tests/servers/lanes.py:Lanes": (),
    "tests/servers/per_notes.py:Notes": (),
    "tests/servers/library.py:Library": ("tests",),
    "tests/servers/late.py:Late": (),
    "tests/servers/ledger.py:Ledger": (),
    "tests/servers/loaded.py:Loaded": (),
    "tests/servers/shelf.py:Shelf": (),
    "tests/servers/stdin_readers.py:StdinReaders": (),
    "tests/servers/slip.py:Adder": (),
    "tests/servers/varied.py:Varied": (),
    "tests/servers/watched.py:Watched": (),
    "tests/servers/vault.py:Vault": (),
    "tests/servers/workers.py:Workers": (),
    "tests/servers/zoo.py:Zoo": (),
    "tests/servers/pools.py:Pools": (),
    "tests/servers/bounded.py:Bounded": (),
    "tests/servers/reading.py:Reading": (),
    "tests/servers/kinds.py:Kinds": (),
    "tests/servers/stubbed.py:Ledger": (),
    "tests/servers/tallies.py:Tallies": (),
    "tests/servers/bulleted.py:Bulleted": (),
    "tests/servers/compiled.py:Session": (),
    "tests/servers/solver.py:Solver": (),
    "tests/servers/exporting.py:Exporting": (),
    "tests/servers/spoken.py:Spoken": (),
    "tests/servers/letters.py:Letters": (),
    "tests/servers/counts.py:Counts": (),
    "tests/servers/measures.py:Measures": (),
    "examples/notes.py:Notes": (),
}
NOT_SWEPT = {
    "tests/servers/code_tools.py": "served in code mode (issue 44), its tools called from "
    "execute's code",
    "tests/servers/boxed_script.py": "serves itself boxed from its __main__, with the folder "
    "it may read as its argument",
    "tests/servers/boxed_front.py": "served boxed behind a front over HTTP (issue 43): its "
    "tools wait to be cancelled and end their own process",
    "tests/servers/flat_options.py": "not a server: the fixtures' flat options as records",
    "tests/servers/innocent.py": (
        "a module served whole for what the danger rules withhold (issue 38); its served "
        "tools take plain strings and numbers, as the swept fixtures' do"
    ),
    "tests/servers/asgi_zoo.py": "zoo.py's Zoo as an ASGI app: the Zoo's tools",
    "tests/servers/oauth_zoo.py": "zoo.py's Zoo behind OAuth: the Zoo's tools",
    "tests/servers/commons.py": "Commons needs the hook and the app its __main__ makes",
    "tests/servers/habits.py": "a module served whole (the sweep takes classes); hold waits "
    "for release, a call of another",
    "tests/servers/makers.py": "a module served whole (the sweep takes classes): its classes "
    "as tools that make one",
    "tests/servers/buffers.py": "a module served whole (the sweep takes classes): types read "
    "from bytes-like hints, descriptions and a C function's stub",
    "tests/servers/arrays.py": "a module served whole (the sweep takes classes): numpy's "
    "array classes as parameters, and a union with Any",
    "tests/servers/bound_streams.py": "a module served whole (the sweep takes classes): "
    "answers written to a stream kept at import",
    "tests/servers/boxed.py": "a module served whole (the sweep takes classes), in the "
    "sandbox's box: tools that try what the box refuses (files, programs, the network)",
}

# The tools whose schema cannot be strict (the rule is why_not_strict's), each with its reason.
CANNOT_BE_STRICT: dict[tuple[str, str], str] = {
    ("tests/servers/conformance.py:Conformance", "json_schema_2020_12_tool"): (
        "composed: the suite's hand-written schema, allOf and if/then/else at its root"
    ),
    ("tests/servers/forms.py:Forms", "json_schema_2020_12_tool"): (
        "composed: the suite's hand-written schema, allOf and if/then/else at its root"
    ),
    ("tests/servers/zoo.py:Zoo", "options"): (
        "open: **extra: int takes any keyword (additionalProperties: {type: integer})"
    ),
    ("tests/servers/varied.py:Varied", "gather"): (
        "open: **options: float takes any keyword (additionalProperties: {type: number})"
    ),
    ("tests/servers/varied.py:Varied", "containers"): (
        "open: weights: dict[str, float] is a mapping, any key"
    ),
    ("tests/servers/varied.py:Varied", "nested"): (
        "open: index, lookup and counts are mappings (dict[str, list[Point]], dict[int, Color], "
        "Mapping[Color, int])"
    ),
    ("tests/servers/kinds.py:Kinds", "raws"): "open: named: dict[str, str] is a mapping, any key",
    ("tests/servers/varied.py:Varied", "tree"): (
        "recursive: Tree's children are Trees, so objmcp keeps $defs.Tree and refers to it by a "
        "bare $ref, which MCPUtil refuses ('a reference whose target was not validated')"
    ),
}

# What the SDK says, in part, when it refuses a schema for one reason or the other: an open
# object (ensure_strict_json_schema, or MCPUtil's check of an object without properties), or a
# bare $ref (MCPUtil's check).
BARE_REF = "a reference whose target was not validated for strict mode"
REFUSALS = {
    "open": (
        "additionalProperties should not be set for object types",
        "permits undeclared properties",
    ),
    "free": ("permits undeclared properties",),
    "recursive": (BARE_REF,),
    # ensure_strict_json_schema refuses the root's composition; MCPUtil its $ref first
    "composed": (
        "The root of a strict JSON schema must not use",
        "reference whose target was not validated for strict mode",
    ),
}
# The label of a control in the sweep: Sketchpad.shift written with bare $refs.
CONTROL = "control: Sketchpad.shift with bare $refs"


@pytest.fixture(scope="module", params=TRANSPORTS)
def report(request: pytest.FixtureRequest) -> Iterator[Report]:
    """The driver's report over one transport (the HTTP server lives as long as the run)."""
    with served_report(DRIVER, request.param) as found:
        yield found


def called(report: Report, name: str) -> tuple[str, bool]:
    """A tool step's text and isError."""
    outcome = step(report, name)
    return outcome["text"], outcome["isError"]


def closed_objects(schema: Any) -> Iterator[dict[str, Any]]:
    """Every object schema inside ``schema`` (properties, items, anyOf), itself included."""
    if not isinstance(schema, dict):
        return
    if schema.get("type") == "object" or "properties" in schema:
        yield schema
    for child in schema.get("properties", {}).values():
        yield from closed_objects(child)
    yield from closed_objects(schema.get("items"))
    for variant in schema.get("anyOf", []):
        yield from closed_objects(variant)


@contextmanager
def left_as_found() -> Iterator[None]:
    """Undo what loading fixture modules does to this process: the folders they put first on
    ``sys.path``, and slip.py's planted bugs (importing it replaces methods of objmcp's
    ``Session``: it is meant to run as a server of its own)."""
    path = list(sys.path)
    methods = dict(vars(Session))
    try:
        yield
    finally:
        sys.path[:] = path
        for name in set(vars(Session)) - set(methods):
            delattr(Session, name)
        for name, value in methods.items():
            if vars(Session).get(name) is not value:
                setattr(Session, name, value)


@pytest.fixture(scope="module")
def fixture_tools() -> dict[str, list[dict[str, Any]]]:
    """Every fixture's tools, as ``tools/list`` serves them, by TARGET."""
    tools: dict[str, list[dict[str, Any]]] = {}
    with left_as_found():
        for target, arguments in FIXTURES.items():
            served = load_target(str(ROOT / target))
            if arguments:
                assert isinstance(served, type), target
                served = served(*arguments)
            tools[target] = objmcp.Toolbox(served).specs("mcp")
    return tools


def with_bare_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (Sketchpad.shift's) as objmcp wrote it before it wrote named types in
    place: each property that is a titled type a bare ``$ref`` to it in ``$defs``."""
    properties = schema["properties"]
    defs = {body["title"]: body for body in properties.values()}
    return {
        **schema,
        "properties": {
            name: {"$ref": f"#/$defs/{body['title']}"} for name, body in properties.items()
        },
        "$defs": defs,
    }


@pytest.fixture(scope="module")
def sweep(
    fixture_tools: dict[str, list[dict[str, Any]]], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, Any]]:
    """The driver's strict conversions of every fixture tool, by TARGET then tool name; and,
    under ``CONTROL``, Sketchpad.shift with bare ``$ref``s."""
    (shift,) = fixture_tools["tests/servers/clients.py:Sketchpad"]
    control = {**shift, "inputSchema": with_bare_refs(shift["inputSchema"])}
    path = tmp_path_factory.mktemp("strict") / "tools.json"
    path.write_text(json.dumps({**fixture_tools, CONTROL: [control]}), encoding="utf-8")
    report = drive(DRIVER, "strict", str(path))
    assert report["mode"] == "strict", report
    converted: dict[str, dict[str, Any]] = report["tools"]
    return converted


def subschemas(schema: Any) -> Iterator[dict[str, Any]]:
    """``schema`` and every schema in it, ``$defs`` included."""
    if not isinstance(schema, dict):
        return
    yield schema
    for key in ("properties", "$defs", "patternProperties"):
        for child in schema.get(key, {}).values():
            yield from subschemas(child)
    for key in ("items", "additionalProperties", "propertyNames", "not"):
        yield from subschemas(schema.get(key))
    for key in ("prefixItems", "anyOf", "oneOf", "allOf"):
        for child in schema.get(key, []):
            yield from subschemas(child)


def is_object(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` describes JSON objects (alone or among other types)."""
    kind = schema.get("type")
    return (
        kind == "object"
        or (isinstance(kind, list) and "object" in kind)
        or ("properties" in schema or "additionalProperties" in schema)
    )


def why_not_strict(schema: dict[str, Any]) -> str | None:
    """The rule: why an input schema cannot be strict, or None if it can. Strict mode needs
    every object closed (``additionalProperties: false``), each of its names listed and
    required, and nothing left to resolve that the converter has not checked.

    ``"open"``: an object in it says it admits names it does not list (``additionalProperties``
    set and not ``false``: a mapping such as ``dict[str, float]``, or ``**kwargs``). No strict
    schema accepts what it does; ``ensure_strict_json_schema`` and ``MCPUtil`` both refuse it.

    ``"free"``: an object in it lists no names and does not close itself (a bare ``dict``).
    Closed, it would accept ``{}`` alone: ``ensure_strict_json_schema`` closes it all the same,
    ``MCPUtil`` refuses it. (No fixture has one.)

    ``"composed"``: its root composes schemas (``allOf``, ``anyOf``, ``oneOf``,
    ``if``/``then``/``else``), as only a hand-written schema does: strict mode wants a plain
    object at the root, and both conversions refuse it.

    ``"recursive"``: it keeps ``$defs``, which objmcp does only for a recursive type, reached by
    a bare ``$ref`` (written out in place, it would never end). OpenAI's strict mode allows such
    a reference, and ``ensure_strict_json_schema`` keeps it, but ``MCPUtil`` refuses any
    ``$ref`` left in a schema (its ``_reject_open_objects`` check).

    An object that lists its names and says nothing of others (a pydantic model that ignores
    extra keys, as varied.py's ``Person``) can be strict: strict mode closes it, which loses
    only keys the model would drop.
    """
    if any(key in schema for key in ("allOf", "anyOf", "oneOf", "if")):
        return "composed"
    objects = [node for node in subschemas(schema) if is_object(node)]
    if any(node.get("additionalProperties", False) is not False for node in objects):
        return "open"
    if any("additionalProperties" not in node and not node.get("properties") for node in objects):
        return "free"
    if "$defs" in schema:
        return "recursive"
    return None


def swept(sweep: dict[str, dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Each fixture tool's two conversions, by (TARGET, name), the control left out; failing
    with the errors of the tools the driver could not read, if any."""
    outcomes = {
        (target, name): outcome
        for target, tools in sweep.items()
        if target != CONTROL
        for name, outcome in tools.items()
    }
    unread = {key: outcome["error"] for key, outcome in outcomes.items() if "error" in outcome}
    assert unread == {}, f"the driver could not read these tools: {unread}"
    return outcomes


def test_the_handshake_negotiates_the_latest_revision_of_its_sdk(report: Report) -> None:
    connected = step(report, "connect")
    assert connected["protocolVersion"] == "2025-11-25"  # the newest mcp 1.30 knows
    assert connected["serverInfo"]["name"] == "Desk"


def test_lists_every_tool(report: Report) -> None:
    tools = step(report, "list_tools")
    assert set(tools["names"]) == TOOLS
    for name in TOOLS:
        assert tools["schemas"][name]["type"] == "object", name


def test_calls_a_tool(report: Report) -> None:
    assert called(report, "add") == ("5", False)
    assert step(report, "add")["structured"] == {"result": 5}


def test_passes_a_float_an_int_for_a_float_and_a_bool(report: Report) -> None:
    assert called(report, "scale") == ("4.5 exactly", False)


def test_passes_a_list(report: Report) -> None:
    assert called(report, "tag_list") == ("memo: a, b", False)


def test_leaves_out_an_optional_list(report: Report) -> None:
    assert called(report, "tag_none") == ("memo: untagged", False)


def test_null_for_an_optional_list_is_its_default(report: Report) -> None:
    # What a strict-mode model sends for an optional parameter it does not set.
    assert called(report, "tag_null") == ("memo: untagged", False)


def test_a_list_written_as_a_json_string_is_accepted(report: Report) -> None:
    assert called(report, "tag_json_string") == ("memo: a, b", False)


def test_passes_an_object_for_a_dataclass(report: Report) -> None:
    assert called(report, "place") == ("(1, 2)", False)


def test_an_object_written_as_a_json_string_is_accepted(report: Report) -> None:
    assert called(report, "place_json_string") == ("(1, 2)", False)


def test_passes_an_enum_value(report: Report) -> None:
    assert called(report, "paint") == ("painted red", False)


def test_passes_a_list_to_an_untyped_parameter(report: Report) -> None:
    assert called(report, "median") == ("2", False)


def test_an_exception_is_an_error_result(report: Report) -> None:
    assert called(report, "fail") == ("ValueError: boom", True)


def test_an_unknown_tool_is_a_protocol_error_and_the_session_goes_on(report: Report) -> None:
    error = report["steps"]["unknown_tool"].get("error")
    assert error is not None, f"an unknown tool was answered: {report['steps']['unknown_tool']}"
    assert (error["type"], error["code"]) == ("McpError", -32602)
    assert "no_such_tool" in error["message"]
    assert called(report, "after_unknown_tool") == ("2", False)


def test_a_server_without_documents_lists_none_and_the_session_goes_on(report: Report) -> None:
    assert step(report, "desk_lists") == {"resources": [], "templates": [], "prompts": []}
    assert called(report, "after_desk_lists") == ("4", False)


def test_every_input_schema_converts_to_strict_mode(report: Report) -> None:
    strict = step(report, "strict_schemas")
    assert set(strict) == TOOLS
    refused = {name: outcome["failure"] for name, outcome in strict.items() if not outcome["ok"]}
    assert refused == {}, f"ensure_strict_json_schema refused: {refused}"


def test_the_strict_schemas_are_closed_and_written_out_in_place(report: Report) -> None:
    for name, outcome in step(report, "strict_schemas").items():
        schema = outcome["schema"]
        text = json.dumps(schema)
        assert "$ref" not in text and "$defs" not in text, name
        for inner in closed_objects(schema):
            assert inner["additionalProperties"] is False, (name, inner)
            assert sorted(inner["required"]) == sorted(inner.get("properties", {})), (name, inner)


def test_strict_mode_keeps_an_optional_list_nullable(report: Report) -> None:
    tags = step(report, "strict_schemas")["tag"]["schema"]["properties"]["tags"]
    assert {"type": "null"} in tags["anyOf"]
    assert {"type": "array", "items": {"type": "string"}} in tags["anyOf"]


def test_strict_mode_keeps_the_dataclass_and_the_enum(report: Report) -> None:
    strict = step(report, "strict_schemas")
    point = strict["place"]["schema"]["properties"]["point"]
    assert point["type"] == "object"
    assert set(point["properties"]) == {"x", "y"}
    color = strict["paint"]["schema"]["properties"]["color"]
    assert (color["type"], color["enum"]) == ("string", ["red", "green"])


def test_every_mcp_tool_becomes_a_strict_function_tool(report: Report) -> None:
    converted = step(report, "function_tools")
    assert set(converted) == TOOLS
    fallen_back = {name: tool["fallback"] for name, tool in converted.items() if not tool["strict"]}
    assert fallen_back == {}, f"MCPUtil fell back to non-strict tools: {fallen_back}"
    strict = step(report, "strict_schemas")
    for name, tool in converted.items():
        assert tool["schema"] == strict[name]["schema"], name


def test_an_agent_run_calls_the_tools_through_objmcp(report: Report) -> None:
    run = step(report, "agent_run")
    assert run["final_output"] == "done"
    texts = {call: output["text"] for call, output in run["outputs"].items()}
    assert texts == {
        "call_add": "5",
        "call_scale": "4.5 exactly",
        "call_tag": "memo: a, b",
        "call_tag_null": "memo: untagged",
        "call_place": "(1, 2)",
        "call_paint": "painted red",
        "call_median": "2",
        "call_fail": "ValueError: boom",
    }


def test_the_agent_offers_every_tool_to_the_model_as_strict(report: Report) -> None:
    assert step(report, "agent_run")["offered"] == dict.fromkeys(sorted(TOOLS), True)


def test_an_error_result_reaches_the_model_as_its_text(report: Report) -> None:
    # The SDK hands the model the content of a result with isError as it does any other: the
    # error's text is all that tells it the call failed.
    output = step(report, "agent_run")["outputs"]["call_fail"]
    assert output == {"type": "text", "text": "ValueError: boom"}


def test_the_session_closes_cleanly(report: Report) -> None:
    assert step(report, "cleanup") == {"closed": True}


def test_the_sweep_covers_every_fixture(
    fixture_tools: dict[str, list[dict[str, Any]]], sweep: dict[str, dict[str, Any]]
) -> None:
    files = {target.rpartition(":")[0] for target in FIXTURES}
    servers = {
        path.relative_to(ROOT).as_posix() for path in (ROOT / "tests" / "servers").glob("*.py")
    }
    assert files | set(NOT_SWEPT) == servers | {"examples/notes.py"}
    assert all(fixture_tools.values()), {
        target: len(tools) for target, tools in fixture_tools.items()
    }
    expected = {(target, tool["name"]) for target, tools in fixture_tools.items() for tool in tools}
    assert set(swept(sweep)) == expected


def test_the_tools_that_cannot_be_strict_are_those_the_rule_finds(
    fixture_tools: dict[str, list[dict[str, Any]]],
) -> None:
    found = {
        (target, tool["name"]): reason
        for target, tools in fixture_tools.items()
        for tool in tools
        if (reason := why_not_strict(tool["inputSchema"])) is not None
    }
    listed = {key: reason.partition(":")[0] for key, reason in CANNOT_BE_STRICT.items()}
    assert found == listed


def test_ensure_strict_json_schema_converts_every_fixture_tool_that_can_be_strict(
    sweep: dict[str, dict[str, Any]],
) -> None:
    """Every fixture tool but the open and the composed ones (see :func:`why_not_strict`): the
    SDK's converter closes a free object, and keeps a recursive type's ``$defs`` and bare
    ``$ref``s."""
    refused = {
        key: outcome["ensure_strict"]["failure"]["message"]
        for key, outcome in swept(sweep).items()
        if not outcome["ensure_strict"]["ok"]
    }
    refusing = {
        key: reason.partition(":")[0]
        for key, reason in CANNOT_BE_STRICT.items()
        if reason.startswith(("open:", "composed:"))
    }
    unexpected = {key: message for key, message in refused.items() if key not in refusing}
    assert unexpected == {}, f"refused, though the rule says they can be strict: {unexpected}"
    assert set(refusing) <= set(refused), f"accepted: {sorted(set(refusing) - set(refused))}"
    for key, message in refused.items():
        assert any(part in message for part in REFUSALS[refusing[key]]), (key, message)


def test_every_fixture_tool_that_can_be_strict_becomes_a_strict_function_tool(
    sweep: dict[str, dict[str, Any]],
) -> None:
    """``MCPUtil.to_function_tool(..., convert_schemas_to_strict=True)`` makes every fixture
    tool strict but those of ``CANNOT_BE_STRICT`` (the rule is :func:`why_not_strict`'s), which
    fall back to non-strict tools, for the reason the rule gives."""
    fallen_back = {
        key: outcome["function_tool"]["fallback"]
        for key, outcome in swept(sweep).items()
        if not outcome["function_tool"]["strict"]
    }
    unexpected = {key: logged for key, logged in fallen_back.items() if key not in CANNOT_BE_STRICT}
    assert unexpected == {}, f"non-strict, though the rule says they can be strict: {unexpected}"
    strict = set(CANNOT_BE_STRICT) - set(fallen_back)
    assert not strict, f"strict, though listed as impossible: {sorted(strict)}"
    for key, logged in fallen_back.items():
        kind = CANNOT_BE_STRICT[key].partition(":")[0]
        assert len(logged) == 1 and any(part in logged[0] for part in REFUSALS[kind]), (key, logged)


def test_a_named_type_without_descriptions_is_written_out_and_made_strict(
    sweep: dict[str, dict[str, Any]],
) -> None:
    """Sketchpad.shift takes two Points and has no Args section: its properties are the
    Point itself, twice, and the tool is strict. Written as bare ``$ref``s (as objmcp did
    before it wrote named types in place), MCPUtil would fall back to a non-strict tool."""
    shift = sweep["tests/servers/clients.py:Sketchpad"]["shift"]["function_tool"]
    assert shift["strict"], shift["fallback"]
    assert "$ref" not in json.dumps(shift["schema"])
    for name in ("point", "by"):
        point = shift["schema"]["properties"][name]
        assert (point["type"], sorted(point["required"])) == ("object", ["x", "y"]), name
        assert point["additionalProperties"] is False, name
    control = sweep[CONTROL]["shift"]["function_tool"]
    assert not control["strict"]
    assert any(BARE_REF in message for message in control["fallback"])
