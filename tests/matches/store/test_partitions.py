"""The event table hash-partitioned by stream (issue 31 item 6, ``matches/store/partitions.py``): an existing
database converted with its rows, and every promise of the store kept on the partitioned table (the store's
own tests run again on it). PostgreSQL's: on SQLite the command refuses and nothing changes."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from matches.models import Event as EventRow
from matches.services import match_create, match_event_record
from matches.store import events as store
from matches.store.partitions import events_partition, events_partitioning, events_unpartition
from tests.matches.store import test_store

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

postgres_only = pytest.mark.skipif("connection.vendor != 'postgresql'", reason="declarative partitioning")


def _take(match, owner, seat, count, **kw):
    return match_event_record(match=match, user=owner, type="stones_taken", seat=seat, data={"count": count}, **kw)


@postgres_only
@pytest.mark.django_db(transaction=True)  # the rows committed before, as in a database in use; one table after
def test_an_existing_table_is_partitioned_with_its_rows_and_positions_go_on(owner, request):
    request.addfinalizer(events_unpartition)  # one table again for the tests after, whatever happens here
    matches = [
        match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 30})
        for _ in range(5)
    ]
    for n in range(20):
        _take(matches[n % 5], owner, (n // 5) % 2, 1)
    before = list(EventRow.objects.order_by("position").values_list("position", "stream_id", "version", "data"))
    log_before = store.log_read(after_txid=0, after_position=0)
    assert events_partitioning().partitioned is False

    after = events_partition(partitions=4)

    assert after.partitioned and after.partitions == 4
    assert list(EventRow.objects.order_by("position").values_list("position", "stream_id", "version", "data")) == before
    assert store.log_read(after_txid=0, after_position=0) == log_before
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(DISTINCT tableoid) FROM matches_event")
        assert cursor.fetchone()[0] > 1  # the rows are spread over the partitions
    new = _take(matches[0], owner, 0, 1)
    assert new.position > before[-1][0] and new.version == 5  # the identity sequence goes on from the last
    assert events_partition(partitions=8) == after  # once partitioned, nothing more happens
    back = events_unpartition()  # and the way back keeps every row too
    assert back.partitioned is False
    assert EventRow.objects.count() == len(before) + 1 and _take(matches[1], owner, 0, 1).version == 5


@postgres_only
@pytest.mark.parametrize(
    "promise",
    [
        test_store.test_versions_count_one_to_n_and_positions_grow,
        test_store.test_stale_expected_version_conflicts_and_writes_nothing,
        test_store.test_idempotency_key_writes_once_and_returns_the_first_result,
        test_store.test_illegal_move_is_refused_with_its_rule_and_writes_nothing,
        test_store.test_orm_cannot_update_or_delete_events,
        test_store.test_metadata_is_recorded,
        test_store.test_void_hides_an_entry_and_keeps_both_in_the_log,
        test_store.test_rule_override_lets_the_next_move_through_once,
    ],
    ids=lambda f: f.__name__.removeprefix("test_"),
)
def test_the_store_keeps_its_promises_on_the_partitioned_table(promise, stone_match, owner):
    events_partition(partitions=4)
    promise(stone_match, owner)


@postgres_only
@pytest.mark.parametrize("sql", ["UPDATE matches_event SET type = 'x'", "DELETE FROM matches_event"])
def test_raw_update_and_delete_still_fail_on_every_partition(stone_match, owner, sql):
    events_partition(partitions=4)
    test_store.test_raw_sql_update_and_delete_fail_on_postgresql(stone_match, owner, sql)


@postgres_only
def test_a_second_entry_at_a_version_is_still_refused_by_the_database(stone_match, owner):
    from django.db import IntegrityError, transaction

    _take(stone_match, owner, 0, 1)
    events_partition(partitions=4)
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO matches_event (stream_id, version, type, data, request_id, recorded_at) "
            "VALUES (%s, 1, 'stones_taken', '{}', '', now())",
            [stone_match.stream_id],
        )


def test_the_command_partitions_says_so_and_refuses_what_it_cannot(capsys):
    if connection.vendor != "postgresql":
        with pytest.raises(CommandError, match="PostgreSQL"):
            call_command("events_partition")
        assert events_partitioning().partitioned is False
        return
    with pytest.raises(CommandError, match="at least 2 partitions"):
        call_command("events_partition", "--partitions", "1")
    call_command("events_partition", "--check")
    assert "not partitioned" in capsys.readouterr().out
    call_command("events_partition", "--partitions", "3")
    assert "hash-partitioned by stream into 3 partitions" in capsys.readouterr().out
    call_command("events_partition")
    assert "partitioned already (into 3)" in capsys.readouterr().out
    call_command("events_partition", "--undo")
    assert "one table" in capsys.readouterr().out and events_partitioning().partitioned is False


@pytest.fixture
def committed_partitions():
    """The table partitioned for real (committed, as in production), one table again after the test."""
    events_partition(partitions=4)
    yield
    events_unpartition()
    assert events_partitioning().partitioned is False


@postgres_only
@pytest.mark.django_db(transaction=True)  # the log reader sees committed transactions only
def test_the_projectors_read_the_global_log_across_the_partitions(committed_partitions, owner):
    from matches.models import MatchSummary
    from matches.projections.tasks import project_all

    events_partition(partitions=4)
    matches = [
        match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 9})
        for _ in range(6)
    ]
    for n in range(18):
        _take(matches[n % 6], owner, (n // 6) % 2, 1)
    project_all()
    assert {s.match_id: s.version for s in MatchSummary.objects.filter(match__in=matches)} == {m.pk: 3 for m in matches}
