"""Header values read strictly: ``Host`` (and an ``Origin``'s authority) and
``Last-Event-ID``.

What a request says of where it is going and where it resumes is read by its
grammar, ASCII only, and anything else is malformed (``None``): a ``Host`` of
``localhost:evil.example`` or ``[::1]evil.example`` names no local server, and a
``Last-Event-ID`` of ``²-0`` names no stream (``'²'.isdigit()`` is true, and
``int('²')`` raises).

``Host`` is ``host [":" port]`` as RFC 3986 writes an authority without user
information: an IP literal in brackets (IPv6, or the IPvFuture form), an IPv4
address or a registered name (unreserved characters, percent-escapes and
sub-delimiters), then optionally ``:`` and ASCII digits.
"""

from __future__ import annotations

import ipaddress
import re
from typing import NamedTuple

__all__ = ["Authority", "parse_authority", "parse_event_id"]


class Authority(NamedTuple):
    """A ``Host`` value read: the host as written (brackets kept for an IP literal),
    and its port's digits (None: no ``:``; ``""``: a ``:`` with no digits)."""

    host: str
    port: str | None


_PORT = r"(?::(?P<port>[0-9]*))?"
_REG_NAME = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+"
_IP_LITERAL = r"\[(?P<literal>[A-Za-z0-9\-._~!$&'()*+,;=:%]+)\]"
_AUTHORITY = re.compile(rf"(?P<host>{_IP_LITERAL}|{_REG_NAME}){_PORT}", re.ASCII)
_IP_FUTURE = re.compile(r"v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+", re.ASCII)
_EVENT_ID = re.compile(r"([0-9]{1,18})-([0-9]{1,18})", re.ASCII)


def parse_authority(value: str) -> Authority | None:
    """``host[:port]`` read by RFC 3986's grammar, or None when ``value`` is malformed."""
    found = _AUTHORITY.fullmatch(value)
    if found is None:
        return None
    literal = found.group("literal")
    if literal is not None and not _IP_FUTURE.fullmatch(literal):
        try:
            ipaddress.IPv6Address(literal)
        except ValueError:
            return None
    return Authority(found.group("host"), found.group("port"))


def parse_event_id(value: str) -> tuple[int, int] | None:
    """An SSE event id of ours, ``<stream>-<position>`` in ASCII digits, or None."""
    found = _EVENT_ID.fullmatch(value)
    if found is None:
        return None
    return int(found.group(1)), int(found.group(2))
