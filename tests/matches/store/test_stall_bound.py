"""A long transaction in the application's own database stalls read models for at most the bound
(``CHRONICLE_PROJECTOR_STALL_BOUND``), and no event is skipped or counted twice (PostgreSQL)."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection

from matches.models import MatchSummary, PlayedMatch, PlayerResult
from matches.projections import tasks
from matches.projections.play_stats import PLAY_STATS
from matches.projections.projectors import MATCH_SUMMARY, PROJECTORS, project, project_with_read_ahead
from matches.projections.rollups import rollup_drift, rollup_table
from matches.services import match_create, match_event_record, match_event_void
from matches.store import events as store

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True), pytest.mark.postgres]

BOUND = 0.4


@pytest.fixture(autouse=True)
def _postgres_only(settings):
    if connection.vendor != "postgresql":
        pytest.skip("transaction-id horizons are PostgreSQL's (SQLite writers are serial: nothing is held back)")
    settings.CHRONICLE_PROJECTOR_STALL_BOUND = BOUND
    settings.CELERY_TASK_ALWAYS_EAGER = False  # the test runs the projectors itself


@pytest.fixture
def no_wake(monkeypatch):
    monkeypatch.setattr("matches.projections.tasks.wake_projector", lambda: None)


def _slow_writer_with_an_event(stream_id: int) -> psycopg.Connection:
    """A transaction in this database that appends version 1 of ``stream_id`` and stays open."""
    s = connection.settings_dict
    conn = psycopg.connect(
        host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, user=s["USER"], password=s["PASSWORD"] or None,
        dbname=s["NAME"], autocommit=False,
    )  # fmt: skip
    params = {
        "stream_id": stream_id, "expected": 0, "new_version": 1, "state": '{"pile": 9, "turn": 1, "winner": null}',
        "override": False, "ruleset_version": 1, "type": "stones_taken", "seat": 0, "data": '{"count": 1}',
        "recorded_by": None, "client_time": None, "request_id": "", "key": None, "fingerprint": "",
    }  # fmt: skip
    conn.execute(store._PG_APPEND, params)
    return conn


def _run_all() -> list[float]:
    """Both projectors with the read-ahead, as the Celery task runs them; the follow-up delays they ask for."""
    return [due for name in PROJECTORS for _, due in [project_with_read_ahead(name)] if due is not None]


def _summary(match) -> tuple[int, int, int, str]:
    s = MatchSummary.objects.get(match=match)
    return s.version, s.events_count, s.voided_count, s.status


def test_late_event_after_a_long_transaction_is_projected_exactly_once(owner, no_wake):
    slow_match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}])
    busy = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 5})
    _run_all()
    slow = _slow_writer_with_an_event(slow_match.stream_id)  # holds the horizon; its event commits late
    try:
        match_event_record(match=busy, user=owner, type="stones_taken", seat=0, data={"count": 1})  # v1: 4 left
        match_event_record(match=busy, user=owner, type="stones_taken", seat=1, data={"count": 1})  # v2: 3 left
        match_event_void(match=busy, user=owner, version=2, reason="miscount")  # v3: back to 4, Bo again
        assert store.log_read(after_txid=0, after_position=0) == []  # the global reader is held back
        due = _run_all()
        assert due and all(0 < d <= BOUND for d in due)  # not yet due: a run is asked for when they are
        assert _summary(busy)[:2] == (0, 0)

        time.sleep(BOUND + 0.1)
        assert _run_all() == []  # everything held back is due now, and was projected per stream
        assert _summary(busy) == (3, 3, 1, "in_progress")
        assert _summary(slow_match)[:2] == (0, 0)  # its event is not committed: invisible

        match_event_record(match=busy, user=owner, type="stones_taken", seat=1, data={"count": 1})  # v4: 3 left
        match_event_record(match=busy, user=owner, type="stones_taken", seat=0, data={"count": 3})  # v5: Ana wins
        time.sleep(BOUND + 0.1)
        _run_all()
        assert _summary(busy) == (5, 5, 1, "finished")
        assert PlayedMatch.objects.filter(match=busy).count() == 1
        assert PlayerResult.objects.filter(match=busy).count() == 2

        slow.commit()  # the long transaction ends: its event (lower position than all of busy's) is now visible
        assert project(MATCH_SUMMARY) == 6 and project(PLAY_STATS) == 6  # the global reader delivers everything
        assert _summary(slow_match)[:2] == (1, 1), "the late event was skipped"
        assert _summary(busy) == (5, 5, 1, "finished")  # redelivered entries counted nothing twice
        assert PlayedMatch.objects.filter(match=busy).count() == 1
        assert PlayerResult.objects.filter(match=busy, won=True).count() == 1
        assert rollup_drift() == {} and sum(row[0] for row in rollup_table().values()) > 0  # roll-ups not doubled
        assert store.log_settled() and _run_all() == [] and project(MATCH_SUMMARY) == 0
    finally:
        slow.close()


def test_a_transaction_that_wrote_nothing_still_holds_the_reader_but_not_the_read_models(owner, no_wake):
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}])
    s = connection.settings_dict
    idle = psycopg.connect(
        host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, user=s["USER"], password=s["PASSWORD"] or None,
        dbname=s["NAME"], autocommit=False,
    )  # fmt: skip
    try:
        idle.execute("SELECT pg_current_xact_id()")  # an xid in this database, e.g. a script left idle
        match_event_record(match=match, user=owner, type="stones_taken", seat=0, data={"count": 1})
        assert not store.log_settled()
        _run_all()
        assert _summary(match)[:2] == (0, 0)
        time.sleep(BOUND + 0.1)
        _run_all()
        assert _summary(match)[:2] == (1, 1)
        idle.rollback()  # ends it now (closing alone ends it on the server a moment later)
    finally:
        idle.close()
    assert project(MATCH_SUMMARY) == 1 and _summary(match)[:2] == (1, 1)


def test_the_task_schedules_one_run_for_when_held_back_events_are_due(owner, no_wake, monkeypatch):
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}])
    scheduled: list[float] = []
    monkeypatch.setattr(tasks.project_all, "apply_async", lambda countdown: scheduled.append(countdown))
    monkeypatch.setattr("config.throttling.redis_client", lambda: None)  # every worker claims: no Redis here
    slow = _slow_writer_with_an_event(match.stream_id)
    other = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}])
    try:
        match_event_record(match=other, user=owner, type="stones_taken", seat=0, data={"count": 1})
        tasks.project_all()
        assert len(scheduled) == 1 and 0 < scheduled[0] <= BOUND + 0.05
        time.sleep(scheduled[0])
        tasks.project_all()  # the scheduled run: everything held back is due and projected; nothing more to ask
        assert len(scheduled) == 1
        assert _summary(other)[:2] == (1, 1)
        slow.rollback()
    finally:
        slow.close()
    tasks.project_all()
    assert len(scheduled) == 1 and _summary(match)[:2] == (0, 0)  # the slow writer rolled back: nothing to show
