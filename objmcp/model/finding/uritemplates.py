"""Matching a URI against a resource template, in time linear in the URI's length.

A template is literal text around variables: ``{name}`` takes one or more characters
other than ``/``, ``?`` and ``#`` (one path segment), ``{+name}`` one or more other
than ``?`` and ``#``. Where a URI could be split between the variables in more than one
way, the first variable takes as much as it can, then the second, and so on: what a
regular expression of greedy groups (``([^/?#]+)``) finds. Such a regular expression
backtracks, though, and two variables in one segment make its cost grow with the square
of the URI's length (the cube with three); :class:`TemplateMatcher` gives the same
answers with one pass from the right, which marks, in each run of characters a variable
may take, the last place it may end with the rest of the template still matching, and
one from the left, which takes those ends.

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

_SEGMENT_STOPS = "/?#"
_RESERVED_STOPS = "?#"
_SEGMENT_END = re.compile(f"[{_SEGMENT_STOPS}]")
_RESERVED_END = re.compile(f"[{_RESERVED_STOPS}]")


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
        template matching what follows, at least its longest end in each run of characters
        it takes; None when the first cannot start at ``begin``."""
        after = bytearray(len(uri) + 1)
        after[end] = 1  # the last variable ends where the tail starts
        stops = {kind: _stops(uri, kind, begin, end) for kind in set(self.reserved)}
        ends: list[bytearray] = []
        for index in range(len(self.names) - 1, -1, -1):
            ends.append(after)
            spans = _spans(after, stops[self.reserved[index]], begin)
            if not spans:
                return None
            if index == 0:
                ends.reverse()
                return ends if spans[-1][0] == begin else None
            literal, kind = self.literals[index], self.reserved[index - 1]
            after = _ends_before(uri, literal, spans, stops[kind], kind, begin)
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


def _spans(after: bytearray, stops: list[int], begin: int) -> list[tuple[int, int]]:
    """Where a variable may start, given where it may end (``after``) and where the
    characters it cannot take are (``stops``): in each run of characters it takes, the
    positions before the run's last possible end; right to left, ``(first, last)`` each
    (``last`` excluded)."""
    spans: list[tuple[int, int]] = []
    end = after.rfind(1, begin + 1)
    while end > begin:
        before = bisect.bisect_left(stops, end) - 1
        run_start = stops[before] + 1 if before >= 0 else begin
        if run_start < end:
            spans.append((run_start, end))
        end = after.rfind(1, begin + 1, run_start)
    return spans


def _ends_before(
    uri: str,
    literal: str,
    spans: list[tuple[int, int]],
    stops: list[int],
    reserved: bool,
    begin: int,
) -> bytearray:
    """Where the variable before ``literal`` may end (a 1), given where the one after it
    may start (``spans``, right to left), where the characters the one before cannot take
    are (``stops``) and whether it is ``{+name}``: the last such end in each run of
    characters it takes."""
    refused = _RESERVED_STOPS if reserved else _SEGMENT_STOPS
    after = bytearray(len(uri) + 1)
    width = len(literal)
    limit = len(uri)  # where the literal must end by: left of a run already given its end
    for first, last in spans:
        low, high = max(begin, first - width), min(last - 1, limit)
        found = uri.rfind(literal, low, high)
        while found >= 0:
            if found == begin or uri[found - 1] in refused:  # it would end empty
                run_start = found
            else:
                before = bisect.bisect_left(stops, found) - 1
                run_start = stops[before] + 1 if before >= 0 else begin
                after[found] = 1
            limit = high = min(high, run_start - 1 + width)
            found = uri.rfind(literal, low, high)
    return after
