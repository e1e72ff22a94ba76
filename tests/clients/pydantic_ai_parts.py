"""What a Pydantic AI run's messages hold, for the drivers of ``tests/clients`` that run agents
(under ``.venv-clients``, where Pydantic AI is installed): the tool calls the model made and
the returns each got."""

from __future__ import annotations

from typing import Any

from pydantic_ai.messages import ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_core import to_jsonable_python

Outcome = dict[str, Any]


def parts_of(messages: list[Any]) -> Outcome:
    """A run's messages: the tool calls the model made (name, arguments) and the returns each got
    (name, content, outcome), in order, and the final text."""
    calls: list[Outcome] = []
    returns: list[Outcome] = []
    text: list[str] = []
    for message in messages:
        for part in message.parts:
            if isinstance(message, ModelResponse) and isinstance(part, ToolCallPart):
                calls.append({"tool": part.tool_name, "args": part.args_as_dict()})
            elif isinstance(message, ModelRequest) and isinstance(part, ToolReturnPart):
                returns.append(
                    {
                        "tool": part.tool_name,
                        "content": to_jsonable_python(part.content, fallback=repr),
                        "outcome": getattr(part, "outcome", None),
                    }
                )
            elif isinstance(message, ModelResponse) and part.part_kind == "text":
                text.append(part.content)
    return {"calls": calls, "returns": returns, "text": text}


def last_return(messages: list[Any], tool: str) -> ToolReturnPart | None:
    """The return the last call of ``tool`` got, as the model was shown it (its
    ``content``, or its ``model_response_str()``), or None before any."""
    found: ToolReturnPart | None = None
    for message in messages:
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, ToolReturnPart) and part.tool_name == tool:
                    found = part
    return found
