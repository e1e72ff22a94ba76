"""The options as records (issue 41): one table for the Python API and the command line.

Every field of a record that has a flag is on ``objmcp run``'s command line with its
default in its help; what the command line gives makes the same records a child server is
started with (:func:`objmcp.cli.flags.server_arguments`, read back); a value a record
refuses is refused at construction, naming the option, and on the command line naming the
flag.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import objmcp
from objmcp._options import OFF, SERVER_RECORDS, seconds_or_off
from objmcp.cli.flags import records_from, server_arguments
from objmcp.cli.parser import _parser
from objmcp.serving.http_options import HTTP_RECORDS
from objmcp.serving.option_fields import Flag, flag_of

RECORDS = {**SERVER_RECORDS, **HTTP_RECORDS}


def flagged() -> list[tuple[str, dataclasses.Field[Any], Flag]]:
    """Every record field with a flag: (record keyword, field, flag)."""
    found = []
    for key, record in RECORDS.items():
        for field in dataclasses.fields(record):
            flag = flag_of(field)
            if flag is not None:
                found.append((key, field, flag))
    return found


def test_every_flag_is_on_run_s_command_line_once_with_its_default() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "objmcp", "run", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={"COLUMNS": "1000", "PATH": ""},
    ).stdout
    names = [flag.name for _, _, flag in flagged()]
    assert len(names) == len(set(names))
    options = shown[shown.index("\noptions:") :]
    entries = [" ".join(entry.split()) for entry in re.split(r"\n  (?=-)", options)]
    for _, field, flag in flagged():
        (entry,) = [entry for entry in entries if entry.split()[0] == flag.name]
        default = field.default
        if isinstance(default, int) and not isinstance(default, bool) and default < 1 << 20:
            assert f"({default})" in entry, entry


def value_for(flag: Flag, field: dataclasses.Field[Any]) -> st.SearchStrategy[Any]:
    """Values a flag takes that its record keeps, as the command line would parse them."""
    if flag.switch is not None:
        return st.just(flag.switch)
    if flag.choices is not None:
        return st.sampled_from(flag.choices)
    if flag.repeat:
        word = st.text("abcdefghij.-", min_size=1, max_size=8).filter(lambda w: w[0] != "-")
        return st.lists(word, min_size=1, max_size=3)
    if flag.parse is int:
        return st.integers(1, 10**9)
    if flag.parse is float:
        return st.floats(0.001, 10**6)
    if flag.name == "--task-after":
        return st.one_of(st.just(OFF), st.floats(0.001, 10**6))
    if flag.name == "--route":
        return st.text("abcXYZ019_-", min_size=1, max_size=8)
    if flag.name == "--jwt-key":
        return st.nothing()
    if flag.name == "--tasks":
        ports = st.integers(1, 65535)
        return st.builds(
            lambda port, db: f"redis://127.0.0.1:{port}/{db}", ports, st.integers(0, 15)
        )
    return st.text("abcdef:/.", min_size=1, max_size=10)


def words_for(flag: Flag, value: Any) -> list[str]:
    if flag.switch is not None:
        return [flag.name]
    if flag.repeat:
        return [word for item in value for word in (flag.name, item)]
    return [flag.name, str(value)]


SERVING = [entry for entry in flagged() if entry[0] in SERVER_RECORDS]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_what_a_child_is_given_makes_the_same_records(data: st.DataObject) -> None:
    chosen = data.draw(st.lists(st.sampled_from(SERVING), unique_by=lambda e: e[2].name))
    words = ["run", "x.py"]
    for _, field, flag in chosen:
        words += words_for(flag, data.draw(value_for(flag, field), label=flag.name))
    parser, _ = _parser()
    first = parser.parse_args(words)
    try:
        made = records_from(first, SERVER_RECORDS)
    except objmcp.TargetError as error:  # a combination the records refuse: named by flag
        assert str(error).startswith("--"), error
        return
    again = parser.parse_args(["run", "x.py", *server_arguments(first)])
    assert records_from(again, SERVER_RECORDS) == made
    for key, field, flag in chosen:  # what was given is what the record holds
        given = getattr(first, f"{key}.{field.name}")
        held = getattr(made[key], field.name)
        expected = None if flag.parse is seconds_or_off and given == OFF else given
        assert held == (tuple(expected) if flag.repeat else expected)


@pytest.mark.parametrize(
    ("make", "named"),
    [
        (lambda: objmcp.Limits(max_calls=0), "max_calls"),
        (lambda: objmcp.Limits(call_timeout=-1), "call_timeout"),
        (lambda: objmcp.Limits(concurrency="many"), "concurrency"),  # type: ignore[arg-type]
        (lambda: objmcp.Tasks(after=0), "after"),
        (lambda: objmcp.Tasks(max_tasks=-1), "max_tasks"),
        (lambda: objmcp.Tasks(store="http://127.0.0.1:6379"), "store"),
        (lambda: objmcp.Discovery(mode="always"), "discovery"),  # type: ignore[arg-type]
        (lambda: objmcp.Objects(per="thread"), "per"),  # type: ignore[arg-type]
        (lambda: objmcp.Objects(idle=0), "idle"),
        (lambda: objmcp.Waiting(park_timeout=-1), "park_timeout"),
        (lambda: objmcp.Telemetry(loggers="mylib"), "loggers"),
        (lambda: objmcp.About(declare=["tools"]), "declare"),
        (lambda: objmcp.Http(route="a.b"), "route"),
        (lambda: objmcp.Http(path="mcp"), "path"),
        (lambda: objmcp.Auth(token="t", verify=bool), "token"),
        (lambda: objmcp.Auth(issuer="https://a"), "issuer"),
    ],
)
def test_a_record_refuses_what_no_server_could_run_by(make: Any, named: str) -> None:
    with pytest.raises((ValueError, TypeError), match=named):
        make()


def test_a_record_given_where_another_goes_is_refused() -> None:
    with pytest.raises(TypeError, match=r"limits takes an objmcp.Limits"):
        objmcp.Server("x", {}, limits=objmcp.Tasks())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"tasks takes an objmcp.Tasks"):
        objmcp.Server("x", {}, tasks={"after": 1})  # type: ignore[arg-type]


def test_a_secret_is_not_in_a_record_s_repr() -> None:
    assert "hunter2" not in repr(objmcp.Auth(token="hunter2"))
    assert "hunter2" not in repr(objmcp.Waiting(state_key="hunter2"))


def test_a_bad_value_on_the_command_line_names_its_flag() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "objmcp", "run", "statistics", "--max-calls", "0"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "--max-calls must be a positive integer, not 0" in done.stderr
