"""The statistics roll-ups equal the row-by-row counts: after projecting, voiding, correcting, merging, claiming
and rebuilding; for every viewer (anonymous, owner, recorder, stranger) and every kind of filter (game, title,
whole months, days at the edges of months, one partial month, a group of players)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches.models import Player, PlayerResult, StatsRollup
from matches.people import players as people
from matches.projections.rollups import rollup_drift, rollup_table
from matches.projections.tasks import project_all
from matches.services import match_create, match_event_record
from matches.stats import selectors as stats
from matches.stats import tallies

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]


def sheet(owner, names, points, *, when, title="Azul", public=True):
    """A finished score sheet played at ``when``: ``points`` per seat, highest wins."""
    m = match_create(
        owner=owner, game="scoresheet", seats=[{"name": n} for n in names], options={"title": title},
        played={"played_at": when}, is_public=public,
    )  # fmt: skip
    for seat, p in enumerate(points):
        match_event_record(match=m, user=owner, type="points_scored", seat=seat, data={"points": p})
    match_event_record(match=m, user=owner, type="game_ended", data={})
    return m


def stone(owner, names, winner_seat, *, when):
    """A finished Last Stone game with one stone: ``winner_seat`` takes it."""
    m = match_create(is_public=True,
        owner=owner, game="last-stone", seats=[{"name": n} for n in names], options={"stones": 1},
        played={"played_at": when},
    )  # fmt: skip
    match_event_record(match=m, user=owner, type="stones_taken", seat=winner_seat, data={"count": 1})
    return m


def at(month, day, hour=20):
    return datetime(2026, month, day, hour, tzinfo=UTC)


@pytest.fixture
def world(owner, make_user):
    """Two owners' public and private matches over three months, one private match recorded by a third user."""
    other, recorder = make_user("other"), make_user("recorder")
    sheet(owner, ["Ana", "Bo"], [10, 5], when=at(9, 3))
    sheet(owner, ["Ana", "Bo", "Cy"], [7, 7, 1], when=at(9, 28))
    sheet(owner, ["Bo", "Cy"], [2, 4], when=at(10, 1, 0))
    sheet(owner, ["Ana", "Cy"], [4, 8], when=at(10, 16), title="Cascadia")
    sheet(owner, ["Ana", "Bo"], [6, 1], when=at(10, 31, 23), public=False)
    stone(owner, ["Ana", "Bo"], 0, when=at(11, 2))
    stone(owner, ["Cy", "Ana"], 0, when=at(11, 20))
    sheet(other, ["Ana", "Dee"], [3, 9], when=at(10, 10))  # the other owner's Ana: another player
    secret = sheet(other, ["Eve", "Dee"], [5, 5], when=at(10, 20), public=False)
    secret.recorders.add(recorder)
    project_all()
    return {"owner": owner, "other": other, "recorder": recorder}


FILTERS = [
    stats.StatsFilter(),
    stats.StatsFilter(game="scoresheet"),
    stats.StatsFilter(game="scoresheet", title="azul"),
    stats.StatsFilter(since=date(2026, 10, 1), until=date(2026, 10, 31)),  # one whole month
    stats.StatsFilter(since=date(2026, 9, 15)),  # from the middle of a month on
    stats.StatsFilter(until=date(2026, 10, 16)),  # up to the middle of a month
    stats.StatsFilter(since=date(2026, 9, 28), until=date(2026, 11, 2)),  # edges on both sides
    stats.StatsFilter(since=date(2026, 10, 2), until=date(2026, 10, 20)),  # inside one month
    stats.StatsFilter(game="last-stone", since=date(2026, 11, 1)),
]


def everything(user, f):
    """Every figure a viewer can get under a filter (the statistics cache emptied first)."""
    cache.clear()
    seen = sorted(PlayerResult.objects.values_list("player_id", flat=True).distinct())
    boards = {}
    for pid in seen:
        try:
            boards[pid] = stats.player_dashboard(user=user, player_id=pid, f=f).to_dict()
        except stats.NotFound:
            boards[pid] = None
    person = stats.person_dashboard(user=user, person=user, f=f) if user and user.is_authenticated else None
    return {
        "players": stats.players_table(user=user, f=f),
        "games": stats.games_overview(user=user, f=f),
        "game": {g: stats.game_dashboard(user=user, game=g, f=f) for g in ("scoresheet", "last-stone")},
        "boards": boards,
        "person": person.to_dict() if person else None,
    }


def assert_rollups_equal_rows(users, monkeypatch, filters=FILTERS):
    """The roll-up table is the sum of the rows' contributions, and every figure read through the roll-ups
    equals the same figure counted from the rows alone."""
    assert rollup_drift() == {}
    assert not StatsRollup.objects.filter(n=0).exists()  # a count that falls to zero leaves no row
    for user in users:
        for f in filters:
            from_rollups = everything(user, f)
            with monkeypatch.context() as m:
                m.setattr(tallies, "_rollups_answer", lambda f: False)
                from_rows = everything(user, f)
            assert from_rollups == from_rows, (user, f)


def viewers(world):
    from django.contrib.auth.models import AnonymousUser

    return [AnonymousUser(), world["owner"], world["other"], world["recorder"]]


def test_rollups_equal_the_rows_for_every_viewer_and_filter(world, monkeypatch):
    assert StatsRollup.objects.filter(month=0).exists() and StatsRollup.objects.filter(month=202610).exists()
    assert_rollups_equal_rows(viewers(world), monkeypatch)


def test_group_filters_and_private_recorded_matches_are_counted_from_the_rows(world, stranger):
    eve = Player.objects.get(name="Eve")
    # the recorder sees the other owner's private match (from the rows); a stranger does not
    board = stats.player_dashboard(user=world["recorder"], player_id=eve.pk, f=stats.StatsFilter())
    assert (board.overall.played, board.overall.won) == (1, 1)  # 5-5: a shared win
    with pytest.raises(stats.NotFound):
        stats.player_dashboard(user=stranger, player_id=eve.pk, f=stats.StatsFilter())
    ana, cy = Player.objects.get(name="Ana", owner=world["owner"]), Player.objects.get(name="Cy")
    rows = stats.players_table(user=world["owner"], f=stats.StatsFilter(players=(ana.pk, cy.pk)))
    assert {r["player"]: r["played"] for r in rows} == {"Ana": 3, "Bo": 1, "Cy": 3}


def test_a_void_and_a_correction_move_the_rollups(world, monkeypatch):
    owner = world["owner"]
    m = sheet(owner, ["Ana", "Bo"], [1, 2], when=at(10, 5))  # Bo wins
    project_all()
    before = StatsRollup.objects.get(kind="match", month=202610, title="Azul", is_public=True, owner=owner).n
    match_event_record(match=m, user=owner, type="event_voided", data={"version": 3, "reason": "not over"})
    project_all()  # no longer finished: out of the roll-ups
    assert (
        StatsRollup.objects.get(kind="match", month=202610, title="Azul", is_public=True, owner=owner).n == before - 1
    )
    assert_rollups_equal_rows(viewers(world), monkeypatch, FILTERS[:4])
    # a correction: Ana's score was mistyped; with the right one she wins
    match_event_record(match=m, user=owner, type="event_voided", data={"version": 1, "reason": "typo"})
    match_event_record(match=m, user=owner, type="points_scored", seat=0, data={"points": 30})
    match_event_record(match=m, user=owner, type="game_ended", data={})
    project_all()
    assert PlayerResult.objects.get(match=m, seat=0).won
    assert_rollups_equal_rows(viewers(world), monkeypatch, FILTERS[:4])


def test_a_merge_and_a_claim_move_the_rollups(world, monkeypatch, make_user):
    owner = world["owner"]
    bo, cy = Player.objects.get(name="Bo"), Player.objects.get(name="Cy")
    people.players_merge(user=owner, source=cy, target=bo, reason="same person")  # they met at one table: 9-28
    assert not StatsRollup.objects.filter(player_id=cy.pk).exists()
    assert_rollups_equal_rows(viewers(world), monkeypatch)
    person = make_user("bo-herself")
    people.player_claim(user=person, token=people.player_invite_token(user=owner, player=bo))
    assert_rollups_equal_rows([*viewers(world), person], monkeypatch, FILTERS[:4])
    board = stats.person_dashboard(user=person, person=person, f=stats.StatsFilter())
    # the public seats of Bo (4) and of Cy (4): where both sat, both seats count (as before the roll-ups); and
    # Bo's seat at the owner's private match of 10-31: a seat an account holds is that account's to read
    assert board is not None and board.overall.played == 9


def test_a_rebuild_gives_the_same_rollups(world, monkeypatch):
    before = rollup_table()
    call_command("rebuild_projections", "--no-progress")
    assert rollup_table() == before and before
    assert_rollups_equal_rows(viewers(world)[:2], monkeypatch, FILTERS[:2])


def test_whole_months_come_from_the_rollups_and_only_the_edges_from_the_rows(world):
    f = stats.StatsFilter(since=date(2026, 9, 15), until=date(2026, 10, 31))
    span, edges = tallies._rollup_span(f)
    assert span == (202610, 202610) and edges is not None
    assert tallies._rollup_span(stats.StatsFilter(since=date(2026, 10, 1), until=date(2026, 11, 30))) == (
        (202610, 202611),
        None,
    )
    assert tallies._rollup_span(stats.StatsFilter(since=date(2026, 10, 2), until=date(2026, 10, 20)))[0] is None
    assert tallies._rollup_span(stats.StatsFilter(until=date(2026, 12, 31))) == ((1, 202612), None)


def test_dashboards_read_the_rollups_not_the_rows(world):
    """Without a group filter or date edges, the counts are read from the roll-ups: a few queries, none over
    the seat results (the player page still reads its own rows for the streaks and the latest matches)."""
    owner = world["owner"]
    for read, most in (
        (lambda: stats.players_table(user=owner, f=stats.StatsFilter()), 4),
        (lambda: stats.games_overview(user=owner, f=stats.StatsFilter()), 3),
        (lambda: stats.game_dashboard(user=owner, game="scoresheet", f=stats.StatsFilter()), 6),
    ):
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            read()
        sql = [q["sql"] for q in queries.captured_queries]
        assert len(sql) <= most, sql
        assert not any("matches_playerresult" in s for s in sql), sql


def test_under_another_time_zone_the_months_come_from_the_rows(world):
    """Roll-up months are months of TIME_ZONE (UTC here); a reader in another zone gets its own months."""
    cache.clear()
    with timezone.override("America/New_York"):
        assert not tallies._rollups_answer(stats.StatsFilter())
        ny = stats.game_dashboard(user=world["owner"], game="scoresheet", f=stats.StatsFilter())
    cache.clear()
    utc = stats.game_dashboard(user=world["owner"], game="scoresheet", f=stats.StatsFilter())
    # the sheet of 1 October 00:00 UTC was played on 30 September evening in New York
    assert {m["month"]: m["plays"] for m in ny["by_month"]}["2026-09"] == 3
    assert {m["month"]: m["plays"] for m in utc["by_month"]}["2026-09"] == 2
    assert ny["plays"] == utc["plays"] == 6


def test_no_rollup_outlives_its_owner_without_the_database_constraint(owner, make_user):
    """The roll-ups' owner has no database constraint (the projector's upsert is the import's slowest
    statement). No row can be left without its owner: an account with roll-ups owns matches, which refuse its
    deletion (protected), and Django's CASCADE would take the rows with it otherwise."""
    from django.db.models import ProtectedError

    stone(owner, ["Ana", "Bo"], 0, when=at(9, 3))
    project_all()
    rows = StatsRollup.objects.filter(owner=owner).count()
    assert rows
    with pytest.raises(ProtectedError):
        owner.delete()
    assert StatsRollup.objects.filter(owner=owner).count() == rows
    field = StatsRollup._meta.get_field("owner")
    assert field.remote_field.on_delete.__name__ == "CASCADE" and not field.db_constraint
