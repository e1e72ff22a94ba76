"""The search benchmark's requests for ``bs4:BeautifulSoup``: written from its documentation (the
docstrings of the 15 sampled BeautifulSoup methods; for the BS3-era camelCase names, whose
docstring is only ":meta private:", the bs4/element.py alias declarations and the docstrings of
the methods they alias: find_parents, find_next_siblings, find_previous, find_previous_siblings,
encode_contents, .parents; the Beautiful Soup documentation pages known), before any search was
run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "bs4:BeautifulSoup"

REQUESTS: tuple[Request, ...] = (
    Request("closing tag event handler", "terse", ("handle_endtag",)),
    Request(
        "I want the nearest earlier element in the document matching a tag name, searching "
        "backwards.",
        "sentence",
        ("find_previous", "findPrevious"),
    ),
    Request(
        "entity-escape a string with the minimal or html output formatter",
        "jargon",
        ("format_string",),
    ),
    Request(
        "of all the page sections wrapped around this bit of text, which ones are tables",
        "layman",
        ("fetchParents", "find_parents", "findParents"),
    ),
    Request(
        "read the href atribute of a tag, with a defualt if it's missing",
        "typos",
        ("get",),
    ),
    Request("add sibling node ahead of element", "terse", ("insert_before",)),
    Request(
        "I need all the visible text of the page joined into one string, without the markup.",
        "sentence",
        ("getText", "get_text"),
    ),
    Request(
        "add a node as the last child of an element in the DOM tree",
        "jargon",
        ("append",),
    ),
    Request(
        "tell the page reader that a run of words has finished so it gets stored",
        "layman",
        ("endData",),
    ),
    Request(
        "iterate over all ancestors of an elemnt, walking up to the documnet root",
        "typos",
        ("parentGenerator", "find_parents", "findParents", "fetchParents"),
    ),
    Request("full document markup as str", "terse", ("decode",)),
    Request(
        "I want the inner markup of the document rendered as UTF-8 bytes, optionally indented.",
        "sentence",
        ("renderContents", "encode_contents"),
    ),
    Request(
        "all following siblings matching a tag-name filter",
        "jargon",
        ("findNextSiblings", "find_next_siblings", "fetchNextSiblings"),
    ),
    Request(
        "look back up the page for the closest heading that came before this point",
        "layman",
        ("findPrevious", "find_previous"),
    ),
    Request(
        "get all earlier siblngs of this tag that are paragraps",
        "typos",
        ("findPreviousSiblings", "find_previous_siblings", "fetchPreviousSiblings"),
    ),
)
