"""The search benchmark's requests for ``fsspec.implementations.memory:MemoryFileSystem``: written
from its documentation (the docstrings of the 15 sampled methods and of their aliases and
neighbours: mkdir/makedirs, move/rename, download, disk_usage, read_bytes/read_text/cat, ukey;
the fsspec API reference pages known), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "fsspec.implementations.memory:MemoryFileSystem"

REQUESTS: tuple[Request, ...] = (
    Request("regular file check path", "terse", ("isfile",)),
    Request(
        "I want the byte count of each file in a list of paths in one call.",
        "sentence",
        ("sizes",),
    ),
    Request(
        "JSON-serialize the filesystem instance, with class path and constructor kwargs",
        "jargon",
        ("to_json",),
    ),
    Request(
        "make a new empty folder at this location",
        "layman",
        ("makedir", "mkdir", "makedirs", "mkdirs"),
    ),
    Request(
        "relocate a file into a diferent directroy",
        "typos",
        ("mv", "move", "rename"),
    ),
    Request("serializable dictionary of filesystem settings", "terse", ("to_dict",)),
    Request(
        "I need to copy a whole folder from my computer's disk into the in-memory filesystem.",
        "sentence",
        ("upload", "put"),
    ),
    Request(
        "recursively copy a remote tree to a local destination, expanding glob patterns",
        "jargon",
        ("get", "download"),
    ),
    Request(
        "show me what's written inside this one file",
        "layman",
        ("cat_file", "read_bytes", "read_text", "cat"),
    ),
    Request(
        "transfer files from my local machine into the memroy filesystem, recursivly",
        "typos",
        ("put", "upload"),
    ),
    Request("path present including broken symlinks", "terse", ("lexists",)),
    Request(
        "I want to print an indented text diagram of the folders and files under a path.",
        "sentence",
        ("tree",),
    ),
    Request(
        "content fingerprint to detect whether a file's version has changed",
        "jargon",
        ("checksum", "ukey"),
    ),
    Request(
        "how much room are all the files in this folder taking up",
        "layman",
        ("du", "disk_usage"),
    ),
    Request(
        "read severl byte ranges from many files in one cal",
        "typos",
        ("cat_ranges",),
    ),
)
