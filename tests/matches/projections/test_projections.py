"""The match summary projection: kept from the global log, idempotent, rebuilt identically."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import MatchSummary, PlayedMatch, ProjectionCheckpoint
from matches.projections.play_stats import apply_play_stats
from matches.projections.projectors import MATCH_SUMMARY, _apply_match_summary, project
from matches.services import match_create, match_event_record, match_event_void
from matches.store import events as store

# committed transactions: on PostgreSQL the log reader only trusts committed, settled transactions
pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]


def play(match, owner, moves):
    for seat, count in moves:
        match_event_record(match=match, user=owner, type="stones_taken", seat=seat, data={"count": count})


def summary_rows():
    fields = ["match_id", "version", "status", "winners", "draw", "reason", "scores", "events_count", "voided_count",
              "last_activity"]  # fmt: skip
    return sorted(MatchSummary.objects.values_list(*fields))


@pytest.fixture
def some_matches(owner):
    a = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 4})
    b = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "C"}], options={"stones": 9})
    c = match_create(owner=owner, game="last-stone", seats=[{"name": "B"}, {"name": "C"}], options={"stones": 5})
    play(a, owner, [(0, 3), (1, 1)])  # seat 1 takes the last stone
    play(b, owner, [(0, 2), (1, 2)])
    match_event_void(match=b, user=owner, version=2, reason="miscount")
    play(c, owner, [(0, 1)])
    return a, b, c


def test_summary_follows_the_log(some_matches):
    a, b, _ = some_matches
    project(MATCH_SUMMARY)  # (on the embedded default, commits already woke it eagerly)
    a.summary.refresh_from_db()
    b.summary.refresh_from_db()
    assert (a.summary.status, a.summary.winners, a.summary.events_count) == ("finished", [1], 2)
    assert a.summary.reason == "took the last stone"
    assert (b.summary.status, b.summary.events_count, b.summary.voided_count) == ("in_progress", 3, 1)
    assert b.summary.last_activity is not None


def test_redelivered_run_changes_nothing(some_matches):
    project(MATCH_SUMMARY)
    before = summary_rows()
    assert project(MATCH_SUMMARY) == 0
    # a redelivered task that lost its checkpoint write replays events already applied
    ProjectionCheckpoint.objects.filter(name=MATCH_SUMMARY).update(txid=0, position=0)
    assert project(MATCH_SUMMARY) == 6
    assert summary_rows() == before


def test_rebuild_yields_the_same_tables(some_matches, owner):
    project(MATCH_SUMMARY)
    before = summary_rows()
    out, err = io.StringIO(), io.StringIO()
    call_command("rebuild_projections", "--batch", "2", stdout=out, stderr=err)
    assert "6 events replayed" in out.getvalue()
    assert "ev" in err.getvalue()  # the progress bar
    assert summary_rows() == before


def test_projection_in_small_batches_equals_one_batch(some_matches):
    project(MATCH_SUMMARY, batch=1)
    small = summary_rows()
    call_command("rebuild_projections", "--no-progress", stdout=io.StringIO())
    assert summary_rows() == small


def test_moves_of_matches_in_progress_cost_no_reads_per_match(owner):
    """A batch of moves in matches still in progress: the summary and play-stats projectors read no seats,
    players or logs (those serve results), only the touched matches, a fixed number of queries."""
    matches = [
        match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 20})
        for _ in range(5)
    ]
    for m in matches:
        play(m, owner, [(0, 1), (1, 1), (0, 1)])
    entries = store.log_read(after_txid=0, after_position=0, limit=1000)
    for apply, most in ((_apply_match_summary, 2), (apply_play_stats, 2)):
        with CaptureQueriesContext(connection) as queries:
            apply(entries)
        sql = " ".join(q["sql"] for q in queries.captured_queries).lower()
        assert len(queries.captured_queries) <= most, sql
        assert "matches_seat" not in sql and "matches_player" not in sql and "matches_event" not in sql, sql


def test_the_projectors_share_each_read_and_a_failing_one_rolls_back_alone(some_matches, monkeypatch):
    """One pass feeds every read model from one read of the log; a read model that fails keeps its checkpoint
    (its error is raised) while the others commit theirs, and it catches up on the next run."""
    from matches.projections import projectors as projections
    from matches.projections.play_stats import PLAY_STATS
    from matches.projections.tasks import project_all

    a, _, _ = some_matches
    ProjectionCheckpoint.objects.all().delete()
    MatchSummary.objects.update(version=0, events_count=0, status="in_progress")
    reads = []
    real_read = store.log_read
    monkeypatch.setattr(store, "log_read", lambda **kw: reads.append(kw) or real_read(**kw))

    def broken(entries):
        raise RuntimeError("a bug in the statistics")

    monkeypatch.setitem(projections.PROJECTORS, PLAY_STATS, broken)
    with pytest.raises(RuntimeError, match="a bug in the statistics"):
        project_all()
    assert len(reads) == 1  # one read of the log for every read model
    marks = dict(ProjectionCheckpoint.objects.values_list("name", "position"))
    assert PLAY_STATS not in marks and marks[MATCH_SUMMARY] == marks["campaign_stats"] > 0
    a.summary.refresh_from_db()
    assert (a.summary.status, a.summary.events_count) == ("finished", 2)

    # far behind (more than a batch), the failing read model does not hold the others back either
    end = marks[MATCH_SUMMARY]
    ProjectionCheckpoint.objects.all().delete()
    with pytest.raises(RuntimeError, match="a bug in the statistics"):
        projections._project(tuple(projections.PROJECTORS), batch=2, on_batch=None, ahead=False)
    marks = dict(ProjectionCheckpoint.objects.values_list("name", "position"))
    assert PLAY_STATS not in marks and marks[MATCH_SUMMARY] == marks["campaign_stats"] == end
    monkeypatch.setitem(projections.PROJECTORS, PLAY_STATS, apply_play_stats)
    assert project_all() == 6  # the summary's entries again (ignored by its version guard), stats caught up
    marks = dict(ProjectionCheckpoint.objects.values_list("name", "position"))
    assert marks[PLAY_STATS] == marks[MATCH_SUMMARY]
    assert PlayedMatch.objects.filter(match=a).count() == 1


def test_a_projector_batch_runs_with_the_collector_paused_and_restores_it(some_matches, monkeypatch):
    """The cyclic collector is off while a batch is applied (``gcpause``: a third of the projectors' CPU on an
    import) and on again after it, also after a read model failed; the read models come out the same."""
    import gc

    from matches.projections import projectors as projections

    project(MATCH_SUMMARY)
    before = summary_rows()
    ProjectionCheckpoint.objects.all().delete()
    MatchSummary.objects.update(version=0, events_count=0, voided_count=0, status="in_progress")
    seen = []
    real = projections.PROJECTORS[MATCH_SUMMARY]
    monkeypatch.setitem(
        projections.PROJECTORS, MATCH_SUMMARY, lambda entries: seen.append(gc.isenabled()) or real(entries)
    )
    assert gc.isenabled()
    projections._project((MATCH_SUMMARY,), batch=2, on_batch=None, ahead=False)
    assert seen and not any(seen) and gc.isenabled()
    assert summary_rows() == before

    def broken(entries):
        raise RuntimeError("a bug in the summary")

    ProjectionCheckpoint.objects.all().delete()
    monkeypatch.setitem(projections.PROJECTORS, MATCH_SUMMARY, broken)
    with pytest.raises(RuntimeError, match="a bug in the summary"):
        project(MATCH_SUMMARY)
    assert gc.isenabled()
