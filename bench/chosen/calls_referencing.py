"""The calls of ``referencing`` (rank 72, tuning).

Written from referencing's documentation (the "Introduction" page: a ``Registry`` is given
resources with ``with_resource`` / ``with_contents``, ``crawl`` ed, and asked for a
``resolver``; the API page for ``Registry``), each answer computed by calling referencing itself.
The target is one empty ``Registry`` (made with no arguments). A registry is immutable: each
call gives a new one and the served one stays empty, so each answer is the call made on an empty
registry. A ``Registry`` or ``Resolver`` has no JSON form: its text (``str``, which says how many
resources it holds); a resource is sent as the JSON schema it holds, as a model has it.

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``get`` (with a
``default``), ``items`` and ``resolver_with_root`` (a resource sent as its schema), the first
three whose call on the empty registry has an answer (``anchor``, ``contents``,
``get_or_retrieve`` answer only with an error; ``combine`` takes registries, which have no JSON
form).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
PERSON_URI = "https://example.com/person"
PERSON = {
    "$schema": DRAFT,
    "$id": PERSON_URI,
    "type": "object",
    "properties": {"name": {"type": "string"}, "address": {"$ref": "address"}},
}
ADDRESS_URI = "https://example.com/address"
ADDRESS = {"$schema": DRAFT, "type": "object", "properties": {"city": {"type": "string"}}}


def _registry() -> Any:
    return importlib.import_module("referencing").Registry()


def _with_resource(uri: str, contents: dict[str, Any]) -> str:
    resource = importlib.import_module("referencing").Resource.from_contents(contents)
    return str(_registry().with_resource(uri, resource))


TARGETS: tuple[Target, ...] = (
    Target(
        "referencing:Registry",
        (
            Call(
                "with_contents",
                {"pairs": [[PERSON_URI, PERSON]]},
                lambda: str(_registry().with_contents([(PERSON_URI, PERSON)])),
            ),
            Call(
                "with_contents",
                {"pairs": [[PERSON_URI, PERSON], [ADDRESS_URI, ADDRESS]]},
                lambda: str(
                    _registry().with_contents([(PERSON_URI, PERSON), (ADDRESS_URI, ADDRESS)])
                ),
            ),
            Call(
                "with_resource",
                {"uri": ADDRESS_URI, "resource": ADDRESS},
                lambda: _with_resource(ADDRESS_URI, ADDRESS),
            ),
            Call("crawl", {}, lambda: str(_registry().crawl())),
            Call(
                "resolver",
                {"base_uri": "https://example.com/"},
                lambda: str(_registry().resolver("https://example.com/")),
            ),
            Call("keys", {}, lambda: expected_json(list(_registry().keys()))),
            Call(
                "get",
                {"key": "https://example.com/missing", "default": {}},
                lambda: _registry().get("https://example.com/missing", {}),
            ),
            Call("items", {}, lambda: expected_json(list(_registry().items()))),
            Call(
                "resolver_with_root",
                {"resource": ADDRESS},
                lambda: str(
                    _registry().resolver_with_root(
                        importlib.import_module("referencing").Resource.from_contents(ADDRESS)
                    )
                ),
            ),
        ),
    ),
)
