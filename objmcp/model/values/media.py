"""Results that are not text: images, audio, embedded files and links to resources.

A tool returns :class:`Image`, :class:`Audio`, :class:`File` or
:class:`ResourceLink`, plain ``bytes`` of a known image or audio format, a picture
(a PIL image, read by its shape: objmcp does not import PIL), or a list mixing these
with strings; :func:`content_blocks` turns such a value into MCP content blocks
(``image``, ``audio``, ``resource``, ``resource_link``, ``text``). Binary data is
encoded to base64 once, when the block is made; a picture is a PNG.
"""

from __future__ import annotations

import binascii
import io
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MEDIA",
    "Audio",
    "File",
    "Image",
    "ResourceLink",
    "content_blocks",
    "describe_blocks",
    "fits",
    "guess_mime",
    "is_media",
    "is_picture",
    "is_picture_type",
    "picture_png",
    "sniff",
]

_SIGNATURES: tuple[tuple[int, bytes, str], ...] = (
    (0, b"\x89PNG\r\n\x1a\n", "image/png"),
    (0, b"\xff\xd8\xff", "image/jpeg"),
    (0, b"GIF87a", "image/gif"),
    (0, b"GIF89a", "image/gif"),
    (8, b"WEBP", "image/webp"),
    (8, b"WAVE", "audio/wav"),
    (0, b"OggS", "audio/ogg"),
    (0, b"fLaC", "audio/flac"),
    (0, b"ID3", "audio/mpeg"),
)


def sniff(data: bytes) -> str | None:
    """The MIME type of image or audio bytes, from their first bytes, or None."""
    for offset, magic, mime in _SIGNATURES:
        if data[offset : offset + len(magic)] == magic and (offset == 0 or data[:4] == b"RIFF"):
            return mime
    if len(data) > 1 and data[0] == 0xFF and data[1] in (0xFB, 0xF3, 0xF2):
        return "audio/mpeg"
    return None


def is_picture(value: object) -> bool:
    """Whether ``value`` is shaped like a PIL image: ``save(file, format=...)``, a ``mode``
    text and a ``size`` of two integers."""
    if isinstance(value, type):
        return False
    try:
        if not callable(getattr(value, "save", None)):
            return False
        size, mode = getattr(value, "size", None), getattr(value, "mode", None)
    except Exception:  # an attribute of the user's that raised: not a picture's
        return False
    return (
        isinstance(mode, str)
        and isinstance(size, tuple)
        and len(size) == 2
        and all(isinstance(side, int) for side in size)
    )


def is_picture_type(hint: object) -> bool:
    """Whether ``hint`` is a class whose instances look like pictures (:func:`is_picture`):
    it has ``save``, ``mode`` and ``size``, as ``PIL.Image.Image`` does."""
    return (
        isinstance(hint, type)
        and callable(getattr(hint, "save", None))
        and hasattr(hint, "mode")
        and hasattr(hint, "size")
    )


def picture_png(picture: Any) -> bytes:
    """The PNG bytes of a picture (:func:`is_picture`); one in a mode PNG cannot hold
    (CMYK, a float image) is converted to RGBA first, when it can be converted."""
    buffer = io.BytesIO()
    try:
        picture.save(buffer, format="PNG")
    except (OSError, ValueError, KeyError):
        if not callable(getattr(picture, "convert", None)):
            raise
        buffer = io.BytesIO()
        picture.convert("RGBA").save(buffer, format="PNG")
    return buffer.getvalue()


def _read(data: bytes | os.PathLike[str], kind: str) -> tuple[bytes, str | None]:
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data), None
    if isinstance(data, os.PathLike):
        with open(data, "rb") as file:
            content = file.read()
        return content, guess_mime(os.path.basename(os.fspath(data)))
    raise TypeError(f"{kind} takes bytes or a path (pathlib.Path), not {type(data).__name__}")


def guess_mime(name: str) -> str | None:
    """The MIME type a file name or URL suggests (by its extension), or None."""
    import mimetypes  # loaded when first needed: it reads the system's type tables

    return mimetypes.guess_type(name)[0]


def _base64(data: bytes) -> str:
    return binascii.b2a_base64(data, newline=False).decode("ascii")


class _Binary:
    """Bytes and their MIME type, known or found."""

    kind = "binary"
    prefix = ""

    def __init__(self, data: bytes | os.PathLike[str], mime_type: str | None = None) -> None:
        self.data, guessed = _read(data, type(self).__name__)
        found = mime_type or guessed or sniff(self.data)
        if found is None or not found.startswith(self.prefix):
            raise ValueError(
                f"{type(self).__name__}: say its mime_type ({self.prefix}...): "
                "it could not be told from the data"
            )
        self.mime_type = found

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.mime_type}, {len(self.data)} bytes)"

    def block(self) -> dict[str, Any]:
        """The MCP content block."""
        return {"type": self.kind, "data": _base64(self.data), "mimeType": self.mime_type}


class Image(_Binary):
    """An image a tool returns: bytes or a file, and its MIME type (found from the data
    or the file name when not given)."""

    kind = "image"
    prefix = "image/"


class Audio(_Binary):
    """Audio a tool returns: bytes or a file, and its MIME type (found from the data or
    the file name when not given)."""

    kind = "audio"
    prefix = "audio/"


@dataclass(frozen=True)
class File:
    """A document embedded in a result (an MCP embedded resource): its ``uri``, its
    content (``str`` is sent as text, ``bytes`` as base64) and its MIME type
    (guessed from the URI when not given)."""

    uri: str
    data: str | bytes
    mime_type: str | None = None

    def block(self) -> dict[str, Any]:
        """The MCP content block."""
        contents: dict[str, Any] = {"uri": self.uri}
        mime = self.mime_type or guess_mime(self.uri)
        if mime:
            contents["mimeType"] = mime
        if isinstance(self.data, str):
            contents["text"] = self.data
        else:
            contents["blob"] = _base64(self.data)
        return {"type": "resource", "resource": contents}


@dataclass(frozen=True)
class ResourceLink:
    """A link to a resource the client may read (or open), instead of its content."""

    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    size: int | None = None

    def block(self) -> dict[str, Any]:
        """The MCP content block."""
        fields = {
            "uri": self.uri,
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "mimeType": self.mime_type,
            "size": self.size,
        }
        return {"type": "resource_link", **{k: v for k, v in fields.items() if v is not None}}


MEDIA = (Image, Audio, File, ResourceLink)
"""The wrapper types a result may hold."""


def is_media(value: object) -> bool:
    """Whether ``value`` is one of the :data:`MEDIA` wrappers, or a picture."""
    return isinstance(value, MEDIA) or is_picture(value)


def _media_block(value: object) -> dict[str, Any] | None:
    if isinstance(value, MEDIA):
        return value.block()
    if is_picture(value):
        return Image(picture_png(value), "image/png").block()
    if isinstance(value, bytes):
        mime = sniff(value)
        if mime is not None:
            return (Image if mime.startswith("image/") else Audio)(value, mime).block()
    return None


def content_blocks(value: object, text_of: Callable[[object], str]) -> list[dict[str, Any]] | None:
    """The content blocks of a result that holds media, or None for a plain value.

    A list or tuple with at least one media item (pictures too) becomes one block per item:
    media as their kind, anything else as text made by ``text_of(item)``.
    """
    single = _media_block(value)
    if single is not None:
        return [single]
    if isinstance(value, (list, tuple)) and any(
        is_media(item) or (isinstance(item, bytes) and sniff(item)) for item in value
    ):
        return [_media_block(item) or {"type": "text", "text": text_of(item)} for item in value]
    return None


def describe_blocks(blocks: list[dict[str, Any]]) -> str:
    """A text for people (and ``ToolResult.text``) of what the blocks hold."""
    parts: list[str] = []
    for block in blocks:
        kind = block["type"]
        if kind == "text":
            parts.append(block["text"])
        elif kind in ("image", "audio"):
            size = len(block["data"]) * 3 // 4
            parts.append(f"[{kind} {block['mimeType']}, about {size} bytes]")
        elif kind == "resource":
            parts.append(f"[resource {block['resource']['uri']}]")
        else:
            parts.append(f"[link {block['uri']}]")
    return "\n".join(parts)


def fits(block: Mapping[str, Any], kinds: frozenset[str]) -> dict[str, Any]:
    """``block`` if its kind is among ``kinds``, else a text block saying what it was."""
    if block["type"] in kinds:
        return dict(block)
    return {"type": "text", "text": describe_blocks([dict(block)])}
