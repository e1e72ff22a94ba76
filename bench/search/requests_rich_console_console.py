"""The search benchmark's requests for ``rich.console:Console``: written from its documentation
(the docstrings of the 15 sampled Console methods and of capture, end_capture, save_text,
set_alt_screen, log, out, render_lines, push_render_hook, set_live, update_screen_lines; the
Rich console API pages known), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "rich.console:Console"

REQUESTS: tuple[Request, ...] = (
    Request("color markup terminal output", "terse", ("print",)),
    Request(
        "I want to save everything my program printed to the terminal as an SVG image file.",
        "sentence",
        ("save_svg",),
    ),
    Request(
        "dump the recorded console buffer as a plain string with ANSI styles stripped",
        "jargon",
        ("export_text",),
    ),
    Request(
        "break what I want shown on screen into the little chunks of colored text it is drawn with",
        "layman",
        ("render", "render_lines"),
    ),
    Request(
        "get the recored terminal output as SVG markup in a strng, not a file",
        "typos",
        ("export_svg",),
    ),
    Request("redraw region fullscreen mode", "terse", ("update_screen",)),
    Request(
        "I want to hide the blinking text cursor in the terminal while my program runs.",
        "sentence",
        ("show_cursor",),
    ),
    Request(
        "alternate display buffer context manager for a full-terminal TUI",
        "jargon",
        ("screen",),
    ),
    Request(
        "stop the most recent thing I added that intercepts output before it is shown",
        "layman",
        ("pop_render_hook",),
    ),
    Request(
        "how many charcters wide does this table need, minimum and maximun",
        "typos",
        ("measure",),
    ),
    Request("change terminal window caption", "terse", ("set_window_title",)),
    Request(
        "I want to start collecting printed output into a string instead of showing it on screen.",
        "sentence",
        ("begin_capture", "capture"),
    ),
    Request("erase display and home the cursor (ANSI ED escape)", "jargon", ("clear",)),
    Request(
        "make the computer beep to get my attention when the job is done",
        "layman",
        ("bell",),
    ),
    Request(
        "detach the auto-refreshing progress display thats attached to the consle",
        "typos",
        ("clear_live",),
    ),
)
