"""Processes of a test's own for the fault tests: a private redis-server on a free port, and what reads them.

Each test starts its own Redis (never the shared one on 6379, which other runs use) and kills or restarts only
that process, by its own pid.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings

from benchmarks.http_bench import Service, free_port


class PrivateRedis:
    """A redis-server of this test alone (no persistence), killed with SIGKILL and started again on its port."""

    def __init__(self, work: Path) -> None:
        if shutil.which("redis-server") is None:
            pytest.skip("needs redis-server (Debian package redis-server; scripts/services-up installs it)")
        self.port = free_port()
        self.work = work
        self.proc: subprocess.Popen[bytes] | None = None
        self._log = (work / "redis.log").open("ab")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen([*argv, "--dir", str(self.work)], stdout=self._log, stderr=subprocess.STDOUT)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.kill()
                    raise RuntimeError(f"redis-server did not start on port {self.port}") from None
                time.sleep(0.05)
            finally:
                client.close()

    def kill(self) -> None:
        """SIGKILL, as the probe did: no shutdown, no save, every connection reset."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        self.kill()
        self._log.close()


def wait_until(predicate, timeout: float, step: float = 0.1) -> bool:  # type: ignore[no-untyped-def]
    """Poll ``predicate`` until it is true (True) or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


def venv() -> str:
    """The virtualenv running the tests (its bin/ holds celery and granian), for the processes they start."""
    return str(Path(sys.executable).parent.parent)


def start_celery_worker(env: dict[str, str], log_dir: Path, supervised: bool = False) -> Service:
    """A real worker, one process: ``celery -A config worker`` itself, or through ``scripts/worker`` (what the
    README, the Procfile and the systemd unit run) when ``supervised``."""
    env = {**env, "VIRTUAL_ENV": venv(), "WORKER_CONCURRENCY": "1", "CHRONICLE_LOG_FORMAT": "text"}
    if supervised:
        argv = [str(settings.BASE_DIR / "scripts" / "worker")]
    else:
        argv = [
            str(Path(venv()) / "bin" / "celery"),
            "-A",
            "config",
            "worker",
            "--loglevel",
            "INFO",
            "--concurrency",
            "1",
        ]
    worker = Service("worker", argv, env, log_dir)
    if not wait_until(lambda: "ready." in worker.log_path.read_text(errors="replace") or not worker.alive(), 60):
        raise RuntimeError(f"the Celery worker did not get ready:\n{worker.log_tail()}")
    if not worker.alive():
        raise RuntimeError(f"the Celery worker exited:\n{worker.log_tail()}")
    return worker
