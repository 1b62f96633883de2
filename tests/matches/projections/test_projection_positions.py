"""The summary projector behind busy writers: it folds a batch's entries onto the position it projected last
instead of replaying the stream from its snapshot, and falls back to the replay whenever that could be wrong."""

from __future__ import annotations

import pytest

from matches.models import MatchSummary
from matches.projections import projectors as projections
from matches.projections.projectors import MATCH_SUMMARY, project, projection_reset
from matches.services import match_create, match_event_record, match_event_void
from matches.store import events as store
from matches.store import heads  # where a position is folded (position_of_row calls position_at there)
from rulesets import get_ruleset
from rulesets.replay import outcome_of

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]


def _truth(match, version):
    outcome = outcome_of(get_ruleset(match.game), store.position_at(match.stream_id, version).state)
    return (version, "finished" if outcome else "in_progress", list(outcome.winners) if outcome else [])


def test_batches_behind_the_writers_give_the_summaries_a_replay_gives(owner, monkeypatch):
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 4})
    match_event_record(match=match, user=owner, type="stones_taken", seat=0, data={"count": 3})  # v1
    match_event_record(match=match, user=owner, type="stones_taken", seat=1, data={"count": 1})  # v2: B wins
    match_event_void(match=match, user=owner, version=2, reason="miscount")  # v3: the game is open again
    match_event_record(match=match, user=owner, type="stones_taken", seat=1, data={"count": 1})  # v4: B wins
    projection_reset(MATCH_SUMMARY)  # project it again from the start, one entry per batch
    projections._positions.clear()
    replays: list[int] = []
    real = store.position_at
    monkeypatch.setattr(heads, "position_at", lambda sid, v, **kw: replays.append(v) or real(sid, v, **kw))
    seen = []

    def check(_: int) -> None:  # after each one-entry batch, the stream's head is ahead of it (until v4)
        summary = MatchSummary.objects.get(match=match)
        seen.append((summary.version, summary.status, summary.winners))

    project(MATCH_SUMMARY, batch=1, on_batch=check)
    monkeypatch.undo()
    assert seen == [_truth(match, v) for v in (1, 2, 3, 4)]
    # v1: nothing known yet (replayed); v2 folded onto v1 (no replay); v3 holds a void (replayed);
    # v4: the head itself
    assert replays == [1, 3]


def test_a_position_from_another_run_with_a_gap_is_not_folded(owner, monkeypatch):
    """This process last projected the stream at v1; another process projected v2..v3 since: v4 is replayed."""
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 9})
    for seat in (0, 1, 0, 1, 0):
        match_event_record(match=match, user=owner, type="stones_taken", seat=seat, data={"count": 1})
    projections._positions.clear()
    projections._positions[match.stream_id] = store.position_at(match.stream_id, 1)
    entries = [e for e in store.log_read(after_txid=0, after_position=0) if e.stream_id == match.stream_id]
    replays: list[int] = []
    real = store.position_at
    monkeypatch.setattr(heads, "position_at", lambda sid, v, **kw: replays.append(v) or real(sid, v, **kw))
    from matches.models import Match

    row = Match.objects.select_related("stream").get(pk=match.pk)
    pos = projections._position(row, [e for e in entries if e.version == 4], 4)
    assert replays == [4] and pos.state == real(match.stream_id, 4).state
    pos = projections._position(row, [e for e in entries if e.version == 5], 5)  # now it follows v4: folded
    assert replays == [4] and pos.state == real(match.stream_id, 5).state
