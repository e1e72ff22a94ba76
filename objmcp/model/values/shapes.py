"""Values libraries give back, read by their shape: objmcp imports none of the libraries.

:func:`plain_form` gives the plain data of a pandas DataFrame (records) or Series (a
mapping), a numpy array or scalar (its numbers), a ``re.Match`` (what it matched), or an
XML element of the ElementTree API (its XML text);
:func:`readable` what a value with no JSON form shows instead of the default
``<X object at 0x...>`` (:func:`says_what_it_is` tells that default from a text of its
own). :mod:`objmcp.model.values.convert` asks them before it gives up on a value. A method is
called only where the value's class defines it (:func:`own_method`), never one a
``__getattr__`` makes up.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

__all__ = ["NO_FORM", "element_xml", "own_method", "plain_form", "readable", "says_what_it_is"]


NO_FORM = object()
"""What :func:`plain_form` gives for a value it does not know."""


def own_method(value: object, name: str) -> Callable[..., object] | None:
    """``value``'s method ``name`` when its class defines one; None for a name a
    ``__getattr__`` makes up (a remote proxy's: calling it could send anything), an
    instance's own attribute, a class or static method, or anything not callable."""
    if inspect.getattr_static(type(value), name, None) is None:
        return None
    try:
        method: Callable[..., object] = getattr(value, name)
    except Exception:  # a descriptor that refuses
        return None
    if not callable(method) or getattr(method, "__self__", None) is not value:
        return None
    return method


def plain_form(value: object) -> object:
    """The plain data of a value libraries give back, read by its shape (objmcp imports
    none of them): a pandas DataFrame as records and a Series as a mapping (missing
    values as null), a numpy array or scalar as its numbers (``tolist``), a ``re.Match``
    as what it matched, an XML element as its XML text (:func:`element_xml`);
    ``NO_FORM`` for anything else, a class among them (``numpy.float64`` has the shape
    of its instances)."""
    if isinstance(value, type):
        return NO_FORM
    to_dict = own_method(value, "to_dict")
    if to_dict is not None and hasattr(value, "iloc") and hasattr(value, "index"):
        if hasattr(value, "columns"):  # a DataFrame: one record a row
            return _missing_as_null(to_dict(orient="records"))
        return _missing_as_null(to_dict())  # a Series: its values by their index
    to_list = own_method(value, "tolist")
    if to_list is not None and hasattr(value, "dtype") and hasattr(value, "shape"):
        return to_list()
    if isinstance(value, re.Match):
        return {
            "match": value.group(0),
            "span": list(value.span()),
            "groups": list(value.groups()),
            "named": value.groupdict(),
        }
    xml = element_xml(value)
    return NO_FORM if xml is None else xml


def element_xml(value: object) -> str | None:
    """The XML text of an element of the ElementTree API (the standard library's, lxml's:
    a ``tag`` that is a string, an ``attrib`` mapping, ``text`` and ``tail``, its children
    by iteration), as ``xml.etree.ElementTree.tostring(element, encoding="unicode")``
    writes it; None for anything else, or an element that has no XML text."""
    if not _is_element(value):
        return None
    from xml.etree import ElementTree  # an element of the API is here to write

    try:
        element = value if isinstance(value, ElementTree.Element) else _copied(value)
        return ElementTree.tostring(element, encoding="unicode")
    except Exception:  # a name or value XML cannot hold; a tree too deep to walk
        return None


def _is_element(value: object) -> bool:
    """Whether ``value`` has the shape of an element of the ElementTree API."""
    try:
        tag, attrib = getattr(value, "tag", None), getattr(value, "attrib", None)
        text, tail = getattr(value, "text", 0), getattr(value, "tail", 0)
    except Exception:  # a property that refuses
        return False
    return (
        isinstance(tag, str)
        and isinstance(attrib, Mapping)
        and all(part is None or isinstance(part, str) for part in (text, tail))
        and any(callable(getattr(type(value), name, None)) for name in _CHILDREN)
    )


_CHILDREN = ("__iter__", "__getitem__")
"""How an element gives its children: by iteration, or by index (the standard library's
C elements have no ``__iter__``)."""


def _copied(node: Any) -> Any:
    """A standard library element (and its children) with ``node``'s content; a child
    whose tag is no string (lxml's comments and processing instructions) is a comment."""
    from xml.etree import ElementTree

    made: Any
    if isinstance(node.tag, str):
        made = ElementTree.Element(node.tag, {str(k): str(v) for k, v in node.attrib.items()})
        made.text = node.text
    else:
        made = ElementTree.Comment(node.text)
    made.tail = node.tail
    made.extend(_copied(child) for child in node)
    return made


def _missing_as_null(data: object) -> object:
    """pandas' missing values (NaN, NaT, None) as None."""
    if isinstance(data, dict):
        return {key: _missing_as_null(item) for key, item in data.items()}
    if isinstance(data, list):
        return [_missing_as_null(item) for item in data]
    if isinstance(data, float) and math.isnan(data):
        return None
    if type(data).__name__ in ("NaTType", "NAType"):
        return None
    return data


def says_what_it_is(value: object) -> bool:
    """Whether ``value``'s ``str`` says something (:func:`has_own_text` of its class), so
    it is not the default ``<X object at 0x...>``."""
    return has_own_text(type(value))


def has_own_text(kind: type) -> bool:
    """Whether ``kind`` (or a base short of ``object``) has a ``__str__`` or a
    ``__repr__`` of its own."""
    return kind.__str__ is not object.__str__ or kind.__repr__ is not object.__repr__  # type: ignore[comparison-overlap]


def readable(value: object, part: Callable[[object], object]) -> object:
    """A value with no JSON form: its ``str``, unless that is the default
    ``<X object at 0x...>``, which says nothing; then its public attributes, each made
    JSON by ``part`` (which raises :class:`NotJsonable` for one that cannot be); with
    none, the items of a sized iterable (its class's ``__len__`` and ``__iter__``), made
    JSON by ``part`` as an iterator is (within the result's budget); else ``<X>``."""
    if says_what_it_is(value):
        return str(value)
    kind = type(value)
    attributes = getattr(value, "__dict__", None)
    public = {
        name: item
        for name, item in (attributes or {}).items()
        if isinstance(name, str) and not name.startswith("_") and not callable(item)
    }
    if not public:
        items = _items(value)
        return f"<{kind.__qualname__}>" if items is None else part(items)
    shown: dict[str, object] = {}
    for name, item in public.items():
        try:
            shown[name] = part(item)
        except TypeError as error:  # NotJsonable: NaN, a cycle
            shown[name] = f"<{error}>"
    return shown


def _items(value: object) -> Iterator[object] | None:
    """An iterator over ``value``'s items when its class makes it a sized iterable
    (``__len__`` and ``__iter__``); None otherwise, or when it refuses to be iterated."""
    kind = type(value)
    if getattr(kind, "__len__", None) is None or getattr(kind, "__iter__", None) is None:
        return None
    try:
        return iter(value)  # type: ignore[call-overload,no-any-return]
    except Exception:  # an __iter__ that refuses
        return None
