"""Resources, prompts and completion: what the server declares of them, and their requests.

Tools are always there; the other features are declared only when the object
publishes something for them (or the server was told to ``declare`` them in
advance, so that a handshake client, which keeps what ``initialize`` declared,
can still see them arrive). :func:`server_capabilities` makes that declaration, for
``initialize`` and ``server/discover`` alike, and :func:`declares` is the gate a
request of a feature passes: a request of a feature the server did not declare is
answered -32601, as if the method did not exist (its lists excepted: they are
answered, empty). Completion has no gate of its own: it goes with prompts or
resources, whichever is there (the ``completions`` capability came later, in
2025-03-26, and is declared where it exists).

The requests themselves are checked here against the toolbox, as plain functions:
:func:`read_or_get` finds what ``resources/read`` or ``prompts/get`` names (the
runner then reads or renders it, as it runs a tool), :func:`completion` answers
``completion/complete`` and :func:`subscribe` keeps the URIs a handshake client
asked to hear of. Their lists are in :mod:`objmcp.protocol.lists`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Literal

from ..model.calling.toolbox import Toolbox
from ..model.finding.prompts import MAX_COMPLETIONS, complete_values
from ..model.finding.uritemplates import uri_too_long
from . import jsonrpc as rpc
from .actions import CacheHint
from .extensions import Extensions
from .jsonrpc import ProtocolError
from .revisions import Revision
from .subscriptions import Subscriptions

__all__ = [
    "RESOURCE_NOT_FOUND",
    "Declared",
    "server_capabilities",
    "check_declare",
    "check_uri_length",
    "completion",
    "declares",
    "read_or_get",
    "subscribe",
]

RESOURCE_NOT_FOUND = -32002
"""The error code of a read of a URI no resource has (the spec's examples use it)."""

Declared = Literal["resources", "prompts", "completion"]
"""The feature a request needs the server to have declared."""


def check_declare(declare: Collection[str]) -> None:
    """Raise ValueError for a capability objmcp cannot declare in advance."""
    if isinstance(declare, str) or not set(declare) <= {"resources", "prompts"}:
        raise ValueError(f"declare takes 'resources' and/or 'prompts' (a list), not {declare!r}")


def server_capabilities(
    toolbox: Toolbox,
    declare: Collection[str],
    revision: Revision,
    extensions: Extensions | None = None,
) -> dict[str, Any]:
    """The server's capabilities under ``revision``: tools and logging always; resources
    and prompts when published or declared in advance; completions with either; the
    ``extensions`` it declares, where the revision has them."""
    found: dict[str, Any] = {"tools": {"listChanged": True}, "logging": {}}
    has_resources = bool(toolbox.resources) or "resources" in declare
    has_prompts = bool(toolbox.prompts) or "prompts" in declare
    if has_resources:
        found["resources"] = {"subscribe": True, "listChanged": True}
    if has_prompts:
        found["prompts"] = {"listChanged": True}
    if revision.completions and (has_prompts or has_resources):
        found["completions"] = {}
    if extensions and revision.extensions:
        found["extensions"] = {name: dict(settings) for name, settings in extensions.items()}
    return found


def declares(declared: Mapping[str, Any], gate: Declared) -> bool:
    """Whether the capabilities ``declared`` let a request that needs ``gate`` through."""
    if gate == "completion":
        return "prompts" in declared or "resources" in declared
    return gate in declared


def check_uri_length(method: str, uri: str) -> None:
    """-32602 for a ``uri`` too long to be matched against the templates."""
    too_long = uri_too_long(uri)
    if too_long is not None:
        raise ProtocolError(rpc.INVALID_PARAMS, f"Invalid params: in {method}, {too_long}")


def _resource_not_found(uri: str) -> ProtocolError:
    return ProtocolError(RESOURCE_NOT_FOUND, f"Resource not found: {uri}", {"uri": uri})


def read_or_get(
    toolbox: Toolbox, method: str, params: dict[str, Any]
) -> tuple[Literal["resource", "prompt"], str, object, CacheHint | None]:
    """What a ``resources/read`` or ``prompts/get`` asks for: the kind of call to start,
    its target (a URI, a prompt's name), its arguments and the resource's own caching
    hint; -32602, or -32002 for a URI no resource has."""
    if method == "resources/read":
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise ProtocolError(rpc.INVALID_PARAMS, 'resources/read needs a string "uri"')
        check_uri_length(method, uri)
        found = toolbox.find_resource(uri)
        if found is None:
            raise _resource_not_found(uri)
        return "resource", uri, None, found[0].cache
    name = params.get("name")
    if not isinstance(name, str) or name not in toolbox.prompts:
        raise ProtocolError(rpc.INVALID_PARAMS, f"Unknown prompt: {name}")
    return "prompt", name, params.get("arguments"), None


def completion(toolbox: Toolbox, params: dict[str, Any]) -> dict[str, Any]:
    """The result of ``completion/complete``: the values a prompt's argument or a
    template's variable may take that start with what was typed."""
    ref, argument = params.get("ref"), params.get("argument")
    if not isinstance(ref, dict) or not isinstance(argument, dict):
        raise ProtocolError(rpc.INVALID_PARAMS, "completion/complete needs a ref and an argument")
    name, typed = argument.get("name"), argument.get("value", "")
    if not isinstance(name, str) or not isinstance(typed, str):
        raise ProtocolError(rpc.INVALID_PARAMS, "the argument needs a string name and value")
    if ref.get("type") == "ref/prompt" and ref.get("name") in toolbox.prompts:
        values = complete_values(toolbox.prompts[ref["name"]], name, typed)
    elif ref.get("type") == "ref/resource" and ref.get("uri") in toolbox.resources:
        hint = toolbox.resources[ref["uri"]].hints.get(name, str)
        values = complete_values(hint, name, typed)
    else:
        raise ProtocolError(rpc.INVALID_PARAMS, f"Invalid params: no prompt or template {ref!r}")
    shown = values[:MAX_COMPLETIONS]
    return {
        "completion": {
            "values": shown,
            "total": len(values),
            "hasMore": len(values) > len(shown),
        }
    }


def subscribe(
    subscriptions: Subscriptions, toolbox: Toolbox, method: str, params: dict[str, Any]
) -> None:
    """Handshake era: ``resources/subscribe`` or ``resources/unsubscribe`` the URI
    ``params`` names; -32002 for a subscription to a URI no resource has."""
    uri = params.get("uri")
    if not isinstance(uri, str):
        raise ProtocolError(rpc.INVALID_PARAMS, f'{method} needs a string "uri"')
    check_uri_length(method, uri)
    if method == "resources/unsubscribe":
        subscriptions.unsubscribe(uri)
    elif toolbox.find_resource(uri) is not None:
        subscriptions.subscribe(uri)
    else:
        raise _resource_not_found(uri)
