"""The keywords the test helpers pass on are typed, and the types say what the functions
take: a keyword added to Server or to connect without its typed entry fails here."""

from __future__ import annotations

import inspect

import objmcp
import objmcp.testing
from objmcp.testing import ConnectOptions, ServerOptions


def keywords(function: object, *left_out: str) -> set[str]:
    parameters = inspect.signature(function).parameters.values()  # type: ignore[arg-type]
    return {p.name for p in parameters if p.kind is p.KEYWORD_ONLY} - set(left_out)


def test_server_options_are_the_servers_keywords_but_its_streams() -> None:
    assert set(ServerOptions.__annotations__) == keywords(objmcp.Server, "input", "output")
    assert not ServerOptions.__required_keys__


def test_connect_options_are_connects_keywords_and_the_servers() -> None:
    own = keywords(objmcp.testing.connect)
    assert set(ConnectOptions.__annotations__) == own | set(ServerOptions.__annotations__)
    assert not ConnectOptions.__required_keys__


def test_the_helpers_take_no_untyped_keywords() -> None:
    helpers = (objmcp.testing.connect, objmcp.testing.connect_sync, objmcp.testing.sdk_transport)
    for helper in helpers:
        for parameter in inspect.signature(helper).parameters.values():
            if parameter.kind is parameter.VAR_KEYWORD:  # the annotation as written
                assert parameter.annotation.startswith("Unpack["), (helper, parameter)


def test_connect_passes_the_server_options_on() -> None:
    class Greeter:
        def hello(self, name: str) -> str:
            """Greet someone."""
            return f"hello {name}"

    with objmcp.testing.connect_sync(
        Greeter(), name="greeter", version="9.9.9", limits=objmcp.Limits(max_result=12)
    ) as client:
        assert client.client.server_info == {"name": "greeter", "version": "9.9.9"}
        assert client.call("hello", name="you").text == "hello you"
        too_long = client.call("hello", name="everyone at once")
        assert too_long.is_error and "max_result" in too_long.text
