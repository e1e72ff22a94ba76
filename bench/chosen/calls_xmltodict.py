"""The calls of ``xmltodict`` (rank 289, third walk).

Written from xmltodict's documentation (its README on PyPI, the package's long description:
the opening ``parse`` example, "Namespace support", "Roundtripping" with ``unparse``, and the
"API Reference" of ``parse`` and ``unparse``), each answer computed by calling xmltodict
itself, in JSON's terms (the dictionaries ``parse`` gives as they are; ``unparse`` gives text).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

DOCUMENT = (
    '<mydocument has="an attribute"><and><many>elements</many><many>more elements</many>'
    '</and><plus a="complex">element as well</plus></mydocument>'
)
NAMESPACED = (
    '<root xmlns="http://defaultns.com/" xmlns:a="http://a.com/" xmlns:b="http://b.com/">'
    "<x>1</x><a:y>2</a:y><b:z>3</b:z></root>"
)
NAMESPACES = {"http://defaultns.com/": None, "http://a.com/": "ns_a"}
CATALOGUE = "<catalogue><book><title>Dune</title></book></catalogue>"
RESPONSE = {"response": {"status": "good", "last_updated": "2014-02-16T23:10:12Z"}}
LINE = {"line": {"points": [[1, 5], [2, 6]]}}


def _xmltodict() -> Any:
    return importlib.import_module("xmltodict")


TARGETS: tuple[Target, ...] = (
    Target(
        "xmltodict",
        (
            Call(
                "parse",
                {"xml_input": DOCUMENT},
                lambda: expected_json(_xmltodict().parse(DOCUMENT)),
            ),
            Call(
                "parse",
                {"xml_input": NAMESPACED, "process_namespaces": True, "namespaces": NAMESPACES},
                lambda: expected_json(
                    _xmltodict().parse(NAMESPACED, process_namespaces=True, namespaces=NAMESPACES)
                ),
            ),
            Call(
                "parse",
                {"xml_input": CATALOGUE, "force_list": ["book"]},
                lambda: expected_json(_xmltodict().parse(CATALOGUE, force_list=("book",))),
            ),
            Call(
                "unparse",
                {"input_dict": RESPONSE, "pretty": True},
                lambda: _xmltodict().unparse(RESPONSE, pretty=True),
            ),
            Call(
                "unparse",
                {"input_dict": LINE, "pretty": True, "expand_iter": "coord"},
                lambda: _xmltodict().unparse(LINE, pretty=True, expand_iter="coord"),
            ),
        ),
    ),
)
