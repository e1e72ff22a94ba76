"""What ``objmcp call``, ``inspect`` and ``run`` say on stderr, through real processes
(issue 40): one form for a warning everywhere (``objmcp: warning: ...``), a tool's
error said once by ``call`` (its result), no start line relayed by ``call``, a class
made with no arguments as information, and a word on an annotation that cannot be
resolved only for a parameter the schema shows."""

from __future__ import annotations

import logging
import textwrap
from pathlib import Path

import pytest
from conftest import objmcp_cli as objmcp
from hypothesis import given
from hypothesis import strategies as st

from objmcp.cli.logform import LineFormatter, labelled

TOOLS_PY = '''
"""Tools that raise, log and have an annotation nothing resolves."""

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nowhere import Missing, Sink

logging.getLogger("shoplib").warning("the price list is a day old")


def fail(x: int) -> int:
    """Raise."""
    raise ValueError(f"bad {x}")


def fine(x: int, extra: "Missing") -> int:
    """Take an extra nothing resolves."""
    return x


def typed_by_default(x: int, n: "Missing" = 3) -> int:
    """Its n is typed by its default."""
    return x + n


def unserved(x: int, log: "Sink", key: "Missing" = None) -> "Missing":
    """Only x is served.

    Args:
        x (int): a number.
        log: filled in by objmcp.
        key (callable): makes the key, left out of the schema.
    """
    return x


class Counter:
    """Counts."""

    def bump(self: "Missing", by: int = 1) -> int:
        """Bump."""
        return by
'''


@pytest.fixture
def here(tmp_path: Path) -> Path:
    (tmp_path / "tools.py").write_text(textwrap.dedent(TOOLS_PY))
    return tmp_path


# --- call: one program ------------------------------------------------------------------------


def test_call_of_a_tool_that_raises_says_the_error_once(here: Path) -> None:
    done = objmcp("call", "tools.py", "fail", "x=3", cwd=here)
    assert done.returncode == 1
    assert done.stdout == "ValueError: bad 3\n"
    assert "Traceback" not in done.stderr, done.stderr
    assert "bad 3" not in done.stderr and "raised ValueError" not in done.stderr, done.stderr


def test_call_with_log_level_debug_shows_the_servers_traceback_too(here: Path) -> None:
    done = objmcp("call", "tools.py", "fail", "x=3", "--log-level", "debug", cwd=here)
    assert done.returncode == 1
    assert done.stdout == "ValueError: bad 3\n"
    assert "objmcp: error: tool 'fail' raised ValueError\nTraceback" in done.stderr, done.stderr


def test_call_does_not_relay_the_start_line(here: Path) -> None:
    done = objmcp("call", "tools.py", "fine", "x=2", "extra=1", cwd=here)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "2\n"
    assert "serving" not in done.stderr, done.stderr
    ran = objmcp("run", "tools.py", cwd=here)
    assert "objmcp: serving tools on stdio" in ran.stderr, ran.stderr  # run still says it


def test_call_relays_the_servers_warnings_as_inspect_says_them(here: Path) -> None:
    called = objmcp("call", "tools.py", "fine", "x=2", "extra=1", cwd=here).stderr.splitlines()
    inspected = objmcp("inspect", "tools.py", cwd=here).stderr.splitlines()
    ran = objmcp("run", "tools.py", cwd=here).stderr.splitlines()
    line = (
        "objmcp: warning: tool 'fine': cannot resolve the annotation 'Missing' of "
        "parameter extra; accepting any JSON value"
    )
    assert line in called and line in inspected and line in ran, (called, inspected, ran)
    assert "shoplib: warning: the price list is a day old" in called  # another logger's, named
    for said in (called, inspected, ran):
        assert not [seen for seen in said if "WARNING" in seen], said


# --- made with no arguments -------------------------------------------------------------------


def test_a_class_made_with_no_arguments_is_information_not_a_warning(here: Path) -> None:
    inspected = objmcp("inspect", "tools.py:Counter", cwd=here)
    called = objmcp("call", "tools.py:Counter", "bump", cwd=here)
    assert inspected.returncode == 0 and called.returncode == 0, called.stderr
    assert called.stdout == "1\n"
    for said in (inspected.stderr, called.stderr):
        assert "made with no arguments" not in said, said
    told = objmcp("run", "tools.py:Counter", "--log-level", "info", cwd=here)
    assert "objmcp: info: serving Counter: made with no arguments, Counter()" in told.stderr


# --- annotations that cannot be resolved ------------------------------------------------------


def test_an_unresolved_annotation_is_named_only_for_a_parameter_the_schema_shows(
    here: Path,
) -> None:
    said = objmcp("inspect", "tools.py", cwd=here).stderr
    assert "tool 'unserved'" not in said and "of unserved" not in said, said  # log, key, return
    assert "Counter" not in said and "self" not in said, said
    assert (
        "objmcp: warning: tool 'typed_by_default': cannot resolve the annotation 'Missing' "
        "of parameter n; typed by its default"
    ) in said.splitlines(), said
    listed = objmcp("inspect", "tools.py", cwd=here).stdout
    assert "x: integer  " in next(row for row in listed.splitlines() if row.startswith("unserved"))


# --- the line's form --------------------------------------------------------------------------

_NAMES = st.one_of(
    st.sampled_from(["objmcp", "objmcp.model", "objmcpx", "root"]),
    st.from_regex(r"[a-z_][a-z0-9_]{0,8}(\.[a-z_][a-z0-9_]{0,8}){0,2}", fullmatch=True),
)
_LEVELS = st.sampled_from(["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"])


@given(_NAMES, _LEVELS, st.text(st.characters(exclude_categories=("Cc", "Zl", "Zp", "Cs"))))
def test_a_record_is_said_as_its_source_its_level_and_its_message(
    name: str, level: str, message: str
) -> None:
    record = logging.LogRecord(name, getattr(logging, level), __file__, 1, "%s", (message,), None)
    line = LineFormatter().format(record)
    source = "objmcp" if name.partition(".")[0] == "objmcp" else name
    assert line + "\n" == labelled(level, message, source)
    assert line == f"{source}: {level.lower()}: {message}"
