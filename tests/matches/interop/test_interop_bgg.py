"""BoardGameGeek play logs in (XML API2 ``plays`` pages, safely parsed) and Chronicle's plays out in that shape."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

from matches.models import Event as EventRow
from matches.models import Match, PlayedMatch, Player, PlayerResult
from tests.matches.interop.builders import BILLION_LAUGHS, XXE, bgg_counts, bgg_page, bgg_play, project, quirky_bgg

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

URL = "/api/import/bgg/"


def post(api, data: bytes):
    return api.post(URL, data, content_type="application/xml")


@pytest.fixture
def imported(api):
    r = post(api, quirky_bgg())
    assert r.status_code == 201, r.content
    project()
    return r.json()


def test_several_pages_quantity_and_the_report(imported):
    assert imported["imported"] == 8 and imported["skipped"] == 0 and imported["errors"] == []
    assert set(imported) >= {"imported", "skipped", "errors"}
    assert any("9x" in w for w in imported["warnings"])  # a score that is not a number is kept as text
    assert Match.objects.filter(source_uuid__startswith="bgg:1002:").count() == 3


def test_stats_follow_bgg_rules(api, owner, imported):
    played, won, per_game = bgg_counts(quirky_bgg())  # BGG's own rules, read from the file
    rows = {r["player"]: (r["played"], r["won"]) for r in api.get("/api/stats/players/").json()}
    # incomplete (1003) and nowinstats (1004) plays count as played, never as won; no <players>: the owner's
    assert rows == {"Ana": (8, 5), "Bo": (6, 0), "Cy": (1, 0)}
    assert rows == {name: (played[name], won[name]) for name in played}
    counted = {}
    for title, game in PlayedMatch.objects.values_list("title", "game"):
        key = title or game
        counted[key] = counted.get(key, 0) + 1
    per_game["get-salty"] = per_game.pop("Get Salty")  # a Chronicle game's plays count under its ruleset
    assert counted == {"Azul": 5, "get-salty": 1, "Wingspan": 2} == dict(per_game)


def test_every_player_field_is_kept(imported):
    first = Match.objects.get(source_uuid="bgg:1001:0")
    seats = first.details["seats"]
    assert seats[0] == {**seats[0], "username": "ana_bgg", "position": "1", "color": "blue", "score_text": "72"}
    assert seats[1]["new"] is True and first.first_seat == 0
    assert first.location == "the Kitchen" and first.duration_min == 45 and first.details["comments"] == "first game"
    assert first.stream.options["bgg_id"] == 230802 and first.game == "scoresheet" and first.source == "bgg"
    assert first.played_at.date().isoformat() == "2021-03-12"
    salty = Match.objects.get(source_uuid="bgg:1004:0")
    assert salty.game == "get-salty" and salty.details["nowinstats"] is True
    assert not PlayerResult.objects.filter(match=salty, won=True).exists()
    solo = Match.objects.get(source_uuid="bgg:1005:0")
    assert [s.player.name for s in solo.seats.all()] == ["Ana"]  # the log's owner, by the name they play as


def test_reimport_adds_nothing(api, imported):
    events = EventRow.objects.count()
    r = post(api, quirky_bgg())
    assert r.status_code == 201 and r.json()["imported"] == 0 and r.json()["skipped"] == 8
    assert EventRow.objects.count() == events


def test_multipart_file_upload(api):
    upload = io.BytesIO(quirky_bgg())
    upload.name = "plays.xml"
    r = api.post(URL, {"file": upload}, format="multipart")
    assert r.status_code == 201 and r.json()["imported"] == 8


@pytest.mark.parametrize("body", [BILLION_LAUGHS, XXE])
def test_entity_tricks_are_refused_and_write_nothing(api, body):
    r = post(api, body)
    assert r.status_code == 400 and "DTD" in r.json()["detail"]
    assert Match.objects.count() == 0 and Player.objects.count() == 0


def test_defusedxml_refuses_what_slips_past_the_dtd_check():
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import iterparse

    with pytest.raises(DefusedXmlException):
        list(iterparse(io.BytesIO(BILLION_LAUGHS), forbid_dtd=True))


@pytest.mark.parametrize(
    "body", [b"<html><body>hi</body></html>", b"<plays", b"just text", b'{"games": []}', b"<items><item/></items>"]
)
def test_not_a_bgg_log_is_400(api, body):
    r = post(api, body)
    assert r.status_code == 400 and Match.objects.count() == 0


def test_an_odd_play_is_skipped_with_its_reason(api):
    plays = [
        bgg_play(1, "Azul", 1, [{"name": "Ana", "win": 1}]),
        bgg_play(2, "Azul", 1, [{"name": "Ana"}], date="sometime"),
        '<play id="3" date="2021-01-01"></play>',
    ]
    r = post(api, bgg_page("ana", plays).encode())
    assert r.status_code == 201 and r.json()["imported"] == 1 and len(r.json()["errors"]) == 2
    assert "sometime" in r.json()["errors"][0] and "<item>" in r.json()["errors"][1]


def test_export_is_bgg_xml_and_reimports_elsewhere(api, imported, client_for, make_user):
    r = api.get("/api/export/bgg/")
    assert r.status_code == 200 and r["Content-Type"].startswith("application/xml")
    body = b"".join(r.streaming_content)
    root = ET.fromstring(body)
    assert root.tag == "plays" and root.get("username") == "owner" and len(root.findall("play")) == 8
    play = root.find("play[@id='1001']")
    assert play.get("date") == "2021-03-12" and play.get("length") == "45" and play.get("location") == "the Kitchen"
    assert play.find("item").get("objectid") == "230802" and play.find("comments").text == "first game"
    ana = play.find("players/player[@name='Ana']")
    assert (ana.get("username"), ana.get("score"), ana.get("win"), ana.get("startposition")) == (
        "ana_bgg",
        "72",
        "1",
        "1",
    )
    assert post(api, body).json()["imported"] == 0  # nothing new for me
    other = client_for(make_user("friend"))
    assert post(other, body).json()["imported"] == 8
    project()
    rows = {r["player"]: (r["played"], r["won"]) for r in other.get("/api/stats/players/").json()}
    assert rows == {"Ana": (8, 5), "Bo": (6, 0), "Cy": (1, 0)}
