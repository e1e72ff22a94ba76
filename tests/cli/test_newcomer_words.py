"""The command line's answers to a newcomer's slips, through real processes: a
misspelt verb, a call that names no tool or no arguments, counts of one, a file
whose tools are in its classes (issue 40)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import objmcp_cli as objmcp
from hypothesis import given
from hypothesis import strategies as st

from objmcp.cli.listing import describe_type
from objmcp.cli.main import VERBS
from objmcp.cli.wording import counted, did_you_mean

SHOP_PY = '''
"""A shop whose tools are all in classes: the module itself serves none."""


class Cart:
    """A cart."""

    def add(self, item: str) -> int:
        """Add an item."""
        return 1


class Till:
    def total(self) -> int:
        """The total."""
        return 0


class OutOfStock(Exception):
    pass
'''

ONE_PY = '''
def hello(name: str = "world") -> str:
    """Greet someone."""
    return f"hello {name}"
'''


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    (tmp_path / "shop.py").write_text(textwrap.dedent(SHOP_PY))
    (tmp_path / "one.py").write_text(textwrap.dedent(ONE_PY))
    return tmp_path


# --- a misspelt verb --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "verb"),
    [("inpsect", "inspect"), ("runn", "run"), ("cal", "call"), ("confg", "config"), ("dve", "dev")],
)
def test_a_misspelt_verb_is_answered_with_the_verb_meant(typed: str, verb: str) -> None:
    done = objmcp(typed, "statistics")
    assert done.returncode == 2
    assert done.stdout == ""
    assert f"'{typed}' is not a verb. Did you mean '{verb}'" in done.stderr, done.stderr


def test_words_left_over_that_follow_no_verb_like_word_are_unrecognized() -> None:
    done = objmcp("statistics", "--no-such-option")
    assert done.returncode == 2
    assert "unrecognized arguments: --no-such-option" in done.stderr
    assert "not a verb" not in done.stderr


@given(st.sampled_from(VERBS), st.data())
def test_a_verb_with_one_letter_dropped_or_swapped_is_suggested(
    verb: str, data: st.DataObject
) -> None:
    at = data.draw(st.integers(0, len(verb) - 1))
    dropped = verb[:at] + verb[at + 1 :]
    swapped = verb[:at] + verb[at + 1 : at + 2] + verb[at] + verb[at + 2 :]
    for typed in (dropped, swapped):
        if typed != verb:
            assert repr(verb) in did_you_mean(typed, VERBS)


@given(st.integers(0, 10**6), st.from_regex(r"[a-z]{1,12}", fullmatch=True))
def test_a_count_of_one_is_singular_any_other_plural(count: int, noun: str) -> None:
    said = counted(count, noun)
    assert said == f"{count} {noun}" if count == 1 else said == f"{count} {noun}s"


# --- call with no tool, or no arguments -------------------------------------------------------


def test_call_with_no_tool_lists_the_tools_and_the_form() -> None:
    done = objmcp("call", "statistics")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "objmcp call statistics TOOL key=value" in done.stderr, done.stderr
    assert "mean" in done.stderr and "median" in done.stderr
    assert "objmcp inspect statistics" in done.stderr  # a short list: the rest is there


def test_call_with_no_arguments_for_a_tool_that_requires_some_names_them() -> None:
    done = objmcp("call", "statistics", "mean")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "objmcp call statistics mean data=VALUE" in done.stderr, done.stderr


def test_a_tool_with_no_required_parameter_is_called_without_key_value(shop: Path) -> None:
    done = objmcp("call", "one.py", "hello", cwd=shop)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "hello world\n"


# --- counts of one ----------------------------------------------------------------------------


def test_one_tool_is_one_tool_on_the_start_up_line(shop: Path) -> None:
    done = objmcp("run", "one.py", cwd=shop)
    assert done.returncode == 0, done.stderr
    assert "1 tools" not in done.stderr
    assert "on stdio: 1 tool; discovery auto: all listed (1 tool, at most 40)" in done.stderr


# --- a module whose tools are in its classes --------------------------------------------------


def test_inspecting_a_file_whose_tools_are_in_classes_names_them(shop: Path) -> None:
    done = objmcp("inspect", "shop.py", cwd=shop)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "'shop.py:Cart' or 'shop.py:Till'" in done.stderr, done.stderr
    assert "OutOfStock" not in done.stderr
    named = objmcp("inspect", "shop.py:Cart", cwd=shop)
    assert named.returncode == 0, named.stderr
    assert "add" in named.stdout


def test_a_module_with_no_tools_and_no_classes_still_lists_none(tmp_path: Path) -> None:
    (tmp_path / "empty.py").write_text("VALUE = 1\n")
    done = objmcp("inspect", "empty.py", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout == "(no tools)\n"
    assert "no public callables" in done.stderr


def test_one_dangerous_callable_left_out_is_one_callable() -> None:
    done = objmcp("inspect", "code")  # the stdlib's code module: interact evaluates code
    assert done.returncode == 0, done.stderr
    assert "left out 1 dangerous callable, served only when named" in done.stderr, done.stderr


def test_inspect_says_each_kind_of_a_union_once() -> None:
    # statistics.harmonic_mean's data takes int, float, Decimal (a string or a number) and
    # Fraction: four schemas, two short names
    done = objmcp("inspect", "statistics")
    (line,) = [row for row in done.stdout.splitlines() if row.startswith("harmonic_mean ")]
    assert "data: array[number|string]" in line, line


SCHEMA_KINDS = st.sampled_from(
    [{"type": "number"}, {"type": "string"}, {"type": "integer"}, {"type": "null"}]
)


@given(options=st.lists(SCHEMA_KINDS, min_size=1, max_size=6))
def test_a_union_s_short_name_names_each_kind_once_in_order(options: list[dict[str, str]]) -> None:
    named = describe_type({"anyOf": options}, {}).split("|")
    assert named == list(dict.fromkeys(option["type"] for option in options))
