"""The chosen zoo: the libraries the rule of ``bench/chosen/README.md`` kept, walking PyPI's
download ranking (``ranking.tsv``) in order, as ``choice.tsv`` records the walk; and the split,
made once by :func:`half_of`, into a tuning half and a held-out half.

Standard library only: bench scripts and the consistency test import it without the chosen
libraries installed (they are in ``.venv-chosen``, made by ``venv.sh``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["LIBRARIES", "QUOTA", "VERDICTS", "Half", "Library", "half_of", "normalized"]

Half = Literal["tuning", "held-out"]

QUOTA = 62
"""How many new libraries the walk keeps: with the 41 of the first zoo (``bench/zoo_cases.py``),
at least 100, with two to spare."""

VERDICTS: tuple[str, ...] = (
    "kept",
    "in-zoo",
    "framework",
    "cli",
    "network-client",
    "gui",
    "plugin",
    "stubs",
    "build-tool",
    "backbone",
    "does-not-install",
    "needs-network",
)
"""What ``choice.tsv`` may say of a package walked (``README.md`` says what each means)."""


def normalized(distribution: str) -> str:
    """A distribution's name as the package registries compare names (PEP 503)."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


def half_of(distribution: str) -> Half:
    """The half a library is in, fixed by its name: the first byte of the SHA-256 of its
    normalized name, even for the tuning half, odd for the held-out half."""
    first_byte = hashlib.sha256(normalized(distribution).encode()).digest()[0]
    return "tuning" if first_byte % 2 == 0 else "held-out"


@dataclass(frozen=True)
class Library:
    """A library the rule kept."""

    rank: int
    """Its place in ``ranking.tsv``."""
    distribution: str
    """Its name on the package registry, as the ranking spells it."""
    imports: tuple[str, ...]
    """The top-level module(s) it installs that a caller imports."""
    targets: tuple[str, ...]
    """What ``objmcp run`` takes for the part a model would call (``module`` or
    ``module:Name``)."""
    half: Half
    """The half :func:`half_of` puts it in, written out so that the split is read, not
    recomputed."""

    @property
    def calls_module(self) -> str:
        """The module of ``bench/chosen/`` that holds its calls (``TARGETS``, in the shapes of
        ``bench/zoo_cases.py``)."""
        return "calls_" + self.imports[0].lower()


LIBRARIES: tuple[Library, ...] = (
    Library(2, "packaging", ("packaging",), ("packaging.version", "packaging.utils"), "held-out"),
    Library(5, "idna", ("idna",), ("idna",), "tuning"),
    Library(8, "charset-normalizer", ("charset_normalizer",), ("charset_normalizer",), "held-out"),
    Library(
        11,
        "cryptography",
        ("cryptography",),
        ("cryptography.fernet:Fernet", "cryptography.hazmat.primitives.hashes"),
        "tuning",
    ),
    Library(17, "pygments", ("pygments",), ("pygments.lexers", "pygments"), "tuning"),
    Library(22, "pycparser", ("pycparser",), ("pycparser.c_parser:CParser",), "held-out"),
    Library(32, "iniconfig", ("iniconfig",), ("iniconfig:IniConfig",), "tuning"),
    Library(
        33, "fsspec", ("fsspec",), ("fsspec.implementations.memory:MemoryFileSystem",), "tuning"
    ),
    Library(40, "markupsafe", ("markupsafe",), ("markupsafe",), "tuning"),
    Library(41, "platformdirs", ("platformdirs",), ("platformdirs",), "tuning"),
    Library(42, "python-dotenv", ("dotenv",), ("dotenv",), "tuning"),
    Library(43, "pathspec", ("pathspec",), ("pathspec:GitIgnoreSpec",), "tuning"),
    Library(44, "pyjwt", ("jwt",), ("jwt",), "held-out"),
    Library(45, "jinja2", ("jinja2",), ("jinja2:Environment",), "held-out"),
    Library(46, "rich", ("rich",), ("rich.console:Console", "rich.markup"), "held-out"),
    Library(47, "jmespath", ("jmespath",), ("jmespath",), "tuning"),
    Library(48, "markdown-it-py", ("markdown_it",), ("markdown_it:MarkdownIt",), "held-out"),
    Library(50, "filelock", ("filelock",), ("filelock:FileLock",), "held-out"),
    Library(52, "yarl", ("yarl",), ("yarl:URL",), "held-out"),
    Library(54, "multidict", ("multidict",), ("multidict:MultiDict",), "held-out"),
    Library(55, "jsonschema", ("jsonschema",), ("jsonschema",), "held-out"),
    Library(
        61,
        "pyasn1",
        ("pyasn1",),
        ("pyasn1.codec.der.decoder", "pyasn1.codec.der.encoder"),
        "held-out",
    ),
    Library(62, "pytz", ("pytz",), ("pytz",), "held-out"),
    Library(65, "frozenlist", ("frozenlist",), ("frozenlist:FrozenList",), "held-out"),
    Library(68, "rpds-py", ("rpds",), ("rpds:HashTrieMap",), "tuning"),
    Library(69, "tqdm", ("tqdm",), ("tqdm:tqdm",), "tuning"),
    Library(72, "referencing", ("referencing",), ("referencing:Registry",), "tuning"),
    Library(81, "colorama", ("colorama",), ("colorama.ansi",), "held-out"),
    Library(90, "pyarrow", ("pyarrow",), ("pyarrow.compute",), "tuning"),
    Library(99, "pyparsing", ("pyparsing",), ("pyparsing",), "held-out"),
    Library(100, "shellingham", ("shellingham",), ("shellingham",), "held-out"),
    Library(101, "tomli", ("tomli",), ("tomli",), "tuning"),
    Library(102, "lxml", ("lxml",), ("lxml.etree",), "held-out"),
    Library(103, "beautifulsoup4", ("bs4",), ("bs4:BeautifulSoup",), "tuning"),
    Library(106, "psutil", ("psutil",), ("psutil",), "tuning"),
    Library(107, "regex", ("regex",), ("regex",), "tuning"),
    Library(108, "cachetools", ("cachetools",), ("cachetools:LRUCache",), "held-out"),
    Library(117, "watchfiles", ("watchfiles",), ("watchfiles",), "tuning"),
    Library(118, "rsa", ("rsa",), ("rsa",), "held-out"),
    Library(119, "tomlkit", ("tomlkit",), ("tomlkit",), "held-out"),
    Library(121, "distro", ("distro",), ("distro",), "tuning"),
    Library(123, "jiter", ("jiter",), ("jiter",), "tuning"),
    Library(129, "openpyxl", ("openpyxl",), ("openpyxl:Workbook",), "tuning"),
    Library(132, "wcwidth", ("wcwidth",), ("wcwidth",), "held-out"),
    Library(135, "docutils", ("docutils",), ("docutils.core",), "tuning"),
    Library(144, "gitpython", ("git",), ("git:Repo",), "held-out"),
    Library(146, "msgpack", ("msgpack",), ("msgpack",), "held-out"),
    Library(149, "ptyprocess", ("ptyprocess",), ("ptyprocess:PtyProcess",), "tuning"),
    Library(155, "pexpect", ("pexpect",), ("pexpect",), "tuning"),
    Library(159, "pynacl", ("nacl",), ("nacl.hash", "nacl.pwhash"), "tuning"),
    Library(
        160, "sortedcontainers", ("sortedcontainers",), ("sortedcontainers:SortedList",), "held-out"
    ),
    Library(162, "docstring-parser", ("docstring_parser",), ("docstring_parser",), "held-out"),
    Library(
        165, "fonttools", ("fontTools",), ("fontTools.agl", "fontTools.ttLib:TTFont"), "held-out"
    ),
    Library(
        169, "matplotlib", ("matplotlib",), ("matplotlib.colors", "matplotlib.pyplot"), "held-out"
    ),
    Library(170, "isodate", ("isodate",), ("isodate",), "held-out"),
    Library(
        179, "scikit-learn", ("sklearn",), ("sklearn.metrics", "sklearn.preprocessing"), "held-out"
    ),
    Library(180, "itsdangerous", ("itsdangerous",), ("itsdangerous",), "held-out"),
    Library(184, "bcrypt", ("bcrypt",), ("bcrypt",), "tuning"),
    Library(186, "kiwisolver", ("kiwisolver",), ("kiwisolver:Solver",), "tuning"),
    Library(188, "dill", ("dill",), ("dill",), "tuning"),
    Library(192, "contourpy", ("contourpy",), ("contourpy",), "held-out"),
    Library(194, "orjson", ("orjson",), ("orjson",), "tuning"),
)
"""The kept libraries, in rank order."""
