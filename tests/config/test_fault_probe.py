"""The fault probe, small (issue 21): the production stack under load while its services fail, then the promises.

Real processes, all of this test's own: PostgreSQL, a redis-server on a free port, the web tier exactly as
deployed (``scripts/serve``: granian, 1 process x 4 threads) and one Celery worker through ``scripts/worker``
(what the README, the Procfile and the systemd unit run). Five client threads append Last Stone moves over real
HTTP (three on a match each, two racing on one match with ``expected_version``), retrying a request with the same
idempotency key after a timeout, a dropped connection or a 503, as a phone does. Meanwhile: Redis is killed
(SIGKILL) and started again, the worker is killed (SIGKILL; ``scripts/worker`` starts a new one), and PostgreSQL is
restarted. Then: every acknowledged append is stored exactly once, each stream's versions have no gap, the read
models have converged (every match summary at its stream's head, nothing left for the projectors, ``/healthz``
200), no response was a 500 and every 503 was JSON with ``Retry-After``.

PostgreSQL: a private cluster (``initdb`` into a temporary directory, a free port, fsync off), restarted for real
with ``pg_ctl restart -m fast``. Restarting the shared server would break every other test run using it, so where
no private cluster can be made (no ``initdb``, or running as root without a ``postgres`` account to run it as)
the restart is simulated on the test's own database: ``pg_terminate_backend`` on every other connection to it,
which is what the web and worker processes see of a restart (each of their connections dies at once; new ones
succeed), minus the seconds during which connecting is refused.

Bounded: about 45 s on a 2-core machine; the load and fault phases take 16 s of it. Redis dies three times: each
time every read model reaches the heads it had when Redis answered again within 3 s (the worker reconnects
every second and runs a catch-up once back: config/broker.py), and the worker's log has one line per outage.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from psycopg.conninfo import make_conninfo

from benchmarks.http_stack import Service, Stack, service_env, start_web
from tests.config.private_services import (
    PrivatePostgres,
    PrivateRedis,
    initdb_path,
    start_celery_worker,
    venv,
    wait_until,
)

pytestmark = pytest.mark.one_db

CLIENTS_ALONE = 3  # client threads with a match each; two more race on one match
PHASE = 2.0  # seconds of load between two faults
REDIS_OUTAGES = 3


# -- PostgreSQL: a private cluster, or the test's own database ---------------------------------------------


class SharedServerDatabase:
    """The test's own database on the shared server; ``restart()`` kills every other connection to it."""

    def __init__(self, settings_dict: dict[str, Any]) -> None:
        s = settings_dict
        host, port = s["HOST"] or "127.0.0.1", s["PORT"] or 5432
        self._dsn = make_conninfo(
            host=host, port=port, user=s["USER"], password=s["PASSWORD"] or None, dbname=s["NAME"]
        )
        self.url = f"postgres://{s['USER']}:{s['PASSWORD'] or ''}@{host}:{port}/{s['NAME']}"
        self.how = "pg_terminate_backend on the test database (no private cluster here)"

    def dsn(self) -> str:
        return self._dsn

    def restart(self) -> None:
        with psycopg.connect(self._dsn, autocommit=True) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )

    def close(self) -> None:
        pass


@pytest.fixture
def database(request):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the fault probe runs on PostgreSQL only (DATABASE_URL is not PostgreSQL: the SQLite run)")
    initdb = initdb_path()
    if initdb is not None:
        db = PrivatePostgres(initdb)
    else:
        request.getfixturevalue("transactional_db")
        db = SharedServerDatabase(connection.settings_dict)
    yield db
    db.close()


# -- the clients ---------------------------------------------------------------------------------------------

_SETUP = """
import json, uuid, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from matches.models import Stream
from matches.services import match_create
user = get_user_model().objects.create_user("probe-" + uuid.uuid4().hex[:8], password="probe-pass-123")
ids = [match_create(owner=user, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}],
                    options={"stones": 1000}, is_public=True).pk for _ in range(N)]  # watched: public
# a pile no run exhausts (options cap it at 1000): widened at version 0, as benchmarks.http_stack does
Stream.objects.filter(match__in=ids, version=0).update(
    options={"stones": 10**9, "first_seat": 0}, state={"pile": 10**9, "turn": 0, "winner": None})
print(json.dumps({"token": Token.objects.create(user=user).key, "ids": ids}))
"""


@dataclass
class Tally:
    acked: list[tuple[int, str, int]] = field(default_factory=list)  # (match id, idempotency key, version)
    statuses: Counter[int] = field(default_factory=Counter)
    bad: list[str] = field(default_factory=list)  # 500s, non-JSON 503s, other surprises
    give_up: float = float("inf")  # monotonic time after which a request left unanswered fails the probe
    lock: threading.Lock = field(default_factory=threading.Lock)


class Client(threading.Thread):
    """One phone: appends moves on ``match_id`` until stopped; a failed request is sent again, same key."""

    def __init__(self, port: int, token: str, match_id: int, tally: Tally, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.match_id, self.tally, self.stop = port, match_id, tally, stop
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.conn: http.client.HTTPConnection | None = None
        self.version, self.turn = 0, 0

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any] | None:
        """(status, JSON body), or None when the request did not get an answer (to be sent again)."""
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
            self.conn.request(method, path, None if body is None else json.dumps(body), self.headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            time.sleep(0.05)
            return None
        with self.tally.lock:
            self.tally.statuses[response.status] += 1
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            data = None
        if response.status >= 500:
            if response.status != 503 or data is None or not response.getheader("Retry-After"):
                with self.tally.lock:
                    self.tally.bad.append(f"{method} {path}: {response.status} {raw[:200]!r}")
            time.sleep(0.1)
            return None
        return response.status, data

    def _state(self) -> tuple[int, int | None]:
        while True:
            if time.monotonic() > self.tally.give_up:
                raise TimeoutError(f"match {self.match_id}: no answer to a state read")
            answer = self._call("GET", f"/api/matches/{self.match_id}/state/")
            if answer is not None and answer[0] == 200:
                return answer[1]["version"], answer[1]["state"]["turn"]
            if answer is not None:
                self.tally.bad.append(f"state read: {answer}")
                return 0, None

    def move(self) -> None:
        """One move at the version and seat last seen; sent again until it gets an answer (or ``give_up``)."""
        key = uuid.uuid4().hex
        body = {"type": "stones_taken", "seat": self.turn, "data": {"count": 1}, "expected_version": self.version,
                "idempotency_key": key}  # fmt: skip
        answer = None
        while answer is None:
            if time.monotonic() > self.tally.give_up:
                raise TimeoutError(f"match {self.match_id}: no answer to an append")
            answer = self._call("POST", f"/api/matches/{self.match_id}/events/", body)
        status, data = answer
        if status == 201:
            with self.tally.lock:
                self.tally.acked.append((self.match_id, key, data["version"]))
            self.version, self.turn = data["version"], data["state"]["turn"]
            return
        if status != 409:  # 409: the other phone was first
            with self.tally.lock:
                self.tally.bad.append(f"append: {status} {data}")
        self.version, self.turn = self._state()

    def run(self) -> None:
        try:
            self.version, self.turn = self._state()
            while not self.stop.is_set() and self.turn is not None:
                self.move()
        except Exception as exc:
            with self.tally.lock:
                self.tally.bad.append(f"client on match {self.match_id}: {exc!r}")


class Watcher(threading.Thread):
    """One watching page's event stream (the live table), as a browser's ``EventSource`` keeps it: read frame by
    frame; dropped (a Redis outage changes nothing here; a web restart ends it), opened again with
    ``Last-Event-ID`` naming the last entry received, on the web tier's current ``port``."""

    def __init__(self, port: int, match_id: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.match_id, self.stop = port, match_id, stop
        self.ids: list[int] = []  # every entry's version, in the order received
        self.opened = 0

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
                resume = {"Last-Event-ID": str(self.ids[-1])} if self.ids else {}
                conn.request("GET", f"/matches/{self.match_id}/live/?from=0", headers=resume)
                response = conn.getresponse()
                if response.status != 200:
                    response.read()
                    raise OSError(f"HTTP {response.status}")
                self.opened += 1
                while not self.stop.is_set() and (line := response.fp.readline()):
                    if line.startswith(b"id: "):
                        self.ids.append(int(line[4:]))
                conn.close()
            except (OSError, http.client.HTTPException):
                time.sleep(0.3)


# -- the probe -----------------------------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _celery_pid(wrapper: Service) -> int | None:
    kids = _children(wrapper.proc.pid)
    return kids[0] if kids else None


def _heads(dsn: str) -> dict[int, int]:
    """Each match's stream head now."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute("SELECT m.id, s.version FROM matches_match m JOIN matches_stream s ON s.id = m.stream_id")
        return dict(rows.fetchall())


def _summaries_reach(dsn: str, heads: dict[int, int]) -> bool:
    """True when every match's summary shows at least the head it had in ``heads``."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT m.id, coalesce(ms.version, -1) FROM matches_match m "
            "LEFT JOIN matches_matchsummary ms ON ms.match_id = m.id"
        ).fetchall()
    return all(version >= heads.get(match_id, 0) for match_id, version in rows)


def _watched_reach(watcher: Watcher, heads: dict[int, int]) -> bool:
    """True when ``watcher`` received its match's entries up to the version ``heads`` names."""
    return bool(watcher.ids) and watcher.ids[-1] >= heads.get(watcher.match_id, 0)


def _converged(dsn: str) -> bool:
    with psycopg.connect(dsn, autocommit=True) as conn:
        behind = conn.execute(
            "SELECT count(*) FROM matches_match m JOIN matches_stream s ON s.id = m.stream_id "
            "LEFT JOIN matches_matchsummary ms ON ms.match_id = m.id WHERE coalesce(ms.version, -1) <> s.version"
        ).fetchone()[0]
    return behind == 0


def test_every_acknowledged_append_survives_redis_worker_and_postgresql_failures(database, tmp_path):
    redis_server = PrivateRedis(tmp_path)
    services: list[Service] = []
    try:
        redis_server.start()
        env = service_env(database.url, redis_server.url, VIRTUAL_ENV=venv(), CHRONICLE_LOG_FORMAT="text")
        setup = subprocess.run(
            [sys.executable, "-c", _SETUP.replace("range(N)", f"range({CLIENTS_ALONE + 1})")],
            env=env, cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert setup.returncode == 0, setup.stderr[-3000:]
        made = json.loads(setup.stdout.strip().splitlines()[-1])
        web, port = start_web(env, Stack("granian", 1, 4), tmp_path)
        services.append(web)
        worker = start_celery_worker(env, tmp_path, supervised=True)
        services.append(worker)

        tally, stop = Tally(), threading.Event()
        targets = [*made["ids"], made["ids"][-1]]  # the last match has two phones racing
        clients = [Client(port, made["token"], match_id, tally, stop) for match_id in targets]
        for client in clients:
            client.start()
        watching = threading.Event()
        watchers = [Watcher(port, match_id, watching) for match_id in made["ids"][:2]]  # the live table's pages
        for watcher in watchers:
            watcher.start()
        time.sleep(PHASE)

        catch_ups, watched_ups = (
            [],
            [],
        )  # 1. Redis dies and comes back, three times: the read models catch up within 3 s each time
        for _ in range(REDIS_OUTAGES):
            redis_server.kill()
            time.sleep(PHASE / 2)
            redis_server.start()  # returns once it answers
            back, heads = time.monotonic(), _heads(database.dsn())
            reached = wait_until(lambda heads=heads: _summaries_reach(database.dsn(), heads), 10, step=0.05)
            catch_ups.append(round(time.monotonic() - back, 2) if reached else None)
            seen = wait_until(lambda heads=heads: all(_watched_reach(w, heads) for w in watchers), 10, step=0.05)
            watched_ups.append(round(time.monotonic() - back, 2) if seen else None)
            time.sleep(PHASE / 2)
        assert all(t is not None and t < 3.0 for t in catch_ups), (catch_ups, worker.log_tail())
        assert all(t is not None and t < 3.0 for t in watched_ups), ("watchers behind after Redis", watched_ups)

        first_worker = _celery_pid(worker)  # 2. the worker dies; scripts/worker starts another
        assert first_worker is not None and worker.alive(), worker.log_tail()
        for pid in [*_children(first_worker), first_worker]:
            os.kill(pid, signal.SIGKILL)
        assert wait_until(lambda: _celery_pid(worker) not in (None, first_worker), 15), worker.log_tail()
        time.sleep(PHASE)

        database.restart()  # 3. PostgreSQL restarts
        time.sleep(PHASE)

        tally.give_up = time.monotonic() + 20
        stop.set()
        for client in clients:
            client.join(30)
        assert not any(client.is_alive() for client in clients), "a client never got its append answered"

        web.stop()  # 4. the web tier restarts (a deploy): watching pages reconnect and resume
        services.remove(web)
        (tmp_path / "again").mkdir()
        web, port = start_web(env, Stack("granian", 1, 4), tmp_path / "again")
        services.append(web)
        for watcher in watchers:
            watcher.port = port

        # a client's next move wakes the projector, as at a table; nobody touches the worker
        nudge = Client(port, made["token"], made["ids"][0], tally, stop)
        tally.give_up = deadline = time.monotonic() + 30
        while not _converged(database.dsn()) and time.monotonic() < deadline:
            nudge.version, nudge.turn = nudge._state()
            nudge.move()
            wait_until(lambda: _converged(database.dsn()), 1.0, step=0.1)

        with psycopg.connect(database.dsn(), autocommit=True) as conn:
            rows = conn.execute(
                "SELECT m.id, e.idempotency_key, e.version FROM matches_event e "
                "JOIN matches_match m ON m.stream_id = e.stream_id"
            ).fetchall()
            heads = dict(
                conn.execute(
                    "SELECT m.id, s.version FROM matches_match m JOIN matches_stream s ON s.id = m.stream_id"
                ).fetchall()
            )
        stored = Counter((match_id, key) for match_id, key, _ in rows)
        lost = [(m, k) for m, k, _ in tally.acked if stored[(m, k)] != 1]
        assert not lost, f"{len(lost)} acknowledged appends not stored exactly once: {lost[:5]}"
        at = {(m, k): v for m, k, v in rows}
        assert all(at[(m, k)] == v for m, k, v in tally.acked), "an acknowledged append is stored at another version"
        for match_id, head in heads.items():
            versions = sorted(v for m, _, v in rows if m == match_id)
            assert versions == list(range(1, head + 1)), f"match {match_id}: gaps or duplicates in its versions"
        assert not tally.bad, tally.bad[:10]
        final = {m: heads[m] for m in made["ids"][:2]}
        assert wait_until(lambda: all(_watched_reach(w, final) for w in watchers), 10, step=0.05), "watchers behind"
        # the web restart ended each stream and its watcher opened it again (a watcher with nothing new since the
        # restart may still be reconnecting: waited for, as a page's EventSource would be)
        resumed = wait_until(lambda: all(w.opened >= 2 for w in watchers), 25, step=0.1)
        watching.set()
        assert resumed, ("a stream not opened again after the web restart", [w.opened for w in watchers])
        for watcher in watchers:  # every entry once, in order, across Redis outages and a web restart
            assert watcher.ids == list(range(1, final[watcher.match_id] + 1)), (watcher.match_id, watcher.ids[-5:])
        assert tally.statuses[500] == 0
        assert _converged(database.dsn()), f"the read models never caught up:\n{worker.log_tail()}"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/healthz")
        health = json.loads(conn.getresponse().read())
        assert health["projector"]["pending_events"] == 0 and health["redis"]["ok"], health
        assert len(tally.acked) > 50, f"too little load to mean anything: {tally.statuses}"
        log = worker.log_path.read_text(errors="replace")
        assert "starting it again" in log and "Unrecoverable error" not in log, log[-3000:]
        # one line when the broker goes and one when it is back, per outage (config.broker, config.outage); a
        # worker killed meanwhile starts with its own count (one line each for the restarts' own outage, if any)
        gone = log.count("unreachable (the worker's broker connection")
        assert gone <= REDIS_OUTAGES + 1 and log.count("reachable again after") <= gone, log[-3000:]
        assert "Cannot connect to" not in log and "Connection to broker lost" not in log, log[-3000:]
        assert "Killed" not in log, log[-3000:]  # scripts/worker says it as a log line of its own
        print(
            f"fault probe ({database.how}): {len(tally.acked)} acknowledged appends, statuses {dict(tally.statuses)}, "
            f"catch-up after Redis came back {catch_ups} s, watchers' {watched_ups} s"
        )
    finally:
        for service in reversed(services):
            service.stop()
        if "watching" in locals():
            watching.set()
        redis_server.stop()
