"""The calls of ``email-validator`` (rank 195, held-out, second walk).

Written from email-validator's documentation (its README on PyPI: "Quick Start", "Options",
"Test addresses", "Normalization" and "Examples"), each answer computed by calling
email_validator itself. ``validate_email(email, check_deliverability=False)`` is the README's
quick-start call: the deliverability check is a DNS lookup, which the README says to turn off
where it is not wanted, so every call here turns it off (or passes ``test_environment=True``,
which turns it off too) and all of them run with no network.

A ``ValidatedEmail`` has no JSON form and its text is ``<ValidatedEmail address>`` only, so it
is said as its attributes, as an object: the README's "Return value" fields that are set, as
its own ``as_dict()`` gives them (``mx`` and ``mx_fallback_type`` are set only by the DNS check,
so they are absent here).

Fewer than two calls with numbers, lists, objects or dates: the only parameters of the API that
are neither text nor flags are ``timeout`` and ``dns_resolver`` (of ``validate_email`` and
``caching_resolver``), and both are used only by the DNS check, which these calls leave off;
``caching_resolver`` answers with a resolver whose text is its address. The calls send text and
the README's documented flags.
"""

from __future__ import annotations

import importlib
from typing import Any

from zoo_cases import Call, Target

__all__ = ["TARGETS"]

FULLWIDTH = "me@\uff24\uff4f\uff4d\uff41\uff49\uff4e.com"
"""The README's "me@Domain.com" with its domain in fullwidth Latin letters."""


def _validated(email: str, **options: Any) -> dict[str, Any]:
    validated = importlib.import_module("email_validator").validate_email(email, **options)
    answer: dict[str, Any] = validated.as_dict()
    return answer


TARGETS: tuple[Target, ...] = (
    Target(
        "email_validator",
        (
            Call(
                "validate_email",
                {"email": "my+address@example.org", "check_deliverability": False},
                lambda: _validated("my+address@example.org", check_deliverability=False),
            ),
            Call(
                "validate_email",
                {"email": FULLWIDTH, "check_deliverability": False},
                lambda: _validated(FULLWIDTH, check_deliverability=False),
            ),
            Call(
                "validate_email",
                {"email": "example@ツ.ⓁⒾⒻⒺ", "check_deliverability": False},
                lambda: _validated("example@ツ.ⓁⒾⒻⒺ", check_deliverability=False),
            ),
            Call(
                "validate_email",
                {
                    "email": "My Name <me@example.org>",
                    "allow_display_name": True,
                    "check_deliverability": False,
                },
                lambda: _validated(
                    "My Name <me@example.org>", allow_display_name=True, check_deliverability=False
                ),
            ),
            Call(
                "validate_email",
                {"email": "test@myname.test", "test_environment": True},
                lambda: _validated("test@myname.test", test_environment=True),
            ),
            Call(
                "validate_email",
                {
                    "email": '"john doe"@example.org',
                    "allow_quoted_local": True,
                    "check_deliverability": False,
                },
                lambda: _validated(
                    '"john doe"@example.org', allow_quoted_local=True, check_deliverability=False
                ),
            ),
        ),
    ),
)
