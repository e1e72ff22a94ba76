"""What a callable does that a model should not be handed: effects, and the table of them.

An :class:`Effect` is one kind of harm (running programs, evaluating code, deleting
files, changing a process-wide setting, ...). :data:`TABLE` classifies, by effect, every
public callable of the standard library modules whose functions act on the machine or
the process itself (``os``, ``shutil``, ``pathlib``, ``io``, ``sys``, ``signal``,
``tempfile``: each name with its effect, or ``None`` for one that only reads or computes),
and names the known-dangerous callables of other modules (``subprocess``, ``pickle``,
``builtins.eval``, ...). It is data: a new function in a new Python is unclassified until
it is added (a test sweeps the seven modules). :func:`effect_of` finds a callable's entry
by where it is defined (its module and name), so an alias or a bound method is known as
what it is.

Whether an effect withholds a tool depends on who shares the process
(:attr:`Effect.everywhere`): a change to a process-wide setting only changes the answers
of the other callers of the same process, which a stdio server does not have.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "CLASSIFIED",
    "DELETES",
    "DESCRIPTORS",
    "DESERIALISES",
    "ENDS",
    "ENVIRONMENT",
    "EVALUATES",
    "Effect",
    "PERMISSIONS",
    "PROCESS_SETTING",
    "RUNS",
    "TABLE",
    "WRITES",
    "effect_named",
    "effect_of",
    "table_entry",
    "unwrapped",
]


@dataclass(frozen=True)
class Effect:
    """One kind of thing a callable does that a model should not be handed unasked."""

    reason: str
    """What it does, as the start-up line says it (``deletes files``)."""
    everywhere: bool = True
    """Withheld on every transport; else only where callers share the process (HTTP)."""
    destructive: bool = True
    """MCP's ``destructiveHint`` when it is served (named): it may change or lose what
    was there."""


RUNS = Effect("runs other programs")
EVALUATES = Effect("evaluates code")
DESERIALISES = Effect("deserialises data in a way that can run code")
DELETES = Effect("deletes files")
WRITES = Effect("creates, overwrites, moves or links files")
PERMISSIONS = Effect("changes permissions, owners or the process's identity")
ENVIRONMENT = Effect(
    "changes how the process runs (its environment variables, working folder, umask, "
    "priority, signal handling)"
)
DESCRIPTORS = Effect(
    "acts on file descriptors by number (the protocol's own stdin and stdout among them)"
)
ENDS = Effect("ends, signals or waits for processes (the server's own among them)")
PROCESS_SETTING = Effect(
    "changes a process-wide setting (the answers of every other caller of the process)",
    everywhere=False,
    destructive=False,
)

Table = Mapping[tuple[str, ...], Mapping[str, "Effect | None"]]


def _each(effect: Effect | None, names: str) -> dict[str, Effect | None]:
    return dict.fromkeys(names.split(), effect)


_OS: dict[str, Effect | None] = {
    **_each(
        RUNS,
        "system popen fork forkpty startfile posix_spawn posix_spawnp execl execle execlp "
        "execlpe execv execve execvp execvpe spawnl spawnle spawnlp spawnlpe spawnv spawnve "
        "spawnvp spawnvpe register_at_fork",
    ),
    **_each(ENDS, "kill killpg abort _exit wait wait3 wait4 waitid waitpid pidfd_open"),
    **_each(DELETES, "remove unlink rmdir removedirs removexattr"),
    **_each(
        WRITES,
        "open link symlink rename renames replace mkdir makedirs mkfifo mknod truncate utime "
        "setxattr",
    ),
    **_each(
        PERMISSIONS,
        "chmod fchmod lchmod chown fchown lchown chflags lchflags setuid setgid seteuid "
        "setegid setreuid setregid setresuid setresgid setgroups initgroups",
    ),
    **_each(
        ENVIRONMENT,
        "putenv unsetenv chdir fchdir chroot umask nice setpriority setpgid setpgrp setsid "
        "sched_setaffinity sched_setparam sched_setscheduler unshare setns "
        "add_dll_directory",
    ),
    **_each(
        DESCRIPTORS,
        "close closerange dup dup2 read readv pread preadv write writev pwrite pwritev "
        "lseek fsync fdatasync ftruncate lockf fdopen openpty pipe pipe2 eventfd "
        "eventfd_read eventfd_write sendfile splice copy_file_range memfd_create "
        "posix_fallocate posix_fadvise set_blocking set_inheritable set_handle_inheritable "
        "tcsetpgrp login_tty posix_openpt grantpt unlockpt timerfd_create timerfd_settime "
        "timerfd_settime_ns",
    ),
    **_each(
        None,
        "DirEntry GenericAlias Mapping MutableMapping PathLike WCOREDUMP WEXITSTATUS "
        "WIFCONTINUED WIFEXITED WIFSIGNALED WIFSTOPPED WSTOPSIG WTERMSIG access confstr "
        "cpu_count process_cpu_count ctermid device_encoding fsdecode fsencode fspath fstat "
        "fstatvfs get_blocking get_exec_path get_inheritable get_handle_inheritable "
        "get_terminal_size getcwd getcwdb getegid getenv getenvb geteuid getgid "
        "getgrouplist getgroups getloadavg getlogin getpgid getpgrp getpid getppid "
        "getpriority getrandom getresgid getresuid getsid getuid getxattr isatty listdir "
        "listxattr lstat major makedev minor pathconf fpathconf readlink scandir "
        "sched_get_priority_max sched_get_priority_min sched_getaffinity sched_getparam "
        "sched_getscheduler sched_param sched_rr_get_interval sched_yield stat stat_result "
        "statvfs statvfs_result strerror sync sysconf tcgetpgrp terminal_size times "
        "times_result ttyname uname uname_result urandom waitid_result "
        "waitstatus_to_exitcode walk fwalk ptsname timerfd_gettime timerfd_gettime_ns "
        "listdrives listmounts listvolumes get_terminal_size",
    ),
}

_SYS: dict[str, Effect | None] = {
    **_each(ENDS, "exit"),
    **_each(EVALUATES, "breakpointhook"),
    **_each(
        PROCESS_SETTING,
        "setrecursionlimit setswitchinterval set_int_max_str_digits "
        "set_coroutine_origin_tracking_depth set_asyncgen_hooks setdlopenflags settrace "
        "setprofile addaudithook displayhook activate_stack_trampoline "
        "deactivate_stack_trampoline",
    ),
    **_each(
        None,
        "audit call_tracing excepthook unraisablehook exc_info exception "
        "get_asyncgen_hooks get_coroutine_origin_tracking_depth get_int_max_str_digits "
        "getallocatedblocks getdefaultencoding getdlopenflags getfilesystemencodeerrors "
        "getfilesystemencoding getprofile getrecursionlimit getrefcount getsizeof "
        "getswitchinterval gettrace intern is_finalizing getwindowsversion "
        "is_stack_trampoline_active getunicodeinternedsize",
    ),
}

_SIGNAL: dict[str, Effect | None] = {
    **_each(
        ENDS,
        "alarm setitimer pause sigwait sigwaitinfo sigtimedwait pidfd_send_signal "
        "pthread_kill raise_signal default_int_handler",
    ),
    **_each(ENVIRONMENT, "signal siginterrupt pthread_sigmask"),
    **_each(DESCRIPTORS, "set_wakeup_fd"),
    **_each(
        None,
        "Handlers Sigmasks Signals getitimer getsignal sigpending strsignal struct_siginfo "
        "valid_signals",
    ),
}

_IO: dict[str, Effect | None] = {
    **_each(WRITES, "open FileIO"),
    **_each(
        None,
        "open_code text_encoding BufferedIOBase BufferedRWPair BufferedRandom "
        "BufferedReader BufferedWriter BytesIO IOBase IncrementalNewlineDecoder RawIOBase "
        "StringIO TextIOBase TextIOWrapper Reader Writer",
    ),
}

_SHUTIL: dict[str, Effect | None] = {
    **_each(DELETES, "rmtree"),
    **_each(WRITES, "copy copy2 copyfile copytree copyfileobj make_archive move unpack_archive"),
    **_each(PERMISSIONS, "chown copymode copystat"),
    **_each(
        PROCESS_SETTING,
        "register_archive_format register_unpack_format unregister_archive_format "
        "unregister_unpack_format",
    ),
    **_each(
        None,
        "disk_usage get_archive_formats get_terminal_size get_unpack_formats ignore_patterns which",
    ),
}

_TEMPFILE: dict[str, Effect | None] = {
    **_each(WRITES, "mkstemp mkdtemp"),
    **_each(
        None,
        "NamedTemporaryFile SpooledTemporaryFile TemporaryDirectory TemporaryFile "
        "gettempdir gettempdirb gettempprefix gettempprefixb mktemp",
    ),
}

_PATHLIB: dict[str, Effect | None] = {
    **_each(DELETES, "unlink rmdir"),
    **_each(
        WRITES,
        "open touch mkdir rename replace symlink_to hardlink_to link_to write_bytes "
        "write_text copy copy_into move move_into",
    ),
    **_each(PERMISSIONS, "chmod lchmod"),
    **_each(
        None,
        "Path PosixPath PurePath PurePosixPath PureWindowsPath WindowsPath S_ISBLK S_ISCHR "
        "S_ISDIR S_ISFIFO S_ISLNK S_ISREG S_ISSOCK Sequence attrgetter urlquote_from_bytes "
        "absolute as_posix as_uri cwd exists expanduser glob rglob group home "
        "is_absolute is_block_device is_char_device is_dir is_fifo is_file is_mount "
        "is_relative_to is_reserved is_socket is_symlink is_junction iterdir joinpath "
        "lstat match full_match owner read_bytes read_text readlink relative_to resolve "
        "samefile stat with_name with_stem with_suffix with_segments walk from_uri",
    ),
}

TABLE: Table = {
    ("os", "posix", "nt"): _OS,
    ("sys",): _SYS,
    ("signal", "_signal"): _SIGNAL,
    ("io", "_io"): _IO,
    ("shutil",): _SHUTIL,
    ("tempfile",): _TEMPFILE,
    ("pathlib", "pathlib._local", "pathlib._abc"): _PATHLIB,
    ("subprocess",): _each(
        RUNS, "run call check_call check_output getoutput getstatusoutput Popen"
    ),
    ("pty",): _each(RUNS, "spawn fork"),
    ("asyncio.subprocess", "asyncio"): _each(
        RUNS, "create_subprocess_exec create_subprocess_shell"
    ),
    ("multiprocessing", "multiprocessing.context"): _each(RUNS, "Process Pool"),
    ("builtins",): {
        **_each(EVALUATES, "eval exec compile __import__ breakpoint"),
        **_each(ENDS, "exit quit"),
    },
    ("runpy",): _each(EVALUATES, "run_path run_module"),
    ("code",): _each(EVALUATES, "interact compile_command"),
    ("importlib",): _each(EVALUATES, "import_module reload __import__"),
    ("pickle", "_pickle", "cPickle"): _each(DESERIALISES, "load loads Unpickler"),
    ("marshal",): _each(DESERIALISES, "load loads"),
    ("shelve",): _each(DESERIALISES, "open DbfilenameShelf Shelf"),
    ("dill", "dill._dill", "cloudpickle", "joblib", "joblib.numpy_pickle"): _each(
        DESERIALISES, "load loads"
    ),
    ("yaml", "yaml.__init__"): _each(
        DESERIALISES, "load load_all unsafe_load unsafe_load_all full_load full_load_all"
    ),
    # pandas' own documentation says eval and query "can run arbitrary code"
    ("pandas", "pandas.io.pickle", "pandas.core.computation.eval"): {
        "read_pickle": DESERIALISES,
        "eval": EVALUATES,
    },
    ("pandas.core.frame",): _each(EVALUATES, "DataFrame.eval DataFrame.query"),
    ("torch", "torch.serialization"): {"load": DESERIALISES},
    ("locale",): _each(PROCESS_SETTING, "setlocale"),
    ("socket", "_socket"): _each(PROCESS_SETTING, "setdefaulttimeout"),
    ("time",): _each(PROCESS_SETTING, "tzset"),
    ("logging",): _each(PROCESS_SETTING, "basicConfig disable setLoggerClass"),
    ("codecs", "_codecs"): _each(PROCESS_SETTING, "register unregister register_error"),
    ("mimetypes",): _each(PROCESS_SETTING, "add_type"),
    ("faulthandler",): _each(DESCRIPTORS, "enable dump_traceback_later register"),
}
"""Each module's classified callables by name (a method as ``Class.name``, or its bare
name where the module's own classes hold it), with their effect or None."""

CLASSIFIED: tuple[str, ...] = ("os", "shutil", "pathlib", "io", "sys", "signal", "tempfile")
"""The modules every public callable of which :data:`TABLE` classifies."""

_BY_MODULE = {module: names for modules, names in TABLE.items() for module in modules}


def effect_of(function: object) -> Effect | None:
    """The effect :data:`TABLE` gives ``function``, found by where it is defined (a
    partial, a bound method and a wrapper are known as what they wrap), or None."""
    return table_entry(function)[1]


def table_entry(function: object) -> tuple[bool, Effect | None]:
    """Whether :data:`TABLE` classifies ``function`` (found as :func:`effect_of` finds
    it), and the effect it gives (None: it only reads or computes)."""
    function = unwrapped(function)
    module = getattr(function, "__module__", None)
    names = _BY_MODULE.get(module) if isinstance(module, str) else None
    if not names:
        owner = getattr(function, "__self__", None)  # a C method bound to its class or module
        if isinstance(owner, type):
            names = _BY_MODULE.get(owner.__module__)
    if not names:
        return False, None
    name = getattr(function, "__name__", None)
    qualified = getattr(function, "__qualname__", name)
    for key in (qualified, name):
        if isinstance(key, str) and key in names:
            return True, names[key]
    return False, None


def effect_named(module: str, name: str) -> Effect | None:
    """The effect :data:`TABLE` gives the callable ``name`` of the module called
    ``module`` (not imported: ``subprocess``, ``run``), or None."""
    return _BY_MODULE.get(module, {}).get(name)


def unwrapped(function: object) -> object:
    """What ``function`` calls in the end: a partial's function, a bound method's, a
    decorator's wrapped one (a wrapper loop taken as it is)."""
    while isinstance(function, functools.partial):
        function = function.func
    function = getattr(function, "__func__", function)
    with contextlib.suppress(ValueError):
        function = inspect.unwrap(function)  # type: ignore[arg-type]
    return function
