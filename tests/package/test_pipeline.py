"""A call is run in one place: the hooks, the run of a sync tool and the settling of an
outcome are reached from ``objmcp/model/calling/pipeline.py`` alone, and every runner of
calls goes through it (issue 41).

The package is read, not run: any module that imports one of those steps, or reaches it
through its module (``hooks.before(...)``), is named.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "objmcp"
PIPELINE = PACKAGE / "model" / "calling" / "pipeline.py"
STEPS = {"hooks": {"before", "after"}, "outcome": {"run_sync_tool", "settle"}}
"""The steps of a call, by the module that defines them."""
RUNNERS = {
    PACKAGE / "model" / "calling" / "toolcalls.py",  # Toolbox.call, .acall: the loop, HTTP
    PACKAGE / "serving" / "reader.py",  # the stdio fast lane
}


def reaches(path: Path) -> set[str]:
    """The steps of a call that the module at ``path`` imports or calls through its module."""
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    step_modules: dict[str, str] = {}  # a local name bound to a steps' module -> that module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            home = node.module.rpartition(".")[2]
            for alias in node.names:
                if alias.name in STEPS.get(home, ()):
                    found.add(f"{home}.{alias.name}")
                if alias.name in STEPS:
                    step_modules[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module is None:
            for alias in node.names:
                if alias.name in STEPS:
                    step_modules[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in step_modules
            and node.attr in STEPS[step_modules[node.value.id]]
        ):
            found.add(f"{step_modules[node.value.id]}.{node.attr}")
    return found


def test_the_steps_of_a_call_are_reached_from_the_pipeline_alone() -> None:
    defining = {PACKAGE / "model" / "calling" / f"{home}.py" for home in STEPS}
    elsewhere = {
        str(path.relative_to(PACKAGE)): sorted(found)
        for path in PACKAGE.rglob("*.py")
        if path != PIPELINE and path not in defining and (found := reaches(path))
    }
    assert elsewhere == {}
    assert reaches(PIPELINE) == {
        f"{home}.{step}" for home, steps in STEPS.items() for step in steps
    }


def test_every_runner_of_calls_goes_through_the_pipeline() -> None:
    for path in RUNNERS:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            node.module.rpartition(".")[2]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module is not None
        }
        assert "pipeline" in imported, path


def test_the_reading_finds_a_step_reached_outside_the_pipeline(tmp_path: Path) -> None:
    module = tmp_path / "runner.py"
    module.write_text(
        "from ..model.calling.hooks import before\n"
        "from ..model.calling import outcome as o\n"
        "def go(t):\n    return o.settle(t)\n"
    )
    assert reaches(module) == {"hooks.before", "outcome.settle"}


def test_transports_are_composed_not_inherited() -> None:
    """A connection over byte streams is one class made of an input and an output, never a
    subclass of another connection; no serving module silences an override (uvicorn's
    protocol, subclassed by the command line, is not ours)."""
    import objmcp.serving.reader
    import objmcp.serving.writer
    from objmcp.serving.byte_stream import StreamConnection

    assert objmcp.serving.reader.FdInput and objmcp.serving.writer.FdOutput
    assert StreamConnection.__subclasses__() == []
    for path in (PACKAGE / "serving").rglob("*.py"):
        assert "ignore[override]" not in path.read_text(encoding="utf-8"), path
