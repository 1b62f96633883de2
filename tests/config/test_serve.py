"""``scripts/serve``, the production web tier: granian by default, gunicorn when asked, nothing else."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from benchmarks.http_stack import Stack
from tests.processes import free_port

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
SERVE = str(ROOT / "scripts" / "serve")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_", "DATABASE_URL", "REDIS_URL"))}
    return {**env, "VIRTUAL_ENV": str(Path(sys.executable).parent.parent), "DJANGO_DEBUG": "1", **extra}


def test_an_unknown_server_is_refused_with_its_name():
    run = subprocess.run([SERVE], env=_env(WEB_SERVER="bjoern"), capture_output=True, text=True, timeout=30)
    assert run.returncode == 2 and "WEB_SERVER must be granian or gunicorn, not 'bjoern'" in run.stderr


def test_gunicorn_stays_selectable():
    run = subprocess.run([SERVE, "--check-config"], env=_env(WEB_SERVER="gunicorn"), capture_output=True, timeout=60)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("threads", ["", "3"])
def test_granian_serves_and_stops_gracefully(threads, tmp_path):
    """The default server answers /healthz on HOST:PORT with WEB_CONCURRENCY processes, and a SIGTERM stops it."""
    port = free_port()
    env = _env(HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="1", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    if threads:
        env["WEB_THREADS"] = threads
    server = subprocess.Popen([SERVE], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline, status = time.monotonic() + 30, None
        while time.monotonic() < deadline and status is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                    status = response.status
            except OSError:
                time.sleep(0.2)
        assert status in (200, 503)  # 503: no migrated database here; the server itself answered
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
    assert b"granian" in server.stdout.read()


def test_bench_stacks_name_the_server():
    assert Stack.parse("granian:2x2").env() == {"WEB_CONCURRENCY": "2", "WEB_THREADS": "2", "WEB_SERVER": "granian"}
    assert Stack.parse("gthread:2x8").env()["WEB_SERVER"] == "gunicorn"
    assert Stack.parse("granian:2x2").label == "granian:2x2" and Stack.parse("sync:4").label == "sync:4"
