"""The house has four layers and imports point downward only (DESIGN.md)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "objmcp"
OBJECT_MODEL = {
    "_elicit",
    "_sampling",
    "_publish",
    "_resources",
    "_prompts",
    "_media",
    "_specs",
    "_tool",
    "_threads",
    "_introspect",
    "_typing",
    "_schema",
    "_convert",
    "_validate",
    "_quickcheck",
    "_content",
    "_json",
    "_inject",
    "_tools",
    "_exceptions",
}
PROTOCOL = {"_jsonrpc", "_limits", "_revisions", "_session", "_state", "_subscriptions"}
TRANSPORT = {"_framing", "_stdio"}
ENTRY = {
    "__init__",
    "_asgi",
    "_streams",
    "__main__",
    "_server",
    "_connection",
    "_reader",
    "_running",
    "_cli",
    "testing",
    "_testclient",
    "_targets",
    "_listing",
    "_client",
    "_prompt",
    "_clientconfig",
    "_reload",
}


def imported_siblings(module: str) -> set[str]:
    """The objmcp modules that ``module`` imports, at any depth of its code."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("objmcp."):
            found.add((node.module or "").split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("objmcp."))
    return found


def test_every_module_has_a_layer() -> None:
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    assert modules == OBJECT_MODEL | PROTOCOL | TRANSPORT | ENTRY


def test_the_object_model_knows_no_protocol_and_no_transport() -> None:
    for module in OBJECT_MODEL:
        assert not imported_siblings(module) & (PROTOCOL | TRANSPORT | ENTRY), module


def test_the_protocol_knows_no_transport() -> None:
    for module in PROTOCOL:
        assert not imported_siblings(module) & (TRANSPORT | ENTRY), module


def test_the_transport_knows_no_protocol_and_no_tools() -> None:
    allowed = {"_exceptions"} | TRANSPORT
    for module in TRANSPORT:
        assert imported_siblings(module) <= allowed, module


def test_import_objmcp_loads_neither_the_command_line_nor_heavy_dependencies() -> None:
    import subprocess
    import sys

    code = (
        "import sys, objmcp; "
        "print(sorted(m for m in sys.modules if m.startswith(('objmcp._cli', 'objmcp._http', "
        "'jsonschema', 'docstring_parser', 'pydantic', 'mcp'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"
