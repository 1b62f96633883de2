"""Reads from a real streaming replica (issue 31 item 6, ``config/replica.py``).

The test makes its own primary (``initdb``) and a hot standby of it (``pg_basebackup -R``, another port),
migrates the primary, and serves the production web tier (``scripts/serve``) with ``DATABASE_URL`` on the
primary and ``DATABASE_REPLICA_URL`` on the standby. Then, over real HTTP:

- with the standby's replay paused (``pg_wal_replay_pause()``), a reader who did not write sees the standby's
  older log (reads do go to the replica), while the writer sees its own append at once (read-your-writes), as
  an API client (its token) and as a browser (its cookie);
- once the pause has lasted past ``CHRONICLE_REPLICA_MAX_LAG``, every reader reads the primary;
- the standby stopped: every read answers 200 from the primary (no 500, no 503);
- the standby promoted away (it stops following the primary): it is no longer read from, new writes are seen.

Without a private cluster (no ``initdb``) it cannot run: the SQLite lane does not collect PostgreSQL's
replication, and on PostgreSQL the test fails rather than skip (it is the only proof the router works).
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from benchmarks.http_stack import Service, Stack, service_env, start_web
from tests.config.private_services import PrivatePostgres, PrivateRedis, initdb_path, venv, wait_until

pytestmark = pytest.mark.one_db

MAX_LAG = 2.0  # CHRONICLE_REPLICA_MAX_LAG for the web tier under test

_SETUP = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from matches.services import match_create
User = get_user_model()
ana = User.objects.create_user("ana", password="ana-pass-123")
bo = User.objects.create_user("bo", password="bo-pass-123")
match = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}],
                     options={"stones": 50}, is_public=True)
print(json.dumps({"ana": Token.objects.create(user=ana).key, "bo": Token.objects.create(user=bo).key,
                  "match": match.pk}))
"""


class Http:
    """One keep-alive client; ``token`` for the API's Token header, or cookies kept like a browser's."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        self.token, self.cookies = token, {}

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        try:
            return response.status, json.loads(raw)
        except ValueError:
            return response.status, raw


@pytest.fixture
def clusters():
    if connection.vendor != "postgresql":
        pytest.skip("streaming replication is PostgreSQL's (this is the SQLite run)")
    initdb = initdb_path()
    assert initdb is not None, "no initdb here: the replica test needs a private PostgreSQL cluster"
    primary = PrivatePostgres(initdb)
    standby = None
    try:
        standby = PrivatePostgres(initdb, standby_of=primary)
        yield primary, standby
    finally:
        if standby is not None:
            standby.close()
        primary.close()


def _replayed(standby: PrivatePostgres, primary: PrivatePostgres) -> bool:
    """True when the standby has replayed everything the primary has written."""
    with psycopg.connect(primary.dsn(), autocommit=True) as p, psycopg.connect(standby.dsn(), autocommit=True) as s:
        at = p.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
        return s.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [at]).fetchone()[0]


def _on_standby(standby: PrivatePostgres, sql: str) -> None:
    with psycopg.connect(standby.dsn(), autocommit=True) as conn:
        conn.execute(sql)


def _log(client: Http, match: int) -> list[int]:
    status, body = client.call("GET", f"/api/matches/{match}/events/")
    assert status == 200, body
    return [e["version"] for e in body["results"]]


def test_reads_go_to_a_real_replica_and_a_writer_reads_its_own_writes(clusters, tmp_path) -> None:
    primary, standby = clusters
    redis_server = PrivateRedis(tmp_path)
    services: list[Service] = []
    try:
        redis_server.start()
        env = service_env(primary.url, redis_server.url, VIRTUAL_ENV=venv(), CHRONICLE_LOG_FORMAT="text",
                          DATABASE_REPLICA_URL=standby.url, CHRONICLE_REPLICA_MAX_LAG=str(MAX_LAG))  # fmt: skip
        setup = subprocess.run([sys.executable, "-c", _SETUP], env={**env, "DATABASE_REPLICA_URL": ""},
                               cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120)  # fmt: skip
        assert setup.returncode == 0, setup.stderr[-3000:]
        made = json.loads(setup.stdout.strip().splitlines()[-1])
        web, port = start_web(env, Stack("granian", 1, 2), tmp_path)
        services.append(web)
        match = made["match"]
        ana, bo = Http(port, made["ana"]), Http(port, made["bo"])
        assert wait_until(lambda: _replayed(standby, primary), 20), "the standby never caught up"
        assert _log(bo, match) == []

        # 1. replay paused: Bo (who wrote nothing) reads the standby's log, Ana her own append
        _on_standby(standby, "SELECT pg_wal_replay_pause()")
        status, body = ana.call("POST", f"/api/matches/{match}/events/",
                                {"type": "stones_taken", "seat": 0, "data": {"count": 1}})  # fmt: skip
        assert status == 201, body
        assert _log(ana, match) == [1], "the writer must read its own write"
        assert _log(bo, match) == [], "a reader who wrote nothing reads the (paused) replica"
        browser = Http(port)  # a browser: its write is remembered by cookie
        status, _ = browser.call("GET", "/accounts/login/")
        csrf = browser.cookies.get("csrftoken", "")
        browser.conn.request("POST", "/accounts/login/", body=f"username=bo&password=bo-pass-123&csrfmiddlewaretoken={csrf}",
                             headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": "; ".join(f"{k}={v}" for k, v in browser.cookies.items()),
                                      "Referer": f"http://127.0.0.1:{port}/accounts/login/"})  # fmt: skip
        login = browser.conn.getresponse()
        login.read()
        for header, value in login.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                browser.cookies[name] = rest.split(";", 1)[0]
        assert login.status == 302, login.status
        assert "chronicle_ryw" in browser.cookies, "a write (the sign-in) leaves the browser its WAL position"
        assert _log(browser, match) == [1], "the browser that wrote reads the primary while the replica lags"

        # 2. paused for longer than the bound: the replica is not used, even for Bo
        time.sleep(MAX_LAG + 0.5)
        assert _log(bo, match) == [1], "a replica replaying further behind than the bound is not read from"
        _on_standby(standby, "SELECT pg_wal_replay_resume()")
        assert wait_until(lambda: _replayed(standby, primary), 20)
        assert _log(bo, match) == [1]

        # 3. the standby stops: reads answer from the primary
        standby.stop()
        for client in (ana, bo):
            assert _log(client, match) == [1]
        status, body = bo.call("GET", f"/api/matches/{match}/")
        assert status == 200, body
        standby.start()

        # 4. promoted away: it follows the primary no more, and is no longer read from
        assert wait_until(lambda: _replayed(standby, primary), 20)
        standby.promote()
        status, body = ana.call("POST", f"/api/matches/{match}/events/",
                                {"type": "stones_taken", "seat": 1, "data": {"count": 1}})  # fmt: skip
        assert status == 201, body
        time.sleep(6)  # past the bounded read-your-writes of nobody: Bo never wrote; the down-retry (5 s) passed
        assert _log(bo, match) == [1, 2], "a promoted replica (diverged) must not serve reads"
        log = web.log_path.read_text(errors="replace")
        assert "the read replica is not used" in log, log[-3000:]
        assert " 500 " not in log and "Traceback" not in log, log[-3000:]
    finally:
        for service in reversed(services):
            service.stop()
        redis_server.stop()
