"""The append's hot path: with the head cached, recording a move is one statement on PostgreSQL."""

import pytest
from django.db import connection

from matches import store
from rulesets import Event

pytestmark = pytest.mark.django_db


def test_warm_append_is_one_statement_on_postgresql(stone_match, django_capture_on_commit_callbacks, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # measure the store, not the projector wake-up
    with django_capture_on_commit_callbacks(execute=True):
        store.append(stream_id=stone_match.stream_id, event=Event("stones_taken", 0, {"count": 1}))
    assert store.head_cache.get(stone_match.stream_id).version == 1
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        result = store.append(stream_id=stone_match.stream_id, event=Event("stones_taken", 1, {"count": 1}))
    assert result.version == 2
    if connection.vendor == "postgresql":
        # the prepared CTE runs on the raw connection, so Django's log shows no query at all
        assert len(queries) == 0, [q["sql"] for q in queries]
    else:
        assert len(queries) <= 4, [q["sql"] for q in queries]  # SAVEPOINT, UPDATE head, INSERT event, RELEASE
