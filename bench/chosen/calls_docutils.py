"""The calls of ``docutils`` (rank 135, tuning).

Written from Docutils' documentation (the "The Docutils Publisher" page: ``publish_parts``,
``publish_string``, the writer named by ``writer``, and ``settings_overrides``, a dict of
runtime settings such as ``initial_header_level``, ``doctitle_xform`` and ``output_encoding``
from the "Docutils Configuration" page), each answer computed by calling Docutils itself.

The command-line and file publishers (``publish_cmdline``, ``publish_file``,
``publish_cmdline_to_binary``, ``rst2*``) read ``sys.argv`` and write files: withheld.

More calls (issue 37), taken by the rule of the README's "More tuning calls":
``publish_doctree``, three times (the document tree as its text, pseudo-XML), the one callable
left that takes values a model has (``publish_from_doctree`` takes a tree,
``publish_programmatically`` I/O classes, and the classes ``OptionParser``, ``Publisher`` and
``SettingsSpec`` make objects whose text is their address).
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

RST = "Title\n=====\n\nHello *world*.\n"
LIST = "Shopping\n--------\n\n- eggs\n- **milk**\n"
UNICODE = {"output_encoding": "unicode"}
SECTIONS = {"initial_header_level": 2, "doctitle_xform": False}


def _core() -> Any:
    return importlib.import_module("docutils.core")


TARGETS: tuple[Target, ...] = (
    Target(
        "docutils.core",
        (
            Call(
                "publish_parts",
                {"source": RST, "writer": "html5"},
                lambda: _core().publish_parts(RST, writer="html5"),
            ),
            Call(
                "publish_parts",
                {"source": RST, "writer": "html5", "settings_overrides": SECTIONS},
                lambda: _core().publish_parts(RST, writer="html5", settings_overrides=SECTIONS),
            ),
            Call(
                "publish_string",
                {"source": LIST, "writer": "pseudoxml", "settings_overrides": UNICODE},
                lambda: _core().publish_string(
                    LIST, writer="pseudoxml", settings_overrides=UNICODE
                ),
            ),
            Call(
                "publish_string",
                {"source": RST, "writer": "html5", "settings_overrides": UNICODE},
                lambda: _core().publish_string(RST, writer="html5", settings_overrides=UNICODE),
            ),
            Call("publish_doctree", {"source": RST}, lambda: str(_core().publish_doctree(RST))),
            Call(
                "publish_doctree",
                {"source": LIST, "settings_overrides": {"doctitle_xform": False}},
                lambda: str(
                    _core().publish_doctree(LIST, settings_overrides={"doctitle_xform": False})
                ),
            ),
            Call(
                "publish_doctree",
                {"source": RST, "settings_overrides": SECTIONS},
                lambda: str(_core().publish_doctree(RST, settings_overrides=SECTIONS)),
            ),
        ),
        withheld=(
            "publish_cmdline",
            "publish_file",
            "publish_cmdline_to_binary",
            "rst2html",
            "rst2html4",
            "rst2html5",
            "rst2latex",
            "rst2man",
            "rst2odt",
            "rst2pseudoxml",
            "rst2s5",
            "rst2xetex",
            "rst2xml",
            "rst2something",
        ),
    ),
)
