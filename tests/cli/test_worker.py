"""``objmcp worker URL TARGET`` and ``run --queue``, refused at start when they cannot work,
each saying why with status 2: a queue with no store, a worker with no state key, a URL
that is not Redis's, a Redis that cannot be reached."""

from __future__ import annotations

import secrets

from conftest import server_env
from http_helpers import WORKERS, free_port
from test_cli import objmcp

TARGET = f"{WORKERS}:Workers"


def test_a_queue_needs_the_store() -> None:
    done = objmcp("run", "--http", "--port", str(free_port()), "--queue", "slow_pid", TARGET)
    assert done.returncode == 2
    assert "--queue needs store" in done.stderr.decode()


def test_a_worker_needs_the_fronts_state_key_a_redis_url_and_redis() -> None:
    env = {k: v for k, v in server_env().items() if k != "OBJMCP_STATE_KEY"}
    keyless = objmcp("worker", "redis://127.0.0.1:6379/0", TARGET, env=env)
    keyed = {**env, "OBJMCP_STATE_KEY": secrets.token_hex(32)}
    not_redis = objmcp("worker", "http://127.0.0.1:6379/0", TARGET, env=keyed)
    with_no_redis = f"redis://:secret@127.0.0.1:{free_port()}/0"  # nothing listens there
    unreachable = objmcp("worker", with_no_redis, TARGET, env=keyed)
    for done in (keyless, not_redis, unreachable):
        assert done.returncode == 2, done
        assert done.stdout == b""
    assert "needs the fronts' state key in $OBJMCP_STATE_KEY" in keyless.stderr.decode()
    assert "URL is Redis's" in not_redis.stderr.decode()
    said = unreachable.stderr.decode()
    assert "cannot be reached" in said and "secret" not in said, said  # no password said


def test_the_worker_verb_says_what_it_takes() -> None:
    shown = objmcp("worker", "--help")
    assert shown.returncode == 0
    text = shown.stdout.decode()
    assert "URL" in text and "--at-once" in text and "--include" in text


def test_a_worker_is_never_served_unboxed_when_a_box_is_asked_for() -> None:
    keyed = {**server_env(), "OBJMCP_STATE_KEY": secrets.token_hex(32), "PATH": "/nonexistent"}
    done = objmcp("worker", "redis://127.0.0.1:6379/0", TARGET, "--sandbox", env=keyed)
    assert done.returncode == 2 and done.stdout == b""
    assert "--sandbox needs bubblewrap (bwrap)" in done.stderr.decode()
