"""The linear-time template matcher (:mod:`objmcp.model.finding.uritemplates`) answers as the
regular expression of greedy groups it replaced: hypothesis builds templates (one to four
variables, ``{name}`` and ``{+name}``, any literal text between them, several in one
segment) and URIs made of the same few characters, so that a URI splits in many ways or
none, and both must agree on whether it matches and on every variable's value. And a
URI over the length bound matches nothing, where the old expression would have spent
the square of its length."""

from __future__ import annotations

import inspect
import re

from hypothesis import given
from hypothesis import strategies as st

from objmcp.model.finding.publish import ResourceOptions
from objmcp.model.finding.resources import make_resource
from objmcp.model.finding.uritemplates import MAX_URI_LENGTH, TemplateMatcher, uri_too_long

ALPHABET = "ab-/?#."
LITERAL = st.text(st.sampled_from(ALPHABET), max_size=3)
BETWEEN = st.text(st.sampled_from(ALPHABET), min_size=1, max_size=3)


def reference(matcher: TemplateMatcher) -> re.Pattern[str]:
    """The regular expression objmcp matched templates with before: greedy groups."""
    regex = re.escape(matcher.literals[0])
    for name, reserved, text in zip(
        matcher.names, matcher.reserved, matcher.literals[1:], strict=True
    ):
        regex += f"(?P<{name}>[^?#]+)" if reserved else f"(?P<{name}>[^/?#]+)"
        regex += re.escape(text)
    return re.compile(regex)


@st.composite
def templates(draw: st.DrawFn) -> TemplateMatcher:
    count = draw(st.integers(1, 4))
    middle = [draw(BETWEEN) for _ in range(count - 1)]
    return TemplateMatcher(
        literals=(draw(LITERAL), *middle, draw(LITERAL)),
        names=tuple(f"v{index}" for index in range(count)),
        reserved=tuple(draw(st.booleans()) for _ in range(count)),
    )


@st.composite
def near_misses(draw: st.DrawFn, matcher: TemplateMatcher) -> str:
    """A URI built from the template's own literals and values made of characters the
    variables take and of copies of the literals (so that it splits in several ways), then
    perhaps changed a little: most match, some in several ways, some in none."""
    uri = matcher.literals[0]
    for reserved, text in zip(matcher.reserved, matcher.literals[1:], strict=True):
        pieces = st.sampled_from(["a", "b", "-", ".", *(["/"] if reserved else []), text])
        uri += "".join(draw(st.lists(pieces, min_size=1, max_size=5))) + text
    if draw(st.integers(0, 3)) == 0 and uri:
        at = draw(st.integers(0, len(uri) - 1))
        uri = uri[:at] + draw(st.text(st.sampled_from(ALPHABET), max_size=2)) + uri[at + 1 :]
    return uri


@given(st.data())
def test_the_matcher_agrees_with_the_greedy_regular_expression(data: st.DataObject) -> None:
    matcher = data.draw(templates())
    uri = data.draw(st.one_of(near_misses(matcher), st.text(st.sampled_from(ALPHABET))))
    expected = reference(matcher).fullmatch(uri)
    assert matcher.match(uri) == (None if expected is None else expected.groupdict())


@given(st.data())
def test_a_resource_matches_what_the_reference_matches(data: st.DataObject) -> None:
    matcher = data.draw(templates())
    template = matcher.literals[0] + "".join(
        ("{+" if reserved else "{") + name + "}" + text
        for name, reserved, text in zip(
            matcher.names, matcher.reserved, matcher.literals[1:], strict=True
        )
    )

    def read(**values: str) -> str:
        return ""

    read.__annotations__ = dict.fromkeys(matcher.names, str)
    keyword = inspect.Parameter.KEYWORD_ONLY
    read.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(name, keyword) for name in matcher.names]
    )
    resource = make_resource("read", read, ResourceOptions("t:" + template))
    uri = "t:" + data.draw(near_misses(matcher))
    expected = reference(matcher).fullmatch(uri[2:])
    assert resource.match(uri) == (None if expected is None else expected.groupdict())


def test_a_uri_over_the_bound_matches_nothing_and_says_why() -> None:
    matcher = TemplateMatcher(("t://", "-", ""), ("a", "b"), (False, False))
    longest = "t://" + "a-" * ((MAX_URI_LENGTH - 5) // 2) + "b"
    assert len(longest) <= MAX_URI_LENGTH and uri_too_long(longest) is None
    assert matcher.match(longest) is not None
    message = uri_too_long(longest + "x" * 2)
    assert message is not None and f"{MAX_URI_LENGTH:,}" in message
