"""The tasks of ``bench/code_mode.py``: multi-step questions of real libraries (issue 44).

**The rule they were written by** (before any of them ran through objmcp): two tasks a
library, for each library of :data:`LIBRARIES` in that order; a task asks one question that
takes 3 to 8 calls of the library's own functions with JSON values; each call's result is
used (by a later call or by the answer), and the last call takes earlier results. Each step
says what a person would ask for its tool, in words (the request searched for), and its
keyword arguments as Python over the task's inputs and the earlier results ``s1``, ``s2``...

The libraries are those the issue names or the brief suggests that objmcp serves whole with
JSON values in and out: ``statistics``, ``math``, ``calendar`` (date arithmetic),
``more_itertools``, ``humanize``, ``colorsys``, ``textwrap``. networkx ("graph questions")
is left out: its algorithms take a ``Graph`` (``G: Any``), which no JSON value is, and a
tool that makes one gives back its text ("Graph with 5 nodes and 5 edges"), so no chain of
calls can pass a graph on.

**Halves**, fixed by position: the tasks at even positions (the first of each library) are
the *tuning* half, those at odd positions the *held-out* half.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["HALVES", "LIBRARIES", "TASKS", "Step", "Task", "chosen", "follows_the_rule", "half_of"]

HALVES = ("tuning", "held-out")
LIBRARIES = (
    "statistics",
    "math",
    "calendar",
    "more_itertools",
    "humanize",
    "colorsys",
    "textwrap",
)


@dataclass(frozen=True)
class Step:
    """One call: the library's function ``tool``, what a person would ask for it
    (``query``), and its keyword ``arguments`` as Python source over the task's inputs and
    the earlier results ``s1``, ``s2``, ..."""

    tool: str
    query: str
    arguments: str


@dataclass(frozen=True)
class Task:
    """A question of ``library`` answered by ``steps``; ``answer`` is a Python expression
    over the results (the last one when empty)."""

    name: str
    library: str
    question: str
    inputs: dict[str, Any]
    steps: tuple[Step, ...]
    answer: str = ""

    @property
    def final(self) -> str:
        """The expression of the answer."""
        return self.answer or f"s{len(self.steps)}"


ABOVE = "[x for x in readings if x > s1]"
INNER = "[x for x in scores if s1[0] <= x <= s1[2]]"
YEAR = "2000 + 4 * (s1 - 1)"
TEXT = (
    "    The quick brown fox jumps over the lazy dog, then naps\n"
    "    under the old oak tree until the sun goes down.\n"
)
COLOURS = [
    *("red", "blue", "red", "green", "blue", "teal"),
    *("gold", "red", "navy", "plum", "gold", "sand"),
]
LONG = (
    "Code mode lets a model write one short program that calls many tools, instead of "
    "calling each tool in a turn of its own and reading every result back."
)

TASKS: tuple[Task, ...] = (
    Task(
        "statistics_above_mean",
        "statistics",
        "Of these readings, keep those above their mean: their median and population "
        "standard deviation?",
        {"readings": [12.5, 7.0, 3.2, 18.9, 11.1, 9.4, 15.0, 2.8, 21.3, 10.0, 14.2, 6.6]},
        (
            Step("mean", "average of a list of numbers", "data=readings"),
            Step("median", "middle value of numbers", f"data={ABOVE}"),
            Step("pstdev", "population standard deviation", f"data={ABOVE}"),
        ),
        "[s2, s3]",
    ),
    Task(
        "statistics_interquartile",
        "statistics",
        "Keep the scores between the first and third quartiles: their mean, their sample "
        "variance about that mean, and their geometric mean?",
        {"scores": [55, 61, 68, 70, 72, 75, 78, 81, 84, 90, 97, 40, 66]},
        (
            Step("quantiles", "quartiles of some data", "data=scores, n=4"),
            Step("fmean", "fast floating point arithmetic mean", f"data={INNER}"),
            Step("variance", "sample variance", f"data={INNER}, xbar=s2"),
            Step("geometric_mean", "geometric mean", f"data={INNER}"),
        ),
        "[s2, s3, s4]",
    ),
    Task(
        "math_divisors",
        "math",
        "The gcd and lcm of 84 and 126, the integer square root of the lcm, and the number "
        "of ways to choose 4 things out of that many?",
        {"pair": [84, 126]},
        (
            Step("gcd", "greatest common divisor", "integers=pair"),
            Step("lcm", "least common multiple", "integers=pair"),
            Step("isqrt", "integer square root", "n=s2"),
            Step("comb", "number of ways to choose k items from n", "n=s3, k=4"),
        ),
        "[s1, s2, s3, s4]",
    ),
    Task(
        "math_bearing",
        "math",
        "From point a to point b: the distance, the direction in degrees, and that "
        "direction rounded down?",
        {"a": [1.0, 2.0], "b": [4.0, 6.5]},
        (
            Step("dist", "euclidean distance between two points", "p=a, q=b"),
            Step("atan2", "arc tangent of y over x", "y=b[1] - a[1], x=b[0] - a[0]"),
            Step("degrees", "convert radians to degrees", "x=s2"),
            Step("floor", "round down to an integer", "x=s3"),
        ),
        "[s1, s3, s4]",
    ),
    Task(
        "calendar_days_after",
        "calendar",
        "Which date is 45 days after 2024-01-20, and which weekday is it (0 is Monday)?",
        {},
        (
            Step("monthrange", "number of days in a month", "year=2024, month=1"),
            Step("monthrange", "number of days in a month", "year=2024, month=2"),
            Step(
                "weekday",
                "day of the week of a date",
                "year=2024, month=3, day=45 - (s1[1] - 20) - s2[1]",
            ),
        ),
        "[2024, 3, 45 - (s1[1] - 20) - s2[1], s3]",
    ),
    Task(
        "calendar_last_leap_day",
        "calendar",
        "How many leap years from 2000 up to 2030, is the last of them a leap year, on "
        "which weekday is its February 29, and over how many weeks does its February run?",
        {},
        (
            Step("leapdays", "count the leap years between two years", "y1=2000, y2=2030"),
            Step("isleap", "is a year a leap year", f"year={YEAR}"),
            Step("weekday", "day of the week of a date", f"year={YEAR}, month=2, day=29"),
            Step("monthcalendar", "weeks of a month as rows of days", f"year={YEAR}, month=2"),
        ),
        "[s1, s2, s3, len(s4)]",
    ),
    Task(
        "more_itertools_dedupe_chunks",
        "more_itertools",
        "Drop repeated colours (keeping the first of each), cut the rest in groups of "
        "three: how many groups, which is the last, and its last colour?",
        {"colours": COLOURS},
        (
            Step("unique_everseen", "unique elements, preserving order", "iterable=colours"),
            Step("chunked", "break a list into chunks of size n", "iterable=s1, n=3"),
            Step("ilen", "count the items of an iterable", "iterable=s2"),
            Step("last", "last item of an iterable", "iterable=s2[-1]"),
        ),
        "[s3, s2[-1], s4]",
    ),
    Task(
        "more_itertools_prime_gaps",
        "more_itertools",
        "The primes below 60: the smallest and largest gap between consecutive ones, and "
        "the next prime after them?",
        {},
        (
            Step("sieve", "prime numbers less than n", "n=60"),
            Step("pairwise", "successive overlapping pairs", "iterable=s1"),
            Step(
                "minmax",
                "smallest and largest item in one pass",
                "iterable_or_value=[b - a for a, b in s2]",
            ),
            Step("nth_prime", "the nth prime number", "n=len(s1)"),
        ),
        "[s3, s4]",
    ),
    Task(
        "humanize_sizes",
        "humanize",
        "Say 3,500,000 bytes, 2048 bytes in binary units and 1,200,000,000 in words, as "
        "one natural list.",
        {},
        (
            Step("naturalsize", "human readable file size", "value=3500000"),
            Step("naturalsize", "human readable file size", "value=2048, binary=True"),
            Step("intword", "large number in words, like 1.2 billion", "value=1200000000"),
            Step("natural_list", "join items as a natural language list", "items=[s1, s2, s3]"),
        ),
    ),
    Task(
        "humanize_ranking",
        "humanize",
        "Say 22 as an ordinal, 7 in words and 1234567 with thousands separators, as one "
        "natural list.",
        {},
        (
            Step("ordinal", "ordinal number like 1st or 2nd", "value=22"),
            Step("apnumber", "spell out numbers below ten", "value=7"),
            Step("intcomma", "add thousands separators to a number", "value=1234567"),
            Step("natural_list", "join items as a natural language list", "items=[s1, s2, s3]"),
        ),
    ),
    Task(
        "colorsys_complement",
        "colorsys",
        "The complementary colour of rgb(0.2, 0.4, 0.6) (hue turned half way), in HLS?",
        {},
        (
            Step("rgb_to_hsv", "convert an RGB colour to HSV", "r=0.2, g=0.4, b=0.6"),
            Step(
                "hsv_to_rgb",
                "convert an HSV colour to RGB",
                "h=(s1[0] + 0.5) % 1.0, s=s1[1], v=s1[2]",
            ),
            Step(
                "rgb_to_hls", "convert RGB to hue lightness saturation", "r=s2[0], g=s2[1], b=s2[2]"
            ),
        ),
    ),
    Task(
        "colorsys_lighter_grey",
        "colorsys",
        "The grey of rgb(0.9, 0.3, 0.1) (its YIQ luma alone), made half again as light "
        "in HLS, back in RGB?",
        {},
        (
            Step("rgb_to_yiq", "convert RGB to YIQ", "r=0.9, g=0.3, b=0.1"),
            Step("yiq_to_rgb", "convert YIQ to RGB", "y=s1[0], i=0.0, q=0.0"),
            Step("rgb_to_hls", "convert RGB to HLS", "r=s2[0], g=s2[1], b=s2[2]"),
            Step("hls_to_rgb", "convert HLS to RGB", "h=s3[0], l=min(1.0, s3[1] * 1.5), s=s3[2]"),
        ),
    ),
    Task(
        "textwrap_quote",
        "textwrap",
        "Quote this indented text in lines of at most 28 characters, each behind '> '.",
        {"text": TEXT},
        (
            Step("dedent", "remove common leading whitespace", "text=text"),
            Step("fill", "wrap a paragraph to a width", "text=s1, width=28"),
            Step("indent", "add a prefix to every line", "text=s2, prefix='> '"),
        ),
    ),
    Task(
        "textwrap_summary",
        "textwrap",
        "Shorten this text to 60 characters, wrap it in lines of 20, indent them by two "
        "spaces: how many lines, and the result?",
        {"text": LONG},
        (
            Step("shorten", "truncate text to fit a width", "text=text, width=60"),
            Step("wrap", "split text into lines of a width", "text=s1, width=20"),
            Step("indent", "add a prefix to every line", "text='\\n'.join(s2), prefix='  '"),
        ),
        "[len(s2), s3]",
    ),
)


def follows_the_rule(task: Task) -> bool:
    """Whether ``task`` keeps the rule: 3 to 8 calls, each result used later, the last
    call taking earlier results."""
    later = [*(step.arguments for step in task.steps[1:]), task.final]
    used = all(
        re.search(rf"\bs{number}\b", " ".join(later[number - 1 :]))
        for number in range(1, len(task.steps) + 1)
    )
    chained = re.search(r"\bs\d+\b", task.steps[-1].arguments) is not None
    return 3 <= len(task.steps) <= 8 and used and chained


assert [task.library for task in TASKS] == [name for name in LIBRARIES for _ in "ab"]
assert all(follows_the_rule(task) for task in TASKS)


def half_of(index: int) -> str:
    """The half of the task at ``index``: even positions tune, odd ones are held out."""
    return HALVES[index % 2]


def chosen(half: str, quick: bool) -> list[tuple[str, Task]]:
    """The tasks run, each with its half."""
    tasks = [(half_of(index), task) for index, task in enumerate(TASKS)]
    if quick:
        return [pair for pair in tasks if pair[0] == "tuning"][:2]
    return [pair for pair in tasks if half in ("both", pair[0])]
