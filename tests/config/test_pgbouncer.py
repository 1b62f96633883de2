"""Appends through a real PgBouncer in transaction pooling mode work with ``CHRONICLE_DB_POOLER=transaction``
(issue 21 item 4: every append answered 500, ``prepared statement "_pg3_0" does not exist``). The test starts
Debian's PgBouncer itself (``scripts/pgbouncer-transaction``): it is never skipped on PostgreSQL."""

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


def test_without_pooler_mode_pgbouncer_loses_the_prepared_statements(
    settings, through_bouncer, owner, stone_match, caplog
) -> None:
    """Why the setting exists: with server-side prepared statements an append fails behind PgBouncer."""
    settings.CHRONICLE_DB_POOLER = ""
    codes = _two_appends_while_a_server_connection_is_busy(owner, stone_match, through_bouncer)
    assert 500 in codes
    assert any("prepared statement" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)


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
    bad = _settings_with("session")
    assert bad.returncode != 0 and "CHRONICLE_DB_POOLER must be 'transaction' or empty" in bad.stderr
