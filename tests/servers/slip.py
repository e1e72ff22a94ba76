"""A server with a bug planted in its protocol core (test_faults.py): the session fails on
any request named ``slip/now``, as a bug of objmcp's would. Everything else is served as
ever: the request that hit the bug gets an internal error, and serving goes on."""

import sys

import objmcp
from objmcp._session import Session

_request = Session._request


def _slipping(self: Session, request_id: object, method: str, *args: object) -> object:
    if method == "slip/now":
        raise RuntimeError("a planted bug")
    return _request(self, request_id, method, *args)  # type: ignore[arg-type]


Session._request = _slipping  # type: ignore[assignment,method-assign]


class Adder:
    """One tool."""

    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b


if __name__ == "__main__":
    objmcp.start("slip", Adder(), framing=sys.argv[1] if len(sys.argv) > 1 else "auto")
