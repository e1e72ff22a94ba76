"""Per-tool scopes over HTTP: a ``tools/call`` whose tool asks for OAuth scopes the
caller's token does not grant is refused before any session sees it.

The answer is the spec's step-up challenge: HTTP 403 with ``WWW-Authenticate: Bearer
error="insufficient_scope", scope="..."``, the scope parameter naming the scopes the
tool needs (RFC 6750 §3.1; the client adds them to those it already asked for and
gets a new token), and ``resource_metadata`` when the app serves its metadata. A
batch (2025-03-26) holding one such call is refused whole. With no caller (no token
asked), scopes do not apply: there is nothing to check them against.
"""

from __future__ import annotations

from ..model.calling.caller import Caller
from ..model.calling.toolbox import Toolbox
from .http_checks import insufficient

__all__ = ["check_scopes", "scopes_wanted"]


def scopes_wanted(toolbox: Toolbox, message: object) -> tuple[str, ...]:
    """The scopes the tool calls in ``message`` (a request or a batch) need, in order."""
    wanted: dict[str, None] = {}
    for item in message if isinstance(message, list) else [message]:
        if not isinstance(item, dict) or item.get("method") != "tools/call":
            continue
        params = item.get("params")
        params = params if isinstance(params, dict) else {}
        name = params.get("name")
        if not isinstance(name, str):
            continue  # the session says what is wrong with it
        try:
            resolved, _ = toolbox.resolve(name, params.get("arguments"))
        except Exception:  # call_tool naming nothing callable: the session answers it
            continue
        if resolved in toolbox:
            wanted.update(dict.fromkeys(toolbox[resolved].scopes))
    return tuple(wanted)


def check_scopes(
    toolbox: Toolbox, message: object, caller: Caller | None, resource_metadata: str | None
) -> None:
    """403 with the step-up challenge when ``caller`` lacks a scope a tool called in
    ``message`` needs."""
    if caller is None:
        return
    wanted = scopes_wanted(toolbox, message)
    missing = [scope for scope in wanted if scope not in caller.scopes]
    if missing:
        raise insufficient(wanted, resource_metadata)
