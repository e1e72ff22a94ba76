"""The calls of ``platformdirs`` (rank 41, tuning).

Written from platformdirs' documentation (its README and API page: ``user_data_dir``,
``user_cache_dir``, ``user_config_dir``, ``user_log_dir`` with ``appname``, ``appauthor`` and
``version``; ``site_data_dir`` with ``multipath``; ``user_documents_dir``), each answer
computed by calling platformdirs itself, in the same environment (``HOME`` and the ``XDG_*``
variables decide the paths). ``ensure_exists`` is left at its default (``False``): no call
makes a directory. Every parameter of platformdirs is a string or a boolean, so no call here
has a number, list or object parameter.

More calls (issue 37), taken by the rule of the README's "More tuning calls":
``site_applications_dir`` and ``site_applications_path`` (with ``multipath``, a boolean; a
``Path`` as its text) and ``site_bin_dir``.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

APP = {"appname": "SuperApp", "appauthor": "Acme", "version": "1.0"}


def _pd() -> Any:
    return importlib.import_module("platformdirs")


TARGETS: tuple[Target, ...] = (
    Target(
        "platformdirs",
        (
            Call("user_data_dir", dict(APP), lambda: _pd().user_data_dir(**APP)),
            Call("user_cache_dir", dict(APP), lambda: _pd().user_cache_dir(**APP)),
            Call(
                "user_config_dir",
                {"appname": "SuperApp", "roaming": True},
                lambda: _pd().user_config_dir("SuperApp", roaming=True),
            ),
            Call(
                "user_log_dir",
                {"appname": "SuperApp", "appauthor": "Acme"},
                lambda: _pd().user_log_dir("SuperApp", "Acme"),
            ),
            Call(
                "site_data_dir",
                {"appname": "SuperApp", "multipath": True},
                lambda: _pd().site_data_dir("SuperApp", multipath=True),
            ),
            Call("user_documents_dir", {}, lambda: _pd().user_documents_dir()),
            Call(
                "site_applications_dir",
                {"appname": "SuperApp", "multipath": True},
                lambda: _pd().site_applications_dir(multipath=True, appname="SuperApp"),
            ),
            Call(
                "site_applications_path",
                {"appname": "SuperApp", "multipath": True},
                lambda: str(_pd().site_applications_path(multipath=True, appname="SuperApp")),
            ),
            Call("site_bin_dir", {}, lambda: _pd().site_bin_dir()),
        ),
    ),
)
