"""A server with bugs planted in its protocol core (test_faults.py): the session fails on
any request named ``slip/now``, and on the answer of any call whose result is ``"slip"``, as
a bug of objmcp's would. Everything else is served as ever: the request that hit the bug
gets an internal error, and serving goes on."""

import sys

import objmcp
from objmcp.model.values.content import ToolResult
from objmcp.protocol import answers, routing
from objmcp.protocol.session import Session

_request = routing.request
_call_result = answers.call_result


def _slipping(session: Session, request_id: object, method: str, *args: object) -> object:
    if method == "slip/now":
        raise RuntimeError("a planted bug")
    return _request(session, request_id, method, *args)  # type: ignore[arg-type]


def _slipping_answer(session: Session, result: ToolResult, *args: object) -> object:
    if result.text == "slip":
        raise RuntimeError("a planted bug in an answer")
    return _call_result(session, result, *args)  # type: ignore[arg-type]


routing.request = _slipping  # type: ignore[assignment]
answers.call_result = _slipping_answer  # type: ignore[assignment]


class Adder:
    """One tool."""

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    def slip(self) -> str:
        """A result whose answer the planted bug fails on (a sync call, in the reader)."""
        return "slip"

    async def slip_later(self) -> str:
        """The same from a coroutine (answered on the event loop)."""
        return "slip"


if __name__ == "__main__":
    objmcp.start("slip", Adder(), framing=sys.argv[1] if len(sys.argv) > 1 else "auto")
