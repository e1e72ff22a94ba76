"""Asking the client's model (MCP sampling) and the client's roots: the request to
send, and what the answer means.

:func:`sample_request` turns the arguments of :class:`~objmcp.Sample` into the
params of ``sampling/createMessage``, refusing what the spec would not carry;
:func:`read_sample` and :func:`read_roots` check a client's answer and make it
a :class:`~objmcp.SampleResult` or a list of :class:`~objmcp.Root`.
"""

from __future__ import annotations

import math
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from ..._exceptions import InteractionError
from ..calling.inject import Root, SampleResult
from ..values.mismatch import describe_json

__all__ = ["read_roots", "read_sample", "sample_request"]

_ROLES = ("user", "assistant")


def sample_request(
    messages: str | Sequence[str | Mapping[str, Any]],
    *,
    max_tokens: int = 1024,
    system: str | None = None,
    temperature: float | None = None,
    stop: Sequence[str] | None = None,
    models: Sequence[str] | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The params of ``sampling/createMessage``; raises TypeError or ValueError for
    arguments the request cannot carry."""
    if isinstance(messages, str):
        messages = [messages]
    if not isinstance(messages, Sequence) or not messages:
        raise TypeError("messages must be a string or a non-empty list of messages")
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise ValueError(f"max_tokens must be a positive integer, not {max_tokens!r}")
    params: dict[str, Any] = {
        "messages": [_message(item, index) for index, item in enumerate(messages)],
        "maxTokens": max_tokens,
    }
    if system is not None:
        params["systemPrompt"] = _text(system, "system")
    if temperature is not None:
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)):
            raise TypeError(f"temperature must be a number, not {temperature!r}")
        if not math.isfinite(temperature):
            raise ValueError(f"temperature must be finite, not {temperature!r}")
        params["temperature"] = temperature
    if stop is not None:
        params["stopSequences"] = _texts(stop, "stop")
    if models is not None:
        params["modelPreferences"] = {"hints": [{"name": n} for n in _texts(models, "models")]}
    if metadata is not None:
        if not isinstance(metadata, Mapping):
            raise TypeError(f"metadata must be a mapping, not {type(metadata).__name__}")
        params["metadata"] = dict(metadata)
    return params


def read_sample(result: Mapping[str, Any]) -> SampleResult:
    """The client's ``CreateMessageResult``, checked; raises :class:`InteractionError`."""
    model, role, stop_reason = result.get("model"), result.get("role"), result.get("stopReason")
    if not isinstance(model, str):
        raise InteractionError(f"The client's completion names no model (model: {model!r})")
    if role not in _ROLES:
        raise InteractionError(f"The client's completion has role {role!r}, not user/assistant")
    if stop_reason is not None and not isinstance(stop_reason, str):
        raise InteractionError(f"The client's completion has stopReason {stop_reason!r}")
    content = result.get("content")
    given: list[object] = content if isinstance(content, list) else [content]
    blocks: list[dict[str, Any]] = []
    for block in given:
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise InteractionError(
                f"The client's completion has content {describe_json(block)}, not a content block"
            )
        blocks.append(block)
    text = "".join(
        block["text"]
        for block in blocks
        if block["type"] == "text" and isinstance(block.get("text"), str)
    )
    return SampleResult(text, model, stop_reason, role, tuple(blocks))


def read_roots(result: Mapping[str, Any]) -> list[Root]:
    """The client's ``ListRootsResult``, checked; raises :class:`InteractionError`."""
    roots = result.get("roots")
    if not isinstance(roots, list):
        raise InteractionError(f"The client's roots are {describe_json(roots)}, not a list")
    found: list[Root] = []
    for root in roots:
        uri = root.get("uri") if isinstance(root, dict) else None
        name = root.get("name") if isinstance(root, dict) else None
        if not isinstance(uri, str) or not (name is None or isinstance(name, str)):
            raise InteractionError(
                f"The client sent the root {describe_json(root)}, not {{uri, name?}} strings"
            )
        found.append(Root(uri, name))
    return found


def _message(item: object, index: int) -> dict[str, Any]:
    if isinstance(item, str):
        return {"role": "user", "content": {"type": "text", "text": item}}
    if not isinstance(item, Mapping):
        raise TypeError(f"message {index} must be a string or a mapping, not {item!r}")
    role, content = item.get("role"), item.get("content")
    if role not in _ROLES:
        raise ValueError(f"message {index} has role {role!r}; a role is 'user' or 'assistant'")
    if isinstance(content, str):
        content = {"type": "text", "text": content}
    given: list[object] = content if isinstance(content, list) else [content]
    if not given or not all(_is_block(block) for block in given):
        raise TypeError(
            f"message {index} content must be a string or MCP content blocks ({{'type': ...}})"
        )
    blocks = [dict(typing.cast(Mapping[str, Any], block)) for block in given]
    return {**item, "role": role, "content": blocks if isinstance(content, list) else blocks[0]}


def _is_block(block: object) -> bool:
    return isinstance(block, Mapping) and isinstance(block.get("type"), str)


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, not {type(value).__name__}")
    return value


def _texts(values: object, name: str) -> list[str]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise TypeError(f"{name} must be a list of strings, not {values!r}")
    return [_text(value, f"each of {name}") for value in values]
