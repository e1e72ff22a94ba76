"""What is dangerous to hand a model, and what a tool's name says it does.

Serving a whole module or object rarely means handing a model a shell. A callable
known to run processes, evaluate code, deserialise untrusted data, delete files,
change permissions or the environment, or end the server, and a class whose instances
hold something open (a file, a socket, a process: a context manager, or one with
``close``) or are threads, is *withheld*: left out of what a target publishes unless
the user names it (``include=["system"]``, by its exact name, not by a glob; or
``tools={"system": {...}}``). :func:`danger_of` says why a callable is withheld, from
where it is defined (its module and name), so that an alias or a method bound to an
instance is known as what it is; a class that holds something open, by its shape.

:func:`inferred_hints` reads a tool's name for MCP's annotations, as defaults that
the author's own options override: a name that starts with delete, remove, drop,
kill, write, unlink and the like is ``destructiveHint``; get, list, find, is, has
and the like is ``readOnlyHint``.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import re

from .hints import path_class

__all__ = ["danger_of", "inferred_hints", "withheld_line"]

_RUNS = "runs other programs"
_EVALUATES = "evaluates code"
_DESERIALISES = "deserialises data in a way that can run code"
_DELETES = "deletes files"
_MOVES = "moves files, leaving nothing where they were"
_PERMISSIONS = "changes permissions or owners"
_ENVIRONMENT = "changes the process's environment"
_ENDS = "ends the server"
_THREADS = "makes a thread, to be started"
_HOLDS = "makes an object that holds something open (a file, a socket, a process), to be closed"

_OS = ("os", "posix", "nt")
_DANGERS: dict[tuple[str, ...], dict[str, str]] = {
    _OS: {
        **dict.fromkeys(
            ["system", "popen", "fork", "forkpty", "kill", "killpg", "startfile"], _RUNS
        ),
        **dict.fromkeys(["posix_spawn", "posix_spawnp", "spawnv", "spawnve", "spawnl"], _RUNS),
        **dict.fromkeys(["spawnle", "spawnlp", "spawnlpe", "spawnvp", "spawnvpe"], _RUNS),
        **dict.fromkeys(["execl", "execle", "execlp", "execlpe", "execv", "execve"], _RUNS),
        **dict.fromkeys(["execvp", "execvpe"], _RUNS),
        **dict.fromkeys(["remove", "unlink", "rmdir", "removedirs"], _DELETES),
        **dict.fromkeys(["chmod", "fchmod", "lchmod", "chown", "fchown", "lchown"], _PERMISSIONS),
        **dict.fromkeys(["chflags", "lchflags", "setuid", "setgid", "seteuid"], _PERMISSIONS),
        **dict.fromkeys(["setegid", "setreuid", "setregid", "setgroups"], _PERMISSIONS),
        **dict.fromkeys(["putenv", "unsetenv", "chdir", "fchdir", "chroot", "umask"], _ENVIRONMENT),
        **dict.fromkeys(["_exit", "abort"], _ENDS),
    },
    ("subprocess",): dict.fromkeys(
        ["run", "call", "check_call", "check_output", "getoutput", "getstatusoutput", "Popen"],
        _RUNS,
    ),
    ("pty",): dict.fromkeys(["spawn", "fork"], _RUNS),
    ("threading",): dict.fromkeys(["Thread", "Timer"], _THREADS),
    ("asyncio.subprocess", "asyncio"): dict.fromkeys(
        ["create_subprocess_exec", "create_subprocess_shell"], _RUNS
    ),
    ("builtins",): {
        **dict.fromkeys(["eval", "exec", "compile", "__import__", "breakpoint"], _EVALUATES),
        **dict.fromkeys(["exit", "quit"], _ENDS),
    },
    ("sys",): {"exit": _ENDS},
    ("runpy",): dict.fromkeys(["run_path", "run_module"], _EVALUATES),
    ("code",): dict.fromkeys(["interact", "compile_command"], _EVALUATES),
    ("importlib",): dict.fromkeys(["import_module", "reload", "__import__"], _EVALUATES),
    ("pickle", "_pickle", "cPickle"): dict.fromkeys(["load", "loads", "Unpickler"], _DESERIALISES),
    ("marshal",): dict.fromkeys(["load", "loads"], _DESERIALISES),
    ("shelve",): dict.fromkeys(["open", "DbfilenameShelf", "Shelf"], _DESERIALISES),
    ("dill", "dill._dill", "cloudpickle", "joblib", "joblib.numpy_pickle"): dict.fromkeys(
        ["load", "loads"], _DESERIALISES
    ),
    ("yaml", "yaml.__init__"): dict.fromkeys(
        ["load", "load_all", "unsafe_load", "unsafe_load_all", "full_load", "full_load_all"],
        _DESERIALISES,
    ),
    # pandas' own documentation says eval and query "can run arbitrary code"
    ("pandas", "pandas.io.pickle", "pandas.core.computation.eval"): {
        "read_pickle": _DESERIALISES,
        "eval": _EVALUATES,
    },
    ("pandas.core.frame",): dict.fromkeys(["DataFrame.eval", "DataFrame.query"], _EVALUATES),
    ("torch", "torch.serialization"): {"load": _DESERIALISES},
    ("shutil",): {
        "rmtree": _DELETES,
        "move": _MOVES,
        **dict.fromkeys(["chown"], _PERMISSIONS),
    },
    ("pathlib", "pathlib._local", "pathlib._abc"): {
        **dict.fromkeys(["Path.unlink", "Path.rmdir"], _DELETES),
        **dict.fromkeys(["Path.chmod", "Path.lchmod"], _PERMISSIONS),
    },
}
_BY_MODULE = {module: names for modules, names in _DANGERS.items() for module in modules}


def danger_of(function: object) -> str | None:
    """Why ``function`` is withheld unless named (what it does that a model should not
    be handed), or None when it is not known to be dangerous."""
    while isinstance(function, functools.partial):
        function = function.func
    function = getattr(function, "__func__", function)  # a bound method: its function
    with contextlib.suppress(ValueError):  # a wrapper loop: take it as it is
        function = inspect.unwrap(function)  # type: ignore[arg-type]
    module = getattr(function, "__module__", None)
    names = _BY_MODULE.get(module) if isinstance(module, str) else None
    if not names:
        owner = getattr(function, "__self__", None)  # a C method bound to its class or module
        if isinstance(owner, type):
            module = owner.__module__
            names = _BY_MODULE.get(module)
    name = getattr(function, "__name__", None)
    qualified = getattr(function, "__qualname__", name)
    for key in (qualified, name):
        if names and isinstance(key, str) and key in names:
            return names[key]
    return _HOLDS if _holds_something_open(function) else None


def _holds_something_open(function: object) -> bool:
    """Whether ``function`` is a class whose instances are closed when done with (a
    context manager, or one with ``close``): a file, a socket, an archive, a process, a
    temporary directory. Making one for a model leaves it open, or acts at once (a file
    handler opens its file, a temporary directory is made)."""
    if not isinstance(function, type) or path_class(function):
        return False  # a path's __enter__ (deprecated, gone in 3.13) does nothing
    context = callable(getattr(function, "__enter__", None)) and callable(
        getattr(function, "__exit__", None)
    )
    return context or callable(getattr(function, "close", None))


_DESTRUCTIVE = frozenset(
    {
        *("delete", "remove", "drop", "kill", "write", "unlink", "rmdir", "rmtree"),
        *("destroy", "erase", "purge", "truncate", "terminate", "wipe", "overwrite"),
        *("clear", "reset"),
    }
)
_READ_ONLY = frozenset(
    {
        *("get", "list", "find", "is", "has", "read", "search", "count", "describe"),
        *("show", "lookup", "fetch", "view", "peek", "exists", "contains", "can"),
    }
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def inferred_hints(name: str) -> tuple[bool | None, bool | None]:
    """What a tool's name says of it, as the options ``(read_only, destructive)``: its
    first word (``delete_note``, ``getName``) names what it does; nothing (None) for
    the rest."""
    words = _WORD.findall(name)
    first = words[0].lower() if words else ""
    if first in _DESTRUCTIVE:
        return False, True
    if first in _READ_ONLY:
        return True, None
    return None, None


def withheld_line(withheld: dict[str, str]) -> str:
    """The start-up line that says which callables were left out, and why."""
    by_reason: dict[str, list[str]] = {}
    for name, reason in withheld.items():
        by_reason.setdefault(reason, []).append(name)
    parts = "; ".join(f"{', '.join(sorted(names))} ({why})" for why, names in by_reason.items())
    return (
        f"left out {len(withheld)} dangerous callable{'' if len(withheld) == 1 else 's'}, "
        "served only when named "
        f"(include=[...] or --include NAME): {parts}"
    )
