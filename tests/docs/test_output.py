"""The docs checker's holding of a shown output to what its example printed
(``tests/docs/output.py``): what was printed, or any of its lines in order, with any part of a
line (or whole lines) left out as ``…``, is found (``...`` in a line is itself); a line changed,
or lines out of order, are not, and the first such line is named. Unordered (background
processes), the lines are found in any order, each once."""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st
from output import missing_from

line = st.text(
    st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp"), exclude_characters="…"),
    min_size=1,
    max_size=40,
).filter(lambda text: text.strip() and text.strip() != "...")
printed_lines = st.lists(line, min_size=1, max_size=8)


@given(printed_lines, st.data())
def test_the_printed_lines_in_order_are_found_whatever_is_left_out(
    printed: list[str], data: st.DataObject
) -> None:
    kept = sorted(data.draw(st.sets(st.integers(0, len(printed) - 1))))
    shown = []
    for index in kept:
        text = printed[index].rstrip()
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, len(text)))
        elided = data.draw(st.booleans())
        shown.append(text[:start] + "…" + text[end:] if elided else text)
        if data.draw(st.booleans()):
            shown.append("...")  # lines left out here
    assert missing_from("\n".join(shown), "\n".join(printed)) is None


@given(printed_lines, line, st.integers(0, 8))
def test_a_line_never_printed_is_named(printed: list[str], stranger: str, at: int) -> None:
    assume(all(stranger.strip() != text.strip() for text in printed))
    shown = [text.rstrip() for text in printed]
    shown.insert(min(at, len(shown)), stranger.rstrip())
    assert missing_from("\n".join(shown), "\n".join(printed)) == stranger.rstrip()


@given(printed_lines)
def test_lines_out_of_order_are_not_found(printed: list[str]) -> None:
    assume(len({text.rstrip() for text in printed}) == len(printed) >= 2)
    shown = [text.rstrip() for text in reversed(printed)]
    assert missing_from("\n".join(shown), "\n".join(printed)) is not None


@given(printed_lines, st.randoms(use_true_random=False), line)
def test_unordered_the_printed_lines_are_found_in_any_order_and_each_once(
    printed: list[str], random: Any, stranger: str
) -> None:
    shown = [text.rstrip() for text in printed]
    random.shuffle(shown)
    assert missing_from("\n".join(shown), "\n".join(printed), ordered=False) is None
    assume(all(stranger.strip() != text.strip() for text in printed))
    with_stranger = [*shown, stranger.rstrip()]
    assert missing_from("\n".join(with_stranger), "\n".join(printed), ordered=False) == (
        stranger.rstrip()
    )
    once_more = [*shown, shown[0]]  # a line printed once is shown once
    assert missing_from("\n".join(once_more), "\n".join(printed), ordered=False) is not None


def test_three_dots_in_a_line_are_themselves() -> None:
    # programs print "...": only "…" stands for text left out of a line
    printed = "served only when named (include=[...] or --include NAME)"
    assert missing_from(printed, printed) is None
    assert missing_from("served only … (include=[...] or …)", printed) is None
    changed = "served only when named (include=[x] or --include NAME)"
    assert missing_from(printed, changed) == printed


def test_a_page_output_gone_wrong_is_named() -> None:
    printed = "objmcp call: task working\nfitted 15 rows\n"
    assert missing_from("objmcp call: task …\nfitted 15 rows", printed) is None
    assert missing_from("objmcp call: task …\nfitted 16 rows", printed) == "fitted 16 rows"
