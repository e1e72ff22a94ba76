"""The search benchmark's requests for ``dulwich.porcelain``: written from its documentation (the
docstrings of the sampled functions and classes and of ``commit_index_tree``, ``show_branch``,
``rev_parse``, ``local_branch_name``, ``get_branch_merge``, ``hash_object``, ``log``, ``pull``,
``rerere_status``, ``reflog_expire`` and ``receive_pack``; the sources of ``parse_ref`` and
``upload_pack``; git's own manual pages known), before any search was run on them (issue 39)."""

from __future__ import annotations

from labelled import Request

TARGET = "dulwich.porcelain"

REQUESTS: tuple[Request, ...] = (
    Request("commit hashes newest first", "terse", ("rev_list",)),
    Request(
        "I want to make a git content object from a file path and its os.stat result.",
        "sentence",
        ("blob_from_path_and_stat",),
    ),
    Request(
        "snapshot the staged index as a tree object and return its SHA", "jargon", ("write_tree",)
    ),
    Request(
        "set up my project folder so huge files like videos are kept aside instead of bloating its"
        " history",
        "layman",
        ("lfs_init",),
    ),
    Request(
        "show differnces between recorded merge conflict preimages and their saved resolutons",
        "typos",
        ("rerere_diff",),
    ),
    Request("send local commits to remote", "terse", ("push",)),
    Request(
        "I need to know which of these paths are matched by the repository's .gitignore patterns.",
        "sentence",
        ("check_ignore",),
    ),
    Request(
        "serve a client's fetch: negotiate and stream a packfile over stdin/stdout for a repo path",
        "jargon",
        ("upload_pack",),
    ),
    Request(
        "work out the full name of a saved bookmark in my project from the short name I typed",
        "layman",
        ("parse_ref",),
    ),
    Request(
        "remove a singel entry from the history of where HEAD has pointd",
        "typos",
        ("reflog_delete",),
    ),
    Request("which remote does HEAD track", "terse", ("get_branch_remote",)),
    Request(
        "I want to download new commits and refs from a remote server without merging them into my"
        " branch.",
        "sentence",
        ("fetch",),
    ),
    Request(
        "object type storing raw file contents in the object database, with no name or mode",
        "jargon",
        ("Blob",),
    ),
    Request("show me every separate line of work in my project", "layman", ("branch_list",)),
    Request(
        "protocol handler class a git server plugs in to answer clone requsts and stream objects to"
        " the cleint",
        "typos",
        ("UploadPackHandler",),
    ),
)
