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

__all__ = [
    "LIBRARIES",
    "QUOTA",
    "SECOND_QUOTA",
    "THIRD_QUOTA",
    "VERDICTS",
    "Half",
    "Library",
    "half_of",
    "normalized",
]

Half = Literal["tuning", "held-out"]

QUOTA = 62
"""How many new libraries the walk keeps: with the 41 of the first zoo (``bench/zoo_cases.py``),
at least 100, with two to spare."""

SECOND_QUOTA = 30
"""How many more the second walk keeps (issue 37, round 3): on down the ranking from where the
first walk stopped, by the same rule and the same split, to widen both halves."""

THIRD_QUOTA = 30
"""How many more the third walk keeps (issue 37, round 3): on down the ranking from where the
second walk stopped, by the same rule and the same split, to give the tuning half new signal
and the held-out half a fresh blind measure."""

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
    walk: int = 1
    """Which walk kept it: 1 up to :data:`QUOTA`, 2 for the :data:`SECOND_QUOTA` after, 3 for
    the :data:`THIRD_QUOTA` after those."""

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
    Library(195, "email-validator", ("email_validator",), ("email_validator",), "held-out", walk=2),
    Library(199, "google-crc32c", ("google_crc32c",), ("google_crc32c",), "held-out", walk=2),
    Library(200, "chardet", ("chardet",), ("chardet",), "held-out", walk=2),
    Library(201, "ruamel-yaml", ("ruamel",), ("ruamel.yaml:YAML",), "tuning", walk=2),
    Library(202, "defusedxml", ("defusedxml",), ("defusedxml.ElementTree",), "tuning", walk=2),
    Library(203, "threadpoolctl", ("threadpoolctl",), ("threadpoolctl",), "tuning", walk=2),
    Library(210, "mako", ("mako",), ("mako.template",), "tuning", walk=2),
    Library(211, "cycler", ("cycler",), ("cycler",), "tuning", walk=2),
    Library(212, "tzlocal", ("tzlocal",), ("tzlocal",), "tuning", walk=2),
    Library(213, "toml", ("toml",), ("toml",), "held-out", walk=2),
    Library(217, "jsonpointer", ("jsonpointer",), ("jsonpointer",), "held-out", walk=2),
    Library(222, "xxhash", ("xxhash",), ("xxhash",), "held-out", walk=2),
    Library(225, "zstandard", ("zstandard",), ("zstandard",), "tuning", walk=2),
    Library(228, "uritemplate", ("uritemplate",), ("uritemplate",), "held-out", walk=2),
    Library(232, "asn1crypto", ("asn1crypto",), ("asn1crypto.pem",), "tuning", walk=2),
    Library(
        234, "rapidfuzz", ("rapidfuzz",), ("rapidfuzz.fuzz", "rapidfuzz.process"), "tuning", walk=2
    ),
    Library(245, "identify", ("identify",), ("identify.identify",), "held-out", walk=2),
    Library(248, "cfgv", ("cfgv",), ("cfgv",), "tuning", walk=2),
    Library(249, "jedi", ("jedi",), ("jedi",), "held-out", walk=2),
    Library(252, "parso", ("parso",), ("parso",), "tuning", walk=2),
    Library(254, "executing", ("executing",), ("executing",), "held-out", walk=2),
    Library(259, "fastjsonschema", ("fastjsonschema",), ("fastjsonschema",), "held-out", walk=2),
    Library(262, "sqlparse", ("sqlparse",), ("sqlparse",), "held-out", walk=2),
    Library(263, "mpmath", ("mpmath",), ("mpmath",), "tuning", walk=2),
    Library(264, "durationpy", ("durationpy",), ("durationpy",), "tuning", walk=2),
    Library(266, "jsonpatch", ("jsonpatch",), ("jsonpatch",), "held-out", walk=2),
    Library(267, "asttokens", ("asttokens",), ("asttokens",), "tuning", walk=2),
    Library(274, "cloudpickle", ("cloudpickle",), ("cloudpickle",), "held-out", walk=2),
    Library(277, "pure-eval", ("pure_eval",), ("pure_eval",), "tuning", walk=2),
    Library(278, "stack-data", ("stack_data",), ("stack_data",), "tuning", walk=2),
    Library(289, "xmltodict", ("xmltodict",), ("xmltodict",), "tuning", walk=3),
    Library(290, "webencodings", ("webencodings",), ("webencodings",), "tuning", walk=3),
    Library(297, "termcolor", ("termcolor",), ("termcolor",), "held-out", walk=3),
    Library(302, "markdown", ("markdown",), ("markdown",), "tuning", walk=3),
    Library(308, "joserfc", ("joserfc",), ("joserfc.jwt", "joserfc.jwk"), "held-out", walk=3),
    Library(315, "tree-sitter", ("tree_sitter",), ("tree_sitter",), "held-out", walk=3),
    Library(
        325,
        "pycryptodome",
        ("Crypto",),
        ("Crypto.Hash.SHA256", "Crypto.Protocol.KDF"),
        "tuning",
        walk=3,
    ),
    Library(326, "tinycss2", ("tinycss2",), ("tinycss2",), "held-out", walk=3),
    Library(330, "torch", ("torch",), ("torch",), "held-out", walk=3),
    Library(334, "dulwich", ("dulwich",), ("dulwich.porcelain",), "tuning", walk=3),
    Library(336, "lz4", ("lz4",), ("lz4.frame",), "tuning", walk=3),
    Library(
        338,
        "jsonschema-path",
        ("jsonschema_path",),
        ("jsonschema_path:SchemaPath",),
        "held-out",
        walk=3,
    ),
    Library(344, "pkginfo", ("pkginfo",), ("pkginfo",), "held-out", walk=3),
    Library(355, "linkify-it-py", ("linkify_it",), ("linkify_it:LinkifyIt",), "held-out", walk=3),
    Library(356, "semver", ("semver",), ("semver",), "tuning", walk=3),
    Library(
        357,
        "xlsxwriter",
        ("xlsxwriter",),
        ("xlsxwriter:Workbook", "xlsxwriter.utility"),
        "tuning",
        walk=3,
    ),
    Library(360, "deepdiff", ("deepdiff",), ("deepdiff",), "tuning", walk=3),
    Library(367, "pymupdf", ("pymupdf",), ("pymupdf",), "tuning", walk=3),
    Library(369, "pytokens", ("pytokens",), ("pytokens",), "tuning", walk=3),
    Library(371, "pathable", ("pathable",), ("pathable:LookupPath",), "held-out", walk=3),
    Library(
        374, "rfc3339-validator", ("rfc3339_validator",), ("rfc3339_validator",), "tuning", walk=3
    ),
    Library(376, "text-unidecode", ("text_unidecode",), ("text_unidecode",), "tuning", walk=3),
    Library(377, "arrow", ("arrow",), ("arrow",), "tuning", walk=3),
    Library(379, "brotli", ("brotli",), ("brotli",), "held-out", walk=3),
    Library(387, "jsonref", ("jsonref",), ("jsonref",), "tuning", walk=3),
    Library(
        392, "crashtest", ("crashtest",), ("crashtest.inspector:Inspector",), "held-out", walk=3
    ),
    Library(393, "safetensors", ("safetensors",), ("safetensors.numpy",), "tuning", walk=3),
    Library(395, "mistune", ("mistune",), ("mistune",), "tuning", walk=3),
    Library(398, "onnxruntime", ("onnxruntime",), ("onnxruntime",), "tuning", walk=3),
    Library(401, "pendulum", ("pendulum",), ("pendulum",), "held-out", walk=3),
)
"""The kept libraries, in rank order."""
