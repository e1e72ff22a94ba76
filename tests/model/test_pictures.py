"""Pictures returned (PIL images, read by their shape) become MCP image blocks, PNG in base64,
as PNG bytes returned do; checked by decoding them with Pillow itself."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import PIL.Image
from conftest import RawServer
from hypothesis import given, settings
from hypothesis import strategies as st

from objmcp import Toolbox

SIDE = st.integers(1, 12)
COLOR = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))


def decoded(block: dict[str, Any]) -> PIL.Image.Image:
    """The image an MCP image block holds, opened by Pillow, once it is known to be a PNG."""
    assert block["type"] == "image" and block["mimeType"] == "image/png", block
    picture = PIL.Image.open(io.BytesIO(base64.b64decode(block["data"], validate=True)))
    assert picture.format == "PNG"
    return picture


def red_square() -> PIL.Image.Image:
    """A 4 by 4 red square."""
    return PIL.Image.new("RGB", (4, 4), "red")


def test_a_pil_image_returned_is_a_png_image_block() -> None:
    tools = Toolbox({"red_square": red_square})
    assert tools["red_square"].output_schema is None  # an image travels as content
    result = tools.call("red_square")
    assert not result.is_error, result.text
    assert result.content is not None and len(result.content) == 1
    picture = decoded(result.content[0])
    assert picture.size == (4, 4)
    assert picture.convert("RGB").getpixel((3, 3)) == (255, 0, 0)
    assert result.text.startswith("[image image/png, about ")


@settings(max_examples=25, deadline=None)
@given(SIDE, SIDE, COLOR, st.sampled_from(["RGB", "RGBA", "L", "P", "CMYK", "I", "F"]))
def test_every_mode_is_sent_as_a_png_of_its_size_and_pixels(
    width: int, height: int, color: tuple[int, int, int], mode: str
) -> None:
    made = PIL.Image.new("RGB", (width, height), color).convert(mode)
    result = Toolbox({"draw": lambda: made}).call("draw")
    assert result.content is not None, result.text
    picture = decoded(result.content[0])
    assert picture.size == (width, height)
    # PNG holds these modes as they are; CMYK and the float mode F are sent as RGBA
    expected = made if mode in ("RGB", "RGBA", "L", "P", "I") else made.convert("RGBA")
    assert picture.convert("RGBA").tobytes() == expected.convert("RGBA").tobytes()


def test_pictures_in_a_list_are_blocks_beside_the_text() -> None:
    def pair() -> list[object]:
        return ["before", PIL.Image.new("L", (2, 3), 9), PIL.Image.new("RGBA", (5, 1))]

    result = Toolbox({"pair": pair}).call("pair")
    assert result.content is not None
    kinds = [block["type"] for block in result.content]
    assert kinds == ["text", "image", "image"]
    assert result.content[0]["text"] == "before"
    assert [decoded(block).size for block in result.content[1:]] == [(2, 3), (5, 1)]


def test_a_value_shaped_almost_like_a_picture_is_not_one() -> None:
    class Document:
        mode = "draft"
        size = 3  # not (width, height)

        def save(self, fp: object, format: str | None = None) -> None:
            raise AssertionError("not a picture: never saved")

        def __str__(self) -> str:
            return "a draft document"

    def show() -> object:
        return Document()

    shown = Toolbox({"show": show}).call("show")
    assert shown.content is None and shown.text == "a draft document"


DRAW_PY = '''
import PIL.Image


def square(side: int, color: str) -> PIL.Image.Image:
    """A square of the color named."""
    return PIL.Image.new("RGB", (side, side), color)
'''


def test_a_picture_served_through_a_real_process(tmp_path: Path) -> None:
    (tmp_path / "draw.py").write_text(DRAW_PY)
    server = RawServer("-m", "objmcp", "run", str(tmp_path / "draw.py:square"))
    try:
        server.initialize()
        (tool,) = server.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"][
            "tools"
        ]
        params = {"name": "square", "arguments": {"side": 7, "color": "blue"}}
        answer = server.request(
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}
        )
    finally:
        _, stderr, status = server.close()
    said = stderr.decode()
    assert status == 0, said
    assert "no JSON Schema" not in said, said
    assert "outputSchema" not in tool
    result = answer["result"]
    assert result["isError"] is False
    (block,) = result["content"]
    picture = decoded(block)
    assert picture.size == (7, 7)
    assert picture.convert("RGB").getcolors() == [(7 * 7, (0, 0, 255))]
