"""The append's hot path: with the head cached, recording a move is one statement on PostgreSQL."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import store
from rulesets import Event

# autocommit, as in production: no surrounding test transaction (and so no savepoints)
pytestmark = pytest.mark.django_db(transaction=True)


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
