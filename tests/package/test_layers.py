"""The layers are folders, and imports point downward only, with no cycle anywhere.

The contract, as the package docstrings state it (``objmcp/<layer>/__init__.py``):

- ``objmcp._exceptions``: the exception tree, imported from every layer; imports nothing.
- ``model/``: Python objects, signatures, schemas, conversion; no protocol, no I/O.
- ``transport/``: bytes, frames and file descriptors; no MCP, no tools.
- ``protocol/``: the sans-IO MCP session; the object model below it.
- ``serving/``: runs the session over a transport (stdio, the reader's fast lane,
  HTTP); everything below it, nothing of the modules above.
- the top: ``__init__``, ``_server``, ``_options``, ``_bounds``, ``_http``, ``testing`` and its
  ``_test*`` modules, ``_import_guard``, ``_startline``: wiring.
- ``cli/``: the command line, over everything but ``__main__``.

Every import counts: at module level, inside functions, and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "objmcp"
TOP = {
    "objmcp",
    "objmcp._server",
    "objmcp._http",
    "objmcp._options",
    "objmcp._bounds",
    "objmcp.testing",
    "objmcp._testclient",
    "objmcp._testanswers",
    "objmcp._testparams",
    "objmcp._testsync",
    "objmcp._testwire",
    "objmcp._import_guard",
    "objmcp._startline",
}
MAY_IMPORT = {
    "_exceptions": set(),
    "model": {"model", "_exceptions"},
    "transport": {"transport", "_exceptions"},
    "protocol": {"protocol", "model", "_exceptions"},
    "serving": {"serving", "transport", "protocol", "model", "_exceptions"},
    "top": {"top", "serving", "transport", "protocol", "model", "_exceptions"},
    "cli": {"cli", "top", "serving", "transport", "protocol", "model", "_exceptions"},
    "__main__": {"cli"},
}


def module_names() -> dict[str, Path]:
    """Every module of the package, by dotted name (a package by its own name)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["objmcp", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = module_names()


def layer_of(module: str) -> str:
    if module in TOP:
        return "top"
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "top"


def imports_of(module: str) -> set[str]:
    """The package's modules that ``module`` imports, anywhere in its code."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            if not origin.startswith("objmcp"):
                continue
            for alias in node.names:
                inner = f"{origin}.{alias.name}"
                found.add(inner if inner in MODULES else origin)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("objmcp"))
    unknown = found - set(MODULES)
    assert not unknown, f"{module} imports modules that do not exist: {unknown}"
    return found - {module}


GRAPH = {module: imports_of(module) for module in MODULES}


def test_every_module_is_in_a_layer() -> None:
    for module in MODULES:
        assert layer_of(module) in MAY_IMPORT, f"{module} is in no layer"
    for layer in ("model", "transport", "protocol", "serving", "cli"):
        doc = ast.get_docstring(ast.parse((PACKAGE / layer / "__init__.py").read_text()))
        assert doc and "may import" in doc, f"objmcp/{layer}/__init__.py says what it may import"


def test_imports_point_downward_only() -> None:
    wrong = [
        f"{module} ({layer_of(module)}) imports {target} ({layer_of(target)})"
        for module, targets in GRAPH.items()
        for target in targets
        if layer_of(target) not in MAY_IMPORT[layer_of(module)] and target != "objmcp"
    ]
    # ``objmcp`` itself (for ``__version__``) only from the top and the command line
    wrong += [
        f"{module} imports objmcp"
        for module, targets in GRAPH.items()
        if "objmcp" in targets and layer_of(module) not in ("top", "cli")
    ]
    assert not wrong, "\n".join(wrong)


def test_there_is_no_import_cycle() -> None:
    state: dict[str, str] = {}
    trail: list[str] = []

    def visit(module: str) -> None:
        state[module] = "open"
        trail.append(module)
        for target in sorted(GRAPH[module]):
            if state.get(target) == "open":
                cycle = [*trail[trail.index(target) :], target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        trail.pop()
        state[module] = "done"

    for module in sorted(GRAPH):
        if module not in state:
            visit(module)


def test_a_cycle_is_found_when_there_is_one() -> None:
    """The cycle check itself, on a graph with one (so that it could fail)."""
    saved = dict(GRAPH)
    GRAPH["objmcp.model.calling.tool"] = {
        *GRAPH["objmcp.model.calling.tool"],
        "objmcp.model.calling.toolbox",
    }
    try:
        test_there_is_no_import_cycle()
    except AssertionError as error:
        assert "objmcp.model.calling.tool" in str(error)
    else:
        raise AssertionError("the cycle tool -> toolbox -> tool was not found")
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def test_import_objmcp_loads_neither_the_command_line_nor_heavy_dependencies() -> None:
    code = (
        "import sys, objmcp; "
        "print(sorted(m for m in sys.modules if m.startswith(('objmcp.cli', 'objmcp.serving', "
        "'objmcp.protocol', 'jsonschema', 'docstring_parser', 'pydantic', 'mcp'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"


def test_no_two_test_modules_share_a_name() -> None:
    """pytest imports test modules by their base name (the folders have no ``__init__``), so
    two ``test_x.py`` in different folders break any run that collects both."""
    from collections import Counter

    tests = Path(__file__).resolve().parents[1]
    names = Counter(
        path.name for path in tests.rglob("test_*.py") if "node_modules" not in path.parts
    )
    assert [name for name, count in names.items() if count > 1] == []
