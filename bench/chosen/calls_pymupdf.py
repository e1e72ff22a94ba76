"""The calls of ``pymupdf`` (rank 367, tuning, third walk).

Written from PyMuPDF's documentation (its README on PyPI, "Quick start": ``pymupdf.open()``,
``page.get_text()``, ``pymupdf.Rect(72, 100, 400, 120)``, "Merge PDFs" from the new empty PDF
``pymupdf.open()`` makes, ``doc.save``; the pymupdf.readthedocs.io "Tutorial" (a document's
``metadata``, ``get_toc``) and the "Document" and "Functions" pages: ``new_page(pno, width,
height)``, ``insert_page(pno, text, fontsize)``, ``get_page_text``, ``set_metadata``,
``set_toc``, ``search_page_for``, ``get_text_length``, ``paper_size``, ``paper_rect``,
``sRGB_to_pdf``), each answer computed by calling PyMuPDF itself, in JSON's terms. A ``Rect``
has no JSON form: its documented text form, ``Rect(x0, y0, x1, y1)``; a tuple as a list.

The walk's target, the module ``pymupdf``, reaches the documented helpers and the ``Rect``
constructor, but its documents only as the ``Document`` objects ``open`` makes, with no JSON
form and a text with a running document number, and the README's files (``document.pdf``) do
not exist here. ``pymupdf:Document`` is a target beyond the walk's: one new empty PDF (its
constructor with no arguments, as ``pymupdf.open()``), on which the calls are made in order and
``_replay`` makes the same calls on a document of its own; a ``Page``'s text holds the running
document number, so ``new_page``'s answer is not looked at (``UNCHECKED``), nor ``save``'s
(it writes in the temporary directory). Page numbers, sizes, the metadata dictionary and the
table of contents (a list of ``[level, title, page]`` lists) are the non-string values.

Withheld: ``get_tessdata``, which runs a program (``tesseract``) in a shell.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

TEXT = "Quarterly report\nSales rose by 12 percent."
METADATA = {"title": "Quarterly report", "author": "Ada Lovelace", "subject": "Sales"}
TOC = [[1, "Cover", 1], [1, "Report", 2]]


def _pymupdf() -> Any:
    return importlib.import_module("pymupdf")


def _replay(count: int) -> Any:
    """The answer of the ``count``-th of the document's calls below, after the ones before it."""
    document = _pymupdf().Document()
    steps = (
        lambda: document.new_page(width=595, height=842),
        lambda: document.insert_page(-1, text=TEXT, fontsize=14),
        lambda: document.get_page_text(1),
        lambda: document.set_metadata(METADATA),
        lambda: document.set_toc(TOC),
        document.get_toc,
        lambda: [str(rect) for rect in document.search_page_for(1, "Sales")],
    )
    answer: Any = None
    for step in steps[:count]:
        answer = step()
    return answer


TARGETS: tuple[Target, ...] = (
    Target(
        "pymupdf",
        (
            Call(
                "get_text_length",
                {"text": "Hello, world", "fontname": "helv", "fontsize": 11},
                lambda: _pymupdf().get_text_length("Hello, world", fontname="helv", fontsize=11),
            ),
            Call("paper_size", {"s": "A4"}, lambda: list(_pymupdf().paper_size("A4"))),
            Call("paper_rect", {"s": "letter"}, lambda: str(_pymupdf().paper_rect("letter"))),
            Call(
                "sRGB_to_pdf",
                {"srgb": 16744448},
                lambda: list(_pymupdf().sRGB_to_pdf(16744448)),
            ),
            Call(
                "Rect",
                {"x0": 72, "y0": 100, "x1": 400, "y1": 120},
                lambda: str(_pymupdf().Rect(72, 100, 400, 120)),
            ),
        ),
        withheld=("get_tessdata",),
    ),
    Target(
        "pymupdf:Document",
        (
            Call("new_page", {"width": 595, "height": 842}, lambda: UNCHECKED),
            Call(
                "insert_page",
                {"pno": -1, "text": TEXT, "fontsize": 14},
                lambda: _replay(2),
            ),
            Call("get_page_text", {"pno": 1}, lambda: _replay(3)),
            Call("set_metadata", {"m": METADATA}, lambda: _replay(4)),
            Call("set_toc", {"toc": TOC}, lambda: _replay(5)),
            Call("get_toc", {}, lambda: _replay(6)),
            Call("search_page_for", {"pno": 1, "text": "Sales"}, lambda: _replay(7)),
            Call("save", {"filename": "/tmp/objmcp-calls-pymupdf.pdf"}, lambda: UNCHECKED),
        ),
    ),
)
