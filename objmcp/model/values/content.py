"""What a call gives back: the :class:`ToolResult`, made from a return value or an exception.

The text rules: ``str`` as is; ``None`` is ``null`` (an empty text would be an empty
string's); ``bool`` is ``true``/``false``; numbers are their JSON text; containers,
dataclasses, NamedTuples, TypedDicts and pydantic models are compact JSON (UTF-8, not
ASCII-escaped); ``bytes`` in a container are their text when they are UTF-8, else
``{"base64": "..."}``, the form a bytes parameter takes
(:func:`~objmcp.model.values.jsonable.binary_form`), and bytes alone their text or bare
base64 with a second block saying which (:func:`bytes_result`); an object that exports
itself (``to_pylist``, ``to_dict`` ...) is what it exports; anything else is ``str(value)``
(:func:`~objmcp.model.values.jsonable.to_jsonable`). NaN and the infinities are the strings
``"NaN"``, ``"Infinity"`` and ``"-Infinity"`` (:mod:`objmcp.model.values.nonfinite`). A value with
no JSON form (a cycle) is an error result that says so.

A result is bounded (:class:`ResultLimits`): the iterators and generators in it give at most
``max_items`` items all together, and a result that was cut says so in a second text
block after its JSON text; a result whose text (with its media's data) is longer than
``max_result`` characters is an error result naming its size and the option.
"""

from __future__ import annotations

import binascii
import contextlib
import logging
import math
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..._exceptions import ArgumentError, ToolError
from .jsonable import BASE64_KEY, Budget, NotJsonable, to_jsonable
from .jsoncount import DEFAULT_MAX_VALUES
from .jsontext import dumps
from .media import content_blocks, describe_blocks, is_media

__all__ = [
    "DEFAULT_LIMITS",
    "IN_RESULT",
    "ResultLimits",
    "block_size",
    "TooBig",
    "ToolResult",
    "cut_note",
    "error_result",
    "plain_text",
    "say_refusals_by",
    "too_big",
    "value_result",
]

logger = logging.getLogger("objmcp")

IN_RESULT = "objmcp_in_result"
"""An attribute set on a log record whose news the call's error result carries to the
client (a tool that raised, with the traceback the result leaves out): a client that
shows the result, such as ``objmcp call``, may leave the record out."""


@dataclass(frozen=True, init=False)
class ToolResult:
    """The outcome of one tool call, in no protocol's terms.

    ``text`` is what the model reads; ``value`` is the JSON form of what the
    method returned (``None`` for errors); ``is_error`` says the call failed;
    ``structured`` is the value as the tool's output schema has it (MCP's
    ``structuredContent``), when the tool has one; ``content`` the MCP content
    blocks of a result that holds images, audio, files or resource links (then
    ``text`` describes them); ``error`` the exception the method raised, when it
    raised (never sent, never compared).
    """

    text: str
    value: object = None
    is_error: bool = False
    structured: dict[str, Any] | None = None
    content: tuple[dict[str, Any], ...] | None = None
    error: BaseException | None = field(default=None, repr=False, compare=False)

    def __init__(
        self,
        text: str,
        value: object = None,
        is_error: bool = False,
        structured: dict[str, Any] | None = None,
        content: tuple[dict[str, Any], ...] | None = None,
        *,
        error: BaseException | None = None,
    ) -> None:
        # One is made for every call: its fields go in past the frozen __setattr__.
        fields = self.__dict__
        fields["text"], fields["value"], fields["is_error"] = text, value, is_error
        fields["structured"], fields["content"], fields["error"] = structured, content, error


def plain_text(value: object) -> str | None:
    """The text of a ``str`` (itself), or of an ``int``, ``bool``, finite ``float`` or
    ``None`` (its own JSON form: ``None`` is ``null``, which an empty string is not),
    made without the general path; None for any other value."""
    kind = type(value)
    if kind is str:
        return typing.cast(str, value)
    if kind is int and -_SHORT_INT < typing.cast(int, value) < _SHORT_INT:
        return int.__repr__(typing.cast(int, value))  # what the JSON encoder writes
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    if kind is float and math.isfinite(typing.cast(float, value)):
        return float.__repr__(typing.cast(float, value))
    return None


_SHORT_INT = 10**18
"""Integers shorter than this: far from the interpreter's limit on digits in a text."""


@dataclass(frozen=True)
class ResultLimits:
    """How big a call may be: ``max_items`` items read from its result's iterators and
    generators, all together (the rest is cut, and the result says so), ``max_result``
    characters of its result's text (beyond it, an error result), and ``max_values``
    JSON values in an argument sent as JSON text (beyond it, the text is refused
    unparsed: :mod:`objmcp.model.values.jsoncount`)."""

    max_items: int = 10_000
    max_result: int = 16 * 1024 * 1024  # above the 10 MB results the project promises
    max_values: int = DEFAULT_MAX_VALUES

    def __post_init__(self) -> None:
        for name in ("max_items", "max_result", "max_values"):
            number = getattr(self, name)
            if type(number) is not int or number < 1:
                raise ValueError(f"{name} must be a positive integer, not {number!r}")


DEFAULT_LIMITS = ResultLimits()


def value_result(
    value: object,
    limits: ResultLimits = DEFAULT_LIMITS,
    budget: Budget | None = None,
) -> ToolResult:
    """The result of a call that returned ``value``, within ``limits`` (``budget``: what
    is left of ``max_items`` when some iterator was read already); never raises."""
    text = plain_text(value)
    if text is not None:
        return (
            too_big(len(text), limits) if len(text) > limits.max_result else ToolResult(text, value)
        )
    try:
        blocks = content_blocks(value, lambda item: value_result(item).text)
    except (OSError, ValueError, TypeError) as error:
        return ToolResult(f"The tool's result could not be sent: {_say(error)}", None, True)
    if blocks is not None:
        return _bounded(_media_result(value, blocks), budget, limits)
    if isinstance(value, (bytes, bytearray)):
        return _bounded(bytes_result(bytes(value)), None, limits)
    if budget is None:
        budget = Budget(limits.max_items)
    try:
        jsonable = to_jsonable(value, budget=budget)
        text = jsonable if isinstance(jsonable, str) else dumps(jsonable)
    except (NotJsonable, ValueError, RecursionError) as error:
        return ToolResult(f"The tool's result has no JSON form: {_say(error)}", None, True)
    except Exception as error:  # a __str__ or model_dump of the user's that raised
        logger.error("turning a result into text failed", exc_info=error, extra={IN_RESULT: True})
        message = f"The tool's result could not be turned into text: {_say(error)}"
        return ToolResult(message, None, True)
    if budget.cut or len(text) > limits.max_result:
        return _bounded(ToolResult(text, jsonable), budget, limits)
    return ToolResult(text, jsonable)


def _bounded(result: ToolResult, budget: Budget | None, limits: ResultLimits) -> ToolResult:
    """``result`` noted as cut when ``budget`` was, or an error result when too big."""
    if budget is not None and budget.cut:
        note = cut_note(budget.limit)
        blocks = result.content or ({"type": "text", "text": result.text},)
        text = f"{result.text}\n{note}"
        result = ToolResult(
            text, result.value, False, None, (*blocks, {"type": "text", "text": note})
        )
    size = len(result.text)
    if result.content is not None:
        size += sum(_data_size(block) for block in result.content)
    return too_big(size, limits) if size > limits.max_result else result


def bytes_result(data: bytes) -> ToolResult:
    """Bytes returned alone: their text when they are UTF-8, else their bare base64 (what
    a reader decodes, a hash or a key as it is usually shown), with a second text block
    saying how many bytes and which, and for base64 how a bytes parameter takes them back
    (``{"base64": "<this text>"}``, as ``structuredContent`` holds them). The note is what
    tells the two apart: a text alone does not say it was bytes, nor that it is base64
    (``"aGk="`` is both)."""
    try:
        text = data.decode("utf-8")
        note = f"({len(data)} bytes of UTF-8 text, shown as text)"
    except UnicodeDecodeError:
        text = binascii.b2a_base64(data, newline=False).decode("ascii")
        note = (
            f"({len(data)} bytes, not UTF-8 text: shown as base64; a bytes parameter "
            f'takes them as {{"{BASE64_KEY}": "<this text>"}})'
        )
    blocks = ({"type": "text", "text": text}, {"type": "text", "text": note})
    return ToolResult(f"{text}\n{note}", data, False, None, blocks)


def cut_note(limit: int) -> str:
    """What a result cut at ``limit`` items says after them."""
    return (
        f"(cut at {limit} items: the iterator went on; the server reads at most max_items "
        f"= {limit} items from a result's iterators)"
    )


def too_big(size: int, limits: ResultLimits, what: str = "The tool's result") -> ToolResult:
    """The error result of a result ``size`` characters long, over ``max_result``
    (``what``: whose result, for the message)."""
    return ToolResult(
        f"{what} is too big to send: {size:,} characters, over the server's "
        f"max_result of {limits.max_result:,} (raise max_result, --max-result, to allow it)",
        None,
        True,
    )


class TooBig(Exception):
    """Raised for a resource's contents or a prompt's messages longer than ``max_result``
    characters: its message says how long and names the option."""

    def __init__(self, size: int, limits: ResultLimits, what: str) -> None:
        super().__init__(too_big(size, limits, what).text)


def block_size(block: dict[str, Any]) -> int:
    """The characters of a content block (its text, or its media's data) or of a
    resource's contents (its text or blob)."""
    text = block.get("text")
    if block.get("type") == "text":
        return len(text) if isinstance(text, str) else 0
    return _data_size(block)


def _data_size(block: dict[str, Any]) -> int:
    """The characters of a media block's data (an image's base64, a resource's text)."""
    resource = block.get("resource")
    held = resource if isinstance(resource, dict) else block
    data = held.get("data") or held.get("blob") or held.get("text") or ""
    return len(data) if isinstance(data, str) and block.get("type") != "text" else 0


def _media_result(value: object, blocks: list[dict[str, Any]]) -> ToolResult:
    """The result of a value holding media: its blocks, and as its JSON form the value's
    own or, where it holds wrappers, the blocks themselves."""
    items = value if isinstance(value, (list, tuple)) else [value]
    jsonable: object = blocks if isinstance(value, (list, tuple)) else blocks[0]
    if all(not is_media(item) for item in items):
        with contextlib.suppress(NotJsonable, ValueError, RecursionError):
            jsonable = to_jsonable(value)
    return ToolResult(describe_blocks(blocks), jsonable, False, content=tuple(blocks))


_refusals: Callable[[BaseException], str | None] | None = None


def say_refusals_by(wording: Callable[[BaseException], str | None] | None) -> None:
    """Say the errors a containment of this process refused (a sandbox) as ``wording``
    words them (None from it: an error of another kind); None: no such wording."""
    global _refusals  # noqa: PLW0603 (the process's one box, set as it starts)
    _refusals = wording


def error_result(error: BaseException, tool: str) -> ToolResult:
    """The result of a call that raised ``error``; never raises.

    :class:`ToolError` and :class:`ArgumentError` messages are passed as they
    are; other exceptions become ``Type: message`` and are logged with their
    traceback.
    """
    if isinstance(error, (ToolError, ArgumentError)):
        try:
            return ToolResult(str(error), None, True, error=error)
        except Exception:
            return ToolResult(_say(error), None, True, error=error)
    logger.error(
        "tool %r raised %s", tool, type(error).__name__, exc_info=error, extra={IN_RESULT: True}
    )
    refused = None
    if _refusals is not None:
        with contextlib.suppress(Exception):
            refused = _refusals(error)
    said = _say(error) + _thread_bound_hint(error)
    return ToolResult(said if refused is None else f"{refused}\n({said})", None, True, error=error)


_THREAD_BOUND = "can only be used in that same thread"
"""What ``sqlite3`` says of an object used on another thread than the one that made it."""


def _thread_bound_hint(error: BaseException) -> str:
    """How to serve an object bound to the thread that made it, when ``error`` says it is."""
    with contextlib.suppress(Exception):
        if _THREAD_BOUND in str(error):
            return (
                "\n(objmcp runs calls on threads of its own, and this object was made on "
                "another: serve its class, or a factory (objmcp run module:factory()), with "
                'concurrency="serial", so that it is made on the one thread that runs its '
                "calls; or make it able to move between threads, as "
                "sqlite3.connect(..., check_same_thread=False) does)"
            )
    return ""


def _say(error: BaseException) -> str:
    """``Type: message``, even when the exception's ``__str__`` itself fails."""
    name = type(error).__qualname__
    try:
        message = str(error)
    except Exception:
        message = ""
    return f"{name}: {message}" if message else name
