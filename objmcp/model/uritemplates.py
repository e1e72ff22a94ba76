"""Matching a URI against a resource template, in time linear in the URI's length.

A template is literal text around variables: ``{name}`` takes one or more characters
other than ``/``, ``?`` and ``#`` (one path segment), ``{+name}`` one or more other
than ``?`` and ``#``. Where a URI could be split between the variables in more than one
way, the first variable takes as much as it can, then the second, and so on: what a
regular expression of greedy groups (``([^/?#]+)``) finds. Such a regular expression
backtracks, though, and two variables in one segment make its cost grow with the square
of the URI's length (the cube with three); :class:`TemplateMatcher` gives the same
answers with one pass from the right, which marks where each variable may end so that
the rest of the template still matches, and one from the left, which takes each
variable's longest such end.

A URI longer than :data:`MAX_URI_LENGTH` characters is refused before any matching
(:func:`uri_too_long`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

__all__ = ["MAX_URI_LENGTH", "TemplateMatcher", "uri_too_long"]

MAX_URI_LENGTH = 8192
"""The longest URI a read or a subscription may name, in characters: RFC 9110 asks
that URIs of 8,000 octets be supported, and no template variable needs more."""

_SEGMENT_END = re.compile(r"[/?#]")
_RESERVED_END = re.compile(r"[?#]")


def uri_too_long(uri: str) -> str | None:
    """Why ``uri`` is refused for its length, or None when it is short enough."""
    if len(uri) <= MAX_URI_LENGTH:
        return None
    return (
        f"the uri is {len(uri):,} characters long, over the server's limit of "
        f"{MAX_URI_LENGTH:,} characters"
    )


@dataclass(frozen=True)
class TemplateMatcher:
    """The literal texts and the variables of a template, in order: ``literals`` has one
    more item than ``names`` (the text before the first variable, between two, after the
    last); ``reserved`` says, for each variable, whether it is ``{+name}``."""

    literals: tuple[str, ...]
    names: tuple[str, ...]
    reserved: tuple[bool, ...]

    def match(self, uri: str) -> dict[str, str] | None:
        """The variables' raw (still percent-encoded) values if ``uri`` is one of the
        template's URIs, else None."""
        head, tail = self.literals[0], self.literals[-1]
        end = len(uri) - len(tail)
        if not uri.startswith(head) or not uri.endswith(tail) or end < len(head):
            return None
        ends = self._ends(uri, len(head), end)
        if ends is None:
            return None
        values: dict[str, str] = {}
        start = len(head)
        for index, name in enumerate(self.names):
            stop = self._run_end(uri, index, start, end)
            chosen = ends[index].rfind(1, start + 1, stop + 1)  # the longest: greedy
            values[name] = uri[start:chosen]
            start = chosen + len(self.literals[index + 1])
        return values

    def _ends(self, uri: str, begin: int, end: int) -> list[bytearray] | None:
        """For each variable, where it may end (a 1 at that position) with the rest of the
        template matching what follows; None when the first cannot start at ``begin``."""
        size = len(uri) + 1
        after = bytearray(size)
        after[end] = 1  # the last variable ends where the tail starts
        stops = {kind: _stops(uri, kind, begin, end) for kind in set(self.reserved)}
        ends: list[bytearray] = []
        for index in range(len(self.names) - 1, -1, -1):
            ends.append(after)
            starts = _starts(after, stops[self.reserved[index]], begin)
            if index == 0:
                ends.reverse()
                return ends if starts[begin] else None
            literal = self.literals[index]
            after = bytearray(size)
            found = uri.find(literal, begin, end)
            while found >= 0:
                if starts[found + len(literal)]:
                    after[found] = 1
                found = uri.find(literal, found + 1, end)
        raise AssertionError("a template with no variable")  # pragma: no cover

    def _run_end(self, uri: str, index: int, start: int, end: int) -> int:
        """Where the run of characters the variable ``index`` may take, from ``start``,
        ends (``end`` at the latest)."""
        stops = _RESERVED_END if self.reserved[index] else _SEGMENT_END
        found = stops.search(uri, start, end)
        return end if found is None else found.start()


def _stops(uri: str, reserved: bool, begin: int, end: int) -> list[int]:
    """Where the characters a variable cannot take are, between ``begin`` and ``end``."""
    pattern = _RESERVED_END if reserved else _SEGMENT_END
    return [found.start() for found in pattern.finditer(uri, begin, end)]


def _starts(after: bytearray, stops: list[int], begin: int) -> bytearray:
    """Where a variable may start (a 1), given where it may end (``after``) and where the
    characters it cannot take are (``stops``): every position of a run of characters it
    takes that is before the run's last possible end."""
    starts = bytearray(len(after))
    end = after.rfind(1, begin + 1)
    while end > begin:
        before = bisect.bisect_left(stops, end) - 1
        run_start = stops[before] + 1 if before >= 0 else begin
        if run_start < end:
            starts[run_start:end] = b"\x01" * (end - run_start)
        end = after.rfind(1, begin + 1, run_start)
    return starts
