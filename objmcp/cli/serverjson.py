"""``objmcp bundle TARGET --server-json``: the ``server.json`` of TARGET for the MCP registry.

The registry (modelcontextprotocol/registry) describes a server by a name in reverse DNS
(``io.github.you/tools``: a namespace its publisher proves it owns), a description of
at most 100 characters, a version, and the packages that run it. objmcp's is one PyPI
package run with ``uvx``: ``uvx PACKAGE==VERSION run TARGET [options]``, so the package
(the distribution that holds TARGET, unless ``--package`` names another) depends on objmcp
and has a console script named like itself that is objmcp's command line
(``[project.scripts] PACKAGE = "objmcp.__main__:main"``). The registry also checks that
the package's README on PyPI says ``mcp-name: NAME``. Both are said on stderr.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from .._exceptions import TargetError
from .bundle import Bundled

__all__ = ["SCHEMA", "server_json", "write_server_json"]

_REGISTRY_NAME = re.compile(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+")
"""A server's name as the registry's schema allows it (2025-12-11: its ``pattern``, between 3
and 200 characters)."""

SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
"""The registry's current ``server.json`` schema (its ``$schema``)."""

_DESCRIPTION_LIMIT = 100
"""The registry's limit on a description's characters."""


def server_json(
    bundled: Bundled,
    name: str,
    package: str | None,
    version: str | None,
    server_args: Sequence[str],
) -> dict[str, Any]:
    """The ``server.json`` of ``bundled`` under the registry name ``name``, run from the
    PyPI package ``package`` at ``version`` (default: the target's distribution, at the
    version installed here) with ``server_args`` for ``objmcp run``; raises
    :class:`TargetError` for a name that is not in reverse DNS, and for a package or a
    version that cannot be told."""
    if not _REGISTRY_NAME.fullmatch(name) or not 3 <= len(name) <= 200:
        raise TargetError(
            f"--name {name!r}: the registry names a server in reverse DNS, in a namespace "
            "you own, then one '/': io.github.YOU/tools (a GitHub account) or "
            "com.example/tools (a domain); letters, digits, '.' and '-' before it, and '_' "
            "after it too"
        )
    package = package or bundled.distribution
    if package is None:
        raise TargetError(
            f"{bundled.spec} comes from no installed distribution: name the PyPI package "
            "that holds it with --package NAME (and its --server-version)"
        )
    spec = bundled.spec if not bundled.relative else None
    if spec is None:
        raise TargetError(
            f"a server.json names a target the package installs (package.module[:name]), "
            f"not a file: {bundled.spec}"
        )
    if version is None and package != bundled.distribution:
        raise TargetError(
            f"--package {package} is not installed here, so its version is not known: "
            "give the version published on PyPI with --server-version"
        )
    version = version or bundled.version
    arguments = ["run", spec, *server_args]
    return {
        "$schema": SCHEMA,
        "name": name,
        "title": _shortened(name.partition("/")[2], _DESCRIPTION_LIMIT),
        "description": _shortened(bundled.description, _DESCRIPTION_LIMIT),
        "version": version,
        "packages": [
            {
                "registryType": "pypi",
                "identifier": package,
                "version": version,
                "runtimeHint": "uvx",
                "transport": {"type": "stdio"},
                "packageArguments": [{"type": "positional", "value": value} for value in arguments],
            }
        ],
    }


def write_server_json(document: dict[str, Any], output: Path, err: TextIO) -> int:
    """Write ``document`` at ``output`` and say on ``err`` what its package needs; returns 0."""
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    package = document["packages"][0]["identifier"]
    err.write(
        f"objmcp bundle: wrote {output}. For the registry, the PyPI package {package} "
        f"needs objmcp as a dependency, a console script {package} = "
        '"objmcp.__main__:main" in [project.scripts], and its README must say '
        f"mcp-name: {document['name']}; then publish it with mcp-publisher\n"
    )
    return 0


def _shortened(text: str, limit: int) -> str:
    """``text`` cut at a word to at most ``limit`` characters, marked with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:.") + "…"
