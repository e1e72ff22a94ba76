#!/usr/bin/env bash
# Makes .venv-chosen at the repository's root: Python 3.11, the chosen zoo's libraries pinned by
# requirements.txt beside this script, and objmcp itself editable. Idempotent: run it again and
# it only installs what is missing. Then checks that every kept library's targets import with
# no network (bench/chosen/check_imports.py, under `unshare -n` where that works).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$root/.venv-chosen"
uv="${UV:-$(command -v uv || echo "$root/.venv/bin/uv")}"
python="${PYTHON311:-$(command -v python3.11 || echo python3.11)}"

if [ ! -x "$venv/bin/python" ]; then
    "$uv" venv --quiet --python "$python" "$venv"
fi
VIRTUAL_ENV="$venv" "$uv" pip install --quiet -r "$here/requirements.txt" -e "$root"

if unshare -n true 2>/dev/null; then
    unshare -n "$venv/bin/python" "$here/check_imports.py"
else
    echo "unshare -n is not available: checking imports with proxies pointing nowhere" >&2
    http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 \
        HTTP_PROXY=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 \
        "$venv/bin/python" "$here/check_imports.py"
fi
