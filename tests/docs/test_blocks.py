"""The docs checker's reading of fenced blocks (``tests/docs/blocks.py``): whatever blocks a page
holds, at any indentation (in a list, in an admonition), with or without a title, between
any prose, each is read back with its language, title, text and line."""

from __future__ import annotations

from blocks import Block, blocks_of
from hypothesis import given
from hypothesis import strategies as st

prose = st.lists(
    st.text(st.characters(codec="ascii", exclude_characters="`~\r\n"), max_size=30), max_size=3
)
code_lines = st.lists(  # a line of spaces alone is a blank line, under any indentation
    st.text(st.characters(codec="ascii", exclude_characters="`~\r\n"), max_size=30).filter(
        lambda line: line.strip() or not line
    ),
    max_size=5,
)
blocks = st.tuples(
    st.sampled_from(["python", "sh", "text", "json", ""]),
    st.none() | st.from_regex(r"[a-z]{1,8}\.py", fullmatch=True),
    code_lines,
    st.sampled_from(["", "    ", "  "]),
    st.sampled_from(["```", "````", "~~~"]),
    prose,
)


@given(st.lists(blocks, max_size=5), prose)
def test_every_block_is_read_back_as_written(written: list[tuple], tail: list[str]) -> None:  # type: ignore[type-arg]
    lines: list[str] = []
    expected: list[Block] = []
    for language, title, body, indent, fence, before in written:
        lines += before
        info = language + (f' title="{title}"' if title and language else "")
        expected.append(
            Block(language, title if language else None, "\n".join(body), len(lines) + 1)
        )
        lines.append(f"{indent}{fence}{info}")
        lines += [f"{indent}{line}" if line.strip() else line for line in body]
        lines.append(f"{indent}{fence}")
    lines += tail
    assert blocks_of("\n".join(lines)) == expected


def test_a_block_left_open_runs_to_the_end() -> None:
    assert blocks_of("text\n```sh\necho hi\n") == [Block("sh", None, "echo hi\n", 2)]
