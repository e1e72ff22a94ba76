"""The built-in check of OAuth access tokens that are JWTs (RFC 9068), for a resource
server: ``asgi_app(..., jwks_url=..., issuer=..., audience=...)``.

A token is good when it is signed by a key of the authorization server (from its JWKS,
:class:`~objmcp.serving.jwks.KeySet`, or one key given), with an asymmetric algorithm
(never ``none``, never a shared secret: the algorithm is the key's, not the token's
word), by the ``issuer`` expected, for this resource (``aud`` names ``audience``, the
endpoint's own URL: a token minted for another resource is refused, RFC 8707), within
its ``exp`` and ``nbf`` give or take ``leeway`` seconds. Its claims then name the
:class:`~objmcp.Caller`. Scopes every token must grant are the gate's business: a token
without them is good, but refused 403 (``insufficient_scope``), not 401.

Needs PyJWT with its crypto extra (``pip install 'objmcp[auth]'``); imported only when
the app is given one of these options.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import jwt

from .http_checks import TokenRefused
from .jwks import KeySet, KeysUnavailable

__all__ = ["ASYMMETRIC", "JwtCheck"]

logger = logging.getLogger("objmcp.auth")

ASYMMETRIC = (
    "RS256",
    "RS384",
    "RS512",
    "PS256",
    "PS384",
    "PS512",
    "ES256",
    "ES384",
    "ES512",
    "EdDSA",
)
"""The signature algorithms a token may use."""


class JwtCheck:
    """A ``verify=`` for JWT access tokens: the token's claims when it is good, else
    :class:`~objmcp.serving.http_checks.TokenRefused` saying why."""

    def __init__(
        self,
        *,
        issuer: str,
        audience: str,
        jwks_url: str | None = None,
        key: str | bytes | Mapping[str, Any] | None = None,
        leeway: float = 30.0,
    ) -> None:
        if (jwks_url is None) == (key is None):
            raise ValueError("give jwks_url= or jwt_key= (one of them) to check JWTs")
        if not issuer or not audience:
            raise ValueError("a JWT check needs issuer= and audience= (this resource's URL)")
        self.issuer = issuer
        self.audience = audience
        self.leeway = leeway
        self.keys = KeySet(jwks_url) if jwks_url is not None else None
        """The authorization server's key set, when fetched from a URL."""
        self._key = _static_key(key) if key is not None else None

    def __repr__(self) -> str:
        where = self.keys.url if self.keys is not None else "a static key"
        return f"JwtCheck(issuer={self.issuer!r}, audience={self.audience!r}, keys={where})"

    async def __call__(self, token: str) -> dict[str, Any]:
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise TokenRefused("the token is not a JWT") from None
        kid = header.get("kid")
        try:
            key, algorithms = await self._key_for(kid if isinstance(kid, str) else None)
            claims: dict[str, Any] = jwt.decode(
                token,
                key,
                algorithms=algorithms,
                audience=self.audience,
                issuer=self.issuer,
                leeway=self.leeway,
                options={"require": ["exp", "iss", "aud"]},
            )
        except KeysUnavailable as error:
            raise TokenRefused(str(error)) from None
        except jwt.ExpiredSignatureError:
            raise TokenRefused("the token has expired") from None
        except jwt.ImmatureSignatureError:
            raise TokenRefused("the token is not valid yet") from None
        except jwt.InvalidAudienceError:
            raise TokenRefused(f"the token is not for this resource ({self.audience})") from None
        except jwt.InvalidIssuerError:
            raise TokenRefused("the token is from another issuer") from None
        except jwt.PyJWTError as error:
            raise TokenRefused(f"the token is not good: {error}") from None
        return claims

    async def _key_for(self, kid: str | None) -> tuple[Any, list[str]]:
        """The key that must have signed a token naming ``kid``, and its algorithms."""
        if self.keys is None:
            assert self._key is not None
            return self._key
        found = await self.keys.key(kid)
        if found.algorithm_name not in ASYMMETRIC:
            raise KeysUnavailable(f"the key {kid!r} is not an asymmetric signing key")
        return found, [found.algorithm_name]


def _static_key(key: str | bytes | Mapping[str, Any]) -> tuple[Any, list[str]]:
    """A key given whole: a JWK (its algorithm the key's), or a PEM public key (any
    asymmetric algorithm of its kind; PyJWT refuses a PEM key as an HMAC secret)."""
    if isinstance(key, Mapping):
        found = jwt.PyJWK(dict(key))
        if found.algorithm_name not in ASYMMETRIC:
            raise ValueError("jwt_key must be a public key (RSA, EC or OKP), not a secret")
        return found, [found.algorithm_name]
    text = key.encode() if isinstance(key, str) else key
    if b"PUBLIC KEY" not in text:
        raise ValueError("jwt_key must be a PEM public key or a JWK")
    return text, list(ASYMMETRIC)
