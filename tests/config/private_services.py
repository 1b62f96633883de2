"""Processes of a test's own for the fault tests: a private redis-server on a free port, a private PostgreSQL
cluster (and streaming replicas of it), and what reads them.

Each test starts its own Redis and PostgreSQL (never the shared ones on 6379 and 5432, which other runs use) and
kills, restarts or promotes only those processes.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
import redis
from django.conf import settings

from benchmarks.http_stack import Service, free_port


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


def initdb_path() -> str | None:
    """Debian's ``initdb`` (the newest), or None where no private cluster can be made (no initdb; root without
    a ``postgres`` account to run it as)."""
    found = next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)), None) or shutil.which(
        "initdb"
    )
    if found is None:
        return None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return None
    return found


class PrivatePostgres:
    """A throw-away PostgreSQL cluster on a free port; ``restart()`` restarts the server for real."""

    def __init__(self, initdb: str, standby_of: PrivatePostgres | None = None) -> None:
        """A new cluster (its database ``chronicle`` created), or with ``standby_of`` a streaming replica of
        that one (``pg_basebackup -R``: a hot standby replaying the primary's WAL as it comes)."""
        self.bin = Path(initdb).parent
        self.as_user: list[str] = []
        self.root = Path(tempfile.mkdtemp(prefix="chronicle-pg."))
        if os.geteuid() == 0:  # initdb refuses root: run the cluster as the postgres account
            self.as_user = ["runuser", "-u", "postgres", "--"]
            os.chown(self.root, pwd.getpwnam("postgres").pw_uid, -1)
        self.port = free_port()
        self.data = self.root / "data"
        if standby_of is None:
            self._run(
                "initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-N", "-E", "UTF8", "--no-instructions"
            )
        else:
            self._run("pg_basebackup", "-D", str(self.data), "-R", "-X", "stream", "-c", "fast", "-h", "127.0.0.1",
                      "-p", str(standby_of.port), "-U", "postgres")  # fmt: skip
        self.options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        )
        self.start()
        if standby_of is None:
            with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
                conn.execute("CREATE DATABASE chronicle")
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/chronicle"
        self.how = "pg_ctl restart -m fast (a private cluster)"

    def start(self) -> None:
        log = str(self.root / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-l", log, "-w", "-o", self.options, "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "fast", "stop")

    def promote(self) -> None:
        """A standby becomes a primary of its own (it stops following the one it was copied from)."""
        self._run("pg_ctl", "-D", str(self.data), "-w", "promote")

    def _run(self, tool: str, *args: str) -> None:
        # output to a file, never a pipe: a server that pg_ctl starts inherits it and would hold it open
        with (self.root / "tools.log").open("ab") as log:
            subprocess.run([*self.as_user, str(self.bin / tool), *args], check=True, stdout=log, stderr=log, timeout=60)

    def dsn(self, dbname: str = "chronicle") -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={dbname}"

    def restart(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w", "-m", "fast", "restart")

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
