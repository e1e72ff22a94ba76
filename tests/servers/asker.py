"""A server whose tools ask the client several things at once, and name their questions
(tests/serving/test_several_questions.py). ``count`` says how many times a tool's code
before its questions ran: once when a parked call resumes, again when a retry replays it.

Its first tools are what the 2026-07-28 conformance scenarios
``input-required-result-multiple-input-requests``, ``-multi-round``, ``-basic-elicitation``
and ``-missing-input-response`` ask of a fixture, by those names and keys (the suite runs
them against tests/servers/conformance.py, which has the same tools:
tests/peers/test_conformance_next.py).
"""

from __future__ import annotations

import sys
from collections import Counter

from flat_options import as_records

import objmcp

GREETING = "Generate a greeting"


def form(field: str) -> dict[str, object]:
    """A form of one required string field."""
    return {"type": "object", "properties": {field: {"type": "string"}}, "required": [field]}


class Asker:
    """Tools that ask several questions together, sync and async."""

    def __init__(self) -> None:
        self._runs: Counter[str] = Counter()

    def test_input_required_result_multiple_inputs(
        self, elicit: objmcp.Elicit, sample: objmcp.Sample, roots: objmcp.Roots
    ) -> str:
        """Ask for a name, a greeting and the roots in one round."""
        self._runs["multiple"] += 1
        answers = objmcp.ask_all(
            user_name=elicit.question("What is your name?", form("name")),
            greeting=sample.question(GREETING, max_tokens=50),
            client_roots=roots.question(),
        )
        name = answers["user_name"].content["name"]
        uris = [root.uri for root in answers["client_roots"]]
        return f"{name}|{answers['greeting'].text}|{','.join(uris)}"

    def test_input_required_result_elicitation(self, elicit: objmcp.Elicit) -> str:
        """Ask for a name under the key the suite names."""
        answer = elicit("What is your name?", form("name"), key="user_name")
        return f"Hello, {answer.content['name']}!"

    def test_input_required_result_multi_round(self, elicit: objmcp.Elicit) -> str:
        """Ask a name, then a colour, in two rounds, under named keys."""
        self._runs["multi_round"] += 1
        name = elicit("Step 1: What is your name?", form("name"), key="step1")
        color = elicit("Step 2: What is your favorite color?", form("color"), key="step2")
        return f"{name.content['name']} likes {color.content['color']}"

    async def together_async(
        self, elicit: objmcp.Elicit, sample: objmcp.Sample, roots: objmcp.Roots
    ) -> str:
        """The same three questions, from an async method."""
        self._runs["together_async"] += 1
        answers = await objmcp.ask_all(
            {
                "user name": elicit.question("What is your name?", str),
                "greeting": sample.question(GREETING, max_tokens=50),
                "roots": roots.question(),
            }
        )
        uris = [root.uri for root in answers["roots"]]
        return f"{answers['user name'].value}|{answers['greeting'].text}|{','.join(uris)}"

    def form(self, elicit: objmcp.Elicit) -> str:
        """Ask for a name and an age as two forms at once, then one more question."""
        self._runs["form"] += 1
        answers = elicit.many({"name": ("Your name?", str), "age": ("Your age?", int)})
        sure = elicit("Sure?")
        return f"{answers['name'].value} {answers['age'].value} {sure.value}"

    async def form_async(self, elicit: objmcp.Elicit) -> str:
        """``elicit.many`` from an async method, with a default question after it."""
        answers = await elicit.many({"name": ("Your name?", str), "ok": "Proceed?"})
        sure = await elicit("Sure?")
        return f"{answers['name'].value} {answers['ok'].value} {sure.value}"

    def clash(self, elicit: objmcp.Elicit) -> str:
        """Name two questions alike: the second is refused."""
        elicit("First?", key="same")
        elicit("Second?", key="same")
        return "asked twice"

    def bad_key(self, elicit: objmcp.Elicit) -> str:
        """Name a question with an empty key."""
        elicit("Sure?", key="")
        return "asked"

    def count(self, tool: str) -> int:
        """How many times ``tool``'s code before its questions ran."""
        return self._runs[tool]


if __name__ == "__main__":
    # options as name=number: max_parked=0 makes every retry replay the method
    options = {name: int(value) for name, value in (a.split("=", 1) for a in sys.argv[1:])}
    objmcp.start("asker", Asker(), **as_records(options))
