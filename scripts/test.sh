#!/usr/bin/env bash
# Sets up everything the tests need (a venv, the Python and npm test dependencies)
# and runs the whole check: ruff, mypy, pytest. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip 2>&1 | grep -v -i warning || true
.venv/bin/python -m pip install -q -e '.[test,bench]' 2>&1 | grep -v -i warning || true
.venv/bin/python -c 'import objmcp, mcp, hypothesis, pytest, fastmcp, matplotlib' # fail here if the install did
# the MCP clients other projects ship (the SDK 1.x, agent frameworks), in a venv of their own
python3 -m venv .venv-clients
.venv-clients/bin/python -m pip install -q --upgrade pip 2>&1 | grep -v -i warning || true
.venv-clients/bin/python -m pip install -q -r tests/clients/requirements.txt 2>&1 | grep -v -i warning || true
.venv-clients/bin/python -c 'import mcp, langchain_mcp_adapters, agents, pydantic_ai'
(cd tests/js && npm ci --no-audit --no-fund --loglevel=error)
# the MCP Inspector's CLI: 0.15.0 (the one npm installs on Node 20) and 2.x (with its Node 22)
(cd tests/inspector/v0 && npm ci --no-audit --no-fund --loglevel=error)
(cd tests/inspector/v2 && npm ci --no-audit --no-fund --loglevel=error --engine-strict=false)
# the official conformance suite, and the Node 22 it needs, from the npm registry
(cd tests/conformance && npm ci --no-audit --no-fund --loglevel=error --engine-strict=false)
# nginx (Debian's package) for tests/test_nginx.py, when missing
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q nginx-light >/dev/null 2>&1 ||
      (apt-get update -q >/dev/null && apt-get install -y -q nginx-light >/dev/null)
  else
    echo "nginx is missing and this is not root: tests/test_nginx.py will say so" >&2
  fi
fi

.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/python -m pytest -q "$@"
