#!/usr/bin/env bash
# Sets up everything the tests need (a venv, the Python and npm test dependencies)
# and runs the whole check: ruff, mypy, pytest. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip 2>&1 | grep -v -i warning || true
.venv/bin/python -m pip install -q -e '.[test]' 2>&1 | grep -v -i warning || true
.venv/bin/python -c 'import objmcp, mcp, hypothesis, pytest' # fail here if the install did
(cd tests/js && npm ci --no-audit --no-fund --loglevel=error)
# the official conformance suite, and the Node 22 it needs, from the npm registry
(cd tests/conformance && npm ci --no-audit --no-fund --loglevel=error --engine-strict=false)

.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/python -m pytest -q "$@"
