"""Smoke run of ``manage.py bench store --quick``: every figure is printed, nothing is left behind.

The command benchmarks in a scratch database of its own (created, migrated, dropped); afterwards the
default connection must point at the test database again.
"""

from __future__ import annotations

import io
import os

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True), pytest.mark.postgres]

LABELS = [
    "raw INSERT+COMMIT (1 writer)",
    "service append (1 writer)",
    "eventsourcing append (1 writer)",
    "raw INSERT+COMMIT (8 writers)",
    "service append (8 writers)",
    "state read at=latest",
    "state read at=50",
    "state read at=500",
    "projection rebuild (1,000 events)",
    "projection rebuild (10,000 events)",
    "rebuild peak memory ratio",
    "projector run, 16 events",
    "projector run, 48 events",
    "projector run, 200 events",
    "service append 1 writer ≥ 50% of raw insert rate",
    "service append 1 writer ≥ 2× eventsourcing",
    "current-state read of a 10k stream < 5 ms",
]


def test_bench_store_quick_prints_every_figure_and_restores_the_database(owner):
    if connection.vendor != "postgresql":
        pytest.skip("bench store measures PostgreSQL (on SQLite it re-runs itself against a local server)")
    test_db = connection.settings_dict["NAME"]
    out = io.StringIO()

    call_command("bench", "store", "--quick", "--seconds", "1", stdout=out)

    text = out.getvalue()
    missing = [label for label in LABELS if label not in text]
    assert not missing, text
    assert any(word in text for word in ("PASS", "FAIL"))
    # back on the test database, with this test's own data
    assert connection.settings_dict["NAME"] == test_db
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.filter(pk=owner.pk).exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        assert cursor.fetchone()[0] == test_db
    # the scratch database is gone
    params = connection.get_connection_params()
    conninfo = {k: params[k] for k in ("host", "port", "user", "password") if params.get(k)}
    with psycopg.connect(dbname="postgres", autocommit=True, **conninfo) as admin:
        left = admin.execute(
            "SELECT count(*) FROM pg_database WHERE datname = %s", [f"chronicle_bench_{os.getpid()}"]
        ).fetchone()[0]
    assert left == 0
