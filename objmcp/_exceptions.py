"""The exceptions objmcp raises, and the one it asks tools to raise.

The tree::

    ObjmcpError
    ├── ToolError            a tool's expected failure; its message reaches the model as-is
    ├── TargetError          the object cannot be served as given (found at start, not at call)
    ├── ArgumentError        a call's arguments do not fit the tool's input schema
    ├── UnknownToolError     a call names no tool of the server
    ├── UnknownResourceError  a read names no resource of the server
    ├── InteractionUnavailable  the tool asked the client for something it cannot give
    │   └── ElicitationUnavailable  ... a question to the user
    ├── InteractionError     the client's answer cannot be used
    │   └── ElicitError          ... the user's answer does not fit the question
    └── FrameError           a frame could not be read (too large, broken header)

Where a builtin names the same condition (``ValueError``, ``LookupError``,
``RuntimeError``), the exception subclasses it too.
"""

from __future__ import annotations

__all__ = [
    "ArgumentError",
    "ElicitError",
    "ElicitationUnavailable",
    "FrameError",
    "InteractionError",
    "InteractionUnavailable",
    "ObjmcpError",
    "TargetError",
    "ToolError",
    "UnknownResourceError",
    "UnknownToolError",
]


class ObjmcpError(Exception):
    """The base of every exception objmcp defines."""


class ToolError(ObjmcpError):
    """Raise inside a tool to report an expected failure.

    The message is sent to the model as the tool's result text, as written, with
    ``isError: true``; no exception type name is added and no traceback is logged.
    """


class TargetError(ObjmcpError, ValueError):
    """The object given to serve cannot be served: name collisions, names MCP
    does not allow, or a target of a kind objmcp does not know."""


class ArgumentError(ObjmcpError, ValueError):
    """The arguments of a call do not fit the tool: the message names the
    parameter, what was given and what was expected."""


class UnknownToolError(ObjmcpError, LookupError):
    """A call names a tool the server does not have."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Unknown tool: {name}")
        self.name = name


class UnknownResourceError(ObjmcpError, LookupError):
    """A read names a URI no resource of the server has."""

    def __init__(self, uri: str) -> None:
        super().__init__(f"Resource not found: {uri}")
        self.uri = uri


class InteractionUnavailable(ObjmcpError, RuntimeError):
    """A tool asked the client for something (a question to the user, a completion
    from its model, its roots) that this session cannot give: the client did not
    declare the capability, the revision has no such thing, or the call is over."""


class ElicitationUnavailable(InteractionUnavailable):
    """A tool asked the user a question, but this session cannot ask one."""


class InteractionError(ObjmcpError, ValueError):
    """The client's answer to a tool's request cannot be used: the client answered
    with an error, or with a result that does not have the shape the spec gives it."""


class ElicitError(InteractionError):
    """The user's answer to a question cannot be read: an unknown action, or content
    that does not fit the form (the message names the field and the problem)."""


class FrameError(ObjmcpError, ValueError):
    """A frame of the byte stream cannot be read: its header is broken or its
    size is over the limit. The stream may go on after it."""
