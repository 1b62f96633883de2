"""BG Stats import and export (and BGG XML out): plays move between apps without loss."""

from __future__ import annotations

import copy
import io
import json
import xml.etree.ElementTree as ET

import pytest

from matches.models import Event as EventRow
from matches.models import Match
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

BGSTATS = {
    "games": [
        {"id": 1, "name": "Azul", "bggId": 230802, "cooperative": False, "highestWins": True},
        {"id": 2, "name": "Pandemic", "bggId": 30549, "cooperative": True},
        {"id": 3, "name": "Get Salty", "bggId": 0},
        {"id": 4, "name": "Golf", "bggId": 0, "highestWins": False},
    ],
    "players": [{"id": 10, "name": "Ana"}, {"id": 11, "name": "Bo"}, {"id": 12, "name": "Cy"}],
    "locations": [{"id": 5, "name": "Thursday club"}],
    "plays": [
        {  # a clear win with scores, a start player and a place
            "uuid": "p-1",
            "gameRefId": 1,
            "playDate": "2026-10-01 20:15:00",
            "durationMin": 45,
            "locationRefId": 5,
            "playerScores": [
                {"playerRefId": 11, "score": "61", "winner": False, "startPlayer": False, "seatOrder": 1},
                {"playerRefId": 10, "score": "72", "winner": True, "startPlayer": True, "seatOrder": 0},
            ],
        },
        {  # a tie: two winners
            "uuid": "p-2",
            "gameRefId": 1,
            "playDate": "2026-10-08 20:00:00",
            "durationMin": 50,
            "playerScores": [
                {"playerRefId": 10, "score": 70, "winner": True, "seatOrder": 0},
                {"playerRefId": 11, "score": 70, "winner": True, "seatOrder": 1},
                {"playerRefId": 12, "score": 55, "winner": False, "seatOrder": 2},
            ],
        },
        {  # a cooperative loss, no scores
            "uuid": "p-3",
            "gameRefId": 2,
            "playDate": "2026-10-09 19:00:00",
            "playerScores": [
                {"playerRefId": 10, "score": None, "winner": False},
                {"playerRefId": 12, "score": "", "winner": False},
            ],
        },
        {  # a Chronicle game: becomes a Get Salty match ended by the recorded result
            "uuid": "p-4",
            "gameRefId": 3,
            "playDate": "2026-10-10 18:30:00",
            "durationMin": 20,
            "playerScores": [
                {"playerRefId": 12, "winner": True, "startPlayer": True},
                {"playerRefId": 11, "winner": False},
            ],
        },
        {  # lowest score wins
            "uuid": "p-5",
            "gameRefId": 4,
            "playDate": "2026-10-11 18:30:00",
            "playerScores": [
                {"playerRefId": 10, "score": 31, "winner": False},
                {"playerRefId": 11, "score": 28, "winner": True},
            ],
        },
    ],
}


def import_(api, doc):
    return api.post("/api/import/bgstats/", doc, format="json")


def report(r):
    """The three counts every import answers with."""
    body = r.json()
    return {"imported": body["imported"], "skipped": body["skipped"], "errors": body["errors"]}


def by_uuid(uid):
    return Match.objects.get(source_uuid=uid)


def test_import_turns_every_play_into_a_finished_match(api, owner):
    r = import_(api, BGSTATS)
    assert r.status_code == 201 and report(r) == {"imported": 5, "skipped": 0, "errors": []}
    win = by_uuid("p-1")
    assert win.game == "scoresheet" and win.status == "finished" and win.title == "Azul"
    assert [s.player.name for s in win.seats.order_by("index")] == ["Ana", "Bo"]  # by seat order
    assert win.first_seat == 0 and win.duration_min == 45 and win.location == "Thursday club"
    assert win.played_at.strftime("%Y-%m-%d %H:%M") == "2026-10-01 20:15"
    assert win.stream.options["bgg_id"] == 230802
    state = api.get(f"/api/matches/{win.pk}/state/").json()
    assert state["outcome"]["winners"] == [0] and state["outcome"]["scores"] == {"0": 72, "1": 61}
    tie = api.get(f"/api/matches/{by_uuid('p-2').pk}/state/").json()["outcome"]
    assert tie["winners"] == [0, 1] and not tie["draw"]
    coop = by_uuid("p-3")
    assert coop.stream.options["cooperative"] is True
    out = api.get(f"/api/matches/{coop.pk}/state/").json()["outcome"]
    assert out["winners"] == [] and out["scores"] is None
    salty = by_uuid("p-4")
    assert salty.game == "get-salty" and salty.first_seat == 0
    assert api.get(f"/api/matches/{salty.pk}/state/").json()["outcome"]["winners"] == [0]
    assert by_uuid("p-5").stream.options["highest_wins"] is False


def test_importing_the_same_file_again_adds_nothing(api):
    import_(api, BGSTATS)
    events = EventRow.objects.count()
    r = import_(api, BGSTATS)
    assert report(r) == {"imported": 0, "skipped": 5, "errors": []}
    assert EventRow.objects.count() == events and Match.objects.count() == 5


def test_other_users_import_their_own_copy(api, client_for, stranger):
    import_(api, BGSTATS)
    assert import_(client_for(stranger), BGSTATS).json()["imported"] == 5


@pytest.mark.parametrize(
    ("mutate", "reason", "imported"),
    [
        (lambda d: d["plays"][2].update(playDate="10/09/2026"), "is not a date", 4),
        (lambda d: d["plays"][1].update(gameRefId=99), "gameRefId 99 names no game", 4),
        (lambda d: d["plays"][0]["playerScores"][1].update(playerRefId=77), "playerRefId 77 names no player", 4),
        (lambda d: d["players"][0].update(name="A\u0000na"), "cannot be stored", 1),
        (lambda d: d["plays"][4].pop("uuid"), "no uuid", 4),
        (lambda d: d["plays"][3].update(playerScores=[]), "no players", 4),
    ],
)
def test_an_odd_play_is_skipped_with_its_reason_and_the_rest_imported(api, mutate, reason, imported):
    doc = copy.deepcopy(BGSTATS)
    mutate(doc)
    r = import_(api, doc)
    assert r.status_code == 201 and r.json()["imported"] == imported
    assert len(r.json()["errors"]) == 5 - imported and all(reason in e for e in r.json()["errors"])


@pytest.mark.parametrize(
    ("mutate", "warning"),
    [
        (lambda d: d["plays"][0]["playerScores"][0].update(score="lots"), "Bo's score 'lots' cannot be read"),
        (lambda d: d["plays"][3].update(durationMin=-5), "durationMin -5 cannot be read"),
    ],
)
def test_a_score_or_a_field_that_cannot_be_read_keeps_the_play_with_a_warning(api, mutate, warning):
    doc = copy.deepcopy(BGSTATS)
    mutate(doc)
    r = import_(api, doc)
    assert r.status_code == 201 and r.json()["imported"] == 5 and r.json()["errors"] == []
    assert any(warning in w for w in r.json()["warnings"]), r.json()["warnings"]


@pytest.mark.parametrize("doc", [[1, 2], "plays", {"plays": "all of them"}, {"about": "nothing"}])
def test_a_file_that_is_no_bg_stats_export_is_400_and_writes_nothing(api, doc):
    r = import_(api, doc)
    assert r.status_code == 400 and r.json()["code"] == "invalid" and "Nothing was imported" in r.json()["detail"]
    assert Match.objects.count() == 0 and EventRow.objects.count() == 0


def test_a_play_chronicle_cannot_take_is_reported_and_the_rest_imported(api):
    doc = copy.deepcopy(BGSTATS)
    doc["plays"][0]["playerScores"].append({"playerRefId": 10, "score": 1})  # Ana twice in one play
    r = import_(api, doc)
    assert r.status_code == 201 and r.json()["imported"] == 4
    assert r.json()["errors"][0].startswith("play 1: ") and "twice" in r.json()["errors"][0]
    assert not Match.objects.filter(source_uuid="p-1").exists()


def test_upload_form_field_takes_a_file(api):
    upload = io.BytesIO(json.dumps(BGSTATS).encode())
    upload.name = "bgstats.json"
    r = api.post("/api/import/bgstats/", {"file": upload}, format="multipart")
    assert r.status_code == 201 and r.json()["imported"] == 5


def test_import_needs_a_signed_in_user(client_for):
    assert import_(client_for(None), BGSTATS).status_code in (401, 403)
    assert Match.objects.count() == 0


def test_export_then_import_elsewhere_round_trips(api, owner, client_for, make_user):
    import_(api, BGSTATS)
    native = match_create(
        owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 1}
    )
    match_event_record(match=native, user=owner, type="stones_taken", seat=0, data={"count": 1})
    match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}])  # in progress: not a play
    doc = api.get("/api/export/bgstats/").json()
    assert len(doc["plays"]) == 6 and {"games", "players", "locations", "plays"} <= set(doc)
    play = next(p for p in doc["plays"] if p["uuid"] == "p-1")
    assert play["playDate"] == "2026-10-01 20:15:00" and play["durationMin"] == 45
    rows = sorted(play["playerScores"], key=lambda r: r["seatOrder"])
    names = {p["id"]: p["name"] for p in doc["players"]}
    assert [(names[r["playerRefId"]], r["score"], r["winner"], r["startPlayer"]) for r in rows] == [
        ("Ana", "72", True, True),
        ("Bo", "61", False, False),
    ]
    assert {loc["name"] for loc in doc["locations"]} == {"Thursday club"}
    assert report(import_(api, doc)) == {"imported": 0, "skipped": 6, "errors": []}  # nothing new for me
    other = client_for(make_user("friend"))
    assert report(import_(other, doc)) == {"imported": 6, "skipped": 0, "errors": []}
    again = other.get("/api/export/bgstats/").json()
    key = lambda d: sorted((p["uuid"], p["playDate"], p["durationMin"]) for p in d["plays"])  # noqa: E731
    assert key(again) == key(doc)


def test_bgg_xml_escapes_what_names_hold(api):
    doc = copy.deepcopy(BGSTATS)
    doc["games"][0]["name"] = 'Azul <"&> deluxe'
    doc["players"][0]["name"] = "Ana & <Bo>"
    doc["plays"] = doc["plays"][:1]
    import_(api, doc)
    root = ET.fromstring(b"".join(api.get("/api/export/bgg/").streaming_content))
    play = root.find("play")
    assert play.find("item").get("name") == 'Azul <"&> deluxe'
    assert [p.get("name") for p in play.findall("players/player")] == ["Ana & <Bo>", "Bo"]
