"""The first append after PostgreSQL closed a persistent connection succeeds: the hot path's prepared
statements (``config.db``) pass Django's connection health check as the ORM's cursors do (issue 21 item 3:
the first append on each web thread after a PostgreSQL restart answered 503)."""

from __future__ import annotations

import json
import time

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token

from matches.models import Event as EventRow
from tests.config.wsgi_call import append_call

pytestmark = [pytest.mark.one_db, pytest.mark.django_db(transaction=True)]


def _terminate(pid: int) -> None:
    """Kill backend ``pid`` from another connection and wait until it is gone (its socket closed)."""
    other = connection.get_new_connection(connection.get_connection_params())
    try:
        other.autocommit = True
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
        deadline = time.monotonic() + 10
        while other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
            assert time.monotonic() < deadline, "the backend outlived pg_terminate_backend"
            time.sleep(0.01)
    finally:
        other.close()


def test_an_append_after_the_backend_was_terminated_succeeds(owner, stone_match) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's own connections")
    token = Token.objects.create(user=owner).key
    move = {"type": "stones_taken", "seat": 0, "data": {"count": 1}}
    status, _, body = append_call(token, stone_match.pk, move)
    assert status == 201, body
    with connection.cursor() as cursor:  # the persistent connection the next request would reuse
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    _terminate(pid)
    status, _, body = append_call(token, stone_match.pk, {**move, "seat": 1})
    assert status == 201, body
    assert json.loads(body)["version"] == 2
    assert EventRow.objects.filter(stream_id=stone_match.stream_id).count() == 2
