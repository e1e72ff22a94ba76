"""What code mode's stubs say of the tools of libraries nobody here tuned them on (issue 44).

    .venv-chosen/bin/python bench/code_mode_stubs.py [--markdown]
    .venv/bin/python bench/code_mode_stubs.py --sample     # the CI sample's libraries alone

Every tool of every target of the chosen zoo (``bench/chosen``: libraries picked by a rule
from PyPI's download ranking, split by a hash of the name into a tuning and a held-out half),
loaded as ``objmcp run`` loads it, is written as its code-mode stub
(:func:`objmcp.model.discovery.stubs.stub`). Per half, the share of tools whose stub says
what the tool returns: by its return annotation (``-> list[str]``, from the output schema),
and by that or a ``Returns ...`` line (what the callable's docstring or annotation says, or
a class's new object as JSON, where no output schema does); and the share of parameters
with a type (anything narrower than ``Any``). Nothing was tuned on these figures; the
held-out half is reported as it came.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE / "chosen")]

from libraries import LIBRARIES  # noqa: E402
from sample import sample, targets_of  # noqa: E402
from zoo_figures import loaded_toolbox  # noqa: E402

from objmcp.model.discovery.stubs import module_name, placed, stub  # noqa: E402

_PARAMETER = re.compile(r"(\w+): ([^,=]+?)(?: = [^,]+)?(?:, |\) ->)")


@dataclass
class Count:
    """Tools and parameters of one half."""

    tools: int = 0
    annotated: int = 0
    said: int = 0
    parameters: int = 0
    typed: int = 0

    def row(self, name: str) -> str:
        """The half's row of the table."""
        return (
            f"| {name} | {self.tools} | {share(self.annotated, self.tools)} | "
            f"{share(self.said, self.tools)} | {share(self.typed, self.parameters)} |"
        )


def share(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a whole percentage."""
    return f"{100 * part / whole:.0f}%" if whole else "-"


def count(text: str, into: Count) -> None:
    """Add one stub to ``into``."""
    head, _, body = text.partition("\n")
    into.tools += 1
    annotated = not head.rstrip(":").endswith("-> Any")
    into.annotated += annotated
    into.said += annotated or "Returns" in body
    for _, kind in _PARAMETER.findall(head):
        into.parameters += 1
        into.typed += kind.strip() != "Any"


def main() -> None:
    """Measure both halves and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table only")
    parser.add_argument(
        "--sample", action="store_true", help="the CI sample's libraries (sample.py) alone"
    )
    options = parser.parse_args()
    halves = {"tuning": Count(), "held-out": Count()}
    for library in sample() if options.sample else LIBRARIES:
        for target in targets_of(library):
            try:
                with loaded_toolbox(target) as toolbox:
                    tools = list(toolbox.values())
                    where = placed(tools, module_name(toolbox.target))
                    for tool in tools:
                        count(stub(tool, where[tool.name].name), halves[library.half])
            except Exception as error:  # a target that does not load here is said, not counted
                print(f"{target.spec}: not loaded ({error})", file=sys.stderr)
    if not options.markdown:
        print(__doc__.split("\n\n")[0].strip())
    print("| half | tools | return annotated | return said | parameters typed |")
    print("|---|---:|---:|---:|---:|")
    for name, figures in halves.items():
        print(figures.row(f"**{name}**" if name == "held-out" else name))


if __name__ == "__main__":
    main()
