"""The calls of ``crashtest`` (rank 392, held-out, third walk).

crashtest documents nothing beyond one sentence (its README on PyPI: "a Python library that
makes exceptions handling and inspection easier"; no docs site; the docs search finds only
package listings), so the calls are written from its public classes and their signatures:
``Inspector(exception)`` (``exception_name``, ``exception_message``, ``frames``,
``has_previous_exception()``), ``BaseSolution(title="", description="")`` (``solution_title``,
``solution_description``, ``documentation_links``), ``FrameCollection(frames=None, count=0)``
(``increment_count(increment=1)``, ``is_repeated()``, ``compact()``) and
``SolutionProviderRepository``.

**Targets changed from the walk's.** The walk's ``crashtest.inspector:Inspector`` is out of
reach: its constructor needs a live exception object (with its traceback), which JSON cannot
carry and a class target cannot make with no arguments; the same holds for
``SolutionProviderRepository.get_solutions_for_exception(exception)`` and its
``register_solution_provider(solution_provider_class)``, which takes a class. The calls serve
instead the two public classes a caller can make from values: the module
``crashtest.contracts.base_solution`` (``BaseSolution``, the solution a caller attaches to an
exception, served as a constructor) and the class ``crashtest.frame_collection:FrameCollection``
(made with no arguments; its calls are made in order on that one instance: the changing one
gives ``UNCHECKED``, the later ones read it).

Answers in JSON's terms, computed by calling crashtest: a ``BaseSolution`` has no JSON form and
its text holds its address, so it is said as its three properties (a form the writer gave it);
a ``FrameCollection`` is a ``list`` (of frames), so its list. Only one call sends a non-string
value (``increment``, a number): crashtest's other parameters are exceptions, frames, classes
and texts.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import UNCHECKED, Call, Target

__all__ = ["TARGETS"]

TITLE = "Install the missing package"
DESCRIPTION = "Run `pip install requests` and try again."


def _solution(title: str = "", description: str = "") -> dict[str, Any]:
    module = importlib.import_module("crashtest.contracts.base_solution")
    solution = module.BaseSolution(title=title, description=description)
    return {
        "solution_title": solution.solution_title,
        "solution_description": solution.solution_description,
        "documentation_links": list(solution.documentation_links),
    }


def _counted() -> Any:
    collection = importlib.import_module("crashtest.frame_collection").FrameCollection()
    collection.increment_count(increment=2)
    return collection


TARGETS: tuple[Target, ...] = (
    Target(
        "crashtest.contracts.base_solution",
        (
            Call(
                "BaseSolution",
                {"title": TITLE, "description": DESCRIPTION},
                lambda: _solution(TITLE, DESCRIPTION),
            ),
            Call(
                "BaseSolution",
                {"title": "Check the configuration file"},
                lambda: _solution("Check the configuration file"),
            ),
        ),
    ),
    Target(
        "crashtest.frame_collection:FrameCollection",
        (
            Call("increment_count", {"increment": 2}, lambda: UNCHECKED),
            Call("is_repeated", {}, lambda: _counted().is_repeated()),
            Call("compact", {}, lambda: [list(part) for part in _counted().compact()]),
        ),
    ),
)
