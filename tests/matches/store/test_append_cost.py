"""The append's hot path: with the head cached, recording a move is one statement on PostgreSQL."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.store import events as store
from rulesets import Event

# autocommit, as in production: no surrounding test transaction (and so no savepoints)
pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]


def test_warm_append_costs_no_extra_query(stone_match, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # measure the store, not the projector wake-up
    store.append(stream_id=stone_match.stream_id, event=Event("stones_taken", 0, {"count": 1}))
    assert store.head_cache.get(stone_match.stream_id).version == 1  # cached after commit
    with CaptureQueriesContext(connection) as queries:
        result = store.append(stream_id=stone_match.stream_id, event=Event("stones_taken", 1, {"count": 1}))
    assert result.version == 2 and stone_match.stream.events.count() == 2
    logged = [q["sql"] for q in queries]
    if connection.vendor == "postgresql":
        # the one prepared statement runs on the raw connection, outside Django's log: no other query ran
        assert logged == []
    else:
        statements = [q for q in logged if q not in ("BEGIN IMMEDIATE", "COMMIT")]
        assert len(statements) == 2, logged  # UPDATE the head, INSERT the event, in one transaction


def test_state_read_takes_the_stored_head_without_rebuilding_it(stone_match, client, settings):
    """``GET …/state/`` reads the head with the match (one query) and uses it as stored: the row is mapped
    column by column (a shifted mapping once made every read replay the stream and rewrite its head)."""
    from matches import selectors
    from rulesets import get_ruleset

    settings.CELERY_TASK_ALWAYS_EAGER = False
    for seat in (0, 1, 0):
        store.append(stream_id=stone_match.stream_id, event=Event("stones_taken", seat, {"count": 1}))
    stone_match.stream.refresh_from_db()
    match = selectors._match_brief(stone_match.pk, with_state=True)
    assert match.stream.ruleset_version == get_ruleset("last-stone").version
    assert (match.stream.version, match.stream.state) == (3, stone_match.stream.state)
    assert (match.stream.options, match.stream.override_pending) == (stone_match.stream.options, False)
    store.head_cache.clear()
    with CaptureQueriesContext(connection) as queries:
        r = client.get(f"/api/matches/{stone_match.pk}/state/")
    assert r.status_code == 200 and r.json()["state"]["pile"] == stone_match.stream.state["pile"]
    sql = " ".join(q["sql"] for q in queries).lower()
    assert "update" not in sql and "matches_event" not in sql  # no replay, no head rewrite
