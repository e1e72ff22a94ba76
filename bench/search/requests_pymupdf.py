"""The search benchmark's requests for ``pymupdf``: written from its documentation (the docstrings
of the sampled functions, and, where a docstring is one line, the function's source; the
docstrings or sources of ``JM_choice_options``, ``JM_get_annot_id_list``,
``JM_get_annot_xref_list2``, ``JM_set_resource_property``, ``JM_fill_pixmap_rect_with_color``,
``JM_get_widget_by_xref``, ``util_measure_string``, ``paper_rect`` and ``paper_sizes``; the
PyMuPDF reference and the PDF specification's terms known), before any search was run on them
(issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "pymupdf"

REQUESTS: tuple[Request, ...] = (
    Request("escape text as PDF literal", "terse", ("get_pdf_str",)),
    Request(
        "I want the official character name, like LATIN SMALL LETTER A, for a given code point"
        " number.",
        "sentence",
        ("unicode_to_glyph_name",),
    ),
    Request(
        "recurse through nested Form XObjects to collect the fonts or images a page uses",
        "jargon",
        ("JM_scan_resources",),
    ),
    Request(
        "how wide will this line of words be when printed in a standard letter style at size 12",
        "layman",
        ("get_text_length", "util_measure_string"),
    ),
    Request(
        "which file extention matches an embeded image's compression type code",
        "typos",
        ("JM_image_extension",),
    ),
    Request("annotation lookup by /NM id", "terse", ("JM_get_annot_by_name",)),
    Request(
        "After editing a page's annotations, I need its list of hyperlinks reloaded to reflect the"
        " changes.",
        "sentence",
        ("JM_refresh_links",),
    ),
    Request(
        "write the /Opt array of a combo box or list box form field",
        "jargon",
        ("JM_set_choice_options",),
    ),
    Request(
        "on one page of my PDF, list the names given to its tagged sections and where each is"
        " stored",
        "layman",
        ("JM_get_resource_properties",),
    ),
    Request(
        "clear a rectangel of a pixmap to a single byte value, even without an alpha chanel",
        "typos",
        ("JM_clear_pixmap_rect_with_value",),
    ),
    Request("word bbox line number tuple", "terse", ("JM_append_word",)),
    Request(
        "I want the xref numbers, types and unique ids of every annotation, link and form field"
        " on a page.",
        "sentence",
        ("JM_get_annot_xref_list", "JM_get_annot_xref_list2"),
    ),
    Request(
        "get a page's annotation object from its indirect object number",
        "jargon",
        ("JM_get_annot_by_xref",),
    ),
    Request(
        "what are the width and height of an A4 sheet of paper turned sideways",
        "layman",
        ("paper_size", "paper_rect"),
    ),
    Request(
        "make css font-face rules so a Story can use the extra font pakage's bold and itallic"
        " variants",
        "typos",
        ("css_for_pymupdf_font",),
    ),
)
