"""Appends through a real PgBouncer in transaction pooling mode work with ``CHRONICLE_DB_POOLER=transaction``
(issue 21 item 4: every append answered 500, ``prepared statement "_pg3_0" does not exist``), and a forgotten
setting crosses no statement (issue 31 item 1: another client's prepared statement ran with this one's
parameters): the servers refuse to start, a process that could not check at start finds the pooler on its first
connection and runs unprepared. The test starts Debian's PgBouncer itself (``scripts/pgbouncer-transaction``):
it is never skipped on PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection
from rest_framework.authtoken.models import Token

from config import db
from matches.models import Event as EventRow
from tests.config.wsgi_call import append_call
from tests.processes import free_port, wait_listening

pytestmark = [pytest.mark.one_db, pytest.mark.django_db(transaction=True)]

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "pgbouncer-transaction"


@pytest.fixture(scope="module")
def bouncer_port() -> Iterator[int]:
    """A PgBouncer (pool_mode = transaction) in front of the test PostgreSQL; its port."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="chronicle-pgbouncer-") as work:
        proc = subprocess.Popen([str(SCRIPT), work, str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_listening(port, proc, what="PgBouncer", timeout=10)
            yield port
        finally:
            proc.terminate()
            proc.wait(timeout=10)


@pytest.fixture
def through_bouncer(bouncer_port: int) -> Iterator[dict[str, Any]]:
    """Django's default connection re-pointed at PgBouncer for the test; the direct one restored after."""
    if connection.vendor != "postgresql":
        pytest.skip("PgBouncer is PostgreSQL's")
    direct = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = bouncer_port
    params = {**connection.get_connection_params(), "port": bouncer_port}
    try:
        yield params
    finally:
        connection.close()
        connection.settings_dict["PORT"] = direct


def _two_appends_while_a_server_connection_is_busy(owner, match, params) -> list[int]:
    """Record two moves over the API's hot path; between them another client holds the server connection the
    first one used (its transaction open), so the second runs on another server connection, as under load."""
    token = Token.objects.create(user=owner).key
    move = {"type": "stones_taken", "data": {"count": 1}}
    first = append_call(token, match.pk, {**move, "seat": 0})[0]
    with psycopg.connect(**{k: v for k, v in params.items() if k in ("dbname", "user", "host", "port")}) as other:
        other.execute("SELECT 1")  # BEGIN: the transaction (and its server connection) stays open
        second = append_call(token, match.pk, {**move, "seat": 1})[0]
    return [first, second]


def test_appends_through_pgbouncer_work_in_pooler_mode(settings, through_bouncer, owner, stone_match) -> None:
    settings.CHRONICLE_DB_POOLER = "transaction"
    codes = _two_appends_while_a_server_connection_is_busy(owner, stone_match, through_bouncer)
    assert codes == [201, 201]
    assert EventRow.objects.filter(stream_id=stone_match.stream_id).count() == 2
    status, _, body = append_call(Token.objects.get(user=owner).key, stone_match.pk, {"type": "stones_taken", "seat": 0, "data": {"count": 1}})  # fmt: skip
    assert status == 201 and json.loads(body)["version"] == 3


@pytest.fixture
def undeclared(settings, monkeypatch) -> None:
    """No CHRONICLE_DB_POOLER, and this process has not found a pooler yet (restored after the test)."""
    settings.CHRONICLE_DB_POOLER = ""
    monkeypatch.setattr(db, "_pooled", False)
    monkeypatch.setitem(connection.settings_dict, "DISABLE_SERVER_SIDE_CURSORS", False)


def test_without_the_setting_a_process_finds_the_pooler_itself_and_crosses_no_statement(
    undeclared, through_bouncer, owner, stone_match, caplog
) -> None:
    """Issue 31 item 1: CHRONICLE_DB_POOLER forgotten behind PgBouncer (the database unreachable when the process
    started, so its start-up check could not refuse). The first connection shows the pooler: nothing is prepared
    from then on, every append is answered, and the log names the setting."""
    codes = _two_appends_while_a_server_connection_is_busy(owner, stone_match, through_bouncer)
    assert codes == [201, 201]
    assert db._pooled and connection.settings_dict["DISABLE_SERVER_SIDE_CURSORS"] is True
    logged = caplog.get_records("setup") + caplog.records  # the first connection opens in the fixtures
    assert [r.getMessage() for r in logged if r.name == "chronicle.db"] == [
        f"{db.POOLER_FOUND} Running unprepared meanwhile."
    ]
    assert not any(r.exc_info for r in logged)
    events = EventRow.objects.filter(stream_id=stone_match.stream_id).order_by("version")
    assert [(e.version, e.seat, e.data) for e in events] == [(1, 0, {"count": 1}), (2, 1, {"count": 1})]


def test_a_direct_connection_is_not_taken_for_a_pooler(undeclared) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PgBouncer is PostgreSQL's")
    connection.close()
    connection.ensure_connection()  # a new connection: checked
    assert db.behind_pooler(connection.connection) is False
    assert db._pooled is False


def _start(args: list[str], port: int, pooler: str | None) -> subprocess.CompletedProcess[str]:
    """A server process's start with DATABASE_URL through PgBouncer (the test database's name)."""
    name = connection.settings_dict["NAME"]
    env = {**os.environ, "DATABASE_URL": f"postgres://postgres@127.0.0.1:{port}/{name}",
           "DJANGO_SECRET_KEY": "k" * 50, "DJANGO_DEBUG": "0", "DJANGO_SETTINGS_MODULE": "config.settings"}  # fmt: skip
    env.pop("CHRONICLE_DB_POOLER", None)
    if pooler is not None:
        env["CHRONICLE_DB_POOLER"] = pooler
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args", [["-c", "import config.wsgi"], ["-c", "import config.asgi"]])
def test_the_web_tier_refuses_to_start_behind_an_undeclared_pooler_and_names_the_setting(bouncer_port, args) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PgBouncer is PostgreSQL's")
    refused = _start(args, bouncer_port, None)
    assert refused.returncode != 0 and "CHRONICLE_DB_POOLER is not set" in refused.stderr
    assert "CHRONICLE_DB_POOLER=transaction" in refused.stderr
    for pooler in ("transaction", "session"):
        declared = _start(args, bouncer_port, pooler)
        assert declared.returncode == 0, declared.stderr


def test_the_worker_refuses_to_start_behind_an_undeclared_pooler_with_exit_78(bouncer_port) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PgBouncer is PostgreSQL's")
    refused = _start(["-m", "celery", "-A", "config", "worker", "--pool", "solo"], bouncer_port, None)
    assert refused.returncode == 78  # EX_CONFIG: scripts/worker does not restart it
    assert "CHRONICLE_DB_POOLER is not set" in refused.stdout + refused.stderr


def _settings_with(pooler: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "d = s.DATABASES['default']; print(json.dumps([d['OPTIONS'], d['DISABLE_SERVER_SIDE_CURSORS']]))"
    )
    env = {**os.environ, "DATABASE_URL": "postgres://u@127.0.0.1:6432/db", "CHRONICLE_DB_POOLER": pooler,
           "DJANGO_SETTINGS_MODULE": "config.settings"}  # fmt: skip
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)


def test_pooler_mode_turns_off_prepared_statements_and_server_side_cursors() -> None:
    run = _settings_with("transaction")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [{"prepare_threshold": None}, True]
    session = _settings_with("session")  # a session pooler keeps a server connection per client: all kept
    assert session.returncode == 0 and json.loads(session.stdout) == [{}, False]
    bad = _settings_with("statement")
    assert bad.returncode != 0 and "CHRONICLE_DB_POOLER must be 'transaction', 'session' or empty" in bad.stderr


def test_the_production_web_tier_behind_an_undeclared_pooler_stops_and_names_the_setting(bouncer_port) -> None:
    """``scripts/serve`` (granian, as deployed) exits instead of serving on crossed statements: before it binds
    the port, with status 78 (EX_CONFIG), which the systemd unit does not restart (issue 42: it exited 1 after
    granian's "worker crash loop", and ``Restart=on-failure`` reopened the port each time)."""
    if connection.vendor != "postgresql":
        pytest.skip("PgBouncer is PostgreSQL's")
    serve = Path(__file__).resolve().parents[2] / "scripts" / "serve"
    name = connection.settings_dict["NAME"]
    env = {**os.environ, "DATABASE_URL": f"postgres://postgres@127.0.0.1:{bouncer_port}/{name}",
           "DJANGO_SECRET_KEY": "k" * 50, "DJANGO_DEBUG": "0", "HOST": "127.0.0.1", "PORT": str(free_port()),
           "WEB_CONCURRENCY": "1"}  # fmt: skip
    env.pop("CHRONICLE_DB_POOLER", None)
    run = subprocess.run([str(serve)], env=env, capture_output=True, text=True, timeout=90)
    assert run.returncode == 78, run.stdout + run.stderr
    assert "granian" not in (run.stdout + run.stderr).lower(), "refused before the server started (and bound)"
    assert "CHRONICLE_DB_POOLER is not set" in run.stdout + run.stderr
