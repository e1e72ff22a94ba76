"""The signing keys of an authorization server: a JWKS fetched from its URL, cached.

The set is fetched at the first token, kept, and fetched again when it is
``max_age`` seconds old or a token names a key (``kid``) it does not hold, as an
authorization server that rotates its keys publishes the new one before it signs with
it. Refreshes are bounded: at most one every ``min_interval`` seconds, however many
tokens name unknown keys (a flood of forged ``kid`` values costs one fetch), and
concurrent requests share it. A fetch reads at most ``max_bytes`` within ``timeout``
seconds, in a worker thread (the event loop serves other clients meanwhile); one that
fails keeps the keys held. Keys whose ``use`` is not ``sig``, symmetric ones (``oct``)
and those PyJWT cannot read are left out.

Needs PyJWT (``pip install 'objmcp[auth]'``); imported only by the JWT check.
"""

from __future__ import annotations

import json
import logging
import time
import urllib.request
from typing import Any

import anyio
import anyio.to_thread
import jwt

__all__ = ["KeySet", "KeysUnavailable"]

logger = logging.getLogger("objmcp.auth")


class KeysUnavailable(Exception):
    """No key could be found for a token (the set could not be fetched, or holds none
    by that ``kid``)."""


class KeySet:
    """The keys at ``url`` (a JWKS), by ``kid``."""

    def __init__(
        self,
        url: str,
        *,
        max_age: float = 3600.0,
        min_interval: float = 10.0,
        timeout: float = 5.0,
        max_bytes: int = 1024 * 1024,
    ) -> None:
        if not url.startswith(("https://", "http://")):
            raise ValueError(f"jwks_url must be an http(s) URL, not {url!r}")
        self.url = url
        self.max_age = max_age
        self.min_interval = min_interval
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.fetches = 0
        """How many times the set was fetched (or tried)."""
        self._keys: dict[str | None, jwt.PyJWK] = {}
        self._fetched_at: float | None = None
        self._lock = anyio.Lock()

    async def key(self, kid: str | None) -> jwt.PyJWK:
        """The key named ``kid`` (None: the set's only key), fetching the set when it is
        stale or lacks it (within the bounds); raises :class:`KeysUnavailable`."""
        found = self._held(kid)
        if found is not None and not self._stale():
            return found
        async with self._lock:
            found = self._held(kid)
            if (found is None or self._stale()) and self._may_fetch():
                await self._refresh()
                found = self._held(kid)
        if found is None:
            raise KeysUnavailable(f"no signing key {kid!r} at {self.url}")
        return found

    def _held(self, kid: str | None) -> jwt.PyJWK | None:
        if kid is None and len(self._keys) == 1:
            return next(iter(self._keys.values()))
        return self._keys.get(kid)

    def _stale(self) -> bool:
        return self._fetched_at is None or time.monotonic() - self._fetched_at > self.max_age

    def _may_fetch(self) -> bool:
        return self._fetched_at is None or time.monotonic() - self._fetched_at >= self.min_interval

    async def _refresh(self) -> None:
        self.fetches += 1
        self._fetched_at = time.monotonic()
        try:
            document = await anyio.to_thread.run_sync(self._fetch)
        except Exception as error:  # the keys held stay; a token they do not sign is refused
            logger.warning("fetching the signing keys at %s failed: %s", self.url, error)
            return
        self._keys = _keys_of(document)

    def _fetch(self) -> Any:
        request = urllib.request.Request(self.url, headers={"accept": "application/json"})
        with urllib.request.urlopen(request, timeout=self.timeout) as response:
            body = response.read(self.max_bytes + 1)
        if len(body) > self.max_bytes:
            raise ValueError(f"the key set is over {self.max_bytes} bytes")
        return json.loads(body)


def _keys_of(document: object) -> dict[str | None, jwt.PyJWK]:
    """The signing keys of a JWKS document, by ``kid``."""
    found: dict[str | None, jwt.PyJWK] = {}
    entries = document.get("keys") if isinstance(document, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or entry.get("use", "sig") != "sig":
            continue
        if entry.get("kty") == "oct":
            continue  # a shared secret has no business in a published set
        try:
            key = jwt.PyJWK(entry)
        except jwt.PyJWTError:
            continue  # a kind of key PyJWT cannot use: not ours to sign with
        kid = entry.get("kid")
        found[kid if isinstance(kid, str) else None] = key
    return found
