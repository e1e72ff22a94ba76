"""Methods published as MCP resources: a :class:`Resource` is one URI, or a URI
template whose variables are the method's parameters: ``{name}`` (RFC 6570 simple
expansion: one path segment) or ``{+name}`` (reserved expansion: slashes allowed).

:meth:`Resource.match` says whether a URI is this resource's and with which
values (in time linear in the URI's length, :mod:`objmcp.model.finding.uritemplates`; a URI
longer than its ``MAX_URI_LENGTH`` is nobody's); :meth:`Resource.arguments` converts
them, and refuses a value that could lead a method that opens files out of its
folder: a ``..`` segment, an absolute path, a NUL, or (``{name}``) a slash, however
the URI encoded it (``%2F``, ``%2E%2E``). :func:`read_contents` turns what the method
returned into the ``contents`` of ``resources/read``, bounded as a tool's result is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..._exceptions import TargetError
from ..calling.injecting import injected_parameters
from ..describe.annotations import type_hints_of
from ..describe.docs import read_docs
from ..describe.signatures import is_async, signature_of
from ..values.content import DEFAULT_LIMITS, ResultLimits, TooBig, block_size, cut_note
from ..values.convert import from_texts
from ..values.jsonable import Budget, to_jsonable
from ..values.jsontext import dumps
from ..values.media import File, guess_mime, sniff
from .publish import ResourceOptions
from .uritemplates import TemplateMatcher, uri_too_long

__all__ = ["Resource", "make_resource", "read_contents"]

_VARIABLE = re.compile(r"\{\+?([A-Za-z_][A-Za-z0-9_]*)\}")
_SPLIT = re.compile(r"\{(\+?)([A-Za-z_][A-Za-z0-9_]*)\}")
_DRIVE = re.compile(r"[A-Za-z]:")


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
    reserved: frozenset[str] = frozenset()
    """The variables written ``{+name}``, whose values may hold slashes."""
    meta: Mapping[str, Any] = field(default_factory=dict)
    """Its ``_meta`` in the lists (``ResourceOptions.meta``)."""
    _matcher: TemplateMatcher | None = field(default=None, repr=False)

    @property
    def is_template(self) -> bool:
        """Whether the URI has variables (a ``ResourceTemplate``)."""
        return bool(self.variables)

    def match(self, uri: str) -> dict[str, str] | None:
        """The variables' values if ``uri`` is this resource's, else None (always for a
        URI longer than :data:`MAX_URI_LENGTH`)."""
        if self._matcher is None:
            return {} if uri == self.uri else None
        if uri_too_long(uri) is not None:
            return None
        found = self._matcher.match(uri)
        if found is None:
            return None
        import urllib.parse  # only a template's variables need it

        return {key: urllib.parse.unquote(value) for key, value in found.items()}

    def arguments(self, values: Mapping[str, str]) -> dict[str, object]:
        """The method's keyword arguments for the variables' ``values``; raises
        :class:`ArgumentError` for a value that does not convert."""
        from ..._exceptions import ArgumentError

        for key, value in values.items():
            unsafe = _unsafe(value, key in self.reserved)
            if unsafe is not None:
                raise ArgumentError(f"Invalid URI variable '{key}': {value!r} {unsafe}")
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
        found: dict[str, Any] = {key: value for key, value in entry.items() if value is not None}
        if self.meta:
            found["_meta"] = dict(self.meta)
        return found


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
            "(only {name} and {+name} variables)"
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
    matcher = _template_matcher(options.uri) if variables else None
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
        reserved=frozenset(name for plus, name in _SPLIT.findall(options.uri) if plus),
        meta=options.meta or {},
        _matcher=matcher,
    )


def _template_matcher(uri: str) -> TemplateMatcher:
    """What matches the URIs of the template ``uri``: ``{name}`` one segment (no ``/``),
    ``{+name}`` any text but a query or fragment."""
    parts = _SPLIT.split(uri)  # text, then "+" or "", a name and text, for each variable
    return TemplateMatcher(
        literals=tuple(parts[0::3]),
        names=tuple(parts[2::3]),
        reserved=tuple(plus == "+" for plus in parts[1::3]),
    )


def _unsafe(value: str, slashes: bool) -> str | None:
    """Why a URI variable's decoded ``value`` is refused, or None: it could lead a
    method that joins it to a folder out of that folder."""
    if "\0" in value:
        return "holds a NUL character"
    if value.startswith(("/", "\\")) or _DRIVE.match(value):
        return "is an absolute path"
    if ".." in value.replace("\\", "/").split("/"):
        return "holds a '..' segment"
    if not slashes and ("/" in value or "\\" in value):
        return "holds a slash (a template variable written {+name} may)"
    return None


def _guess_type(uri: str, variables: tuple[str, ...]) -> str | None:
    return None if variables else guess_mime(uri)


def read_contents(
    resource: Resource,
    uri: str,
    value: object,
    limits: ResultLimits = DEFAULT_LIMITS,
    budget: Budget | None = None,
) -> list[dict[str, Any]]:
    """The ``contents`` of ``resources/read`` for what the method returned, within
    ``limits``, as a tool's result is: iterators give at most ``max_items`` items all
    together (``budget``: what is left of it when some were read already), and a cut says
    so in a last text entry; raises :class:`TooBig` beyond ``max_result`` characters."""
    budget = Budget(limits.max_items) if budget is None else budget
    if isinstance(value, Iterator):
        value = budget.take(value)
    items: list[object] = [value]
    if isinstance(value, list) and value and all(isinstance(v, File) for v in value):
        items = value
    contents: list[dict[str, Any]] = []
    for item in items:
        file = item if isinstance(item, File) else _as_file(resource, uri, item, budget)
        contents.append(file.block()["resource"])
    if budget.cut:
        contents.append({"uri": uri, "mimeType": "text/plain", "text": cut_note(budget.limit)})
    size = sum(block_size(entry) for entry in contents)
    if size > limits.max_result:
        raise TooBig(size, limits, "The resource's contents")
    return contents


def _as_file(resource: Resource, uri: str, value: object, budget: Budget) -> File:
    """What a method returned, as the contents of ``uri``: text, a blob or JSON."""
    if isinstance(value, str):
        return File(uri, value, resource.mime_type or "text/plain")
    if isinstance(value, (bytes, bytearray)):
        data = value if isinstance(value, bytes) else bytes(value)
        return File(uri, data, resource.mime_type or sniff(data) or "application/octet-stream")
    text = dumps(to_jsonable(value, budget=budget))
    return File(uri, text, resource.mime_type or "application/json")
