"""Migration 0017: a database written by an older release keeps each stream's recorded rules version (the
version of the ruleset that produced its head is copied into ``rules_version``), on both databases."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]

BEFORE = [("matches", "0016_event_photos_idx")]
AFTER = [("matches", "0017_stream_rules_version")]


def test_the_recorded_version_is_copied_from_the_heads_version():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps.get_model("matches", "Stream")
        ids = [
            old.objects.create(kind="match", game=game, state={}, ruleset_version=version).pk
            for game, version in (("bone-wars", 1), ("the-first-spine", 2), ("last-stone", 1))
        ]
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps.get_model("matches", "Stream")
        got = dict(new.objects.filter(pk__in=ids).values_list("game", "rules_version"))
        assert got == {"bone-wars": 1, "the-first-spine": 2, "last-stone": 1}
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
