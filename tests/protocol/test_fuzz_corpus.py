"""Replays the fuzz target's corpus and its crash inputs through the checked round.

``tests/fuzz/target.py`` checks the framing and session layers on one input (see its
docstring); this runs it, without atheris, on every file of ``tests/fuzz/corpus`` (the
inputs fuzzing kept for their coverage) and of ``tests/fuzz/crashes`` (an input per bug
it catches: each fails until its bug is fixed).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"


def load_target() -> ModuleType:
    """The fuzz target as a module (``tests/fuzz`` is no package)."""
    spec = importlib.util.spec_from_file_location("objmcp_fuzz_target", FUZZ / "target.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


TARGET = load_target()
CORPUS = sorted((FUZZ / "corpus").iterdir())
CRASHES = sorted((FUZZ / "crashes").iterdir()) if (FUZZ / "crashes").is_dir() else []


def test_the_corpus_is_there() -> None:
    assert len(CORPUS) >= 50


@pytest.mark.parametrize("path", CORPUS, ids=[path.name[:12] for path in CORPUS])
def test_a_corpus_input_keeps_every_promise(path: Path) -> None:
    TARGET.one_input(path.read_bytes())


@pytest.mark.parametrize("path", CRASHES, ids=[path.name for path in CRASHES])
def test_a_crash_input_no_longer_breaks_a_promise(path: Path) -> None:
    TARGET.one_input(path.read_bytes())
