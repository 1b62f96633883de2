"""Event store promises: versions, idempotency, immutability, corrections, heads vs snapshots vs replay."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from matches.errors import RuleBroken, VersionConflict
from matches.models import Event as EventRow
from matches.models import ImmutableEventError, Snapshot
from matches.services import match_event_record, match_event_void, match_rule_override
from matches.store import events as store
from rulesets import Event, get_ruleset
from rulesets.replay import replay

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


def take(match, owner, seat, count, **kw):
    return match_event_record(match=match, user=owner, type="stones_taken", seat=seat, data={"count": count}, **kw)


def test_versions_count_one_to_n_and_positions_grow(stone_match, owner):
    results = [take(stone_match, owner, i % 2, 1) for i in range(5)]
    assert [r.version for r in results] == [1, 2, 3, 4, 5]
    positions = [r.position for r in results]
    assert positions == sorted(positions) and len(set(positions)) == 5
    rows = EventRow.objects.filter(stream=stone_match.stream).order_by("version")
    assert [r.version for r in rows] == [1, 2, 3, 4, 5]


def test_stale_expected_version_conflicts_and_writes_nothing(stone_match, owner):
    take(stone_match, owner, 0, 1)
    with pytest.raises(VersionConflict) as exc:
        take(stone_match, owner, 1, 1, expected_version=0)
    assert exc.value.current_version == 1
    assert EventRow.objects.filter(stream=stone_match.stream).count() == 1


def test_idempotency_key_writes_once_and_returns_the_first_result(stone_match, owner):
    first = take(stone_match, owner, 0, 2, idempotency_key="tap-1")
    again = take(stone_match, owner, 0, 2, idempotency_key="tap-1")
    assert again.repeated and not first.repeated
    assert (again.version, again.position, again.state) == (first.version, first.position, first.state)
    # even once the match has moved on (the repeat would now be illegal: not seat 0's turn)
    take(stone_match, owner, 1, 1)
    late = take(stone_match, owner, 0, 2, idempotency_key="tap-1")
    assert late.repeated and late.version == 1 and late.state == first.state
    assert EventRow.objects.filter(stream=stone_match.stream).count() == 2


def test_illegal_move_is_refused_with_its_rule_and_writes_nothing(stone_match, owner):
    with pytest.raises(RuleBroken) as exc:
        take(stone_match, owner, 1, 1)
    assert exc.value.violation_code == "not_your_turn" and exc.value.rule == "Last Stone › Turns"
    assert EventRow.objects.filter(stream=stone_match.stream).count() == 0
    assert store.head_load(stone_match.stream_id, fresh=True).version == 0


def test_orm_cannot_update_or_delete_events(stone_match, owner):
    take(stone_match, owner, 0, 1)
    row = EventRow.objects.get(stream=stone_match.stream)
    row.data = {"count": 3}
    with pytest.raises(ImmutableEventError):
        row.save()
    with pytest.raises(ImmutableEventError):
        row.delete()
    with pytest.raises(ImmutableEventError):
        EventRow.objects.filter(pk=row.pk).update(type="x")
    with pytest.raises(ImmutableEventError):
        EventRow.objects.filter(pk=row.pk).delete()


@pytest.mark.parametrize("sql", ["UPDATE matches_event SET type = 'x'", "DELETE FROM matches_event"])
def test_raw_sql_update_and_delete_fail_on_postgresql(stone_match, owner, sql):
    if connection.vendor != "postgresql":
        pytest.skip("the immutability trigger is PostgreSQL's; SQLite relies on the ORM guard tested above")
    take(stone_match, owner, 0, 1)
    with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    assert EventRow.objects.get(stream=stone_match.stream).type == "stones_taken"


def test_metadata_is_recorded(stone_match, owner):
    from datetime import UTC, datetime

    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    match_event_record(
        match=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 1},
        client_time=when, request_id="req-42",
    )  # fmt: skip
    row = EventRow.objects.get(stream=stone_match.stream)
    assert (row.recorded_by_id, row.seat, row.client_time, row.request_id) == (owner.pk, 0, when, "req-42")
    assert row.recorded_at is not None


def test_void_hides_an_entry_and_keeps_both_in_the_log(stone_match, owner):
    take(stone_match, owner, 0, 3)
    result = match_event_void(match=stone_match, user=owner, version=1, reason="miscounted")
    assert result.version == 2 and result.state["pile"] == 10 and result.state["turn"] == 0
    assert EventRow.objects.filter(stream=stone_match.stream).count() == 2
    take(stone_match, owner, 0, 2)
    assert store.head_load(stone_match.stream_id, fresh=True).state["pile"] == 8


def test_void_refusals(stone_match, owner):
    take(stone_match, owner, 0, 3)
    take(stone_match, owner, 1, 3)
    with pytest.raises(RuleBroken) as exc:
        match_event_void(match=stone_match, user=owner, version=9, reason="x")
    assert exc.value.violation_code == "no_such_entry"
    # voiding move 1 would leave move 2 (seat 1) out of turn
    with pytest.raises(RuleBroken) as exc:
        match_event_void(match=stone_match, user=owner, version=1, reason="x")
    assert exc.value.violation_code == "void_breaks_later_entry"
    match_event_void(match=stone_match, user=owner, version=2, reason="x")
    with pytest.raises(RuleBroken) as exc:
        match_event_void(match=stone_match, user=owner, version=2, reason="again")
    assert exc.value.violation_code == "already_voided"
    with pytest.raises(RuleBroken) as exc:
        match_event_void(match=stone_match, user=owner, version=3, reason="void of void")
    assert exc.value.violation_code == "cannot_void_void"
    assert EventRow.objects.filter(stream=stone_match.stream).count() == 3


def test_rule_override_lets_the_next_move_through_once(stone_match, owner):
    take(stone_match, owner, 0, 1)
    with pytest.raises(RuleBroken):
        take(stone_match, owner, 0, 1)  # seat 0 again: out of turn
    match_rule_override(match=stone_match, user=owner, reason="Ana gets a handicap turn")
    result = take(stone_match, owner, 0, 1)
    assert result.state["pile"] == 8 and not result.override_pending
    with pytest.raises(RuleBroken):
        take(stone_match, owner, 0, 1)  # the override was used up


def _all_positions(match):
    head = store.head_load(match.stream_id, fresh=True)
    ruleset = get_ruleset(match.game)
    rows = list(EventRow.objects.filter(stream=match.stream).order_by("version"))
    events = [Event(r.type, r.seat, r.data) for r in rows]
    return head, ruleset, events


def test_head_snapshot_tail_and_full_replay_agree_at_every_version(owner, settings):
    from matches.services import match_create

    settings.CHRONICLE_SNAPSHOT_EVERY = 3
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 60})
    seat = 0
    for i in range(24):
        if i in (7, 15):
            head = store.head_load(match.stream_id, fresh=True)
            match_event_void(match=match, user=owner, version=head.version, reason="undo")
            seat = 1 - seat
            continue
        take(match, owner, seat, 1 + i % 3)
        seat = 1 - seat
    head, ruleset, events = _all_positions(match)
    assert Snapshot.objects.filter(stream=match.stream).count() >= 5
    for version in range(head.version + 1):
        full = replay(ruleset, match.stream.options, 2, events[:version])
        via_store = store.position_at(match.stream_id, version)
        assert via_store.state == full.state, version
        assert via_store.version == version
    assert head.state == replay(ruleset, match.stream.options, 2, events).state


def test_snapshot_behind_a_later_void_is_not_used(owner, settings):
    from matches.services import match_create

    settings.CHRONICLE_SNAPSHOT_EVERY = 2
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 30})
    take(match, owner, 0, 1)
    take(match, owner, 1, 2)  # snapshot at 2 includes this move
    match_event_void(match=match, user=owner, version=2, reason="wrong count")  # v3 reaches behind snapshot 2
    take(match, owner, 1, 3)
    _, ruleset, events = _all_positions(match)
    assert store.position_at(match.stream_id, 4).state == replay(ruleset, match.stream.options, 2, events).state
    assert store.position_at(match.stream_id, 4).state["pile"] == 26


def test_head_is_rebuilt_when_the_ruleset_version_changes(stone_match, owner, monkeypatch):
    take(stone_match, owner, 0, 2)
    ruleset = get_ruleset("last-stone")
    monkeypatch.setattr(type(ruleset), "version", ruleset.version + 1)
    store.head_cache.clear()
    head = store.head_load(stone_match.stream_id)
    assert head.ruleset_version == ruleset.version and head.state["pile"] == 8
    stone_match.stream.refresh_from_db()
    assert stone_match.stream.ruleset_version == ruleset.version


def test_stale_cache_is_corrected_by_the_database(stone_match, owner):
    take(stone_match, owner, 0, 1)
    store.head_cache.put(store.head_load(stone_match.stream_id, fresh=True))
    # another process records a move: simulate by appending, then planting the old head in the cache
    old = store.head_load(stone_match.stream_id, fresh=True)
    take(stone_match, owner, 1, 1)
    store.head_cache.clear()
    store.head_cache.put(old)
    result = take(stone_match, owner, 0, 1)  # legal only on the fresh head
    assert result.version == 3 and result.state["pile"] == 7
