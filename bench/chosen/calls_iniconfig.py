"""The calls of ``iniconfig`` (rank 32, tuning).

Written from iniconfig's documentation (its README, "Basic Example", and the docstring of
``IniConfig.parse``, the documented way to parse text with its options), each answer computed by
calling iniconfig itself. The target ``iniconfig:IniConfig`` needs a path to be made, so objmcp
serves only its class method ``parse``; the INI text is passed as ``data`` (``path`` then only
names it in errors), so nothing is read from disk. An ``IniConfig`` has no JSON form and its
``str`` is its address: its answer here is what it holds, its ``sections`` (section name to
``{name: value}``), as the README reads them (``ini["section"]["name"]``).

More calls (issue 37), taken by the rule of the README's "More tuning calls": ``IniConfig``'s
methods ``get`` and ``lineof`` belong to an instance made from a path, which the class target
cannot make, so the rule adds the target ``iniconfig`` (the module), whose ``IniConfig`` is
called as a constructor with the text as ``data``; its answer, as above, is its ``sections``.
Its only other public callables are ``ParseError`` (an exception) and ``SectionWrapper`` (made
by an ``IniConfig``). Every parameter is a string: no call can carry a number, list or object.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

SETUP_CFG = "[metadata]\nname = demo\nversion = 1.0\n\n[options]\npython_requires = >=3.9\n"
TOX_INI = "[tox]\nenvlist = py311, lint  # the two we run\n\n[testenv]\ndeps = pytest\n"
PYTEST_INI = "[pytest]\naddopts = -ra -q\ntestpaths =\n    tests\n    integration\n"
SPACED = "[ server ]\nhost = example.org\nport = 8080\n"


def _made(path: str, data: str) -> dict[str, dict[str, str]]:
    config = importlib.import_module("iniconfig").IniConfig(path, data)
    return {name: dict(values) for name, values in config.sections.items()}


def _sections(path: str, data: str, **options: Any) -> dict[str, dict[str, str]]:
    config = importlib.import_module("iniconfig").IniConfig.parse(path, data, **options)
    return {name: dict(values) for name, values in config.sections.items()}


TARGETS: tuple[Target, ...] = (
    Target(
        "iniconfig:IniConfig",
        (
            Call(
                "parse",
                {"path": "setup.cfg", "data": SETUP_CFG},
                lambda: _sections("setup.cfg", SETUP_CFG),
            ),
            Call(
                "parse",
                {"path": "tox.ini", "data": TOX_INI, "strip_inline_comments": False},
                lambda: _sections("tox.ini", TOX_INI, strip_inline_comments=False),
            ),
            Call(
                "parse",
                {"path": "pytest.ini", "data": PYTEST_INI},
                lambda: _sections("pytest.ini", PYTEST_INI),
            ),
            Call(
                "parse",
                {"path": "server.ini", "data": SPACED, "strip_section_whitespace": True},
                lambda: _sections("server.ini", SPACED, strip_section_whitespace=True),
            ),
        ),
    ),
    Target(
        "iniconfig",
        (
            Call(
                "IniConfig",
                {"path": "setup.cfg", "data": SETUP_CFG},
                lambda: _made("setup.cfg", SETUP_CFG),
            ),
            Call(
                "IniConfig",
                {"path": "tox.ini", "data": TOX_INI},
                lambda: _made("tox.ini", TOX_INI),
            ),
            Call(
                "IniConfig",
                {"path": "pytest.ini", "data": PYTEST_INI},
                lambda: _made("pytest.ini", PYTEST_INI),
            ),
        ),
    ),
)
