"""The calls of ``uritemplate`` (rank 228, held-out, second walk).

Written from uritemplate's documentation (its README on PyPI: ``expand(gist_uri,
gist_id='123456')`` and ``expand(gist_uri, {'gist_id': '123456'})``, ``URITemplate(uri)``;
uritemplate.readthedocs.io's API: ``expand(uri, var_dict=None, **kwargs)``, ``partial``,
``variables``, with their docstrings' examples), each answer computed by calling uritemplate
itself. The variables' dictionaries (``var_dict``, with a list value for an RFC 6570 exploded
list) are the non-string values; the README's note says URI parameters are strings, so the
values are. One call passes a variable by its name, as the README's first example and
``expand``'s docstring (``expand('https://api.github.com{/end}', end='gists')``) do.

A ``URITemplate`` (what ``partial`` gives, and the class's constructor) has no JSON form: it is
said as its documented text form, ``str(t)``, the template's URI. ``variables`` gives an
ordered set: a list.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

GIST = "https://api.github.com/users/sigmavirus24/gists{/gist_id}"
REPOS = "https://api.github.com/repos{/username}{/repository}"


def _ut() -> Any:
    return importlib.import_module("uritemplate")


TARGETS: tuple[Target, ...] = (
    Target(
        "uritemplate",
        (
            Call(
                "expand",
                {"uri": GIST, "var_dict": {"gist_id": "123456"}},
                lambda: _ut().expand(GIST, {"gist_id": "123456"}),
            ),
            Call(
                "expand",
                {"uri": "https://api.github.com{/end}", "end": "gists"},
                lambda: _ut().expand("https://api.github.com{/end}", end="gists"),
            ),
            Call(
                "expand",
                {
                    "uri": "https://example.com/search{?q,page}",
                    "var_dict": {"q": "cats", "page": "2"},
                },
                lambda: _ut().expand(
                    "https://example.com/search{?q,page}", {"q": "cats", "page": "2"}
                ),
            ),
            Call(
                "expand",
                {
                    "uri": "https://example.com/colors{?list*}",
                    "var_dict": {"list": ["red", "green", "blue"]},
                },
                lambda: _ut().expand(
                    "https://example.com/colors{?list*}", {"list": ["red", "green", "blue"]}
                ),
            ),
            Call("variables", {"uri": REPOS}, lambda: list(_ut().variables(REPOS))),
            Call(
                "partial",
                {"uri": REPOS, "var_dict": {"username": "sigmavirus24"}},
                lambda: str(_ut().partial(REPOS, {"username": "sigmavirus24"})),
            ),
            Call("URITemplate", {"uri": GIST}, lambda: str(_ut().URITemplate(GIST))),
        ),
    ),
)
