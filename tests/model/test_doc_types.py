"""The types docstrings name, as libraries write them (issue 22, section 3): numpydoc's
``int, optional`` and ``{'a', 'b'}``, Sphinx's ``:type x:``, Google's ``x (int)``, and
``array_like`` as a scalar or an array of any values (nested arrays of numbers where the
words say numbers: ``array_like of float``, ``real array_like``)."""

from __future__ import annotations

import inspect
import json
import keyword
import logging
import string
import typing
from typing import Any

import jsonschema
import numpy
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp import Toolbox
from objmcp.model.describe.docs import read_docs
from objmcp.model.describe.doctypes import doc_type, python_only
from objmcp.model.describe.schema import SchemaBuilder
from objmcp.model.values.convert import from_json

EMPTY: Any = inspect.Parameter.empty
NAMED = {
    "int": int,
    "integer": int,
    "str": str,
    "string": str,
    "float": float,
    "bool": bool,
    "boolean": bool,
    "dict": dict,
}
"""Plain type names and the type each is."""


def schema_of(hint: object) -> dict[str, Any]:
    return SchemaBuilder().schema(hint)


decorations = st.sampled_from(
    [
        "{}",
        "{}, optional",
        "{}, default 5",
        "{}, default: 5",
        "{}, default='x, y'",
        "{}, optional (default=nx.Graph(len(G)))",
        ":class:`{}`",
        ":obj:`{}`, optional",
        "``{}``",
        "{} (default=None)",
    ]
)


@given(st.sampled_from(sorted(NAMED)), decorations)
def test_what_is_said_of_the_default_does_not_change_the_type(name: str, shape: str) -> None:
    assert doc_type(shape.format(name)) is NAMED[name]


@given(st.lists(st.sampled_from(sorted(NAMED)), min_size=2, max_size=4, unique=True))
def test_alternatives_are_a_union_of_each_one(names: list[str]) -> None:
    phrase = ", ".join(names[:-1]) + " or " + names[-1]
    expected = {NAMED[name] for name in names}
    hint = doc_type(phrase)
    assert set(typing.get_args(hint) if len(expected) > 1 else {hint}) == expected


@given(st.lists(st.sampled_from(sorted(NAMED)), min_size=1, max_size=3, unique=True))
def test_an_alternative_only_python_can_pass_is_left_to_python(names: list[str]) -> None:
    bare = doc_type(" or ".join(names))
    for python_only_word in ("callable", "function", "RandomState instance", "file-like object"):
        assert doc_type(" or ".join([*names, python_only_word])) == bare
        assert python_only(" or ".join([*names, python_only_word])) is None
    assert python_only(" or ".join(["callable", "None"])) == "a callable"


identifiers = st.text(string.ascii_lowercase + "_", min_size=1, max_size=12).filter(
    lambda word: not keyword.iskeyword(word)
)


@given(st.lists(identifiers, min_size=1, max_size=6, unique=True), st.booleans())
def test_a_set_of_quoted_choices_is_an_enum_of_them(words: list[str], double: bool) -> None:
    quote = '"' if double else "'"
    phrase = "{" + ", ".join(f"{quote}{word}{quote}" for word in words) + "}, optional"
    schema = schema_of(doc_type(phrase))
    assert schema["enum"] == words
    for word in words:
        jsonschema.validate(word, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("".join(words) + "?", schema)


@given(st.sampled_from(sorted(NAMED)), st.sampled_from(["list", "sequence", "tuple", "set"]))
def test_a_container_of_a_type_holds_that_type(name: str, kind: str) -> None:
    hint = doc_type(f"{kind} of {name}s")
    assert typing.get_origin(hint) is not None and typing.get_args(hint)[0] is NAMED[name]
    # a str is a sequence of str, as Python sees it; never a list or a tuple
    takes_text = jsonschema.Draft202012Validator(schema_of(hint)).is_valid("text")
    assert takes_text == (kind == "sequence" and NAMED[name] is str)


numbers = st.one_of(st.integers(-(10**6), 10**6), st.floats(allow_nan=False, allow_infinity=False))
scalars = st.one_of(numbers, st.text(max_size=5), st.booleans(), st.none())


def nested(levels: int, items: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    """``items`` in arrays ``levels`` deep, every branch as deep (as numpy wants them)."""
    return items if levels == 0 else st.lists(nested(levels - 1, items), max_size=4)


def arrays(items: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.integers(0, 3).flatmap(lambda levels: nested(levels, items))


def validator(phrase: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema_of(doc_type(phrase)))


ARRAY_WORDS = ("array_like", "Array-like", "ndarray", "Array", "array-like or scalar-like")
SHAPES = ("{}", "(N, M) {}", "{}, optional", "scalar or {}", ":class:`{}`")
NUMERIC_SHAPES = (
    "real {}",
    "numeric {}",
    "float {}",
    "{}, non-negative",
    "{}, real-valued",
    "{} of float",
    "{} of numbers",
)


@given(st.sampled_from(ARRAY_WORDS), st.sampled_from(SHAPES), arrays(scalars))
@settings(max_examples=150, deadline=None)
def test_an_array_like_is_a_scalar_or_an_array_of_any_values_passed_on_as_they_are(
    word: str, shape: str, value: object
) -> None:
    phrase = shape.format(word)
    validator(phrase).validate(value)
    assert from_json(value, doc_type(phrase)) == value
    assert not validator(phrase).is_valid({"not": value})


@given(st.sampled_from(ARRAY_WORDS[:4]), st.sampled_from(NUMERIC_SHAPES), arrays(numbers))
@settings(max_examples=150, deadline=None)
def test_an_array_like_the_words_say_is_numeric_holds_numbers_only(
    word: str, shape: str, value: object
) -> None:
    phrase = shape.format(word)
    validator(phrase).validate(value)
    assert from_json(value, doc_type(phrase)) == value
    assert not validator(phrase).is_valid([value, "text"])
    assert not validator(phrase).is_valid("text")


@given(st.text(max_size=60))
@settings(max_examples=300)
def test_any_text_reads_as_a_type_with_a_schema_or_as_none(text: str) -> None:
    hint = doc_type(text)
    jsonschema.Draft202012Validator.check_schema(schema_of(hint))


# --- real libraries -----------------------------------------------------------------------


def test_numpy_combined_entries_type_both_parameters_and_numpy_takes_the_lists() -> None:
    tools = Toolbox(numpy, include=["add", "ravel", "take"])
    properties = tools["add"].input_schema["properties"]
    assert properties["x1"] == properties["x2"] and "anyOf" in properties["x1"]
    assert properties["x1"]["description"] == read_docs(numpy.add).params["x1"]
    result = tools.call("add", {"x1": [[1, 2], [3, 4]], "x2": 10})
    assert json.loads(result.text) == numpy.add([[1, 2], [3, 4]], 10).tolist()
    taken = tools.call("take", {"a": [5, 6, 7], "indices": [2, 0]})
    assert json.loads(taken.text) == [7, 5], "indices stay integers"


def test_numpy_choices_are_an_enum_numpy_accepts_every_value_of() -> None:
    tools = Toolbox(numpy, include=["ravel"])
    order = tools["ravel"].input_schema["properties"]["order"]
    assert order["enum"], order
    matrix = [[1, 2], [3, 4]]
    for choice in order["enum"]:
        result = tools.call("ravel", {"a": matrix, "order": choice})
        assert json.loads(result.text) == numpy.ravel(matrix, order=choice).tolist()
    refused = tools.call("ravel", {"a": matrix, "order": "Z"})
    assert refused.is_error and "order" in refused.text


def test_json_dump_needs_a_file_object_its_prose_says_so(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="objmcp"):
        tools = Toolbox(json)
    assert "dumps" in tools and "dump" not in tools and "load" not in tools
    said = "\n".join(record.getMessage() for record in caplog.records)
    assert "tool 'dump' left out: its parameter fp needs a file object" in said


def test_a_description_goes_on_past_a_role() -> None:
    broken = [
        function
        for function in (sympy.binomial_coefficients, sympy.simplify_logic)
        if (inspect.getdoc(function) or "").split("\n\n")[0].count(":") >= 2
    ]
    assert broken, "sympy's summaries no longer hold roles"
    for function in broken:
        summary = (inspect.getdoc(function) or "").split("\n\n")[0]
        description = read_docs(function).description
        assert ":func:" not in description and ":class:" not in description
        last_words = summary.split()[-2:]
        for word in last_words:
            assert word.strip("`").rsplit("`", 1)[-1].strip(".~") in description, (
                word,
                description,
            )


def google_style(path, mode=None, *, encoding="utf-8", newline=None):  # type: ignore[no-untyped-def]
    """Args:
        path (:obj:`str`): Where the file is; see :func:`~os.path.join`.
        mode (:obj:`str`, optional): How to open it.

    Keyword Args:
        encoding (str): The text encoding.

    Other Parameters:
        newline (str or None): The line ending.
    """
    return path, mode, encoding, newline


def sphinx_style(count, names=None):  # type: ignore[no-untyped-def]
    """Repeat names.

    :param int count: How many times.
    :param names: Which names.
    :type names: list of str
    """
    return count, names


def test_google_and_sphinx_entries_give_text_and_types() -> None:
    tools = Toolbox({"google_style": google_style, "sphinx_style": sphinx_style})
    google = tools["google_style"].input_schema["properties"]
    assert google["path"]["type"] == "string" and "join" in google["path"]["description"]
    assert google["encoding"] == {
        "type": "string",
        "description": "The text encoding.",
        "default": "utf-8",
    }
    assert google["newline"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    assert google["newline"]["description"] == "The line ending."
    sphinx = tools["sphinx_style"].input_schema["properties"]
    assert sphinx["count"]["type"] == "integer"
    assert sphinx["names"]["anyOf"][0] == {"type": "array", "items": {"type": "string"}}


def test_networkx_node_parameters_take_the_nodes_of_a_real_graph() -> None:
    import networkx

    tools = Toolbox(networkx, include=["shortest_path", "descendants"])
    graph = networkx.grid_2d_graph(2, 2)  # nodes are tuples: JSON arrays
    for name, parameter in [("shortest_path", "source"), ("descendants", "source")]:
        validator = jsonschema.Draft202012Validator(
            tools[name].input_schema["properties"][parameter]
        )
        for node in [*graph.nodes, *networkx.path_graph(3).nodes, "a"]:
            plain = list(node) if isinstance(node, tuple) else node
            assert validator.is_valid(plain), (name, node)
            assert from_json(plain, tools[name].parameters[1].hint) == node
        assert not validator.is_valid({"node": 1})


TYPE_PHRASES = (
    "int",
    "numpy.int64",
    "int or float, optional",
    "str, optional",
    "bool",
    "list of str",
)
SENTENCE = st.from_regex(r"[A-Z][a-z]{1,8}( [a-z`()]{1,8}){0,5}\.?", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TYPE_PHRASES), SENTENCE, st.sampled_from(("", "    More of it.")))
def test_a_sentence_on_a_types_line_is_the_parameters_text(
    type_phrase: str, sentence: str, more: str
) -> None:
    def tool(count):  # type: ignore[no-untyped-def]
        return count

    tool.__doc__ = f"Count.\n\nParameters\n----------\ncount  : {type_phrase}. {sentence}\n{more}\n"
    docs = read_docs(tool)
    assert docs.type_names["count"] == type_phrase
    assert docs.params["count"] == "\n".join(part for part in (sentence, more.strip()) if part)
