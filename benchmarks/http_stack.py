"""The measurements behind ``manage.py bench http``: the web tier as deployed, over real HTTP.

A scratch PostgreSQL database (see ``harness.scratch_database``) is served by ``scripts/serve``
(granian, the production settings) with a real Celery worker projecting the read models, both started as
subprocesses against that database and ``REDIS_URL``. Load comes from N concurrent keep-alive clients on
one asyncio loop in this process, each recording Last Stone moves on its own match with
``expected_version``, as a phone at a table does. CPU is read from ``/proc`` per process tree.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from django.conf import settings
from django.db import connection

from benchmarks.store_measures import GAME, Writer

BIG_PILE = 10**9
BENCH_SECRET_KEY = "bench-http-secret-key-not-for-production-use-0123456789"  # scratch database, loopback only
_TICK = os.sysconf("SC_CLK_TCK")


# -- processes ------------------------------------------------------------------------------------------


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # fields from "state" on (the name may hold spaces)


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid``, its live descendants and its reaped children."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None:
                parents[int(entry)] = int(fields[1])
    members, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, ppid in parents.items():
            if ppid == parent and child not in members:
                members.add(child)
                frontier.append(child)
    ticks = 0
    for member in members:
        fields = _stat(member)
        if fields is not None:
            ticks += sum(int(f) for f in fields[11:13])  # utime, stime
            if member == pid:
                ticks += sum(int(f) for f in fields[13:15])  # cutime, cstime (reaped children)
    return ticks / _TICK


def pids_cpu(pids: list[int]) -> dict[int, float]:
    """CPU seconds of each live process in ``pids``."""
    out = {}
    for pid in pids:
        fields = _stat(pid)
        if fields is not None:
            out[pid] = sum(int(f) for f in fields[11:13]) / _TICK
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Service:
    """A subprocess of ours (own process group), its output in a log file; stopped by its own pid only."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log_dir: Path) -> None:
        self.name = name
        self.log_path = log_dir / f"{name}.log"
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            argv, env=env, cwd=settings.BASE_DIR, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def cpu(self) -> float:
        return tree_cpu(self.proc.pid)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group we started (start_new_session)
                self.proc.wait(10)
        self._log.close()


def service_env(database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The environment a deployment gives its processes, pointed at the scratch database.

    Throttle rates are raised out of reach (the throttle still runs, with its Redis round trips) because one
    benchmark user sends far more than a person at a table.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHRONICLE_", "CELERY_", "WEB_"))}
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=env.get("DJANGO_SECRET_KEY", BENCH_SECRET_KEY),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        CHRONICLE_THROTTLE_ANON="10000000/min",
        CHRONICLE_THROTTLE_USER="10000000/min",
        CHRONICLE_ACCESS_LOG="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def start_web(env: dict[str, str], stack: Stack, log_dir: Path) -> tuple[Service, int]:
    """``scripts/serve`` on a free port with ``stack``'s workers; waits for ``/healthz``."""
    port = free_port()
    web_env = {**env, "HOST": "127.0.0.1", "PORT": str(port), **stack.env()}
    web = Service(f"web-{stack.label}", [str(settings.BASE_DIR / "scripts" / "serve")], web_env, log_dir)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if not web.alive():
            raise RuntimeError(f"scripts/serve exited:\n{web.log_tail()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                if r.status == 200:
                    return web, port
        except OSError:
            time.sleep(0.2)
    web.stop()
    raise RuntimeError(f"scripts/serve did not answer /healthz in 60 s:\n{web.log_tail()}")


def start_worker(env: dict[str, str], log_dir: Path, concurrency: int) -> Service:
    """A real Celery worker (``celery -A config worker``, as the Procfile runs it)."""
    celery = str(Path(os.environ.get("VIRTUAL_ENV") or settings.BASE_DIR / ".venv") / "bin" / "celery")
    argv = [celery, "-A", "config", "worker", "--loglevel", "WARNING", "--concurrency", str(concurrency)]
    worker = Service("worker", argv, env, log_dir)
    time.sleep(0.5)
    if not worker.alive():
        raise RuntimeError(f"the Celery worker exited:\n{worker.log_tail()}")
    return worker


@dataclass(frozen=True)
class Stack:
    """A serving configuration for ``scripts/serve``: granian, or a gunicorn worker class; processes and threads."""

    worker_class: str
    workers: int
    threads: int = 1

    @classmethod
    def parse(cls, text: str) -> Stack:
        """``granian:2x4`` (the production server: processes x threads running Django), or gunicorn's
        ``sync:4``, ``gthread:2x8`` (processes x threads), ``asgi:2`` (its ASGI worker, config.asgi)."""
        kind, _, size = text.partition(":")
        procs, _, threads = size.partition("x")
        return cls(kind, int(procs or 2), int(threads or 1))

    @property
    def label(self) -> str:
        threaded = self.worker_class in ("gthread", "granian")
        return f"{self.worker_class}:{self.workers}" + (f"x{self.threads}" if threaded else "")

    def env(self) -> dict[str, str]:
        env = {"WEB_CONCURRENCY": str(self.workers), "WEB_THREADS": str(self.threads)}
        if self.worker_class == "granian":
            return {**env, "WEB_SERVER": "granian"}
        env.update(WEB_SERVER="gunicorn", WEB_WORKER_CLASS=self.worker_class)
        if self.worker_class == "asgi":  # Django under ASGI keeps no connection across requests
            env["CHRONICLE_DB_CONN_MAX_AGE"] = "0"
        return env


# -- data -----------------------------------------------------------------------------------------------


def bench_matches(count: int) -> tuple[str, list[int]]:
    """A user with an API token and ``count`` Last Stone matches it owns, each with a pile no run exhausts."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from matches import services
    from matches.models import Stream

    user, _ = get_user_model().objects.get_or_create(username="bench-http")
    token, _ = Token.objects.get_or_create(user=user)
    ids = []
    for i in range(count):
        match = services.match_create(
            owner=user, game=GAME, seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 1000},
            title=f"bench {i}",
        )  # fmt: skip
        # options cap the pile at 1000: widen it at version 0, as if the table had that many stones
        Stream.objects.filter(pk=match.stream_id, version=0).update(
            options={"stones": BIG_PILE, "first_seat": 0}, state={"pile": BIG_PILE, "turn": 0, "winner": None}
        )
        ids.append(match.pk)
    return token.key, ids


def summaries_behind(match_ids: list[int]) -> int:
    """How many of these matches' summaries have not caught up with their stream's version."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM matches_match m JOIN matches_stream s ON s.id = m.stream_id "
            "JOIN matches_matchsummary ms ON ms.match_id = m.id WHERE m.id = ANY(%s) AND ms.version < s.version",
            [match_ids],
        )
        return int(cursor.fetchone()[0])


def drain_wait(match_ids: list[int], timeout: float = 120.0) -> float:
    """Seconds until every summary shows its match's last event (the projector's lag after the load stops)."""
    start = time.perf_counter()
    while summaries_behind(match_ids):
        if time.perf_counter() - start > timeout:
            raise RuntimeError(f"the projector did not catch up within {timeout:.0f} s")
        time.sleep(0.01)
    return time.perf_counter() - start


def transaction_elsewhere(db: dict[str, Any], dbname: str = "postgres") -> psycopg.Connection:
    """A transaction holding a transaction id in database ``dbname`` of the same server, left open.

    In another database (``postgres``, the default) it no longer holds the log reader back at all; in the
    application's own database it does, and the projectors fall back to reading the held-back streams once
    their events have waited ``CHRONICLE_PROJECTOR_STALL_BOUND`` seconds. The caller closes the connection.
    """
    params = {k: db[k] for k in ("host", "port", "user", "password")}
    conn = psycopg.connect(dbname=dbname, autocommit=False, **params)
    conn.execute("SELECT pg_current_xact_id()")
    return conn


def backend_pids(dbname: str) -> list[int]:
    """PostgreSQL backends connected to the scratch database (the web and worker processes' connections)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [dbname])
        return [r[0] for r in cursor.fetchall()]


# -- the HTTP load ---------------------------------------------------------------------------------------


async def _exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
                    ) -> tuple[int, bytes, bool]:  # fmt: skip
    """Send one request; read the status, headers and body. Returns (status, body, server closes)."""
    writer.write(request)
    line = await reader.readline()
    if not line:
        raise ConnectionError("server closed the connection")
    status = int(line.split(b" ", 2)[1])
    length, close, chunked = None, line.startswith(b"HTTP/1.0"), False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"connection":
            close = value.strip().lower() == b"close"
        elif name == b"transfer-encoding":
            chunked = b"chunked" in value.lower()
    if chunked:
        parts = []
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                await reader.readline()
                break
            parts.append(await reader.readexactly(size))
            await reader.readline()
        body = b"".join(parts)
    elif length is not None:
        body = await reader.readexactly(length)
    else:
        body, close = await reader.read(), True
    return status, body, close


@dataclass
class LoadResult:
    """Requests started inside the measured window, their latencies (however long they took: a connection the
    server leaves waiting shows up as a slow request, not as a missing one), failures, and each client's count.
    """

    seconds: float
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    connections: int = 0
    per_client: list[int] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Successful requests per second (failed ones are counted in ``failures``, not here)."""
        return max(0, len(self.latencies) - len(self.failures)) / self.seconds

    def pct(self, q: float) -> float:
        """Latency percentile in ms."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def _append_request(token: str, match_id: int, version: int) -> bytes:
    body = json.dumps({"type": "stones_taken", "seat": version % 2, "data": {"count": 1},
                       "expected_version": version}, separators=(",", ":")).encode()  # fmt: skip
    head = (f"POST /api/matches/{match_id}/events/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")  # fmt: skip
    return head.encode() + body


def _state_request(token: str | None, match_id: int) -> bytes:
    auth = f"Authorization: Token {token}\r\n" if token else ""
    return f"GET /api/matches/{match_id}/state/ HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}\r\n".encode()


async def _client(port: int, next_request: Callable[[], bytes], on_body: Callable[[int, bytes], None],
                  window: tuple[float, float], result: LoadResult) -> None:  # fmt: skip
    """One keep-alive client: request after request until the window closes; reconnects if the server closes."""
    start, stop = window
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    result.connections += 1
    served = 0
    try:
        while True:
            t0 = time.perf_counter()
            if t0 >= stop:
                return
            status, body, close = await _exchange(reader, writer, next_request())
            t1 = time.perf_counter()
            on_body(status, body)
            if t0 >= start:
                result.latencies.append(t1 - t0)
                served += 1
            if close:
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                result.connections += 1
    finally:
        result.per_client.append(served)
        writer.close()


def http_appends(port: int, token: str, match_versions: dict[int, int], warmup: float, seconds: float) -> LoadResult:
    """One client per match, each appending for ``warmup + seconds``; latencies of the last ``seconds``.

    ``match_versions`` (match id → current version) is updated in place.
    """
    result = LoadResult(seconds)

    def plan(match_id: int) -> tuple[Callable[[], bytes], Callable[[int, bytes], None]]:
        def request() -> bytes:
            return _append_request(token, match_id, match_versions[match_id])

        def on_body(status: int, body: bytes) -> None:
            if status == 201:
                match_versions[match_id] = json.loads(body)["version"]
                return
            result.failures.append(f"{status} {body[:200]!r}")
            if status == 409:  # an earlier failed answer had written after all: carry on from the current version
                match_versions[match_id] = json.loads(body)["current_version"]

        return request, on_body

    async def main() -> None:
        t0 = time.perf_counter() + 0.05
        window = (t0 + warmup, t0 + warmup + seconds)
        await asyncio.gather(*(_client(port, *plan(m), window, result) for m in match_versions))

    asyncio.run(main())
    return result


def http_state_reads(port: int, token: str | None, match_ids: list[int], clients: int, seconds: float) -> LoadResult:
    """``clients`` keep-alive clients reading ``GET /api/matches/{id}/state/`` for ``seconds`` (after 0.5 s)."""
    result = LoadResult(seconds)

    def on_body(status: int, body: bytes) -> None:
        if status != 200:
            result.failures.append(f"{status} {body[:200]!r}")

    async def main() -> None:
        t0 = time.perf_counter() + 0.05
        window = (t0 + 0.5, t0 + 0.5 + seconds)
        requests = [_state_request(token, match_ids[i % len(match_ids)]) for i in range(clients)]
        await asyncio.gather(*(
            _client(port, lambda r=request: r, on_body, window, result) for request in requests
        ))  # fmt: skip

    asyncio.run(main())
    return result


# -- the in-process API client ---------------------------------------------------------------------------


class ApiClientWriter(Writer):
    """Django's test client through the whole middleware and DRF stack, in this process: no network, no server."""

    label = "api"

    def __init__(self, token: str, match_id: int) -> None:
        from django.test import Client

        self.client = Client(HTTP_AUTHORIZATION=f"Token {token}")
        self.url = f"/api/matches/{match_id}/events/"
        self.version = 0

    def one(self) -> None:
        body = {"type": "stones_taken", "seat": self.version % 2, "data": {"count": 1},
                "expected_version": self.version}  # fmt: skip
        response = self.client.post(self.url, body, content_type="application/json")
        if response.status_code != 201:
            raise RuntimeError(f"append answered {response.status_code}: {response.content[:300]!r}")
        self.version = json.loads(response.content)["version"]


class EmptyRequestWriter(Writer):
    """The floor of any request through the test client: ``GET`` of an unknown API path (middleware, URL
    resolution, the JSON 404), with the same credentials as the append; writes nothing."""

    label = "empty"

    def __init__(self, token: str) -> None:
        from django.test import Client

        self.client = Client(HTTP_AUTHORIZATION=f"Token {token}")

    def one(self) -> None:
        response = self.client.get("/api/no-such-path/")
        if response.status_code != 404:
            raise RuntimeError(f"the empty request answered {response.status_code}")


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


__all__ = [
    "ApiClientWriter",
    "EmptyRequestWriter",
    "LoadResult",
    "Service",
    "Stack",
    "backend_pids",
    "bench_matches",
    "drain_wait",
    "http_appends",
    "http_state_reads",
    "pids_cpu",
    "service_env",
    "start_web",
    "start_worker",
    "transaction_elsewhere",
]
