"""Signatures only their text writes, read back as written: a ``__text_signature__`` with
``<unrepresentable>`` defaults, a docstring's first line in either form, a numpydoc
``Parameters`` section; and text that writes none is no signature, never an error."""

from __future__ import annotations

import inspect
import itertools
import keyword
import string

from hypothesis import given
from hypothesis import strategies as st

from objmcp.model.describe.textsignatures import (
    OMITTED,
    from_doc_line,
    from_parameters_section,
    from_text_signature,
)

P = inspect.Parameter
NAMES = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda name: not keyword.iskeyword(name) and name != "self"
)
DEFAULTS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.text(string.ascii_letters + " ", max_size=8)
)


KINDS = [
    P.POSITIONAL_ONLY,
    P.POSITIONAL_OR_KEYWORD,
    P.VAR_POSITIONAL,
    P.KEYWORD_ONLY,
    P.VAR_KEYWORD,
]


@st.composite
def signatures(draw: st.DrawFn) -> inspect.Signature:
    """A valid signature of every parameter kind, some with defaults."""
    names = draw(st.lists(NAMES, unique=True, max_size=9))
    size = len(names)
    kinds = sorted(draw(st.lists(st.sampled_from(KINDS), min_size=size, max_size=size)))
    params: list[P] = []
    defaulted = False
    for name, kind in zip(names, kinds, strict=False):
        if kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD):
            if any(p.kind is kind for p in params):
                continue
            params.append(P(name, kind))
            continue
        has_default = draw(st.booleans()) or (defaulted and kind is not P.KEYWORD_ONLY)
        defaulted = defaulted or (has_default and kind is not P.KEYWORD_ONLY)
        default = draw(DEFAULTS) if has_default else P.empty
        params.append(P(name, kind, default=default))
    return inspect.Signature(params)


def positional_only_until_a_slash(signature: inspect.Signature) -> inspect.Signature:
    """What a docstring's line means: with no ``/``, its positional parameters are
    positional-only (C functions take them so)."""
    if any(p.kind is P.POSITIONAL_ONLY for p in signature.parameters.values()):
        return signature
    return signature.replace(
        parameters=[
            p.replace(kind=P.POSITIONAL_ONLY) if p.kind is P.POSITIONAL_OR_KEYWORD else p
            for p in signature.parameters.values()
        ]
    )


@given(signatures(), st.sampled_from(["", " -> int", " -> new object"]))
def test_a_docstring_s_call_line_is_read_as_written(
    signature: inspect.Signature, returns: str
) -> None:
    read = from_doc_line(f"module.function{signature}{returns}\n\nWhat it does.")
    written = "int" if returns == " -> int" else P.empty  # "new object" is no annotation
    assert read == positional_only_until_a_slash(signature).replace(return_annotation=written)


class Builtin:
    """What a C callable shows of its signature (the text :mod:`inspect` reads)."""

    def __init__(self, text: str, bound_to: object) -> None:
        self.__text_signature__ = text
        self.__self__ = bound_to


def written_as_c_does(params: list[P], hidden: set[str]) -> list[str]:
    """A C method's parameters as its ``__text_signature__`` writes them: ``$self``
    first, ``/`` after the positional-only ones, the ``hidden`` defaults unrepresentable."""
    written = ["$self"]
    for p in params:
        if p.kind is not P.POSITIONAL_ONLY and "/" not in written:
            written.append("/")
        if p.kind is P.KEYWORD_ONLY and not any(q.kind is P.VAR_POSITIONAL for q in params):
            written += [] if "*" in written else ["*"]
        written.append(f"{p.name}=<unrepresentable>" if p.name in hidden else str(p))
    return written if "/" in written else [*written, "/"]


@given(signatures(), st.booleans(), st.data())
def test_a_text_signature_is_read_with_unrepresentable_defaults_left_optional(
    signature: inspect.Signature, bound: bool, data: st.DataObject
) -> None:
    params = list(signature.parameters.values())
    hidden = {
        p.name for p in params if p.default is not P.empty and data.draw(st.booleans(), p.name)
    }
    text = "(" + ", ".join(written_as_c_does(params, hidden)) + ")"
    read = from_text_signature(Builtin(text, object() if bound else None))
    expected = [p.replace(default=OMITTED) if p.name in hidden else p for p in params]
    if not bound:
        expected.insert(0, P("self", P.POSITIONAL_ONLY))
    assert read == inspect.Signature(expected)


@given(st.lists(NAMES, unique=True, min_size=1, max_size=6), st.data())
def test_a_docstring_s_arrow_line_makes_what_follows_a_bracket_optional(
    names: list[str], data: st.DataObject
) -> None:
    required = data.draw(st.integers(1, len(names)), "required")
    nested = data.draw(st.booleans(), "nested")
    text = ", ".join(names[:required])
    optional = names[required:]
    if nested:
        text += "".join(f"[, {name}" for name in optional) + "]" * len(optional)
    elif optional:
        text += "[, " + ", ".join(optional) + "]"
    read = from_doc_line(f"{text} -> what comes back\n\nMore words.")
    assert read is not None
    assert list(read.parameters) == names
    assert all(p.kind is P.POSITIONAL_ONLY for p in read.parameters.values())
    assert [p.default is OMITTED for p in read.parameters.values()] == [
        index >= required for index in range(len(names))
    ]


@given(st.dictionaries(NAMES, st.sampled_from(["", ", optional"]), max_size=6))
def test_a_parameters_section_gives_the_names_in_order_and_which_may_be_left_out(
    entries: dict[str, str],
) -> None:
    lines = ["Do something.", "", "Parameters", "----------"]
    for name, mark in entries.items():
        lines += [f"{name} : int{mark}", "    What it is."]
    read = from_parameters_section("\n".join(lines))
    optional = [bool(mark) for mark in entries.values()]
    if any(later < earlier for earlier, later in itertools.pairwise(optional)):
        assert read is None  # a required parameter after an optional one: no signature
        return
    assert read is not None
    assert list(read.parameters) == list(entries)
    assert [p.default is OMITTED for p in read.parameters.values()] == optional


@given(st.text())
def test_text_that_writes_no_signature_gives_none_and_never_raises(text: str) -> None:
    for read in (from_doc_line(text), from_parameters_section(text)):
        assert read is None or isinstance(read, inspect.Signature)
    assert from_doc_line("Return the sum, or raise ValueError -> never.") is None
    assert from_text_signature(Builtin(text, None)) is None or text.startswith("(")
