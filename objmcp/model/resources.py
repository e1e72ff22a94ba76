"""Methods published as MCP resources: a :class:`Resource` is one URI, or a URI
template whose ``{variables}`` are the method's parameters (RFC 6570 level 1).

:meth:`Resource.match` says whether a URI is this resource's and with which
values; :func:`read_contents` turns what the method returned into the
``contents`` of ``resources/read``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .._exceptions import TargetError
from .annotations import type_hints_of
from .convert import from_texts, to_jsonable
from .docs import read_docs
from .inject import injected_parameters
from .jsontext import dumps
from .media import File, guess_mime, sniff
from .publish import ResourceOptions
from .signatures import is_async, signature_of

__all__ = ["Resource", "make_resource", "read_contents"]

_VARIABLE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(eq=False)
class Resource:
    """One published resource or resource template, and the method that reads it."""

    uri: str
    name: str
    function: Callable[..., object] = field(repr=False)
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    variables: tuple[str, ...] = ()
    hints: Mapping[str, object] = field(default_factory=dict, repr=False)
    is_async: bool = False
    cache: tuple[int, Literal["public", "private"]] | None = None
    """How long (ms) and by whom a read may be cached, when the author said so."""
    injected: Mapping[str, object] = field(default_factory=dict, repr=False)
    """The parameters that ask for what the call can reach (``objmcp.Elicit``...)."""
    _pattern: re.Pattern[str] | None = field(default=None, repr=False)

    @property
    def is_template(self) -> bool:
        """Whether the URI has variables (a ``ResourceTemplate``)."""
        return bool(self.variables)

    def match(self, uri: str) -> dict[str, str] | None:
        """The variables' values if ``uri`` is this resource's, else None."""
        if self._pattern is None:
            return {} if uri == self.uri else None
        found = self._pattern.fullmatch(uri)
        if found is None:
            return None
        import urllib.parse  # only a template's variables need it

        return {key: urllib.parse.unquote(value) for key, value in found.groupdict().items()}

    def arguments(self, values: Mapping[str, str]) -> dict[str, object]:
        """The method's keyword arguments for the variables' ``values``; raises
        :class:`ArgumentError` for a value that does not convert."""
        return from_texts(values, self.hints, "URI variable")

    def listing(self) -> dict[str, Any]:
        """The ``Resource`` or ``ResourceTemplate`` object of the list methods."""
        entry = {
            "uriTemplate" if self.is_template else "uri": self.uri,
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "mimeType": self.mime_type,
        }
        return {key: value for key, value in entry.items() if value is not None}


def make_resource(
    member: str, function: Callable[..., object], options: ResourceOptions
) -> Resource:
    """The :class:`Resource` of a method; raises :class:`TargetError` when its URI
    template and its parameters do not agree."""
    signature = signature_of(function)
    hints = type_hints_of(function)
    injected = injected_parameters(signature, hints)
    variables = tuple(_VARIABLE.findall(options.uri))
    if "}{" in options.uri or len(set(variables)) < len(variables):
        raise TargetError(
            f"resource {member!r}: in {options.uri!r} a URI could not say where one variable "
            "ends: give each variable once, and put text between two of them"
        )
    if "{" in _VARIABLE.sub("", options.uri) or "}" in _VARIABLE.sub("", options.uri):
        raise TargetError(
            f"resource {member!r}: {options.uri!r} is not a URI template objmcp reads "
            "(only {name} variables, RFC 6570 level 1)"
        )
    names = set(signature.parameters) - set(injected)
    required = {
        name
        for name, param in signature.parameters.items()
        if param.default is param.empty
        and param.kind not in (param.VAR_POSITIONAL, param.VAR_KEYWORD)
        and name not in injected
    }
    if not set(variables) <= names or not required <= set(variables):
        raise TargetError(
            f"resource {member!r}: the URI's variables ({', '.join(variables) or 'none'}) "
            f"must be parameters of the method, and cover its required ones "
            f"({', '.join(sorted(required)) or 'none'})"
        )
    pattern = None
    if variables:
        parts = _VARIABLE.split(options.uri)
        regex = "".join(
            re.escape(part) if index % 2 == 0 else f"(?P<{part}>[^/?#]+)"
            for index, part in enumerate(parts)
        )
        pattern = re.compile(regex)
    docs = read_docs(function)
    return Resource(
        uri=options.uri,
        name=options.name or member,
        function=function,
        title=options.title,
        description=options.description or docs.description or None,
        mime_type=options.mime_type or _guess_type(options.uri, variables),
        variables=variables,
        hints={name: hints.get(name, str) for name in variables},
        is_async=is_async(function),
        cache=options.cache,
        injected=injected,
        _pattern=pattern,
    )


def _guess_type(uri: str, variables: tuple[str, ...]) -> str | None:
    return None if variables else guess_mime(uri)


def read_contents(resource: Resource, uri: str, value: object) -> list[dict[str, Any]]:
    """The ``contents`` of ``resources/read`` for what the method returned."""
    items: list[object] = [value]
    if isinstance(value, list) and value and all(isinstance(v, File) for v in value):
        items = value
    contents: list[dict[str, Any]] = []
    for item in items:
        file = item if isinstance(item, File) else _as_file(resource, uri, item)
        contents.append(file.block()["resource"])
    return contents


def _as_file(resource: Resource, uri: str, value: object) -> File:
    """What a method returned, as the contents of ``uri``: text, a blob or JSON."""
    if isinstance(value, str):
        return File(uri, value, resource.mime_type or "text/plain")
    if isinstance(value, (bytes, bytearray)):
        data = value if isinstance(value, bytes) else bytes(value)
        return File(uri, data, resource.mime_type or sniff(data) or "application/octet-stream")
    return File(uri, dumps(to_jsonable(value)), resource.mime_type or "application/json")
