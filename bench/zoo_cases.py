"""The zoo: real libraries nobody wrote for objmcp, served as they are, and the calls a
model would naturally make to them.

Each :class:`Target` is what ``objmcp run`` takes (a module, a class, a factory), with
:class:`Call` s in the names its tool list shows. A call's answer is not written here:
``expect`` computes it by calling the library directly, in the caller's process, and says
it in JSON's terms (a date as its ISO text, an array as its list). ``withheld`` names
callables of the target that must not be served unless asked for by name (a shell, code
evaluation, unsafe deserialisation, file deletion).

``bench/zoo_figures.py`` measures the zoo (tools, typed and described parameters, calls passing,
beside FastMCP); ``tests/zoo/test_zoo.py`` runs every call through a real MCP client.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["TARGETS", "UNCHECKED", "Call", "Target", "expected_json"]


@dataclass(frozen=True)
class Call:
    """One call of a tool, with the arguments a model would send."""

    tool: str
    arguments: dict[str, Any]
    expect: Callable[[], Any]
    """The answer in JSON's terms, computed by calling the library itself."""
    image: bool = False
    """The answer is an image block, not text: ``expect`` gives its (width, height)."""


@dataclass(frozen=True)
class Target:
    """A target as ``objmcp run`` takes it, the options it is served with, and its calls."""

    spec: str
    calls: tuple[Call, ...]
    options: tuple[str, ...] = ()
    withheld: tuple[str, ...] = ()

    @property
    def library(self) -> str:
        """The top module the target comes from."""
        return self.spec.split(":")[0].split(".")[0].split("/")[-1].removesuffix(".py")


def expected_json(value: Any) -> Any:
    """``value`` as JSON text would carry it (tuples as lists, keys as strings, numpy's
    arrays and scalars as their lists and numbers)."""
    return json.loads(json.dumps(value, default=lambda item: item.tolist()))


def _m(name: str) -> Any:
    return importlib.import_module(name)


class _Unchecked:
    def __repr__(self) -> str:
        return "UNCHECKED"


UNCHECKED: Any = _Unchecked()
"""What ``expect`` gives for a call whose answer is not looked at (only that it is no
error): one that changes the state a later call of the same target checks."""

SQL: tuple[tuple[str, list[list[int]]], ...] = (
    ("create table t (x)", []),
    ("insert into t values (?)", [[1], [2], [3]]),
    ("select sum(x), count(*) from t", []),
)
EDGES = [[1, 2], [2, 3]]
TEXT = "The quick brown fox jumps over the lazy dog."

TARGETS: tuple[Target, ...] = (
    # --- the standard library ---
    Target(
        "math",
        (
            Call("gcd", {"integers": [12, 18]}, lambda: _m("math").gcd(12, 18)),
            Call("comb", {"n": 10, "k": 3}, lambda: _m("math").comb(10, 3)),
            Call("sqrt", {"x": 2}, lambda: _m("math").sqrt(2)),
            Call("hypot", {"coordinates": [3, 4]}, lambda: _m("math").hypot(3, 4)),
        ),
    ),
    Target(
        "statistics",
        (
            Call("mean", {"data": [1, 2, 3, 4]}, lambda: _m("statistics").mean([1, 2, 3, 4])),
            Call("median", {"data": [5, 1, 3]}, lambda: _m("statistics").median([5, 1, 3])),
            Call("stdev", {"data": [2, 4, 4, 5]}, lambda: _m("statistics").stdev([2, 4, 4, 5])),
        ),
    ),
    Target(
        "textwrap",
        (
            Call("wrap", {"text": TEXT, "width": 12}, lambda: _m("textwrap").wrap(TEXT, 12)),
            Call(
                "shorten",
                {"text": TEXT, "width": 20},
                lambda: _m("textwrap").shorten(TEXT, 20),
            ),
            Call("dedent", {"text": "  a\n  b"}, lambda: _m("textwrap").dedent("  a\n  b")),
        ),
    ),
    Target(
        "json",
        (
            Call("loads", {"s": '{"a": [1, 2]}'}, lambda: {"a": [1, 2]}),
            Call(
                "dumps",
                {"obj": {"b": 1, "a": 2}, "sort_keys": True},
                lambda: _m("json").dumps({"b": 1, "a": 2}, sort_keys=True),
            ),
        ),
    ),
    Target(
        "difflib",
        (
            Call(
                "get_close_matches",
                {"word": "appel", "possibilities": ["ape", "apple", "peach"]},
                lambda: _m("difflib").get_close_matches("appel", ["ape", "apple", "peach"]),
            ),
        ),
    ),
    Target("html", (Call("escape", {"s": "<a & b>"}, lambda: _m("html").escape("<a & b>")),)),
    Target(
        "urllib.parse",
        (
            Call("quote", {"string": "a b/c"}, lambda: _m("urllib.parse").quote("a b/c")),
            Call(
                "urljoin",
                {"base": "https://x.org/a/b", "url": "c"},
                lambda: _m("urllib.parse").urljoin("https://x.org/a/b", "c"),
            ),
        ),
    ),
    Target("base64", (Call("b64decode", {"s": "aGVsbG8="}, lambda: "hello"),)),
    Target(
        "calendar",
        (
            Call("isleap", {"year": 2024}, lambda: _m("calendar").isleap(2024)),
            Call(
                "monthrange",
                {"year": 2024, "month": 2},
                lambda: expected_json(_m("calendar").monthrange(2024, 2)),
            ),
        ),
    ),
    Target(
        "colorsys",
        (
            Call(
                "rgb_to_hsv",
                {"r": 1, "g": 0.5, "b": 0},
                lambda: expected_json(_m("colorsys").rgb_to_hsv(1, 0.5, 0)),
            ),
        ),
    ),
    Target(
        "ipaddress",
        (
            Call(
                "ip_address",
                {"address": "192.168.0.1"},
                lambda: str(_m("ipaddress").ip_address("192.168.0.1")),
            ),
        ),
    ),
    Target(
        "datetime:datetime",
        (
            Call(
                "fromisoformat",
                {"date_string": "2024-01-05T10:30:00"},
                lambda: _m("datetime").datetime.fromisoformat("2024-01-05T10:30:00").isoformat(),
            ),
            Call(
                "strptime",
                {"date_string": "05/01/2024", "format": "%d/%m/%Y"},
                lambda: _m("datetime").datetime.strptime("05/01/2024", "%d/%m/%Y").isoformat(),
            ),
        ),
    ),
    Target(
        "unicodedata",
        (
            Call("name", {"chr": "é"}, lambda: _m("unicodedata").name("é")),
            Call("category", {"chr": "A"}, lambda: _m("unicodedata").category("A")),
        ),
    ),
    Target(
        "shlex",
        (
            Call("split", {"s": "a 'b c' d"}, lambda: _m("shlex").split("a 'b c' d")),
            Call("quote", {"s": "it's"}, lambda: _m("shlex").quote("it's")),
        ),
    ),
    Target(
        "fnmatch",
        (
            Call(
                "filter",
                {"names": ["a.py", "b.txt", "c.py"], "pat": "*.py"},
                lambda: _m("fnmatch").filter(["a.py", "b.txt", "c.py"], "*.py"),
            ),
        ),
    ),
    Target(
        "operator",
        (
            Call("add", {"a": 2, "b": 3}, lambda: _m("operator").add(2, 3)),
            Call("contains", {"a": [1, 2], "b": 2}, lambda: _m("operator").contains([1, 2], 2)),
        ),
    ),
    Target(
        "re",
        (
            Call(
                "findall",
                {"pattern": r"\d+", "string": "a1b22c333"},
                lambda: _m("re").findall(r"\d+", "a1b22c333"),
            ),
            Call(
                "sub",
                {"pattern": "o", "repl": "0", "string": "foo"},
                lambda: _m("re").sub("o", "0", "foo"),
            ),
        ),
    ),
    Target(
        "os.path",
        (
            Call(
                "splitext",
                {"p": "a/b.txt"},
                lambda: expected_json(_m("os.path").splitext("a/b.txt")),
            ),
            Call("basename", {"p": "/x/y.py"}, lambda: _m("os.path").basename("/x/y.py")),
        ),
    ),
    Target(
        "os",
        (Call("cpu_count", {}, lambda: _m("os").cpu_count()),),
        withheld=("system", "popen", "remove", "rmdir", "kill", "chmod", "putenv", "execv"),
    ),
    Target(
        "builtins",
        (
            Call("sorted", {"iterable": [3, 1, 2]}, lambda: sorted([3, 1, 2])),
            Call("abs", {"x": -4}, lambda: abs(-4)),
            Call("round", {"number": 2.675, "ndigits": 2}, lambda: round(2.675, 2)),
        ),
        withheld=("eval", "exec", "compile", "open", "__import__", "breakpoint"),
    ),
    Target(
        "subprocess",
        (),
        withheld=("run", "call", "check_call", "check_output", "getoutput", "getstatusoutput"),
    ),
    Target("shutil", (), withheld=("rmtree", "move", "chown")),
    Target("pickle", (), withheld=("loads", "load")),
    Target(
        "random:Random",
        (
            Call("seed", {"a": 7}, lambda: UNCHECKED),
            Call("randint", {"a": 1, "b": 1000}, lambda: _seeded_random(7).randint(1, 1000)),
        ),
    ),
    Target(
        "collections:Counter",
        (
            Call("update", {"iterable": "abracadabra"}, lambda: UNCHECKED),
            Call(
                "most_common",
                {"n": 2},
                lambda: expected_json(
                    _m("collections").Counter("abracadabra").most_common(2),
                ),
            ),
        ),
    ),
    Target(
        "json:JSONEncoder",
        (Call("encode", {"o": {"a": [1, None]}}, lambda: _m("json").dumps({"a": [1, None]})),),
    ),
    Target(
        "bench/zoo_factories.py:memory_database()",
        (
            Call("execute", {"sql": SQL[0][0]}, lambda: _sqlite_replay(1)),
            Call(
                "executemany",
                {"sql": SQL[1][0], "parameters": SQL[1][1]},
                lambda: _sqlite_replay(2),
            ),
            Call("execute", {"sql": SQL[2][0]}, lambda: _sqlite_replay(3)),
        ),
        options=("--concurrency", "serial"),
    ),
    # --- from PyPI ---
    Target(
        "more_itertools",
        (
            Call(
                "chunked",
                {"iterable": [1, 2, 3, 4, 5], "n": 2},
                lambda: list(_m("more_itertools").chunked([1, 2, 3, 4, 5], 2)),
            ),
            Call("first", {"iterable": [7, 8]}, lambda: _m("more_itertools").first([7, 8])),
        ),
    ),
    Target(
        "numpy",
        (
            Call(
                "linspace",
                {"start": 0, "stop": 1, "num": 5},
                lambda: _m("numpy").linspace(0, 1, 5).tolist(),
            ),
            Call("mean", {"a": [1, 2, 3, 4]}, lambda: float(_m("numpy").mean([1, 2, 3, 4]))),
            Call(
                "add",
                {"x1": [1, 2], "x2": 3},
                lambda: _m("numpy").add([1, 2], 3).tolist(),
            ),
            Call(
                "isnan",
                {"x": [1.0, 2.0]},
                lambda: _m("numpy").isnan([1.0, 2.0]).tolist(),
            ),
        ),
    ),
    Target(
        "numpy.random:default_rng()",
        (
            Call(
                "integers",
                {"low": 5, "high": 6, "size": 3},
                lambda: _m("numpy.random").default_rng().integers(5, 6, size=3).tolist(),
            ),
        ),
    ),
    Target(
        "scipy.stats",
        (
            Call(
                "describe",
                {"a": [1, 2, 3, 4]},
                lambda: _scipy_fields(_m("scipy.stats").describe([1, 2, 3, 4])),
            ),
        ),
    ),
    Target(
        "scipy.optimize",
        (
            Call(
                "linear_sum_assignment",
                {"cost_matrix": [[4, 1, 3], [2, 0, 5], [3, 2, 2]]},
                lambda: expected_json(
                    [
                        part.tolist()
                        for part in _m("scipy.optimize").linear_sum_assignment(
                            [[4, 1, 3], [2, 0, 5], [3, 2, 2]]
                        )
                    ]
                ),
            ),
        ),
    ),
    Target(
        "pandas",
        (
            Call(
                "to_numeric",
                {"arg": ["1", "2.5"]},
                lambda: _m("pandas").to_numeric(["1", "2.5"]).tolist(),
            ),
        ),
        withheld=("read_pickle", "eval"),
    ),
    Target(
        "sympy",
        (
            Call(
                "factor",
                {"f": "x**2 - 1"},
                lambda: str(_m("sympy").factor("x**2 - 1")),
            ),
            Call(
                "simplify",
                {"expr": "sin(x)**2 + cos(x)**2"},
                lambda: str(_m("sympy").simplify("sin(x)**2 + cos(x)**2")),
            ),
        ),
    ),
    Target(
        "networkx:Graph",
        (
            Call("add_edges_from", {"ebunch_to_add": EDGES}, lambda: UNCHECKED),
            Call("number_of_edges", {}, lambda: _graph().number_of_edges()),
            Call("has_edge", {"u": 1, "v": 3}, lambda: _graph().has_edge(1, 3)),
        ),
    ),
    Target(
        "babel.numbers",
        (
            Call(
                "format_decimal",
                {"number": 1234.5, "locale": "de_DE"},
                lambda: _m("babel.numbers").format_decimal(1234.5, locale="de_DE"),
            ),
        ),
    ),
    Target(
        "babel.dates",
        (
            Call(
                "format_date",
                {"date": "2024-01-05", "locale": "fr_FR"},
                lambda: _m("babel.dates").format_date(
                    _m("datetime").date(2024, 1, 5), locale="fr_FR"
                ),
            ),
        ),
    ),
    Target(
        "humanize",
        (
            Call("intcomma", {"value": "1234567"}, lambda: _m("humanize").intcomma("1234567")),
            Call(
                "naturalsize",
                {"value": 3000000},
                lambda: _m("humanize").naturalsize(3000000),
            ),
            Call(
                "naturaldate",
                {"value": "2024-01-05"},
                lambda: _m("humanize").naturaldate(_m("datetime").date(2024, 1, 5)),
            ),
        ),
    ),
    Target(
        "dateutil.parser",
        (
            Call(
                "isoparse",
                {"dt_str": "2024-01-05T10:00:00"},
                lambda: _m("dateutil.parser").isoparse("2024-01-05T10:00:00").isoformat(),
            ),
        ),
    ),
    Target(
        "slugify",
        (Call("slugify", {"text": "Hello, World!"}, lambda: "hello-world"),),
    ),
    Target(
        "jellyfish",
        (
            Call(
                "levenshtein_distance",
                {"a": "kitten", "b": "sitting"},
                lambda: _m("jellyfish").levenshtein_distance("kitten", "sitting"),
            ),
            Call("soundex", {"a": "Robert"}, lambda: _m("jellyfish").soundex("Robert")),
        ),
    ),
    Target(
        "toolz",
        (
            Call(
                "frequencies",
                {"seq": ["a", "b", "a"]},
                lambda: _m("toolz").frequencies(["a", "b", "a"]),
            ),
            Call(
                "partition",
                {"n": 2, "seq": [1, 2, 3, 4]},
                lambda: expected_json(list(_m("toolz").partition(2, [1, 2, 3, 4]))),
            ),
        ),
    ),
    Target(
        "inflection",
        (
            Call("pluralize", {"word": "octopus"}, lambda: _m("inflection").pluralize("octopus")),
            Call(
                "camelize",
                {"string": "hello_world"},
                lambda: _m("inflection").camelize("hello_world"),
            ),
        ),
    ),
    Target(
        "tabulate",
        (
            Call(
                "tabulate",
                {"tabular_data": [[1, 2], [3, 4]], "headers": ["a", "b"]},
                lambda: _m("tabulate").tabulate([[1, 2], [3, 4]], headers=["a", "b"]),
            ),
        ),
    ),
    Target(
        "yaml",
        (
            Call("safe_load", {"stream": "a: [1, 2]"}, lambda: {"a": [1, 2]}),
            Call(
                "safe_dump",
                {"data": {"a": 1}},
                lambda: _m("yaml").safe_dump({"a": 1}),
            ),
        ),
        withheld=("load", "unsafe_load", "full_load", "load_all", "unsafe_load_all"),
    ),
    Target(
        "shapely",
        (
            Call(
                "from_wkt",
                {"geometry": "POINT (1 2)"},
                lambda: str(_m("shapely").from_wkt("POINT (1 2)")),
            ),
        ),
    ),
    Target(
        "PIL.Image",
        (Call("new", {"mode": "RGB", "size": [4, 3], "color": "red"}, lambda: (4, 3), True),),
    ),
)


def _seeded_random(seed: int) -> Any:
    generator = _m("random").Random()
    generator.seed(seed)
    return generator


def _sqlite_replay(count: int) -> Any:
    """The rows of the last of the first ``count`` statements of :data:`SQL`."""
    connection = _m("sqlite3").connect(":memory:")
    rows: list[Any] = []
    for sql, parameters in SQL[:count]:
        cursor = connection.executemany(sql, parameters) if parameters else connection.execute(sql)
        rows = cursor.fetchall()
    connection.close()
    return expected_json(rows)


def _graph() -> Any:
    graph = _m("networkx").Graph()
    graph.add_edges_from(EDGES)
    return graph


def _scipy_fields(result: Any) -> Any:
    """A scipy result's public fields in JSON's terms."""
    return expected_json({name: getattr(result, name) for name in result._fields})
