"""The statistics API: players, one player, me, one game; filters; visibility; read from the projection."""

from __future__ import annotations

from datetime import UTC

import pytest

from matches.models import PlayedMatch, Player, PlayerResult
from matches.projections.tasks import project_all
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]


def sheet(owner, names, points, *, played_at=None, first=None):
    """A finished score sheet: ``points`` per seat, highest wins."""
    played = {"played_at": played_at} if played_at else None
    m = match_create(
        is_public=True,
        owner=owner,
        game="scoresheet",
        seats=[{"name": n} for n in names],
        options={"title": "Azul"},
        played=played,
    )
    if first is not None:
        type(m).objects.filter(pk=m.pk).update(first_seat=first)
    for seat, p in enumerate(points):
        match_event_record(match=m, user=owner, type="points_scored", seat=seat, data={"points": p})
    match_event_record(match=m, user=owner, type="game_ended", data={})
    return m


@pytest.fixture
def league(owner):
    from datetime import datetime

    sheet(owner, ["Ana", "Bo"], [10, 5], played_at=datetime(2026, 9, 3, 20, tzinfo=UTC), first=0)
    sheet(owner, ["Ana", "Bo"], [3, 9], played_at=datetime(2026, 10, 3, 20, tzinfo=UTC), first=0)
    sheet(owner, ["Ana", "Bo", "Cy"], [7, 7, 1], played_at=datetime(2026, 10, 9, 20, tzinfo=UTC), first=1)
    sheet(owner, ["Bo", "Cy"], [2, 4], played_at=datetime(2026, 11, 1, 20, tzinfo=UTC))
    project_all()


def test_players_list(api, league):
    rows = api.get("/api/stats/players/").json()
    by = {r["player"]: r for r in rows}
    assert by["Bo"] == {**by["Bo"], "played": 4, "won": 2, "drawn": 0, "lost": 2, "win_rate": 50}
    assert by["Ana"]["played"] == 3 and by["Ana"]["won"] == 2  # a shared win counts for each winner
    assert {"player_id", "owner", "initials", "colour"} <= set(by["Ana"])
    since = {r["player"]: r["played"] for r in api.get("/api/stats/players/?since=2026-10-01&until=2026-10-31").json()}
    assert since == {"Ana": 2, "Bo": 2, "Cy": 1}


def test_group_filter_keeps_matches_where_all_of_them_sat(api, league):
    ana, cy = Player.objects.get(name="Ana"), Player.objects.get(name="Cy")
    rows = api.get(f"/api/stats/players/?players={ana.pk},{cy.pk}").json()
    assert {r["player"]: r["played"] for r in rows} == {"Ana": 1, "Bo": 1, "Cy": 1}


def test_one_player_dashboard(api, league):
    bo = Player.objects.get(name="Bo")
    d = api.get(f"/api/stats/players/{bo.pk}/").json()
    assert d["overall"] == {"played": 4, "won": 2, "drawn": 0, "lost": 2, "win_rate": 50}
    assert [m["month"] for m in d["by_month"]] == ["2026-09", "2026-10", "2026-11"]
    assert d["by_month"][1]["games"] == {"Azul": 2}  # by the game's name (a score sheet's title)
    # oldest first: lost, won, won (shared), lost -> current streak 1 loss, longest win 2
    assert d["streaks"] == {"current": {"kind": "loss", "length": 1}, "longest_win": 2}
    h2h = {r["player"]: (r["played"], r["won"], r["lost"]) for r in d["head_to_head"]}
    assert h2h == {"Ana": (3, 2, 1), "Cy": (2, 1, 1)}
    # started the 7-7 shared win (said so) and the last match (its first entry): won one, lost one
    assert d["first_player"] == {"played": 2, "won": 1, "drawn": 0, "lost": 1, "win_rate": 50}
    assert d["favourite_games"][0]["game"] == "scoresheet"


def test_game_dashboard(api, league):
    d = api.get("/api/stats/games/scoresheet/").json()
    assert d["plays"] == 4 and d["seats"][0]["played"] == 4 and d["seats"][2]["played"] == 1
    assert d["first_player"]["played"] == 4  # seat of the first entry when nobody said who started
    assert d["scores"]["count"] == 9 and d["scores"]["min"] == 1 and d["scores"]["max"] == 10
    assert sum(b["count"] for b in d["scores"]["buckets"]) == 9
    assert d["length"]["moves"]["median"] == 3


def test_bad_filters_are_400(api, league):
    for query in ("since=soon", "players=a,b", "game=chess", "since=2026-12-01&until=2026-01-01", "players=%C2%B2"):
        r = api.get(f"/api/stats/players/?{query}")
        assert r.status_code == 400 and r.json()["code"] == "invalid", query


def test_private_matches_count_only_for_who_may_see_them(client_for, owner, stranger):
    m = match_create(
        owner=owner, game="scoresheet", seats=[{"name": "Zoe"}], options={"title": "Solo"}, is_public=False
    )
    match_event_record(match=m, user=owner, type="points_scored", seat=0, data={"points": 1})
    match_event_record(match=m, user=owner, type="game_ended", data={})
    project_all()
    zoe = Player.objects.get(name="Zoe")
    assert client_for(stranger).get("/api/stats/players/").json() == []
    assert client_for(stranger).get(f"/api/stats/players/{zoe.pk}/").status_code == 404
    assert client_for(None).get("/api/stats/games/scoresheet/").json()["plays"] == 0
    assert client_for(owner).get(f"/api/stats/players/{zoe.pk}/").json()["overall"]["won"] == 1


def test_voiding_the_end_takes_the_match_out_of_the_stats(api, owner):
    m = sheet(owner, ["Ana", "Bo"], [1, 2])
    project_all()
    assert PlayedMatch.objects.count() == 1 and PlayerResult.objects.count() == 2
    match_event_record(match=m, user=owner, type="event_voided", data={"version": 3, "reason": "not over"})
    project_all()
    assert PlayedMatch.objects.count() == 0 and PlayerResult.objects.count() == 0


def test_rebuild_gives_the_same_read_model(owner, league):
    from django.core.management import call_command

    before = sorted(
        PlayerResult.objects.values_list("match_id", "seat", "player_id", "won", "drawn", "started", "score")
    )
    call_command("rebuild_projections", "--no-progress")
    after = sorted(
        PlayerResult.objects.values_list("match_id", "seat", "player_id", "won", "drawn", "started", "score")
    )
    assert before == after and len(after) == 9


def test_me(client_for, owner, make_user):
    me = make_user("me")
    m = match_create(
        is_public=True,
        owner=owner,
        game="last-stone",
        seats=[{"name": "Me", "user": me}, {"name": "Bo"}],
        options={"stones": 1},
    )
    match_event_record(match=m, user=owner, type="stones_taken", seat=0, data={"count": 1})
    project_all()
    d = client_for(me).get("/api/stats/me/").json()
    assert d["overall"]["won"] == 1 and d["players"][0]["owner"] == "owner"
    assert client_for(None).get("/api/stats/me/").status_code in (401, 403)


def test_score_sheets_count_per_game_name(api, owner):
    sheet(owner, ["Ana", "Bo"], [10, 5])
    m = match_create(
        is_public=True,
        owner=owner,
        game="scoresheet",
        seats=[{"name": "Ana"}, {"name": "Bo"}],
        options={"title": "Cascadia"},
    )
    match_event_record(match=m, user=owner, type="points_scored", seat=1, data={"points": 3})
    match_event_record(match=m, user=owner, type="game_ended", data={})
    project_all()
    azul = api.get("/api/stats/games/scoresheet/?title=azul").json()
    assert azul["plays"] == 1 and azul["name"] == "Azul" and azul["seats"][0]["won"] == 1
    assert api.get("/api/stats/games/scoresheet/").json()["plays"] == 2
    bo = Player.objects.get(name="Bo")
    by_game = {g["name"]: g["won"] for g in api.get(f"/api/stats/players/{bo.pk}/").json()["by_game"]}
    assert by_game == {"Azul": 0, "Cascadia": 1}
