#!/usr/bin/env bash
# Sets up everything the tests need (a venv, the Python and npm test dependencies)
# and runs the whole check: ruff, mypy, pytest. Safe to run again.
#
# With arguments, they go to one pytest run. Without, the suite runs as four groups at
# once: the rest, in three parts, starts as soon as the main venv is in (it needs neither
# npm's packages nor the clients' venv), beside npm, the clients' venv and the linters;
# then, when those are done, the real peers from other projects (their clients, the
# conformance suite, nginx). The parts are chosen so that the groups end about together.
set -euo pipefail
cd "$(dirname "$0")/.."

# npm's installs go on beside the venvs'
npm_log=$(mktemp)
(
  set -e
  npm_ci() { (cd "$1" && npm ci --no-audit --no-fund --loglevel=error --engine-strict=false); }
  # the SDK clients (the TypeScript SDK 1.x, and its client 2.x); the MCP Inspector's CLI:
  # 0.15.0 (the one npm installs on Node 20) and 2.x (with its Node 22); the official
  # conformance suite, and the Node 22 it needs; the MCP Bundle CLI (mcpb): at once
  pids=()
  for folder in tests/js tests/js2 tests/inspector/v0 tests/inspector/v2 tests/conformance \
    tests/bundle; do
    npm_ci "$folder" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
) >"$npm_log" 2>&1 &
npm_pid=$!

# uv (from PyPI) installs both venvs' packages, many times faster than pip
python3 -m venv .venv
.venv/bin/python -m pip install -q uv 2>&1 | grep -v -i warning || true
uv=(.venv/bin/uv pip install -q)

# the MCP clients other projects ship (the SDK 1.x, agent frameworks), in a venv of their own,
# set up beside the main one
clients_log=$(mktemp)
(
  set -e
  python3 -m venv .venv-clients
  "${uv[@]}" --python .venv-clients/bin/python -r tests/clients/requirements.txt
  .venv-clients/bin/python -c 'import mcp, langchain_mcp_adapters, agents, pydantic_ai'
) >"$clients_log" 2>&1 &
clients_pid=$!

# with the chosen zoo's CI sample (bench/chosen/sample.py: four libraries of each half) at its
# pins, for tests/zoo/test_chosen_sample.py: in the same install, seconds more
read -r -a sample_pins <<<"$(python3 bench/chosen/sample.py --pins)"
"${uv[@]}" --python .venv/bin/python -e '.[test,bench,docs]' "${sample_pins[@]}"
.venv/bin/python -c 'import objmcp, mcp, hypothesis, pytest, fastmcp, matplotlib, mkdocs, selenium' # fail here if the install did
# the linters, while npm and the clients' venv go on
lint_log=$(mktemp)
(
  set -e
  .venv/bin/ruff check .
  .venv/bin/ruff format --check .
  .venv/bin/mypy
) >"$lint_log" 2>&1 &
lint_pid=$!
# Debian's packages some tests run, installed when missing (as root): debian_package PACKAGE
# COMMAND TESTS installs PACKAGE unless COMMAND is found, or says TESTS will report it
debian_package() {
  if command -v "$2" >/dev/null || [ -x "/usr/sbin/$2" ]; then return; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "$1" >/dev/null 2>&1 ||
      (apt-get update -q >/dev/null && apt-get install -y -q "$1" >/dev/null)
  else
    echo "$2 is missing and this is not root: $3 will say so" >&2
  fi
}
# valgrind for tests/peers/test_bench_instructions.py; redis-server for the shared task
# store's tests (they start their own server on a free port)
debian_package valgrind valgrind tests/peers/test_bench_instructions.py
debian_package redis-server redis-server "tests/serving/test_shared_tasks*.py"
# bubblewrap for objmcp run --sandbox (tests/serving/test_sandbox.py)
debian_package bubblewrap bwrap tests/serving/test_sandbox.py
# Chromium and its driver for the docs site in a real browser (tests/docs/test_site.py)
debian_package chromium chromium tests/docs/test_site.py
debian_package chromium-driver chromedriver tests/docs/test_site.py
if [ $# -eq 0 ]; then
  # the real peers from other projects (their clients, the conformance suite, nginx): they
  # wait for npm and the clients' venv; the clients in this venv (the SDK 2.x's
  # tests/peers/test_python_sdk_*.py, FastMCP's, the SDK's sampling and roots) run with
  # the served
  in_this_venv=(tests/peers/test_client_fastmcp.py tests/peers/test_client_requests.py)
  peers=()
  for file in tests/peers/test_client_*.py tests/peers/test_ts_*.py \
    tests/peers/test_conformance.py tests/peers/test_conformance_next.py \
    tests/peers/test_sdk_extensions.py tests/peers/test_nginx.py tests/peers/test_nginx_store.py \
    tests/peers/test_task_store_peers.py; do
    if [[ " ${in_this_venv[*]} " != *" $file "* ]]; then peers+=("$file"); fi
  done
  # the rest needs neither npm's packages nor the clients' venv: it starts now, beside them,
  # in three parts at once, so that both cores work while npm and the clients' venv install
  # and the peers wait: the object model's (sans-IO), the served over HTTP with the slow
  # process-spawning files (the command line, vanishing clients, thread-bound objects,
  # the bench's own runs, the clients in this venv), and the others
  model=(tests/model tests/zoo tests/transport)
  served=(tests/serving/test_http.py tests/serving/test_http_resume.py
    tests/serving/test_limits.py tests/cli tests/serving/test_vanishing.py
    tests/serving/test_thread_bound.py tests/serving/test_http_security.py
    tests/serving/test_http_bounds.py tests/serving/test_waiting.py tests/serving/test_jwt.py
    tests/serving/test_per_served.py tests/peers/test_bench.py
    tests/peers/test_bench_instructions.py
    tests/peers/test_python_sdk_client.py tests/peers/test_python_sdk_jobs.py
    "${in_this_venv[@]}")
  pytest=(.venv/bin/python -m pytest -q -p no:cacheprovider --durations=15)
  names=("the object model's: ${model[*]}" "the served: ${served[*]}" "the others")
  logs=("$(mktemp)" "$(mktemp)" "$(mktemp)")
  "${pytest[@]}" "${model[@]}" >"${logs[0]}" 2>&1 &
  pids=($!)
  "${pytest[@]}" "${served[@]}" >"${logs[1]}" 2>&1 &
  pids+=($!)
  "${pytest[@]}" $(printf -- '--ignore=%s ' "${peers[@]}" "${model[@]}" "${served[@]}") \
    >"${logs[2]}" 2>&1 &
  pids+=($!)
fi
# nginx for tests/peers/test_nginx.py and test_nginx_store.py
debian_package nginx-light nginx tests/peers/test_nginx.py
for job in "npm:$npm_pid:$npm_log" "the clients' venv:$clients_pid:$clients_log" \
  "ruff or mypy:$lint_pid:$lint_log"; do
  IFS=: read -r what pid log <<<"$job"
  if ! wait "$pid"; then
    cat "$log" >&2
    echo "$what failed" >&2
    if [ $# -eq 0 ]; then kill "${pids[@]}" 2>/dev/null || true; fi
    exit 1
  fi
  if [ "$what" = "ruff or mypy" ]; then cat "$log"; fi
  rm -f "$log"
done

if [ $# -gt 0 ]; then
  exec .venv/bin/python -m pytest -q "$@"
fi
status=0
names+=("the real peers: ${peers[*]}")
logs+=("$(mktemp)")
"${pytest[@]}" "${peers[@]}" >"${logs[3]}" 2>&1 || status=$?
for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
for i in "${!logs[@]}"; do
  echo "--- ${names[$i]}"
  cat "${logs[$i]}"
done
# one closing line for all the groups
count() { for log in "${logs[@]}"; do tail -n 1 "$log"; done |
  grep -Eo "[0-9]+ $1" | awk '{n += $1} END {print n + 0}'; }
echo "total: $(count passed) passed, $(count failed) failed"
rm -f "${logs[@]}"
exit "$status"
