"""Resource templates (RFC 6570 simple and reserved expansion) read back what was
expanded into them, and nothing else: hypothesis builds templates and values, expands
them as RFC 6570's simple string expansion does (percent-encoding all but the
unreserved characters), and the resource must match the URI with the very values,
converted to the parameters' types; a value that could lead a method out of its folder
(a ``..`` segment, an absolute path, a NUL, a slash in ``{name}``) is refused however
it was encoded."""

from __future__ import annotations

import inspect
import keyword
import urllib.parse
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import objmcp
from objmcp.model.finding.publish import ResourceOptions
from objmcp.model.finding.resources import make_resource

NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda name: not keyword.iskeyword(name)
)
LITERAL = st.text(st.sampled_from("abcxyz-._~"), max_size=4)
SEPARATOR = st.builds(
    lambda before, mark, after: before + mark + after,
    LITERAL,
    st.sampled_from(["/", "?", "#", ",", ";", "=", "&"]),
    LITERAL,
)


def could_leave_a_folder(text: str, slashes: bool = False) -> bool:
    """Whether a template refuses ``text``: a NUL, an absolute path (``/x``, ``\\x``,
    ``C:``), a ``..`` segment, or a slash where the variable is not ``{+name}``."""
    segments = text.replace("\\", "/").split("/")
    absolute = text[:1] in ("/", "\\") or (
        text[1:2] == ":" and text[:1].isascii() and text[:1].isalpha()
    )
    return "\x00" in text or absolute or ".." in segments or (not slashes and text != segments[0])


VALUES = st.text(min_size=1, max_size=12).filter(lambda text: not could_leave_a_folder(text))


def method_for(names: list[str], kinds: list[type]) -> Any:
    """A method whose parameters are ``names``, annotated with ``kinds``."""

    def read(**values: object) -> object:
        return values

    parameters = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=kind)
        for name, kind in zip(names, kinds, strict=True)
    ]
    read.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    read.__annotations__ = dict(zip(names, kinds, strict=True))
    return read


@given(st.data())
def test_an_expanded_template_matches_with_its_values(data: st.DataObject) -> None:
    names = data.draw(st.lists(NAMES, min_size=1, max_size=4, unique=True))
    kinds = data.draw(
        st.lists(st.sampled_from([str, int]), min_size=len(names), max_size=len(names))
    )
    head = data.draw(st.sampled_from(["notes://", "file:///x/", "urn:a:"]))
    separators = data.draw(st.lists(SEPARATOR, min_size=len(names) - 1, max_size=len(names) - 1))
    tail = data.draw(LITERAL)
    template = (
        head
        + "".join(
            "{" + name + "}" + (separators[index] if index < len(separators) else "")
            for index, name in enumerate(names)
        )
        + tail
    )
    values: dict[str, object] = {
        name: data.draw(st.integers(-(10**6), 10**6) if kind is int else VALUES)
        for name, kind in zip(names, kinds, strict=True)
    }
    resource = make_resource("read", method_for(names, kinds), ResourceOptions(template))
    uri = template
    for name, value in values.items():
        uri = uri.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))

    found = resource.match(uri)
    assert found is not None, uri
    assert resource.arguments(found) == values
    assert resource.match(uri + "/more") is None  # no variable takes a "/"
    assert resource.match("other" + uri) is None


@given(st.data())
def test_a_uri_that_leaves_the_literal_text_does_not_match(data: st.DataObject) -> None:
    literal = data.draw(st.text(st.sampled_from("abc/:"), min_size=1, max_size=6))
    resource = make_resource(
        "read", method_for(["key"], [str]), ResourceOptions(f"k://{literal}/{{key}}")
    )
    other = data.draw(st.text(st.sampled_from("abc/:"), min_size=1, max_size=6))
    uri = f"k://{other}/value"
    assert (resource.match(uri) is not None) == (other == literal)


@given(VALUES)
def test_a_static_resource_matches_its_own_uri_only(text: str) -> None:
    resource = make_resource("read", method_for([], []), ResourceOptions("notes://all"))
    assert resource.match("notes://all") == {}
    assert resource.match(text) is None or text == "notes://all"


@pytest.mark.parametrize("template", ["t://{a}{b}", "t://{a}/{a}"])
def test_a_template_that_cannot_be_read_back_is_refused(template: str) -> None:
    with pytest.raises(objmcp.TargetError, match="where one variable ends"):
        make_resource("read", method_for(["a", "b"], [str, str]), ResourceOptions(template))


ANY_TEXT = st.text(st.sampled_from("ab./\\:C\x00%"), min_size=1, max_size=8)


@given(ANY_TEXT, st.booleans())
def test_a_value_that_could_leave_a_folder_is_refused(text: str, slashes: bool) -> None:
    template = "t://x/{+key}" if slashes else "t://x/{key}"
    resource = make_resource("read", method_for(["key"], [str]), ResourceOptions(template))
    found = resource.match("t://x/" + urllib.parse.quote(text, safe=""))
    assert found == {"key": text}
    if could_leave_a_folder(text, slashes):
        with pytest.raises(objmcp.ArgumentError, match="URI variable 'key'"):
            resource.arguments(found)
    else:
        assert resource.arguments(found) == {"key": text}
    raw = resource.match("t://x/" + text.replace("%", "%25").replace("\x00", "%00"))
    assert (raw is not None) == (slashes or "/" not in text)  # {name} is one segment
