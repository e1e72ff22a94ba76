"""The command line at a newcomer's terminal, through real processes (issue 40): a yes/no
question asked once, end of input cancelling a question and saying so; ``--version`` after
a verb printing objmcp's version, the server's version under ``--server-version``; Ctrl-C
ending ``objmcp dev`` quietly, with status 130."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import RawServer, interrupted, objmcp_cli, on_a_terminal
from hypothesis import given
from hypothesis import strategies as st

from objmcp.cli.ask import ask

FRONTDESK = f"{Path(__file__).resolve().parent.parent / 'servers' / 'clients.py'}:Frontdesk"


def objmcp(*args: str) -> tuple[str, str, int]:
    """Run ``python -m objmcp ARGS`` to its end: its stdout, stderr and exit status."""
    done = objmcp_cli(*args)
    return done.stdout, done.stderr, done.returncode


# --- a question at the terminal ---------------------------------------------------------------


def at_a_terminal(*args: str, typed: bytes) -> tuple[str, str, int]:
    """``objmcp call ARGS`` with ``typed`` at a pseudo-terminal."""
    return on_a_terminal("call", *args, typed=typed)


needs_a_terminal = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


@needs_a_terminal
@pytest.mark.parametrize(("typed", "answer"), [(b"y\n", "confirmed"), (b"n\n", "not confirmed")])
def test_a_yes_no_question_is_asked_once_on_one_line(typed: bytes, answer: str) -> None:
    out, said, status = at_a_terminal(FRONTDESK, "confirm", "action=delete", typed=typed)
    assert (out, status) == (f"delete: {answer} (accept)\n", 0), said
    assert said.count("Confirm delete?") == 1
    (line,) = [line for line in said.splitlines() if "Confirm delete?" in line]
    assert "y/n" in line  # the question and its answers on one line
    assert "Answer?" not in said and "value" not in said  # no second prompt


@needs_a_terminal
def test_end_of_input_at_a_yes_no_question_cancels_it_and_says_so() -> None:
    out, said, status = at_a_terminal(FRONTDESK, "confirm", "action=delete", typed=b"\x04")
    assert (out, status) == ("delete: not confirmed (cancel)\n", 0), said
    assert "end of input: the question is cancelled" in said


SIGN_UP_PY = """
from dataclasses import dataclass

import objmcp


@dataclass
class Person:
    name: str
    age: int


def sign_up(elicit: objmcp.Elicit) -> str:
    \"\"\"Ask a name and an age, in one form.\"\"\"
    answer = elicit("Who are you?", Person)
    return f"{answer.action}: {answer.value}"
"""


@needs_a_terminal
def test_end_of_input_at_a_later_field_cancels_the_form_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "signup.py").write_text(SIGN_UP_PY)
    target = str(tmp_path / "signup.py")
    out, said, status = at_a_terminal(target, "sign_up", typed=b"y\nAda\n\x04")
    assert (out, status) == ("cancel: None\n", 0), said
    assert "age" in said and "end of input: the question is cancelled" in said
    out, said, status = at_a_terminal(target, "sign_up", typed=b"y\nAda\n36\n")
    assert (out, status) == ("accept: Person(name='Ada', age=36)\n", 0), said


def reference(
    lines: list[str], default: bool | None, required: bool
) -> tuple[dict[str, Any], bool]:
    """What a yes/no question answers to ``lines`` typed then end of input, and whether
    the end of input was reached."""
    for text in (line.strip().lower() for line in lines):
        if text in ("d", "decline"):
            return {"action": "decline"}, False
        if text in ("c", "cancel"):
            return {"action": "cancel"}, False
        if not text and default is not None:
            return {"action": "accept", "content": {"ok": default}}, False
        if not text and not required:
            return {"action": "accept", "content": {}}, False
        if text in ("y", "yes", "true", "1", "n", "no", "false", "0"):
            return {"action": "accept", "content": {"ok": text in ("y", "yes", "true", "1")}}, False
    return {"action": "cancel"}, True


WORDS = st.sampled_from(["y", "Yes", "n", "NO", "true", "0", "d", "c", "", "  ", "maybe", "x"])


@given(
    lines=st.lists(WORDS, max_size=5),
    default=st.none() | st.booleans(),
    required=st.booleans(),
    message=st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=20),
)
def test_a_yes_no_question_reads_its_answer_from_one_line(
    lines: list[str], default: bool | None, required: bool, message: str
) -> None:
    prop: dict[str, Any] = {"type": "boolean"} | ({} if default is None else {"default": default})
    schema: dict[str, Any] = {"type": "object", "properties": {"ok": prop}}
    if required:
        schema["required"] = ["ok"]
    said = io.StringIO()
    typed = io.StringIO("".join(f"{line}\n" for line in lines))
    result = ask({"message": message, "requestedSchema": schema}, typed, said)
    expected, ended = reference(lines, default, required)
    assert result == expected
    assert said.getvalue().count(f"The tool asks: {message}") == 1
    assert "Answer?" not in said.getvalue()
    assert ("end of input" in said.getvalue()) == ended


# --- --version after a verb -------------------------------------------------------------------


def test_version_after_a_verb_prints_objmcp_s_version() -> None:
    before, _, status = objmcp("--version")
    assert status == 0 and before.startswith("objmcp ")
    for args in (
        ("run", "--version"),
        ("run", "statistics", "--version"),
        ("statistics", "--version"),
    ):
        out, said, status = objmcp(*args)
        assert (out, status) == (before, 0), said


def server_info(*args: str) -> tuple[dict[str, Any], str]:
    """The ``serverInfo`` ``objmcp run ARGS`` answers ``initialize`` with, and its stderr."""
    server = RawServer("-m", "objmcp", "run", *args)
    info = server.initialize()["serverInfo"]
    _, said, status = server.close()
    assert status == 0, said
    return info, said.decode()


def test_the_server_s_version_is_server_version_and_version_still_sets_it() -> None:
    info, said = server_info("statistics", "--server-version", "3.1")
    assert info["version"] == "3.1" and "deprecated" not in said
    info, said = server_info("statistics", "--version", "3.2")
    assert info["version"] == "3.2"
    assert "--version 3.2 is deprecated" in said and "--server-version 3.2" in said
    helped, _, _ = objmcp("run", "--help")
    assert "--server-version VERSION" in helped and "deprecated" in helped


@pytest.mark.parametrize("flag", ["--server-version", "--version"])
def test_config_writes_the_server_s_version_as_server_version(flag: str) -> None:
    out, said, status = objmcp("config", "claude", "statistics", flag, "2.0")
    assert status == 0, said
    words = json.loads(out)["mcpServers"]["statistics"]["args"]
    assert words[words.index("--server-version") + 1] == "2.0"
    assert "--version" not in words


# --- Ctrl-C in objmcp dev ---------------------------------------------------------------------

SLOW_PY = '''
import os
import sys
import time


def slow() -> str:
    """Slow."""
    sys.stderr.write(f"slow started in {os.getpid()}\\n")
    sys.stderr.flush()
    time.sleep(60)
    return "slept"
'''


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT")
@pytest.mark.parametrize("to_the_group", [True, False], ids=["to-its-group", "to-it-alone"])
def test_ctrl_c_ends_dev_quietly_with_status_130(tmp_path: Path, to_the_group: bool) -> None:
    (tmp_path / "slowtools.py").write_text(SLOW_PY)
    initialize = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow"}}
    _, said, status = interrupted(
        "dev",
        "slowtools.py",
        ready=b"slow started in ",  # a call in flight in the child
        to_the_group=to_the_group,
        cwd=tmp_path,
        input=b"".join(json.dumps(m).encode() + b"\n" for m in (initialize, initialized, call)),
    )
    assert status == 130, said
    assert "SIGTERM" not in said and "waiting for a change" not in said, said
    assert "Traceback" not in said and "exited" not in said, said
    child = int(said.split("slow started in ")[1].split()[0])
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)  # the child ended with it (and was waited for)


@given(
    typed=st.sampled_from(["nan", "NaN", "inf", "-Infinity", "1e400"]),
    then=st.floats(allow_nan=False, allow_infinity=False),
)
def test_a_number_prompt_takes_only_a_finite_number(typed: str, then: float) -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"x": {"type": "number"}}}
    said = io.StringIO()
    lines = io.StringIO(f"y\n{typed}\n{then!r}\n")
    result = ask({"message": "How much?", "requestedSchema": schema}, lines, said)
    assert result == {"action": "accept", "content": {"x": then}}
    assert "a finite number, please" in said.getvalue()
    json.dumps(result, allow_nan=False)  # what is sent is JSON
