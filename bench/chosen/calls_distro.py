"""The calls of ``distro`` (rank 121, tuning).

Written from distro's documentation (the "API" page: ``distro.id()``, ``distro.name(pretty)``,
``distro.codename()``, ``distro.os_release_attr(attribute)``, ``distro.os_release_info()``),
each answer computed by calling distro itself on the machine the calls run on (these read
``/etc/os-release``; no network). ``version``, ``version_parts``, ``info`` and the other
version functions run ``lsb_release -a`` and ``uname -rs`` in subprocesses, so no call here
uses them.

distro's functions take only booleans and attribute names: no call of it can carry a number,
list, object or date.

More calls (issue 37), taken by the rule of the README's "More tuning calls":
``distro_release_attr``, ``distro_release_info`` and ``like``, the first three that start no
process (``build_number`` reads the version, which runs ``lsb_release``).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target, expected_json

__all__ = ["TARGETS"]


def _distro() -> Any:
    return importlib.import_module("distro")


TARGETS: tuple[Target, ...] = (
    Target(
        "distro",
        (
            Call("id", {}, lambda: _distro().id()),
            Call("name", {"pretty": True}, lambda: _distro().name(pretty=True)),
            Call("codename", {}, lambda: _distro().codename()),
            Call(
                "os_release_attr",
                {"attribute": "version_codename"},
                lambda: _distro().os_release_attr("version_codename"),
            ),
            Call("os_release_info", {}, lambda: expected_json(_distro().os_release_info())),
            Call(
                "distro_release_attr",
                {"attribute": "id"},
                lambda: _distro().distro_release_attr("id"),
            ),
            Call(
                "distro_release_info",
                {},
                lambda: expected_json(_distro().distro_release_info()),
            ),
            Call("like", {}, lambda: _distro().like()),
        ),
    ),
)
