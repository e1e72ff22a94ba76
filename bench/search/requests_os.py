"""The search benchmark's requests for ``os``: written from its documentation (the docstrings
of the 15 sampled functions and of their neighbours ``fstatvfs``, ``pathconf``, ``fsdecode``,
``walk`` and ``get_terminal_size``, read with ``inspect.getdoc``, and the Python library
reference's ``os`` page), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "os"

REQUESTS: tuple[Request, ...] = (
    Request("round-robin time slice length", "terse", ("sched_rr_get_interval",)),
    Request(
        "I want to know how many free blocks and inodes remain on the filesystem of a path.",
        "sentence",
        ("statvfs",),
    ),
    Request(
        "name of the user logged in on the process's controlling terminal", "jargon", ("getlogin",)
    ),
    Request(
        "will reading from this open connection wait for data, or return at once if there is none",
        "layman",
        ("get_blocking",),
    ),
    Request(
        "get the max filename lenght allowed for an already open file descritor",
        "typos",
        ("fpathconf",),
    ),
    Request("PathLike object to path string", "terse", ("fspath", "fsdecode")),
    Request(
        "I need the real numeric user ID of the user running this process.", "sentence", ("getuid",)
    ),
    Request(
        "directory tree traversal yielding a dirfd per directory, safe against symlink races",
        "jargon",
        ("fwalk",),
    ),
    Request(
        "which extra teams or access groups does the account running this program belong to",
        "layman",
        ("getgroups",),
    ),
    Request(
        "split a raw devce number and get the part that identifies the drivr", "typos", ("major",)
    ),
    Request("id of parent process", "terse", ("getppid",)),
    Request(
        "I want to know whether a child process that died left a core dump behind.",
        "sentence",
        ("WCOREDUMP",),
    ),
    Request(
        "query a POSIX string-valued configuration value such as CS_PATH or the libc version",
        "jargon",
        ("confstr",),
    ),
    Request(
        "highest importance level a program can get for processor time under a given sharing rule",
        "layman",
        ("sched_get_priority_max",),
    ),
    Request(
        "terminal windw width and heigth in colums and lines",
        "typos",
        ("terminal_size", "get_terminal_size"),
    ),
)
