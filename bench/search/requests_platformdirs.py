"""The search benchmark's requests for ``platformdirs``: written from its documentation (the
docstrings of the 15 sampled functions and of PlatformDirs/AppDirs, the per-platform property
docstrings in platformdirs.unix/macos/windows, the README's table of directories), before any
search was run on them (issue 39). Each ``*_dir`` function and its ``*_path`` twin give the same
location (a str or a pathlib.Path), so both answer unless the request asks for a Path."""

from __future__ import annotations

from labelled import Request

TARGET = "platformdirs"

REQUESTS: tuple[Request, ...] = (
    Request("all standard app folders object", "terse", ("PlatformDirs", "AppDirs")),
    Request(
        "I need the location of the current user's photos folder as a pathlib object.",
        "sentence",
        ("user_pictures_path",),
    ),
    Request(
        "XDG user-dirs location for files shared with other users (~/Public)",
        "jargon",
        ("user_publicshare_path", "user_publicshare_dir"),
    ),
    Request(
        "a private spot for my program's scratch files that gets wiped when I log out",
        "layman",
        ("user_runtime_path", "user_runtime_dir"),
    ),
    Request(
        "system-wide /run folder for my daemon's pid fles and sockts",
        "typos",
        ("site_runtime_path", "site_runtime_dir"),
    ),
    Request("machine-wide shared cache folder", "terse", ("site_cache_path", "site_cache_dir")),
    Request(
        "I want the folder where the user keeps starter files for the file manager's New menu.",
        "sentence",
        ("user_templates_path", "user_templates_dir"),
    ),
    Request(
        "FHS /var/cache location for my application",
        "jargon",
        ("site_cache_dir", "site_cache_path"),
    ),
    Request(
        "where do I put a shortcut so my program shows up in my own start menu",
        "layman",
        ("user_applications_path", "user_applications_dir"),
    ),
    Request(
        "get the path of the folder where the user saves thier letters and spredsheets",
        "typos",
        ("user_documents_dir", "user_documents_path"),
    ),
    Request("per-user app logfiles location", "terse", ("user_log_path", "user_log_dir")),
    Request(
        "Where should my program keep downloaded data it can rebuild later, just for this user?",
        "sentence",
        ("user_cache_dir", "user_cache_path"),
    ),
    Request(
        "XDG_CONFIG_DIRS system-wide settings location (/etc/xdg) for my application",
        "jargon",
        ("site_config_dir", "site_config_path"),
    ),
    Request(
        "where are the blank starter files offered when I right-click to make something new",
        "layman",
        ("user_templates_dir", "user_templates_path"),
    ),
    Request(
        "shared aplication data folder for every user on the machne",
        "typos",
        ("site_data_dir", "site_data_path"),
    ),
)
