"""The zoo as an OAuth resource server on 127.0.0.1:PORT (``python oauth_zoo.py PORT``):
tokens from ``https://auth.example.com`` are checked by a verifier (here: one known token),
and the app describes itself with protected-resource metadata (RFC 9728)."""

from __future__ import annotations

import sys

import uvicorn
from zoo import Zoo

import objmcp

app = objmcp.asgi_app(
    "zoo",
    Zoo(),
    auth=objmcp.Auth(
        verify=lambda token: token == "issued-by-the-authorization-server",
        authorization_servers=["https://auth.example.com"],
        scopes=["notes:read"],
    ),
)

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
