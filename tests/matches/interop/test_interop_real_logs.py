"""Real play logs (issue 34, part 2): a score never drops a play, nor does any optional field.

The fixture has the shape of a real BG Stats export (every key the app writes, ids and uuids as it writes them)
with the quirks found in real files: scores typed with BG Stats' calculator that end on an operator
(``86+84+``, ``0+12+1+12+4+``, ``1+0+1+0+0+1+``), doubled operators, a score that cannot be read at all, and
optional fields (duration, rounds, rating, location, comments, team, BGG id) that cannot be read.
"""

from __future__ import annotations

import copy
import json
from decimal import Decimal

import pytest
from django.utils import timezone

from matches.interop.records import PlayIn, SeatIn
from matches.interop.writer import WriteCache, play_prepare
from matches.models import Match, PlayerResult
from tests.matches.interop.builders import bgg_page, bgg_play, bgstats_counts, project

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

STAMP = "2024-05-01 10:00:00"


def _game(gid: int, name: str, bgg: int, **more):
    return {
        "id": gid, "uuid": f"6f1c{gid:04d}-0000-4000-8000-00000000000{gid % 10}", "name": name, "modificationDate": STAMP,
        "cooperative": False, "highestWins": True, "noPoints": False, "usesTeams": False, "urlThumb": "",
        "urlImage": "", "bggName": name, "bggYear": 2017, "bggId": bgg, "designers": "", "isBaseGame": 1,
        "isExpansion": 0, "rating": 0, "minPlayerCount": 2, "maxPlayerCount": 4, "minPlayTime": 30,
        "maxPlayTime": 60, "minAge": 8, "preferredImage": 0, "previouslyPlayedAmount": 0, "copies": [], **more,
    }  # fmt: skip


def _player(pid: int, name: str, **more):
    return {"id": pid, "uuid": f"9a2b{pid:04d}-0000-4000-8000-000000000000", "name": name, "isAnonymous": False,
            "modificationDate": STAMP, "bggUsername": "", "metaData": "", **more}  # fmt: skip


def _row(pid: int, score, *, winner=False, seat=0, **more):
    return {"score": score, "winner": winner, "newPlayer": False, "startPlayer": seat == 0, "playerRefId": pid,
            "rank": 0, "seatOrder": seat, **more}  # fmt: skip


def _play(n: int, game: int, date: str, rows, **more):
    return {
        "uuid": f"3c4d{n:04d}-1111-4000-8000-000000000000", "modificationDate": date, "entryDate": date,
        "playDate": date, "playDateYmd": int(date[:10].replace("-", "")), "usesTeams": False, "durationMin": 40,
        "ignored": False, "manualWinner": False, "rounds": 0, "locationRefId": 1, "gameRefId": game, "board": "",
        "scoringSetting": 0, "importPlayId": 0, "nemestatId": 0, "comments": "", "playerScores": rows,
        "expansionPlays": [], **more,
    }  # fmt: skip


ANA, BO, CY, DI = 1, 2, 3, 4
AZUL, WINGSPAN, SKULL = 1, 2, 3


def real_export() -> dict:
    """A BG Stats export as the app writes it, with the quirks of the three real files of the issue."""
    plays = [
        _play(1, AZUL, "2023-01-06 20:15:00", [  # the three shapes that made 6 of 560 plays vanish
            _row(ANA, "86+84+", winner=True), _row(BO, "0+12+1+12+4+", seat=1), _row(CY, "1+0+1+0+0+1+", seat=2)]),
        _play(2, AZUL, "2023-01-13 20:00:00", [  # doubled operators
            _row(ANA, "5--3", seat=0), _row(BO, "10+-3", winner=True, seat=1), _row(CY, "7++2", seat=2)]),
        _play(3, WINGSPAN, "2023-02-03 19:30:00", [  # cannot be read at all: the play is kept, the text too
            _row(BO, "lots", winner=True), _row(DI, "12 points", seat=1)]),
        _play(4, WINGSPAN, "2023-02-10 19:30:00", [_row(ANA, "44+", winner=True), _row(DI, "1/0", seat=1)],
              durationMin="about an hour", rounds=-2, rating="great"),
        _play(5, SKULL, "2023-03-03 21:00:00", [_row(CY, 3, winner=True, team="Bl\u0000ue"), _row(DI, 1, seat=1)],
              locationRefId=42, comments="nul \u0000 here"),
        _play(6, SKULL, "2023-03-10 21:00:00", [_row(ANA, "7+", winner=True, rating=8), _row(CY, "3-", seat=1)],
              rating=7.5, gameRefId=4),
    ]  # fmt: skip
    return {
        "userInfo": {"meRefId": ANA, "bggUsername": ""},
        "games": [_game(AZUL, "Azul", 230802), _game(WINGSPAN, "Wingspan", 266192), _game(SKULL, "Skull", 92415),
                  _game(4, "Skull Tales", "x92415")],
        "players": [_player(ANA, "Ana"), _player(BO, "Bo"), _player(CY, "Cy"), _player(DI, "Di")],
        "locations": [{"id": 1, "uuid": "loc-0001", "name": "Kitchen", "modificationDate": STAMP}],
        "plays": plays,
        "tags": [], "groups": [], "challenges": [], "deletedObjects": [],
    }  # fmt: skip


def post(api, doc: dict, url: str = "/api/import/bgstats/"):
    return api.post(url, json.dumps(doc).encode(), content_type="application/json")


@pytest.fixture
def imported(api):
    r = post(api, real_export())
    assert r.status_code == 201, r.content
    project()
    return r.json()


def result(n: int) -> dict:
    return Match.objects.get(source_uuid=f"3c4d{n:04d}-1111-4000-8000-000000000000").stream.state["recorded_result"]


def seats(n: int) -> list[dict]:
    return Match.objects.get(source_uuid=f"3c4d{n:04d}-1111-4000-8000-000000000000").details["seats"]


def test_no_play_is_lost_and_none_is_an_error(imported):
    assert imported["imported"] == 6 and imported["errors"] == [] and Match.objects.count() == 6


def test_trailing_operators_are_ignored_as_bg_stats_total_ignores_them(imported):
    assert result(1)["scores"] == {"0": 170, "1": 29, "2": 3}
    assert [s["score_text"] for s in seats(1)] == ["86+84+", "0+12+1+12+4+", "1+0+1+0+0+1+"]
    assert not any(w.startswith("play 1 ") for w in imported["warnings"])  # read, so nothing to warn about
    assert result(6)["scores"] == {"0": 7, "1": 3}


def test_doubled_operators_count_once_and_a_sign_after_an_operator_is_a_sign(imported):
    assert result(2)["scores"] == {"0": 2, "1": 7, "2": 9}


def test_a_score_that_cannot_be_read_keeps_its_play_and_text_and_warns_naming_play_player_and_text(imported):
    assert result(3)["scores"] is None and result(3)["winners"] == [0]
    assert [s["score_text"] for s in seats(3)] == ["lots", "12 points"]
    warned = [w for w in imported["warnings"] if w.startswith("play 3 (Wingspan, 2023-02-03 19:30:00): ")]
    assert any("Bo's score 'lots' cannot be read" in w for w in warned), warned
    assert any("Di's score '12 points' cannot be read" in w for w in warned), warned
    assert result(4)["scores"] == {"0": 44}  # the readable one kept, the other (1/0) only as typed
    assert any("Di's score '1/0' cannot be read: Division by zero." in w for w in imported["warnings"])


def test_optional_fields_that_cannot_be_read_are_warnings_and_the_play_is_kept(imported):
    four = Match.objects.get(source_uuid="3c4d0004-1111-4000-8000-000000000000")
    assert four.duration_min is None and "rounds" not in four.details and "rating" not in four.details
    for text in ("durationMin 'about an hour' cannot be read", "rounds -2 cannot be read",
                 "The play's rating 'great' cannot be read"):  # fmt: skip
        assert any(w.startswith("play 4 (Wingspan") and text in w for w in imported["warnings"]), text
    five = Match.objects.get(source_uuid="3c4d0005-1111-4000-8000-000000000000")
    assert five.location == "" and five.details.get("comments") is None and "team" not in five.details["seats"][0]
    for text in ("locationRefId 42 names no location", "The comments contains a character", "Cy's team contains"):
        assert any(w.startswith("play 5 (Skull") and text in w for w in imported["warnings"]), text
    six = Match.objects.get(source_uuid="3c4d0006-1111-4000-8000-000000000000")
    assert six.details["rating"] == 7.5 and six.details["seats"][0]["rating"] == 8
    assert six.stream.options.get("bgg_id") is None
    assert any(w.startswith("play 6 (Skull Tales") and "bggId 'x92415' cannot be read" in w
               for w in imported["warnings"])  # fmt: skip


def test_played_and_won_counts_equal_bg_stats_own_before_and_after_a_round_trip(api, imported, make_user, client_for):
    played, won, _ = bgstats_counts(real_export())

    def counts(client):
        rows = client.get("/api/stats/players/").json()
        return {r["player"]: (r["played"], r["won"]) for r in rows}

    assert counts(api) == {name: (played[name], won[name]) for name in played}
    assert PlayerResult.objects.filter(player__name="Bo").count() == 3
    exported = api.get("/api/export/bgstats/").json()
    typed = {row["score"] for play in exported["plays"] for row in play["playerScores"]}
    assert {"86+84+", "lots", "12 points", "1/0", "5--3"} <= typed  # the scores go back as they were typed
    friend = make_user("friend")
    r = client_for(friend).post("/api/import/bgstats/", json.dumps(exported).encode(), content_type="application/json")
    assert r.status_code == 201 and r.json()["imported"] == 6 and r.json()["errors"] == []
    project()
    assert counts(client_for(friend)) == counts(api)


def test_what_a_play_cannot_be_without_still_skips_it_with_its_reason(api):
    doc = real_export()
    doc["plays"][0]["playerScores"] = []
    doc["plays"][1]["gameRefId"] = 99
    r = post(api, doc)
    assert r.json()["imported"] == 4 and len(r.json()["errors"]) == 2


def test_a_bgg_log_keeps_its_plays_too(api):
    page = bgg_page("ana_bgg", [
        bgg_play(2001, "Azul", 230802, [{"name": "Ana", "score": "86+84+", "win": 1}, {"name": "Bo", "score": "n/a"}],
                 length="long"),
        bgg_play(2002, "Azul", 230802, [{"name": "Ana", "score": "5", "win": 1, "rating": "7.5"},
                                        {"name": "Bo", "score": "4", "rating": "eleven"}], quantity="two"),
    ])  # fmt: skip
    r = api.post("/api/import/bgg/", page.encode(), content_type="application/xml")
    assert r.status_code == 201 and r.json()["imported"] == 2 and r.json()["errors"] == []
    warnings = r.json()["warnings"]
    first = Match.objects.get(source_uuid="bgg:2001:0")
    assert first.stream.state["recorded_result"]["scores"] == {"0": 170} and first.duration_min is None
    assert any("Bo's score 'n/a' cannot be read" in w for w in warnings)
    assert any("length 'long' cannot be read" in w for w in warnings)
    assert any("quantity 'two' cannot be read" in w for w in warnings)  # one play then
    second = Match.objects.get(source_uuid="bgg:2002:0")
    assert second.details["seats"][0]["rating"] == 7.5 and "rating" not in second.details["seats"][1]
    assert any("Bo's rating 'eleven' cannot be read" in w for w in warnings)


def test_scores_a_game_refuses_never_drop_the_play(owner):
    play = PlayIn(key="k-1", source="bgstats", game_name="Azul", played_at=timezone.now(), played_local="2023-01-01",
                   seats=[SeatIn(name="Ana", score=Decimal(10) ** 12, winner=True),
                                                    SeatIn(name="Bo", score=Decimal(3), order=1)])  # fmt: skip
    prepared = play_prepare(copy.copy(play), WriteCache(owner=owner))
    assert prepared is not None and prepared.stream.events[0].data["scores"] is None
    assert any("The scores were refused" in w for w in prepared.play.warnings)


def test_the_match_page_shows_the_typed_score_and_that_it_was_not_read(client, owner, imported):
    client.force_login(owner)
    three = Match.objects.get(source_uuid="3c4d0003-1111-4000-8000-000000000000")
    page = client.get(f"/matches/{three.pk}/").content.decode()
    assert "lots (not read as a number)" in page and "12 points (not read as a number)" in page
    one = Match.objects.get(source_uuid="3c4d0001-1111-4000-8000-000000000000")
    assert "170 (86+84+)" in client.get(f"/matches/{one.pk}/").content.decode()
