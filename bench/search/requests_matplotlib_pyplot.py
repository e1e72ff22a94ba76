"""The search benchmark's requests for ``matplotlib.pyplot``: written from its documentation (the
docstrings of the sampled functions and of ``stairs``, ``ion``, ``hot``, ``magma``, ``box``,
``yscale``, ``csd`` and ``cla``; the pyplot API reference and colormap pages known), before any
search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "matplotlib.pyplot"

REQUESTS: tuple[Request, ...] = (
    Request("equal x y scaling", "terse", ("axis",)),
    Request(
        "I want to plot my data with a logarithmic vertical scale but a normal horizontal one.",
        "sentence",
        ("semilogy",),
    ),
    Request(
        "callout label with a leader arrow pointing at an xy data coordinate",
        "jargon",
        ("annotate",),
    ),
    Request(
        "change the range of colours used to shade my picture of numbers", "layman", ("set_cmap",)
    ),
    Request("plot the power spectrul density of a signal with Welch's mehtod", "typos", ("psd",)),
    Request("write numpy array to png", "terse", ("imsave",)),
    Request(
        "I want to shade a vertical band between two x values across the whole height of the plot.",
        "sentence",
        ("axvspan",),
    ),
    Request("column chart of a categorical variable", "jargon", ("bar",)),
    Request(
        "draw how closely two recordings move in step with each other at each speed of wobble",
        "layman",
        ("cohere",),
    ),
    Request(
        "plot measurements with their uncertanity shown as whiskers above and belwo each point",
        "typos",
        ("errorbar",),
    ),
    Request("wipe current figure blank", "terse", ("clf",)),
    Request(
        "I want to draw my data as a staircase line that jumps at each x value.",
        "sentence",
        ("step", "stairs"),
    ),
    Request("remove one subplot's Axes object from the Figure", "jargon", ("delaxes",)),
    Request(
        "make the picture colours look like flames: black, then purple, then orange,"
        " ending in yellow",
        "layman",
        ("inferno",),
    ),
    Request(
        "auto-refresh plots after each comand I type in the interactve python shell",
        "typos",
        ("install_repl_displayhook", "ion"),
    ),
)
