"""The labelled queries of progressive discovery's search: requests a user might make, in
their own words, each with the tools that answer it.

Each :class:`Library` is a target served whole (``objmcp.Toolbox(module, **options)``),
and each query is the request as a person would say it, with the tool names that are a
right answer (any one of them found counts). They were written from what people ask, not
from the tools' docstrings; ``bench/discovery.py`` measures recall@5 and MRR over them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["LIBRARIES", "Library"]


@dataclass(frozen=True)
class Library:
    """A target, the options it is served with, and its labelled queries."""

    target: str
    """A module, imported by its name."""
    queries: dict[str, tuple[str, ...]]
    """A request in words, and the tools that answer it."""
    options: dict[str, Any] = field(default_factory=dict)


_OS_NAMED = (
    *("remove", "unlink", "rmdir", "removedirs", "mkdir", "makedirs", "rename", "replace"),
    *("renames", "symlink"),
)

LIBRARIES: tuple[Library, ...] = (
    Library(
        "statistics",
        {
            "median of some numbers": ("median",),
            "average of a list of values": ("mean", "fmean"),
            "standard deviation of a sample": ("stdev",),
            "most common value": ("mode", "multimode"),
            "how spread out are my measurements (variance)": ("variance", "pvariance"),
            "correlation between two lists": ("correlation",),
            "fit a straight line to points": ("linear_regression",),
            "geometric mean of growth rates": ("geometric_mean",),
        },
    ),
    Library(
        "os",
        {
            "remove a file": ("remove", "unlink"),
            "current working directory": ("getcwd",),
            "list the files in a folder": ("listdir", "scandir"),
            "make a new directory": ("mkdir", "makedirs"),
            "rename a file": ("rename", "replace", "renames"),
            "value of an environment variable": ("getenv",),
            "how many CPUs does the machine have": ("cpu_count", "process_cpu_count"),
            "delete an empty folder": ("rmdir", "removedirs"),
            "create a symbolic link": ("symlink",),
            "random bytes for cryptography": ("urandom",),
        },
        # named, so served: what these queries ask for writes or deletes files (issue 38)
        {"tools": {name: {} for name in _OS_NAMED}},
    ),
    Library(
        "os.path",
        {
            "does this path exist": ("exists", "lexists"),
            "file extension of a name": ("splitext",),
            "join a folder and a file name": ("join",),
            "absolute path of a relative one": ("abspath",),
            "when was the file last modified": ("getmtime",),
            "size of a file in bytes": ("getsize",),
            "file name without the folder": ("basename",),
            "is it a directory": ("isdir",),
            "expand the ~ home folder": ("expanduser",),
        },
    ),
    Library(
        "networkx",
        {
            "shortest route in a graph": ("shortest_path", "dijkstra_path"),
            "connected components of a network": ("connected_components",),
            "pagerank of the nodes": ("pagerank",),
            "minimum spanning tree": ("minimum_spanning_tree",),
            "find a cycle in a graph": ("find_cycle", "simple_cycles", "cycle_basis"),
            "topological order of a DAG": ("topological_sort",),
            "number of nodes": ("number_of_nodes",),
            "degree centrality of each node": ("degree_centrality",),
            "maximum flow between two nodes": ("maximum_flow", "maximum_flow_value"),
            "clustering coefficient": ("clustering", "average_clustering"),
            "diameter of a graph": ("diameter",),
            "can the graph be split in two sides (bipartite)": ("is_bipartite",),
            "how dense is the graph": ("density",),
        },
    ),
    Library(
        "numpy",
        {
            "sum of the elements of an array": ("sum", "nansum"),
            "sort an array": ("sort",),
            "running total of an array": ("cumsum",),
            "dot product of two vectors": ("dot", "vdot", "inner"),
            "evenly spaced numbers over an interval": ("linspace", "arange"),
            "transpose a matrix": ("transpose",),
            "unique values of an array": ("unique",),
            "change the shape of an array": ("reshape",),
            "round to two decimals": ("round", "around"),
            "standard deviation along an axis": ("std",),
            "90th percentile of the data": ("percentile", "nanpercentile"),
            "join arrays together": ("concatenate", "stack", "hstack", "vstack"),
            "histogram of values": ("histogram",),
            "cross product of two vectors": ("cross",),
            "index of the largest element": ("argmax",),
            "business days between two dates": ("busday_count",),
        },
    ),
    Library(
        "sympy",
        {
            "simplify an expression": ("simplify",),
            "solve an equation for x": ("solve", "solveset"),
            "derivative of a function": ("diff",),
            "integral of an expression": ("integrate",),
            "factor a polynomial": ("factor",),
            "expand a product of brackets": ("expand",),
            "limit of an expression as x goes to zero": ("limit",),
            "taylor series expansion": ("series",),
            "prime factorization of an integer": ("factorint",),
            "is a number prime": ("isprime",),
            "greatest common divisor": ("gcd",),
            "roots of a polynomial": ("roots", "real_roots", "nroots"),
            "partial fraction decomposition": ("apart",),
            "latex code of an expression": ("latex",),
        },
    ),
    Library(
        "scipy.stats",
        {
            "t-test for two independent samples": ("ttest_ind",),
            "pearson correlation coefficient": ("pearsonr",),
            "test whether data is normally distributed": ("normaltest", "shapiro"),
            "summary statistics of a sample": ("describe",),
            "z-scores of values": ("zscore",),
            "spearman rank correlation": ("spearmanr",),
            "chi-square test of independence of a contingency table": ("chi2_contingency",),
            "kurtosis of a distribution": ("kurtosis",),
            "skewness of data": ("skew",),
            "entropy of a probability distribution": ("entropy",),
            "mann whitney u test": ("mannwhitneyu",),
            "linear regression of two variables": ("linregress",),
        },
    ),
    Library(
        "pandas",
        {
            "parse a date from text": ("to_datetime",),
            "read a csv file": ("read_csv",),
            "a range of dates": ("date_range", "bdate_range"),
            "bin values into intervals": ("cut", "qcut"),
            "merge two tables on a key": ("merge", "merge_ordered"),
            "convert a column to numbers": ("to_numeric",),
            "read a json file": ("read_json",),
            "pivot table": ("pivot_table", "pivot"),
            "one-hot encoding of a categorical column": ("get_dummies",),
            "which values are missing": ("isna", "isnull"),
        },
    ),
)
