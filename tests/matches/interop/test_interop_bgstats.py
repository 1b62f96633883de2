"""BG Stats' play model imported faithfully: every quirk of a real export, and the same numbers BG Stats shows."""

from __future__ import annotations

from collections import Counter

import pytest

from matches.models import Match, PlayedMatch, Player, PlayerResult
from tests.matches.interop.builders import BgStatsFile, bgstats_counts, project, quirky_bgstats

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


def post(api, data: bytes, url: str = "/api/import/bgstats/"):
    return api.post(url, data, content_type="application/json")


@pytest.fixture
def quirky():
    return quirky_bgstats()


@pytest.fixture
def imported(api, quirky):
    r = post(api, quirky.bytes())
    assert r.status_code == 201, r.content
    project()
    return r.json()


def test_every_play_is_imported_and_the_odd_score_is_a_warning_naming_it(imported):
    assert imported["imported"] == 8 and imported["skipped"] == 0 and imported["status"] == "done"
    assert imported["errors"] == []  # a score that cannot be read never drops its play (issue 34)
    assert any(w.startswith("play 8 (Azul, 2021-04-05 10:00:00): Ana's score 'lots' cannot be read")
               for w in imported["warnings"]), imported["warnings"]  # fmt: skip
    odd = Match.objects.get(source_uuid="play-000008")
    assert odd.details["seats"][0]["score_text"] == "lots" and odd.stream.state["recorded_result"]["scores"] is None
    assert any("locationRefId 9999" in w for w in imported["warnings"])


def test_stats_equal_bg_stats_own_counts(api, imported, quirky):
    assert imported["errors"] == []  # every play is in Chronicle, the odd score's too: BG Stats' own counts
    played, won, per_game = bgstats_counts(quirky.doc)
    assert (played["Ana"], won["Ana"]) == (5, 4)
    rows = {r["player"]: r for r in api.get("/api/stats/players/").json() if not r["player"].startswith("Anonymous")}
    assert {n: r["played"] for n, r in rows.items()} == dict(played)
    assert {n: r["won"] for n, r in rows.items()} == dict(won)
    counted = Counter(PlayedMatch.objects.values_list("title", flat=True))
    counted["Get Salty"] = counted.pop("")  # a Chronicle game's plays count under its ruleset, not a title
    assert dict(counted) == dict(per_game)
    assert PlayerResult.objects.filter(match__ignored=True).count() == 0


def test_sum_scores_are_exact_and_their_text_is_kept(api, imported):
    azul = Match.objects.get(source_uuid="play-000001")
    state = api.get(f"/api/matches/{azul.pk}/state/").json()
    assert state["outcome"]["scores"] == {"0": 164, "1": 9, "2": 12.5} and state["outcome"]["winners"] == [0]
    seats = azul.details["seats"]
    assert [s.get("score_text") for s in seats] == ["87+77", "15+16+8-30", "12.5"]
    assert seats[1]["new"] is True and seats[0]["start"] is True and azul.first_seat == 0
    assert azul.details["expansions"] == ["Azul: Crystal Mosaic"] and azul.details["rounds"] == 5
    assert azul.details["comments"] == "Great game\nrematch soon"
    assert azul.details["played_local"] == "2021-03-12 19:30:00" and azul.location == "the Kitchen"
    assert azul.duration_min == 70 and azul.stream.options["bgg_id"] == 230802 and azul.source == "bgstats"


def test_coop_teams_ranks_roles(imported):
    win = Match.objects.get(source_uuid="play-000002")
    assert win.stream.options["cooperative"] is True and win.details["seats"][1]["role"] == "Medic"
    assert sorted(PlayerResult.objects.filter(match=win).values_list("won", flat=True)) == [True, True, True]
    loss = Match.objects.get(source_uuid="play-000003")
    assert not PlayerResult.objects.filter(match=loss, won=True).exists()
    teams = Match.objects.get(source_uuid="play-000004")
    assert [s["team"] for s in teams.details["seats"]] == ["Red", "Red", "Blue", "Blue"]
    assert teams.details["uses_teams"] is True and teams.location == ""  # an unknown place: kept without one
    golf = Match.objects.get(source_uuid="play-000005")
    assert [s["rank"] for s in golf.details["seats"]] == [2, 1] and golf.stream.options["highest_wins"] is False


def test_anonymous_seats_stay_separate_people(imported):
    loss = Match.objects.get(source_uuid="play-000003")
    anonymous = [s.player for s in loss.seats.order_by("index")][1:]
    assert anonymous[0].pk != anonymous[1].pk
    everyone = Player.objects.filter(name__startswith="Anonymous")
    assert everyone.count() == 3  # one per anonymous seat across the plays, never one person


def test_ignored_plays_are_kept_marked_and_out_of_the_stats(client, owner, imported):
    ignored = Match.objects.get(source_uuid="play-000006")
    assert ignored.ignored and ignored.status == "finished"
    assert not PlayerResult.objects.filter(match=ignored).exists()
    client.force_login(owner)
    page = client.get(f"/matches/{ignored.pk}/")
    assert page.status_code == 200 and "ignored for stats" in page.content.decode().lower()


def test_a_chronicle_game_becomes_its_ruleset(imported):
    assert Match.objects.get(source_uuid="play-000007").game == "get-salty"


def test_reimport_adds_nothing(api, imported, quirky):
    r = post(api, quirky.bytes())
    assert r.json()["imported"] == 0 and r.json()["skipped"] == 8 and Match.objects.count() == 8


def test_the_files_owner_is_named_for_this_is_me(api, owner, imported):
    job = api.get(f"/api/import/jobs/{imported['job']}/").json()
    ana = Player.objects.get(owner=owner, name="Ana")
    assert job["owner_ref"] == {"name": "Ana", "player_id": ana.pk}
    r = api.post("/api/import/this-is-me/", {"player": ana.pk}, format="json")
    assert r.status_code == 200 and Player.objects.get(pk=ana.pk).user_id == owner.pk
    bo = Player.objects.get(owner=owner, name="Bo")
    assert api.post("/api/import/this-is-me/", {"player": bo.pk}, format="json").status_code == 400  # already Ana


def test_this_is_me_only_for_my_own_players(client_for, stranger, owner, imported):
    ana = Player.objects.get(owner=owner, name="Ana")
    r = client_for(stranger).post("/api/import/this-is-me/", {"player": ana.pk}, format="json")
    assert r.status_code == 404 and Player.objects.get(pk=ana.pk).user_id is None


@pytest.mark.parametrize(
    "body",
    [b"not json at all", b"[1, 2, 3]", b'{"hello": "world"}', b'{"games": [', b"<html></html>", b"", b"\xff\xfe{"],
)
def test_a_file_that_is_not_a_bg_stats_export_is_400_and_writes_nothing(api, body):
    r = post(api, body)
    assert r.status_code == 400 and "Nothing was imported" in r.json()["detail"]
    assert Match.objects.count() == 0 and Player.objects.count() == 0


def test_unknown_fields_everywhere_are_tolerated(api):
    f = BgStatsFile()
    g = f.game("Azul", somethingNew=[1, {"a": None}], bggId=230802)
    a, b = f.player("Ana", avatar="x.png"), f.player("Bo", metaData="{}")
    f.play(g, [{"playerRefId": a, "winner": True, "futureFlag": 3}, {"playerRefId": b}], boardSize="big")
    f.doc["challenges"] = [{"id": 1}]
    f.doc["groups"] = {"x": [1, 2]}
    assert post(api, f.bytes()).json()["imported"] == 1


def test_text_the_database_cannot_store_skips_the_plays_that_use_it(api, owner):
    f = BgStatsFile()
    g = f.game("Azul")
    bad, bo = f.player("A\u0000na"), f.player("Bo")
    f.me(bad)
    f.play(g, [{"playerRefId": bad, "winner": True}, {"playerRefId": bo}])
    f.play(g, [{"playerRefId": bo, "winner": True}], comments="fine")
    r = post(api, f.bytes())
    assert r.status_code == 201 and r.json()["imported"] == 1 and "cannot be stored" in r.json()["errors"][0]
