"""The calls of ``pathspec`` (rank 43, tuning).

Written from pathspec's documentation (its README, "Tutorial": ``GitIgnoreSpec.from_lines(
lines)``, and ``PathSpec``/``GitIgnoreSpec``'s ``backend`` parameter, "Performance"), each
answer computed by calling pathspec itself: a spec has no JSON form, so it is said by its text
(``str()``, which lists its compiled patterns). The tutorial's next step, ``match_file`` /
``match_files`` on the spec, is a method of the instance ``from_lines`` makes: the served
target, the class, has no instance (its constructor needs the patterns), so no call here asks
for it.

More calls (issue 37), taken by the rule of the README's "More tuning calls":
``GitIgnoreSpec``'s other methods belong to an instance made from patterns, which the class
target cannot make, so the rule adds the target ``pathspec`` (the module): ``lookup_pattern`` (a
class as its text) and, after ``iter_tree`` and ``match_files`` (deprecated) and the classes
that take ``Pattern`` objects (``GitIgnoreSpec``, ``PathSpec``, ``Pattern``), the constructor
``RegexPattern`` (its text, the regular expression), twice (its ``include`` must be null
for a string pattern).
"""

from __future__ import annotations

import importlib

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

PYTHON = ["__pycache__/", "*.py[cod]", "build/", "dist/", "*.egg-info/"]
NEGATED = ["*.log", "!important.log", "/tmp/"]
COMMENTED = ["# editor files", "*~", "", "*.swp", "\\#notes.txt"]


def _spec(lines: list[str], backend: str | None = None) -> str:
    spec_class = importlib.import_module("pathspec").GitIgnoreSpec
    if backend is None:
        return str(spec_class.from_lines(lines))
    return str(spec_class.from_lines(lines, backend=backend))


TARGETS: tuple[Target, ...] = (
    Target(
        "pathspec:GitIgnoreSpec",
        (
            Call("from_lines", {"lines": PYTHON}, lambda: _spec(PYTHON)),
            Call("from_lines", {"lines": NEGATED}, lambda: _spec(NEGATED)),
            Call("from_lines", {"lines": COMMENTED}, lambda: _spec(COMMENTED)),
            Call(
                "from_lines",
                {"lines": ["*.pyc"], "backend": "simple"},
                lambda: _spec(["*.pyc"], "simple"),
            ),
        ),
    ),
    Target(
        "pathspec",
        (
            Call(
                "lookup_pattern",
                {"name": "gitwildmatch"},
                lambda: str(importlib.import_module("pathspec").lookup_pattern("gitwildmatch")),
            ),
            Call(
                "RegexPattern",
                {"pattern": "^build/.*$"},
                lambda: str(importlib.import_module("pathspec").RegexPattern("^build/.*$")),
            ),
            Call(
                "RegexPattern",
                {"pattern": "\\.log$"},
                lambda: str(importlib.import_module("pathspec").RegexPattern("\\.log$")),
            ),
        ),
    ),
)
