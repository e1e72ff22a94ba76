"""Results that are not text: images, audio, embedded files and resource links, as the
object model makes them, as each revision sends them (in memory, through
``objmcp.testing``), and as the official SDK client decodes them from a real server."""

from __future__ import annotations

import base64
import sys
from pathlib import Path

import pytest
from conftest import ZOO, stdio_server
from hypothesis import given
from hypothesis import strategies as st
from mcp import Client

import objmcp
from objmcp.model.values.media import sniff
from objmcp.testing import connect

sys.path.insert(0, str(ZOO.parent))
from zoo import png

SIGNED = [
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff\xe0", "image/jpeg"),
    (b"GIF89a", "image/gif"),
    (b"RIFF\x00\x00\x00\x00WEBP", "image/webp"),
    (b"RIFF\x00\x00\x00\x00WAVE", "audio/wav"),
    (b"OggS", "audio/ogg"),
    (b"fLaC", "audio/flac"),
    (b"ID3", "audio/mpeg"),
    (b"\xff\xfb", "audio/mpeg"),
]


@pytest.mark.parametrize(("head", "mime"), SIGNED)
@given(tail=st.binary(max_size=64))
def test_known_formats_are_told_from_their_first_bytes(head: bytes, mime: str, tail: bytes) -> None:
    assert sniff(head + tail) == mime
    kind = objmcp.Image if mime.startswith("image/") else objmcp.Audio
    block = kind(head + tail).block()
    assert block["mimeType"] == mime
    assert base64.b64decode(block["data"]) == head + tail  # the same bytes come back


@given(st.binary(max_size=64).filter(lambda data: sniff(data) is None) | st.text().map(str.encode))
def test_other_bytes_say_what_they_are(data: bytes) -> None:
    """Bare base64 reads as text that means nothing (issue 22): bytes that are UTF-8 come
    back as their text, others as base64, and a second block says which, and how a bytes
    parameter takes them back (issue 37, round 4)."""
    result = objmcp.Toolbox({"raw": lambda: data}).call("raw", {})
    assert result.content is not None
    shown, note = (block["text"] for block in result.content)
    assert f"({len(data)} bytes" in note
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        assert "base64" in note and base64.b64decode(shown, validate=True) == data
        assert '{"base64": "<this text>"}' in note
    else:
        assert "UTF-8 text" in note and shown == text


def test_wrappers_take_a_path_or_say_what_they_need(tmp_path: Path) -> None:
    picture = tmp_path / "picture.jpg"
    picture.write_bytes(b"not really a jpeg")
    assert objmcp.Image(picture).mime_type == "image/jpeg"  # from the file name
    with pytest.raises(ValueError, match="mime_type"):
        objmcp.Image(b"plain bytes")
    with pytest.raises(ValueError, match="audio/"):
        objmcp.Audio(png(1))  # an image is not audio
    with pytest.raises(TypeError, match="path"):
        objmcp.Image("picture.jpg")  # type: ignore[arg-type]
    assert objmcp.Image(b"raw", "image/x-raw").block()["mimeType"] == "image/x-raw"


def test_a_file_that_cannot_be_read_is_an_error_result(tmp_path: Path) -> None:
    def show() -> objmcp.Image:
        return objmcp.Image(tmp_path / "missing.png")

    result = objmcp.Toolbox({"show": show}).call("show", {})
    assert result.is_error and "missing.png" in result.text


class Gallery:
    def mixed(self) -> list[object]:
        return ["see", objmcp.Image(png(1)), 3, objmcp.ResourceLink("a://b", "b")]

    def sound(self) -> objmcp.Audio:
        return objmcp.Audio(b"RIFF\x00\x00\x00\x00WAVEfmt ")


def test_a_mixed_list_is_one_block_per_item() -> None:
    tools = objmcp.Toolbox(Gallery())
    assert tools["sound"].output_schema is None  # media are content, not structured values
    result = tools.call("mixed", {})
    assert result.content is not None
    assert [block["type"] for block in result.content] == ["text", "image", "text", "resource_link"]
    assert result.content[2] == {"type": "text", "text": "3"}
    assert result.text.splitlines()[0] == "see" and "[link a://b]" in result.text


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("version", "kinds"),
    [
        ("2024-11-05", ["text", "image", "text", "text"]),
        ("2025-03-26", ["text", "image", "text", "text"]),
        ("2025-06-18", ["text", "image", "text", "resource_link"]),
        ("2025-11-25", ["text", "image", "text", "resource_link"]),
        ("2026-07-28", ["text", "image", "text", "resource_link"]),
    ],
)
async def test_each_revision_gets_the_kinds_it_defines(version: str, kinds: list[str]) -> None:
    # The content blocks exactly as the server sent them, through the real framing.
    async with connect(Gallery(), revision=version) as client:
        assert client.protocol_version == version
        mixed = (await client.call("mixed")).raw["content"]
        sound = (await client.call("sound")).raw["content"][0]
    assert [block["type"] for block in mixed] == kinds
    if kinds[-1] == "text":
        assert "a://b" in mixed[-1]["text"]  # said in words where the kind does not exist
    assert sound["type"] == ("text" if version == "2024-11-05" else "audio")


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_sdk_client_decodes_the_same_bytes(mode: str) -> None:
    params = stdio_server(ZOO)
    async with Client(params, mode=mode) as client:
        picture = await client.call_tool("picture", {"size": 3})
        beep = await client.call_tool("beep", {})
        gallery = await client.call_tool("gallery", {})
    (image,) = picture.content
    assert image.type == "image" and image.mime_type == "image/png"
    assert base64.b64decode(image.data) == png(3)
    assert picture.structured_content == {"result": {"base64": base64.b64encode(png(3)).decode()}}
    (audio,) = beep.content
    assert audio.type == "audio" and audio.mime_type == "audio/wav"
    assert base64.b64decode(audio.data)[:4] == b"RIFF"
    kinds = [block.type for block in gallery.content]
    assert kinds == ["text", "image", "resource", "resource", "resource_link"]
    text_file, blob_file, link = gallery.content[2], gallery.content[3], gallery.content[4]
    assert str(text_file.resource.uri) == "notes://1"  # type: ignore[union-attr]
    assert text_file.resource.text == "first note"  # type: ignore[union-attr]
    assert base64.b64decode(blob_file.resource.blob) == b"\x00\x01"  # type: ignore[union-attr]
    assert link.name == "second" and link.mime_type == "text/plain"  # type: ignore[union-attr]
