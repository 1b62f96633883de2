"""Concurrent writers on PostgreSQL: one winner per version, no gap, no duplicate; late commits not skipped."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection, transaction

from matches.errors import VersionConflict
from matches.models import Event as EventRow
from matches.projections.projectors import MATCH_SUMMARY, project
from matches.services import match_create, match_event_record
from matches.store import events as store
from rulesets.replay import RULE_OVERRIDDEN
from tests.matches.racing import run_threads

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("concurrency of separate connections is PostgreSQL's behaviour (SQLite writes are serial)")


def test_eight_writers_same_expected_version_exactly_one_wins(owner):
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 500})

    def write(i):
        return match_event_record(
            match=match, user=owner, type="stones_taken", seat=0, data={"count": 1}, expected_version=0
        ).version

    outcomes = run_threads(8, write)
    wins = [o for o in outcomes if o[0] == "ok"]
    conflicts = [o for o in outcomes if o[0] == "error" and isinstance(o[1], VersionConflict)]
    assert len(wins) == 1 and wins[0][1] == 1
    assert len(conflicts) == 7, outcomes
    assert all(c[1].current_version == 1 for c in conflicts)
    assert list(EventRow.objects.filter(stream=match.stream).values_list("version", flat=True)) == [1]


def test_eight_writers_without_expected_version_make_versions_one_to_n(owner):
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 900})

    def write(i):
        done = []
        for _ in range(10):
            # seat order would make most of these illegal; overriding keeps the test about the store
            with transaction.atomic():
                match_event_record(match=match, user=owner, type=RULE_OVERRIDDEN, data={"reason": f"w{i}"})
                done.append(
                    match_event_record(
                        match=match, user=owner, type="stones_taken", seat=i % 2, data={"count": 1}
                    ).version
                )
        return done

    outcomes = run_threads(8, write)
    assert all(o[0] == "ok" for o in outcomes), outcomes
    versions = list(EventRow.objects.filter(stream=match.stream).order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, 161))
    head = store.head_load(match.stream_id, fresh=True)
    assert head.version == 160 and head.state["pile"] == 900 - 80


def _raw_connection():
    s = connection.settings_dict
    return psycopg.connect(
        host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, user=s["USER"], password=s["PASSWORD"] or None,
        dbname=s["NAME"], autocommit=False,
    )  # fmt: skip


def _raw_append(conn, stream_id: int, version: int) -> int:
    params = {
        "stream_id": stream_id, "expected": version - 1, "new_version": version, "state": '{"pile": 1, "turn": 0, "winner": null}',
        "override": False, "ruleset_version": 1, "type": "stones_taken", "seat": 0, "data": '{"count": 1}',
        "recorded_by": None, "client_time": None, "request_id": "", "key": None, "fingerprint": "",
    }  # fmt: skip
    row = conn.execute(store._PG_APPEND, params).fetchone()
    return row[0]


def test_projector_does_not_skip_an_event_whose_transaction_commits_late(owner):
    a = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}])
    b = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}])
    project(MATCH_SUMMARY)
    slow, fast = _raw_connection(), _raw_connection()
    try:
        slow_position = _raw_append(slow, a.stream_id, 1)  # takes the earlier position, stays open
        fast_position = _raw_append(fast, b.stream_id, 1)
        fast.commit()
        assert slow_position < fast_position
        project(MATCH_SUMMARY)
        a.summary.refresh_from_db()
        assert a.summary.events_count == 0  # not committed yet: invisible
        slow.commit()
        project(MATCH_SUMMARY)
        a.summary.refresh_from_db()
        b.summary.refresh_from_db()
        assert a.summary.events_count == 1, "the late commit was skipped"
        assert b.summary.events_count == 1
    finally:
        slow.close()
        fast.close()


def test_log_reader_holds_back_events_behind_an_open_transaction(owner):
    a = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}])
    b = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}])
    slow = _raw_connection()
    fast = _raw_connection()
    try:
        # the slow writer starts first (lower transaction id) and takes a position, then waits
        _raw_append(slow, a.stream_id, 1)
        _raw_append(fast, b.stream_id, 1)
        fast.commit()
        seen = store.log_read(after_txid=0, after_position=0)
        assert [e.stream_id for e in seen] == []  # b's txid is above the slow transaction's: held back
        slow.commit()
        seen = store.log_read(after_txid=0, after_position=0)
        assert [e.stream_id for e in seen] == [a.stream_id, b.stream_id]
    finally:
        slow.close()
        fast.close()


def _other_database_transaction():
    """A transaction in another database of the same server that holds a transaction id, left open."""
    s = connection.settings_dict
    conn = psycopg.connect(
        host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, user=s["USER"], password=s["PASSWORD"] or None,
        dbname="postgres", autocommit=False,
    )  # fmt: skip
    xid = conn.execute("SELECT pg_current_xact_id()::text::bigint").fetchone()[0]  # assigns an xid, stays open
    return conn, xid


def test_a_long_transaction_in_another_database_does_not_hold_the_projector_back(owner):
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}])
    elsewhere, xid = _other_database_transaction()
    try:
        with connection.cursor() as cursor:  # it really is older than every event that follows, cluster-wide
            cursor.execute("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint")
            assert cursor.fetchone()[0] <= xid
        for seat in (0, 1, 0):
            match_event_record(match=match, user=owner, type="stones_taken", seat=seat, data={"count": 1})
        assert store.log_settled()
        assert project(MATCH_SUMMARY) >= 3
        match.summary.refresh_from_db()
        assert match.summary.events_count == 3
    finally:
        elsewhere.close()


def test_overlapping_writers_stay_ordered_while_another_database_holds_a_transaction(owner):
    """The horizon leaves out the other database's transaction but still waits for this database's own."""
    a = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}])
    b = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}])
    elsewhere, _ = _other_database_transaction()
    slow, fast = _raw_connection(), _raw_connection()
    try:
        _raw_append(slow, a.stream_id, 1)
        _raw_append(fast, b.stream_id, 1)
        fast.commit()
        assert store.log_read(after_txid=0, after_position=0) == []  # the slow one, here, still holds it back
        assert not store.log_settled()
        project(MATCH_SUMMARY)
        slow.commit()
        seen = store.log_read(after_txid=0, after_position=0)
        assert [e.stream_id for e in seen] == [a.stream_id, b.stream_id]
        project(MATCH_SUMMARY)
        for m in (a, b):
            m.summary.refresh_from_db()
            assert m.summary.events_count == 1, "a late commit was skipped"
    finally:
        slow.close()
        fast.close()
        elsewhere.close()
