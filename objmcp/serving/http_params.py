"""``Mcp-Param-*`` headers (2026-07-28, SEP-2243): tool arguments a client mirrors
beside the body, checked against it before any session sees the request.

A tool whose input schema marks a property ``"x-mcp-header": "Region"`` gets, from an
HTTP client of the modern era, its argument again as ``Mcp-Param-Region``: a string
as it is, an integer in decimal, a boolean as ``true`` or ``false``, and a value that
is not plain visible ASCII (or looks like the encoding) as ``=?base64?...?=`` (UTF-8,
standard Base64 with its padding). The server must refuse, HTTP 400 with
``HeaderMismatch`` (-32020), a header that is missing while the argument is there, one
that is given while the argument is not (or is null), one that holds characters a
header may not, a Base64 form that does not decode, and one that says another value
(integers are compared as numbers: ``42.0`` is 42).

Only a ``tools/call`` naming a tool directly is checked: a call through the discovery
meta-tool ``call_tool`` carries its tool's arguments inside its own, which no header
mirrors. The handshake revisions' transport has no such headers, and stdio none at all.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from ..model.calling.headers import ParamHeader
from ..model.calling.toolbox import Toolbox
from ..protocol import jsonrpc as rpc
from .http_checks import Refusal

__all__ = ["check_param_headers", "decode_param", "encode_param", "param_matches"]

_PREFIX, _SUFFIX = "=?base64?", "?="
_PLAIN = re.compile(r"[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?", re.ASCII)
"""A value a client sends as it is: visible ASCII, with spaces only inside."""
_FIELD = re.compile(r"[\x20-\x7e\t]*", re.ASCII)
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?", re.ASCII)
"""A decimal an integer's header may be compared by (no exponent, as the SDKs read it)."""
_ABSENT: Any = object()


class BadHeader(ValueError):
    """A header value that holds what no header may, or a Base64 form that is not."""


def encode_param(value: str | int | bool) -> str:
    """The ``Mcp-Param-*`` header value a client sends for ``value``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if value == "":
        return ""
    if _PLAIN.fullmatch(value) and not (value.startswith(_PREFIX) and value.endswith(_SUFFIX)):
        return value
    return _PREFIX + base64.b64encode(value.encode()).decode("ascii") + _SUFFIX


def decode_param(header: str) -> str:
    """The text a header value stands for: its ``=?base64?...?=`` form decoded, else the
    value itself (surrounding spaces and tabs dropped, as HTTP reads a field). Raises
    :class:`BadHeader` for characters no header holds or a Base64 form that is not."""
    text = header.strip(" \t")
    if not _FIELD.fullmatch(text):
        raise BadHeader("holds characters a header may not (not visible ASCII)")
    if not (text.startswith(_PREFIX) and text.endswith(_SUFFIX) and len(text) >= 11):
        return text
    payload = text[len(_PREFIX) : -len(_SUFFIX)]
    try:
        decoded = base64.b64decode(payload, validate=True)
        if base64.b64encode(decoded).decode("ascii") != payload:
            raise ValueError("not in its canonical form")  # stray bits a reader may drop
        return decoded.decode()
    except (ValueError, UnicodeDecodeError):
        raise BadHeader(f"{text!r} is not valid Base64 of UTF-8 text") from None


def param_matches(text: str, value: object) -> bool:
    """Whether the decoded header ``text`` says the argument ``value``."""
    if isinstance(value, bool):
        return text == ("true" if value else "false")
    if isinstance(value, (int, float)):
        if not _NUMBER.fullmatch(text):
            return False
        return Decimal(text) == Decimal(value)
    if isinstance(value, str):
        return text == value
    return False


def check_param_headers(
    toolbox: Toolbox, raw_headers: Iterable[tuple[bytes, bytes]], message: object
) -> None:
    """Refuse (400, -32020) a modern ``tools/call`` whose ``Mcp-Param-*`` headers (the
    ASGI scope's, as sent) do not say what its arguments say (see the module's
    docstring). A mirrored header sent twice is refused: readers that take the first
    and the last would disagree."""
    if not isinstance(message, dict) or message.get("method") != "tools/call":
        return
    params = message.get("params")
    name = params.get("name") if isinstance(params, dict) else None
    if not isinstance(name, str):
        return  # the session says what is wrong with it
    mirrored = toolbox.param_headers(name)
    if not mirrored:
        return
    arguments = params.get("arguments") if isinstance(params, dict) else None
    if not isinstance(arguments, dict):
        return
    sent: dict[str, list[str]] = {}
    for key, value in raw_headers:
        field = key.decode("latin-1").lower()
        if field.startswith("mcp-param-"):
            sent.setdefault(field, []).append(value.decode("latin-1"))
    for header in mirrored:
        values = sent.get(f"mcp-param-{header.name.lower()}", [])
        if len(values) > 1:
            problem: str | None = "is sent more than once"
        else:
            problem = _problem(header, values[0] if values else None, arguments)
        if problem is not None:
            request_id = message.get("id") if rpc.is_request_id(message.get("id")) else None
            detail = f"Header mismatch: Mcp-Param-{header.name} {problem}"
            raise Refusal(400, rpc.error_response(request_id, rpc.HEADER_MISMATCH, detail))


def _problem(header: ParamHeader, given: str | None, arguments: dict[str, Any]) -> str | None:
    """What is wrong with the header ``given`` for ``header``'s argument (None: nothing)."""
    value: Any = arguments
    for key in header.path:
        value = value.get(key, _ABSENT) if isinstance(value, dict) else _ABSENT
    where = ".".join(header.path)
    if value is _ABSENT or value is None:
        if given is None:
            return None
        return f"is given, but the argument {where} is not"
    if given is None:
        return f"is missing, but the argument {where} is given"
    try:
        text = decode_param(given)
    except BadHeader as error:
        return str(error)
    if not param_matches(text, value):
        return f"says {text!r}, but the argument {where} is {value!r}"
    return None
