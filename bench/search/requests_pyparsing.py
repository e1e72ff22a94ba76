"""The search benchmark's requests for ``pyparsing``: written from its documentation (the
docstrings of the 15 sampled names and of their PEP 8 / camelCase twins, LineEnd, Keyword,
CaselessLiteral, MatchFirst, one_of, make_xml_tags, Diagnostics, enable_diag; the reprs of the
predefined expressions, e.g. "C++ style comment", "common HTML entity"; the pyparsing docs pages
known), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "pyparsing"

REQUESTS: tuple[Request, ...] = (
    Request("base class atomic terminal matcher", "terse", ("Token",)),
    Request(
        "I want to turn off one specific global grammar warning flag.",
        "sentence",
        ("disable_diag",),
    ),
    Request(
        "case-insensitive reserved word match with identifier-boundary check",
        "jargon",
        ("CaselessKeyword", "Keyword"),
    ),
    Request(
        "spot the little codes like &amp; that web pages use in place of special symbols",
        "layman",
        ("common_html_entity", "commonHTMLEntity"),
    ),
    Request(
        "acess parsed tokens by name or by index after parsng",
        "typos",
        ("ParseResults",),
    ),
    Request("newline position matcher", "terse", ("lineEnd", "line_end", "LineEnd")),
    Request(
        "When several alternatives could match, I want the one consuming the longest input chosen.",
        "sentence",
        ("Or",),
    ),
    Request(
        "length-prefixed list: a leading integer count, then that many items",
        "jargon",
        ("counted_array", "countedArray"),
    ),
    Request(
        "skip the // and /* */ notes programmers leave in their code",
        "layman",
        ("cpp_style_comment", "cppStyleComment", "java_style_comment", "javaStyleComment"),
    ),
    Request(
        "match any HTML clsoing tag like </div>, whatever its nmae",
        "typos",
        ("anyCloseTag", "any_close_tag"),
    ),
    Request("double-quoted string literal", "terse", ("dbl_quoted_string", "dblQuotedString")),
    Request(
        "I need matchers for the opening and closing tags of a given XML element, case-sensitive.",
        "sentence",
        ("makeXMLTags", "make_xml_tags"),
    ),
    Request(
        "longest-first alternation of literal tokens from a space-separated list",
        "jargon",
        ("oneOf", "one_of"),
    ),
    Request(
        "leave out the side remarks in C or Java programs that the computer never runs",
        "layman",
        ("cppStyleComment", "cpp_style_comment", "java_style_comment", "javaStyleComment"),
    ),
    Request(
        "pull the link text and href out of <a> tags in html with a grammer, any case",
        "typos",
        ("make_html_tags", "makeHTMLTags"),
    ),
)
